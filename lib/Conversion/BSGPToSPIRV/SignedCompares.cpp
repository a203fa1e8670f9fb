//===- SignedCompares.cpp - 64-bit signed compares as unsigned ones -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "SignedCompares.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

using namespace mlir;

namespace {
/// The unsigned predicate that orders sign-flipped operands as `p` orders
/// the originals, or none for predicates that are not signed relations.
std::optional<arith::CmpIPredicate> unsignedFor(arith::CmpIPredicate p) {
  switch (p) {
  case arith::CmpIPredicate::slt:
    return arith::CmpIPredicate::ult;
  case arith::CmpIPredicate::sle:
    return arith::CmpIPredicate::ule;
  case arith::CmpIPredicate::sgt:
    return arith::CmpIPredicate::ugt;
  case arith::CmpIPredicate::sge:
    return arith::CmpIPredicate::uge;
  default:
    return std::nullopt;
  }
}
} // namespace

void bsgp::rewriteSigned64Compares(Operation *root) {
  SmallVector<arith::CmpIOp> cmps;
  root->walk([&](arith::CmpIOp cmp) {
    Type t = getElementTypeOrSelf(cmp.getLhs().getType());
    if (t.isInteger(64) && unsignedFor(cmp.getPredicate()))
      cmps.push_back(cmp);
  });
  for (arith::CmpIOp cmp : cmps) {
    OpBuilder b(cmp);
    Location loc = cmp.getLoc();
    Type type = cmp.getLhs().getType();
    llvm::APInt sign = llvm::APInt::getSignMask(64);
    TypedAttr attr = b.getIntegerAttr(b.getI64Type(), sign);
    if (auto shaped = dyn_cast<ShapedType>(type))
      attr = DenseElementsAttr::get(shaped, sign);
    Value flip = arith::ConstantOp::create(b, loc, type, attr);
    Value lhs = arith::XOrIOp::create(b, loc, cmp.getLhs(), flip);
    Value rhs = arith::XOrIOp::create(b, loc, cmp.getRhs(), flip);
    Value r = arith::CmpIOp::create(b, loc, *unsignedFor(cmp.getPredicate()),
                                    lhs, rhs);
    cmp.replaceAllUsesWith(r);
    cmp.erase();
  }
}

void bsgp::rewriteSignedRemainders(Operation *root) {
  SmallVector<arith::RemSIOp> rems;
  root->walk([&](arith::RemSIOp rem) { rems.push_back(rem); });
  for (arith::RemSIOp rem : rems) {
    OpBuilder b(rem);
    Location loc = rem.getLoc();
    Type type = rem.getType();
    Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
    // |x| as an unsigned value: 0 - INT_MIN is INT_MIN, which is 2^(n-1)
    // read unsigned, as it must be.
    auto magnitude = [&](Value x) -> std::pair<Value, Value> {
      Value neg =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
      Value minus = arith::SubIOp::create(b, loc, zero, x);
      return {arith::SelectOp::create(b, loc, neg, minus, x), neg};
    };
    auto [lhs, lhsNeg] = magnitude(rem.getLhs());
    Value rhs = magnitude(rem.getRhs()).first;
    Value r = arith::RemUIOp::create(b, loc, lhs, rhs);
    Value minusR = arith::SubIOp::create(b, loc, zero, r);
    Value result = arith::SelectOp::create(b, loc, lhsNeg, minusR, r);
    rem.replaceAllUsesWith(result);
    rem.erase();
  }
}

