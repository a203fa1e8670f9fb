// RUN: bsgp-opt %s --bsgp-structurize-for-spirv | FileCheck %s

// Structured functions of the SPIR-V device module keep their control
// flow (structurize-for-spirv-errors.mlir: branches are an error). Signed
// 64-bit relational compares become unsigned compares of the operands with
// their sign bits flipped, which lavapipe evaluates right, and narrow signed
// integers convert to floats through 64 bits.

module {
  module @bsgp_spirv attributes {bsgp.target = "spirv"} {
    // CHECK-LABEL: func.func @compare(
    // CHECK: %[[SIGN:.*]] = arith.constant -9223372036854775808 : i64
    // CHECK: %[[A:.*]] = arith.xori %arg0, %[[SIGN]] : i64
    // CHECK: %[[B:.*]] = arith.xori %arg1, %[[SIGN]] : i64
    // CHECK: %[[LT:.*]] = arith.cmpi ult, %[[A]], %[[B]] : i64
    // CHECK: %[[NARROW:.*]] = arith.cmpi slt, %arg2, %arg2 : i32
    // CHECK: arith.andi %[[LT]], %[[NARROW]] : i1
    func.func @compare(%a: i64, %b: i64, %x: i32) -> i1 attributes {bsgp.device} {
      %lt = arith.cmpi slt, %a, %b : i64
      %n = arith.cmpi slt, %x, %x : i32
      %both = arith.andi %lt, %n : i1
      return %both : i1
    }

    // Sign-bit tests of a sign-extended value become signed compares of the
    // narrow value; a test that also keeps a bit below the sign copies, and
    // a shift that drops them all, stay.
    // CHECK-LABEL: func.func @sign_bits(
    // CHECK: %[[T0:.*]] = arith.cmpi slt, %arg0, %{{.*}} : i32
    // CHECK: %[[T1:.*]] = arith.cmpi sge, %arg0, %{{.*}} : i32
    // CHECK: %[[T2:.*]] = arith.cmpi slt, %arg0, %{{.*}} : i32
    // CHECK: %[[T3:.*]] = arith.cmpi ne, %{{.*}}, %c0_i64 : i64
    // CHECK: %[[T4:.*]] = arith.cmpi ne, %{{.*}}, %c0_i64 : i64
    // CHECK: return %[[T0]], %[[T1]], %[[T2]], %[[T3]], %[[T4]]
    func.func @sign_bits(%x: i32) -> (i1, i1, i1, i1, i1) attributes {bsgp.device} {
      %s = arith.extsi %x : i32 to i64
      %zero = arith.constant 0 : i64
      %top = arith.constant -9223372036854775808 : i64
      %high = arith.constant 1099511627776 : i64
      %low = arith.constant 1073741824 : i64
      %c63 = arith.constant 63 : i64
      %c30 = arith.constant 30 : i64
      %a = arith.andi %s, %top : i64
      %t0 = arith.cmpi ne, %a, %zero : i64
      %b = arith.andi %high, %s : i64
      %t1 = arith.cmpi eq, %b, %zero : i64
      %c = arith.shrui %s, %c63 : i64
      %t2 = arith.cmpi ne, %c, %zero : i64
      %d = arith.andi %s, %low : i64
      %t3 = arith.cmpi ne, %d, %zero : i64
      %e = arith.shrui %s, %c30 : i64
      %t4 = arith.cmpi ne, %e, %zero : i64
      return %t0, %t1, %t2, %t3, %t4 : i1, i1, i1, i1, i1
    }

    // A signed conversion of a narrow integer to a float converts its
    // magnitude unsigned and negates it back (spirv-opt folds the 32-bit
    // signed one as unsigned; lavapipe miscompares the 64-bit one with
    // zero); a 64-bit one stays.
    // CHECK-LABEL: func.func @to_float(
    // CHECK: %[[Z:.*]] = arith.constant 0 : i32
    // CHECK: %[[N:.*]] = arith.cmpi slt, %arg0, %[[Z]] : i32
    // CHECK: %[[M:.*]] = arith.subi %[[Z]], %arg0 : i32
    // CHECK: %[[A:.*]] = arith.select %[[N]], %[[M]], %arg0 : i32
    // CHECK: %[[U:.*]] = arith.uitofp %[[A]] : i32 to f32
    // CHECK: %[[NEG:.*]] = arith.negf %[[U]] : f32
    // CHECK: %[[F:.*]] = arith.select %[[N]], %[[NEG]], %[[U]] : f32
    // CHECK: %[[VN:.*]] = arith.cmpi slt, %arg1, %{{.*}} : vector<2xi32>
    // CHECK: %[[VU:.*]] = arith.uitofp %{{.*}} : vector<2xi32> to vector<2xf32>
    // CHECK: %[[VNEG:.*]] = arith.negf %[[VU]] : vector<2xf32>
    // CHECK: %[[VF:.*]] = arith.select %[[VN]], %[[VNEG]], %[[VU]]
    // CHECK: %[[D:.*]] = arith.sitofp %arg2 : i64 to f64
    // CHECK: return %[[F]], %[[VF]], %[[D]]
    func.func @to_float(%x: i32, %v: vector<2xi32>, %y: i64) -> (f32, vector<2xf32>, f64) attributes {bsgp.device} {
      %f = arith.sitofp %x : i32 to f32
      %vf = arith.sitofp %v : vector<2xi32> to vector<2xf32>
      %d = arith.sitofp %y : i64 to f64
      return %f, %vf, %d : f32, vector<2xf32>, f64
    }

    // Signed min and max of narrow integers become a compare and a select
    // (spirv-opt folds SMin and SMax of 32-bit constants as unsigned).
    // CHECK-LABEL: func.func @min_max(
    // CHECK: %[[LT:.*]] = arith.cmpi slt, %arg0, %arg1 : i32
    // CHECK: %[[MIN:.*]] = arith.select %[[LT]], %arg0, %arg1 : i32
    // CHECK: %[[GT:.*]] = arith.cmpi sgt, %arg0, %arg1 : i32
    // CHECK: %[[MAX:.*]] = arith.select %[[GT]], %arg0, %arg1 : i32
    // CHECK: return %[[MIN]], %[[MAX]]
    func.func @min_max(%x: i32, %y: i32) -> (i32, i32) attributes {bsgp.device} {
      %a = arith.minsi %x, %y : i32
      %b = arith.maxsi %x, %y : i32
      return %a, %b : i32, i32
    }
    // Products of a sign-extended narrow value by a constant in [2^31, 2^32),
    // and its shift by 31, become the zero-extended product less the
    // constant shifted by the narrow width where the value is negative
    // (NVIDIA's Vulkan driver reads such a constant as a signed 32-bit one).
    // A factor below 2^31, a shift by 32 and a zero-extended value stay.
    // CHECK-LABEL: func.func @wide_products(
    // CHECK: arith.constant 2147483647 : i64
    // CHECK: %[[Z:.*]] = arith.extui %arg0 : i32 to i64
    // CHECK: %[[P:.*]] = arith.muli %[[Z]], %c2147483648_i64 : i64
    // CHECK: %[[N:.*]] = arith.cmpi slt, %arg0, %c0_i32 : i32
    // CHECK: %[[C:.*]] = arith.select %[[N]], %c-9223372036854775808_i64, %c0_i64 : i64
    // CHECK: %[[S:.*]] = arith.subi %[[P]], %[[C]] : i64
    // CHECK: %[[Z8:.*]] = arith.extui %arg1 : i8 to i64
    // CHECK: %[[P8:.*]] = arith.muli %[[Z8]], %c3000000000_i64{{.*}} : i64
    // CHECK: %[[N8:.*]] = arith.cmpi slt, %arg1, %c0_i8 : i8
    // CHECK: %[[C8:.*]] = arith.select %[[N8]], %c768000000000_i64, %c0_i64{{.*}} : i64
    // CHECK: %[[M:.*]] = arith.subi %[[P8]], %[[C8]] : i64
    // CHECK: %[[SMALL:.*]] = arith.muli %{{.*}}, %c2147483647_i64 : i64
    // CHECK: %[[BY32:.*]] = arith.shli %{{.*}}, %c32_i64 : i64
    // CHECK: %[[UNS:.*]] = arith.shli %{{.*}}, %c31_i64 : i64
    // CHECK: return %[[S]], %[[M]], %[[SMALL]], %[[BY32]], %[[UNS]]
    func.func @wide_products(%x: i32, %y: i8) -> (i64, i64, i64, i64, i64) attributes {bsgp.device} {
      %s = arith.extsi %x : i32 to i64
      %s8 = arith.extsi %y : i8 to i64
      %u = arith.extui %x : i32 to i64
      %c31 = arith.constant 31 : i64
      %c32 = arith.constant 32 : i64
      %k = arith.constant 3000000000 : i64
      %small = arith.constant 2147483647 : i64
      %a = arith.shli %s, %c31 : i64
      %b = arith.muli %k, %s8 : i64
      %c = arith.muli %s, %small : i64
      %d = arith.shli %s, %c32 : i64
      %e = arith.shli %u, %c31 : i64
      return %a, %b, %c, %d, %e : i64, i64, i64, i64, i64
    }
  }
}
