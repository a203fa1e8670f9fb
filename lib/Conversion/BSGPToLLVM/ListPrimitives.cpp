//===- ListPrimitives.cpp - the runtime's list primitives to LLVM ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// bsgp.list_reduce, bsgp.list_scan_exclusive and bsgp.list_sort_pairs become
// calls of the runtime's generic entry points, bsgprt_list_reduce and the
// like, which take the operator and the element type as numbers
// (runtime/include/bsgp/runtime.h): no function name is built per operator
// and type. A result comes back through a slot in the function's entry
// block.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/BSGPToLLVM/BSGPToLLVM.h"
#include "bsgp/Conversion/BSGPToLLVM/RuntimeAPI.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace {

/// bsgprt_list_op of runtime.h for a kind of the chunk and list ops.
int32_t getRuntimeOp(StringRef kind) {
  return llvm::StringSwitch<int32_t>(kind)
      .Case("add", 0)
      .Case("mul", 1)
      .Cases({"mins", "minu", "minf"}, 2)
      .Cases({"maxs", "maxu", "maxf"}, 3)
      .Case("and", 4)
      .Case("or", 5)
      .Case("xor", 6)
      .Default(-1);
}

/// bsgprt_list_type of runtime.h: I32 U32 F32 I64 U64 F64 are 0 to 5.
int32_t getRuntimeType(Type elem, bool isUnsigned) {
  int32_t wide = elem.getIntOrFloatBitWidth() == 64 ? 3 : 0;
  if (isa<FloatType>(elem))
    return wide + 2;
  return wide + (isUnsigned ? 1 : 0);
}

/// The signedness of a kind's integer elements: only min and max differ,
/// and the others are given the signed type (the runtime adds and
/// multiplies both as unsigned).
bool isUnsignedKind(StringRef kind) { return kind == "minu" || kind == "maxu"; }

template <typename Op> struct ListPattern : ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;

  Value i32(OpBuilder &b, Location loc, int32_t v) const {
    return LLVM::ConstantOp::create(b, loc, b.getI32Type(), v);
  }

  /// Replaces `op`, a reduce or scan of `kind` over elements of `elem`, by
  /// a call of `fn` with the operator and the element type first, `lists`
  /// after them and, last, a slot for the result, which is then loaded.
  /// The slot is allocated at the start of the function around `op`, so
  /// that a call in a loop does not grow the stack.
  void replaceByCall(ConversionPatternRewriter &rewriter, Op op,
                     bsgp::RuntimeFn fn, StringRef kind, Type elem,
                     ValueRange lists) const {
    Location loc = op.getLoc();
    Value slot;
    {
      auto func = op->template getParentOfType<FunctionOpInterface>();
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
      Value one =
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), 1);
      slot = LLVM::AllocaOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
          elem, one);
    }
    SmallVector<Value, 6> args{
        i32(rewriter, loc, getRuntimeOp(kind)),
        i32(rewriter, loc, getRuntimeType(elem, isUnsignedKind(kind)))};
    args.append(lists.begin(), lists.end());
    args.push_back(slot);
    LLVM::CallOp::create(rewriter, loc,
                         bsgp::getOrInsertRuntimeFn(
                             op->template getParentOfType<ModuleOp>(), fn),
                         args);
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, elem, slot);
  }
};

struct ListReduceLowering : ListPattern<bsgp::ListReduceOp> {
  using ListPattern::ListPattern;
  LogicalResult
  matchAndRewrite(bsgp::ListReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    replaceByCall(rewriter, op, bsgp::RuntimeFn::ListReduce, op.getKind(),
                  op.getResult().getType(),
                  {adaptor.getIn(), adaptor.getCount()});
    return success();
  }
};

struct ListScanExclusiveLowering : ListPattern<bsgp::ListScanExclusiveOp> {
  using ListPattern::ListPattern;
  LogicalResult
  matchAndRewrite(bsgp::ListScanExclusiveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    replaceByCall(rewriter, op, bsgp::RuntimeFn::ListScanExclusive,
                  op.getKind(), op.getTotal().getType(),
                  {adaptor.getIn(), adaptor.getOut(), adaptor.getCount()});
    return success();
  }
};

struct ListSortPairsLowering : ListPattern<bsgp::ListSortPairsOp> {
  using ListPattern::ListPattern;
  LogicalResult
  matchAndRewrite(bsgp::ListSortPairsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type key = cast<bsgp::PtrType>(op.getKeys().getType()).getElementType();
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(
        op,
        bsgp::getOrInsertRuntimeFn(op->getParentOfType<ModuleOp>(),
                                   bsgp::RuntimeFn::ListSortPairs),
        ValueRange{i32(rewriter, loc, getRuntimeType(key, op.getIsUnsigned())),
                   adaptor.getKeys(), adaptor.getValues(), adaptor.getCount()});
    return success();
  }
};

} // namespace

void bsgp::populateListPrimitivesToLLVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<ListReduceLowering, ListScanExclusiveLowering,
               ListSortPairsLowering>(converter);
}
