//===- PrivateArrays.cpp - thread-private arrays of a spawn ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "PrivateArrays.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

std::optional<bsgp::PrivateArray> bsgp::asPrivateArray(Operation &op) {
  auto cast = dyn_cast<UnrealizedConversionCastOp>(op);
  if (!cast || cast->getNumOperands() != 1 || cast->getNumResults() != 1 ||
      !isa<PtrType>(cast->getResult(0).getType()))
    return std::nullopt;
  auto slot = cast->getOperand(0).getDefiningOp<LLVM::AllocaOp>();
  APInt count;
  if (!slot || !matchPattern(slot.getArraySize(), m_ConstantInt(&count)))
    return std::nullopt;
  PrivateArray array{slot, cast->getResult(0), count.getZExtValue(), Type(), 0};
  Type element = llvm::cast<PtrType>(array.ptr.getType()).getElementType();
  MLIRContext *ctx = op.getContext();
  if (getStreamWordCount(element) != 0) {
    array.word = element;
    array.words = array.count;
  } else if (auto bytes = dyn_cast<LLVM::LLVMArrayType>(element);
             bytes && bytes.getElementType().isInteger(8)) {
    uint64_t size = array.count * bytes.getNumElements();
    unsigned width = size % 4 == 0 ? 32 : size % 2 == 0 ? 16 : 8;
    array.word = IntegerType::get(ctx, width);
    array.words = size / (width / 8);
  }
  return array;
}

Value bsgp::PrivateArray::wordPointer(OpBuilder &b, Location loc,
                                      Value p) const {
  auto type = PtrType::get(b.getContext(), word);
  if (p.getType() == type)
    return p;
  return PtrCastOp::create(b, loc, type, p);
}

LogicalResult bsgp::checkCarriedArraySize(const PrivateArray &array,
                                          StringRef flow) {
  Type element = cast<PtrType>(array.ptr.getType()).getElementType();
  uint64_t words = array.count * getStreamWordCount(element);
  if (words <= kMaxCarriedArrayWords)
    return success();
  return emitError(array.slot->getLoc())
         << "a thread-private array of " << array.count
         << " elements lives through a " << flow
         << " that holds a barrier: its " << words
         << " words would each be carried in a list of their own (at most "
         << kMaxCarriedArrayWords
         << "); keep it within one superstep or store it to a list";
}

bsgp::PrivateArray bsgp::clonePrivateArray(OpBuilder &b,
                                           const PrivateArray &array) {
  LLVM::AllocaOp original = array.slot;
  IRMapping map;
  Operation *size = b.clone(*original.getArraySize().getDefiningOp());
  map.map(original.getArraySize(), size->getResult(0));
  auto slot = cast<LLVM::AllocaOp>(b.clone(*original, map));
  map.map(original.getResult(), slot.getResult());
  Value ptr = b.clone(*array.ptr.getDefiningOp(), map)->getResult(0);
  return PrivateArray{slot, ptr, array.count, array.word, array.words};
}
