// RUN: bsgp-opt %s --bsgp-structurize-for-spirv -split-input-file -verify-diagnostics

// MLIRGen gives every device function structured control flow; a function
// of the SPIR-V device module with branches (IR written by hand) is an
// error, whether the blocks are in a region or in the body itself.

module {
  module @bsgp_spirv attributes {bsgp.target = "spirv"} {
    // expected-error @+1 {{control flow that SPIR-V cannot express: a block with branches in a device function}}
    func.func @early(%p: !bsgp.ptr<i32>, %c: i1, %r: i32) attributes {bsgp.device} {
      scf.execute_region {
        cf.cond_br %c, ^done, ^work
      ^work:
        bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
        cf.br ^done
      ^done:
        scf.yield
      }
      return
    }
  }
}

// -----

module {
  module @bsgp_spirv attributes {bsgp.target = "spirv"} {
    // expected-error @+1 {{control flow that SPIR-V cannot express: a block with branches in a device function}}
    func.func @body(%p: !bsgp.ptr<i32>, %c: i1, %r: i32) attributes {bsgp.device} {
      cf.cond_br %c, ^done, ^work
    ^work:
      bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
      cf.br ^done
    ^done:
      return
    }
  }
}

// -----

// A function outside the SPIR-V device module is not this pass's.
module {
  func.func @host(%c: i1) {
    cf.cond_br %c, ^a, ^b
  ^a:
    return
  ^b:
    return
  }
}
