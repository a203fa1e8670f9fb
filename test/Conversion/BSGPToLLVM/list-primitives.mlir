// RUN: bsgp-opt %s --bsgp-convert-to-llvm --reconcile-unrealized-casts | FileCheck %s

// The list primitives call the runtime's generic entry points with the
// operator and the element type as bsgprt_list_op and bsgprt_list_type
// (runtime/include/bsgp/runtime.h): ADD 0, MUL 1, MIN 2, MAX 3, AND 4,
// OR 5, XOR 6; I32 0, U32 1, F32 2, I64 3, U64 4, F64 5. Min and max take
// the signedness from the kind; the others give integers their signed
// type. A result comes back through a slot allocated once, in the entry
// block, even for a call in a loop.

// CHECK-LABEL: llvm.func @reduce(
// CHECK-SAME:    %[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK-DAG:     %[[SLOT1:.*]] = llvm.alloca %{{.*}} x i32
// CHECK-DAG:     %[[SLOT2:.*]] = llvm.alloca %{{.*}} x f64
// CHECK:         llvm.br
// CHECK:         %[[MIN:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         %[[U32:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:         llvm.call @bsgprt_list_reduce(%[[MIN]], %[[U32]], %[[P]], %[[N]], %[[SLOT1]])
// CHECK:         llvm.load %[[SLOT1]] : !llvm.ptr -> i32
// CHECK:         %[[MAX:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:         %[[F64:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK:         llvm.call @bsgprt_list_reduce(%[[MAX]], %[[F64]], %[[Q]], %[[N]], %[[SLOT2]])
// CHECK:         llvm.load %[[SLOT2]] : !llvm.ptr -> f64
func.func @reduce(%p: !bsgp.ptr<i32>, %q: !bsgp.ptr<f64>, %n: i64) -> (i32, f64) {
  cf.br ^loop
^loop:
  %0 = bsgp.list_reduce "minu" %p, %n : !bsgp.ptr<i32>
  %1 = bsgp.list_reduce "maxf" %q, %n : !bsgp.ptr<f64>
  return %0, %1 : i32, f64
}

// CHECK-LABEL: llvm.func @scan(
// CHECK-SAME:    %[[IN:.*]]: !llvm.ptr, %[[OUT:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:         %[[SLOT:.*]] = llvm.alloca %{{.*}} x i64
// CHECK:         %[[XOR:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK:         %[[I64:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:         llvm.call @bsgprt_list_scan_exclusive(%[[XOR]], %[[I64]], %[[IN]], %[[OUT]], %[[N]], %[[SLOT]])
// CHECK:         llvm.load %[[SLOT]] : !llvm.ptr -> i64
func.func @scan(%in: !bsgp.ptr<i64>, %out: !bsgp.ptr<i64>, %n: i64) -> i64 {
  %0 = bsgp.list_scan_exclusive "xor" %in, %out, %n : !bsgp.ptr<i64>
  return %0 : i64
}

// CHECK-LABEL: llvm.func @sort(
// CHECK-SAME:    %[[K:.*]]: !llvm.ptr, %[[V:.*]]: !llvm.ptr, %[[F:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:         %[[U64:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK:         llvm.call @bsgprt_list_sort_pairs(%[[U64]], %[[K]], %[[V]], %[[N]])
// CHECK:         %[[F32:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         llvm.call @bsgprt_list_sort_pairs(%[[F32]], %[[F]], %[[V]], %[[N]])
// CHECK:         %[[I32:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         llvm.call @bsgprt_list_sort_pairs(%[[I32]], %[[V]], %[[V]], %[[N]])
func.func @sort(%k: !bsgp.ptr<i64>, %v: !bsgp.ptr<i32>, %f: !bsgp.ptr<f32>, %n: i64) {
  bsgp.list_sort_pairs unsigned %k, %v, %n : !bsgp.ptr<i64>, !bsgp.ptr<i32>
  bsgp.list_sort_pairs %f, %v, %n : !bsgp.ptr<f32>, !bsgp.ptr<i32>
  bsgp.list_sort_pairs %v, %v, %n : !bsgp.ptr<i32>, !bsgp.ptr<i32>
  return
}

// CHECK-DAG: llvm.func @bsgprt_list_reduce(i32, i32, !llvm.ptr, i64, !llvm.ptr)
// CHECK-DAG: llvm.func @bsgprt_list_scan_exclusive(i32, i32, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
// CHECK-DAG: llvm.func @bsgprt_list_sort_pairs(i32, !llvm.ptr, !llvm.ptr, i64)