/// The narrow integer `a` when `v` is `sext(a) & C` or `sext(a) >>u k` and
/// keeps only copies of a's sign bit (so `v != 0` exactly when `a < 0`);
/// else null. Booleans are left alone: they have no signed compare.
static mlir::Value signBitSource(Value v) {
  APInt mask;
  auto sourceOf = [](Value x) -> Value {
    auto ext = x.getDefiningOp<arith::ExtSIOp>();
    if (ext &&
        getElementTypeOrSelf(ext.getIn().getType()).getIntOrFloatBitWidth() >=
            8)
      return ext.getIn();
    return {};
  };
  // Bits [w-1, W) of sext(a) from w to W bits all equal a's sign bit.
  if (auto andOp = v.getDefiningOp<arith::AndIOp>()) {
    for (int i = 0; i < 2; ++i) {
      Value a = sourceOf(andOp->getOperand(i));
      if (!a || !matchPattern(andOp->getOperand(1 - i), m_ConstantInt(&mask)))
        continue;
      unsigned w = getElementTypeOrSelf(a.getType()).getIntOrFloatBitWidth();
      if (!mask.isZero() && mask.countr_zero() >= w - 1)
        return a;
    }
    return {};
  }
  if (auto shr = v.getDefiningOp<arith::ShRUIOp>()) {
    Value a = sourceOf(shr.getLhs());
    if (!a || !matchPattern(shr.getRhs(), m_ConstantInt(&mask)))
      return {};
    unsigned w = getElementTypeOrSelf(a.getType()).getIntOrFloatBitWidth();
    unsigned wide = mask.getBitWidth();
    if (mask.uge(w - 1) && mask.ult(wide))
      return a;
  }
  return {};
}

void bsgp::rewriteSignBitTests(Operation *root) {
  SmallVector<arith::CmpIOp> cmps;
  root->walk([&](arith::CmpIOp cmp) {
    auto p = cmp.getPredicate();
    if ((p == arith::CmpIPredicate::ne || p == arith::CmpIPredicate::eq) &&
        matchPattern(cmp.getRhs(), m_Zero()) && signBitSource(cmp.getLhs()))
      cmps.push_back(cmp);
  });
  for (arith::CmpIOp cmp : cmps) {
    OpBuilder b(cmp);
    Value a = signBitSource(cmp.getLhs());
    Value zero = arith::ConstantOp::create(b, cmp.getLoc(), a.getType(),
                                           b.getZeroAttr(a.getType()));
    auto p = cmp.getPredicate() == arith::CmpIPredicate::ne
                 ? arith::CmpIPredicate::slt
                 : arith::CmpIPredicate::sge;
    Value r = arith::CmpIOp::create(b, cmp.getLoc(), p, a, zero);
    cmp.replaceAllUsesWith(r);
    cmp.erase();
  }
}

void bsgp::rewriteNarrowSignedToFloat(Operation *root) {
  SmallVector<arith::SIToFPOp> convs;
  root->walk([&](arith::SIToFPOp op) {
    if (getElementTypeOrSelf(op.getIn().getType()).getIntOrFloatBitWidth() < 64)
      convs.push_back(op);
  });
  for (arith::SIToFPOp op : convs) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value x = op.getIn();
    Type i32 = b.getI32Type();
    if (auto vt = dyn_cast<VectorType>(x.getType()))
      i32 = vt.clone(b.getI32Type());
    if (x.getType() != i32)
      x = arith::ExtSIOp::create(b, loc, i32, x);
    // |x| as an unsigned 32-bit value (INT_MIN's is 2^31), converted
    // unsigned and negated back: the rounding of C's conversion is
    // symmetric, so this is exact.
    Value zero = arith::ConstantOp::create(b, loc, i32, b.getZeroAttr(i32));
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
    Value magnitude = arith::SelectOp::create(
        b, loc, negative, arith::SubIOp::create(b, loc, zero, x), x);
    Value f = arith::UIToFPOp::create(b, loc, op.getType(), magnitude);
    Value r = arith::SelectOp::create(b, loc, negative,
                                      arith::NegFOp::create(b, loc, f), f);
    op.replaceAllUsesWith(r);
    op.erase();
  }
}

