//===- SplitSavedWords.cpp - saved values as 32-bit stream words ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The word layout of a saved value is the same on every target: narrow
// values widened to a word, 64-bit values low word first, pointers as their
// 64-bit address, vectors element by element. Writing it here, in bsgp,
// arith and vector ops, leaves each target's lowering one word to store or
// load and lets the canonicalizers of every target see through the split.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSPLITSAVEDWORDSPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

struct SplitSavedWordsPass
    : public bsgp::impl::BSGPSplitSavedWordsPassBase<SplitSavedWordsPass> {
  void runOnOperation() override;
};

/// Appends the words of `v` to `words`, low word first. The bsgp.save
/// verifier has checked that its type has a word layout.
void splitWords(OpBuilder &b, Location loc, Value v,
                SmallVectorImpl<Value> &words) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Type t = v.getType();
  if (auto vt = dyn_cast<VectorType>(t)) {
    for (int64_t i = 0, e = vt.getNumElements(); i < e; ++i)
      splitWords(b, loc, vector::ExtractOp::create(b, loc, v, i), words);
    return;
  }
  if (isa<PtrType>(t))
    v = PtrToIntOp::create(b, loc, i64, v);
  else if (auto ft = dyn_cast<FloatType>(t))
    v = arith::BitcastOp::create(b, loc, b.getIntegerType(ft.getWidth()), v);
  unsigned width = v.getType().getIntOrFloatBitWidth();
  if (width < 32) {
    words.push_back(arith::ExtUIOp::create(b, loc, i32, v));
    return;
  }
  if (width == 32) {
    words.push_back(v);
    return;
  }
  Value hi = arith::ShRUIOp::create(
      b, loc, v, arith::ConstantIntOp::create(b, loc, i64, 32));
  words.push_back(arith::TruncIOp::create(b, loc, i32, v));
  words.push_back(arith::TruncIOp::create(b, loc, i32, hi));
}

/// The inverse of splitWords: a value of type `t` from the front of
/// `words`, which it consumes.
Value joinWords(OpBuilder &b, Location loc, Type t, ArrayRef<Value> &words) {
  Type i64 = b.getI64Type();
  if (auto vt = dyn_cast<VectorType>(t)) {
    SmallVector<Value> elements;
    for (int64_t i = 0, e = vt.getNumElements(); i < e; ++i)
      elements.push_back(joinWords(b, loc, vt.getElementType(), words));
    return vector::FromElementsOp::create(b, loc, vt, elements);
  }
  unsigned width = isa<PtrType>(t) ? 64 : t.getIntOrFloatBitWidth();
  Value bits;
  if (width <= 32) {
    bits = words.front();
    words = words.drop_front();
    if (width < 32)
      bits = arith::TruncIOp::create(b, loc, b.getIntegerType(width), bits);
  } else {
    Value lo = arith::ExtUIOp::create(b, loc, i64, words[0]);
    Value hi = arith::ExtUIOp::create(b, loc, i64, words[1]);
    words = words.drop_front(2);
    hi = arith::ShLIOp::create(b, loc, hi,
                               arith::ConstantIntOp::create(b, loc, i64, 32));
    bits = arith::OrIOp::create(b, loc, lo, hi);
  }
  if (isa<PtrType>(t))
    return PtrFromIntOp::create(b, loc, t, bits);
  if (isa<FloatType>(t))
    return arith::BitcastOp::create(b, loc, t, bits);
  return bits;
}

void splitSave(SaveOp save) {
  OpBuilder b(save);
  Location loc = save.getLoc();
  SmallVector<Value> words;
  splitWords(b, loc, save.getValue(), words);
  for (auto [word, stream] : llvm::zip_equal(words, save.getStreams()))
    SaveOp::create(b, loc, word, ValueRange{stream}, save.getIndex());
  save.erase();
}

void splitLoad(LoadOp load) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  SmallVector<Value> words;
  for (Value stream : load.getStreams())
    words.push_back(LoadOp::create(b, loc, b.getI32Type(), ValueRange{stream},
                                   load.getIndex()));
  ArrayRef<Value> rest = words;
  Value joined = joinWords(b, loc, load.getType(), rest);
  assert(rest.empty() && "the verifier checked the word count");
  load.replaceAllUsesWith(joined);
  load.erase();
}

} // namespace

void SplitSavedWordsPass::runOnOperation() {
  SmallVector<SaveOp> saves;
  SmallVector<LoadOp> loads;
  getOperation()->walk([&](Operation *op) {
    if (auto save = dyn_cast<SaveOp>(op); save && !save.isWord())
      saves.push_back(save);
    else if (auto load = dyn_cast<LoadOp>(op); load && !load.isWord())
      loads.push_back(load);
  });
  for (SaveOp save : saves)
    splitSave(save);
  for (LoadOp load : loads)
    splitLoad(load);
}
