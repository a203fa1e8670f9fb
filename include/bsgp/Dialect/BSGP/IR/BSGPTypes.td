//===- BSGPTypes.td - bsgp pointer and stream types --------*- tablegen -*-===//
//
// Types of the bsgp dialect. Scalars and vectors are builtin types (i1, i8,
// i32, i64, f32, f64, vector<4xf32>); signedness lives in the arith ops.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPTYPES_TD
#define BSGP_DIALECT_BSGP_IR_BSGPTYPES_TD

include "bsgp/Dialect/BSGP/IR/BSGPDialect.td"
include "mlir/IR/AttrTypeBase.td"

class BSGP_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<BSGP_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def BSGP_PtrType : BSGP_Type<"Ptr", "ptr"> {
  let summary = "pointer to device or host memory, keeping its element type";
  let description = [{
    A C pointer `T*` of a BSGP program (§5: everything not local to a thread
    lives in global video memory). One type serves device and host pointers,
    because the same list (`dnew`, a kernel parameter) is used on both sides.

    The element type is kept, unlike `!llvm.ptr`, because the SPIR-V target
    lowers it to a `PhysicalStorageBuffer64` pointer, which needs a typed
    pointee; the NVVM target lowers it to `!llvm.ptr<1>` and the CPU target
    to `!llvm.ptr`, both dropping the element type. `void*` is
    `!bsgp.ptr<i8>`. A `struct` element is its bytes, `!llvm.array<N x i8>`
    (N its C size), whose fields are reached through `bsgp.ptr.cast` to
    `!bsgp.ptr<i8>` and byte offsets.

    Example: `!bsgp.ptr<f32>`, `!bsgp.ptr<vector<4xf32>>`,
    `!bsgp.ptr<!bsgp.ptr<i32>>`, `!bsgp.ptr<!llvm.array<8 x i8>>`.
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), elementType);
    }]>
  ];
  let genVerifyDecl = 1;
}

def BSGP_StreamType : BSGP_Type<"Stream", "stream"> {
  let summary = "temporary stream: thread.size 32-bit words (§4.1, §4.3)";
  let description = [{
    A temporary stream holds one 32-bit word per thread; it saves a value at
    the end of its defining superstep and restores it in later supersteps.
    Streams are word-sized structure-of-arrays columns so that the minimum
    flow of §4.3 can share one stream among values of different types: a
    value of `w` words (`vector<4xf32>`: 4, `f64`/`i64`/pointers: 2, other
    scalars: 1) is saved to `w` streams, one word each.
  }];
}

def BSGP_AnyPtr : Type<CPred<"::llvm::isa<::bsgp::PtrType>($_self)">,
                       "bsgp pointer", "::bsgp::PtrType">;

#endif // BSGP_DIALECT_BSGP_IR_BSGPTYPES_TD