void bsgp::rewriteNarrowSignedMinMax(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<arith::MinSIOp, arith::MaxSIOp>(op) &&
        getElementTypeOrSelf(op->getResult(0).getType())
                .getIntOrFloatBitWidth() < 64)
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Value x = op->getOperand(0), y = op->getOperand(1);
    // min: x < y ? x : y; max: x > y ? x : y.
    auto p = isa<arith::MinSIOp>(op) ? arith::CmpIPredicate::slt
                                     : arith::CmpIPredicate::sgt;
    Value c = arith::CmpIOp::create(b, op->getLoc(), p, x, y);
    Value r = arith::SelectOp::create(b, op->getLoc(), c, x, y);
    op->getResult(0).replaceAllUsesWith(r);
    op->erase();
  }
}

/// The narrow integer `a` (at most 32 bits) when `v` is `sext(a)`, else null.
static Value narrowSignExtended(Value v) {
  auto ext = v.getDefiningOp<arith::ExtSIOp>();
  if (!ext ||
      getElementTypeOrSelf(ext.getIn().getType()).getIntOrFloatBitWidth() > 32)
    return {};
  return ext.getIn();
}

/// True when `c` is in [2^31, 2^32) read as an unsigned 64-bit value: a
/// factor that NVIDIA's driver misreads as a signed 32-bit immediate.
static bool isMisreadFactor(const APInt &c) {
  return c.getBitWidth() == 64 && c.uge(APInt(64, 1ull << 31)) &&
         c.ult(APInt(64, 1ull << 32));
}

void bsgp::rewriteSignExtendedWideMultiplies(Operation *root) {
  struct Product {
    Operation *op;
    Value narrow;
    APInt factor;
  };
  SmallVector<Product> products;
  root->walk([&](Operation *op) {
    if (!isa<arith::MulIOp, arith::ShLIOp>(op) ||
        !getElementTypeOrSelf(op->getResult(0).getType()).isInteger(64))
      return;
    APInt c;
    for (int i = 0; i < 2; ++i) {
      Value a = narrowSignExtended(op->getOperand(i));
      if (!a || !matchPattern(op->getOperand(1 - i), m_ConstantInt(&c)))
        continue;
      if (isa<arith::ShLIOp>(op)) {
        // Only the shifted value is sign-extended; shifts by 31 are the
        // product by 2^31.
        if (i != 0 || c != 31)
          return;
        c = APInt(64, 1ull << 31);
      }
      if (isMisreadFactor(c))
        products.push_back({op, a, c});
      return;
    }
  });
  for (Product &p : products) {
    OpBuilder b(p.op);
    Location loc = p.op->getLoc();
    Type type = p.op->getResult(0).getType();
    Type narrowType = p.narrow.getType();
    unsigned w = getElementTypeOrSelf(narrowType).getIntOrFloatBitWidth();
    auto constant = [&](Type t, const APInt &v) -> Value {
      TypedAttr attr = b.getIntegerAttr(getElementTypeOrSelf(t), v);
      if (auto shaped = dyn_cast<ShapedType>(t))
        attr = DenseElementsAttr::get(shaped, v);
      return arith::ConstantOp::create(b, loc, t, attr);
    };
    // sext(a) = zext(a) - (a < 0 ? 2^w : 0), so
    // sext(a) * C = zext(a) * C - (a < 0 ? C << w : 0) modulo 2^64.
    Value wide = arith::ExtUIOp::create(b, loc, type, p.narrow);
    Value product =
        arith::MulIOp::create(b, loc, wide, constant(type, p.factor));
    Value zero = constant(narrowType, APInt(w, 0));
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           p.narrow, zero);
    Value correction = arith::SelectOp::create(b, loc, negative,
                                               constant(type, p.factor.shl(w)),
                                               constant(type, APInt(64, 0)));
    Value r = arith::SubIOp::create(b, loc, product, correction);
    p.op->getResult(0).replaceAllUsesWith(r);
    p.op->erase();
  }
}
