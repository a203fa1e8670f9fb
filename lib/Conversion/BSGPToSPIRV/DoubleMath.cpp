//===- DoubleMath.cpp - double-precision math functions for SPIR-V --------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The arithmetic the double math functions are built from, and the
// rewrite of math ops on f64 into calls of those functions.
//
//===----------------------------------------------------------------------===//

#include "DoubleMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace bsgp::spv;

Value DoubleBuilder::c(double v) {
  return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
}
Value DoubleBuilder::add(Value x, Value y) {
  return arith::AddFOp::create(b, loc, x, y);
}
Value DoubleBuilder::sub(Value x, Value y) {
  return arith::SubFOp::create(b, loc, x, y);
}
Value DoubleBuilder::mul(Value x, Value y) {
  return arith::MulFOp::create(b, loc, x, y);
}
Value DoubleBuilder::div(Value x, Value y) {
  return arith::DivFOp::create(b, loc, x, y);
}
Value DoubleBuilder::neg(Value x) { return arith::NegFOp::create(b, loc, x); }
Value DoubleBuilder::floor(Value x) { return math::FloorOp::create(b, loc, x); }
Value DoubleBuilder::abs(Value x) { return math::AbsFOp::create(b, loc, x); }
Value DoubleBuilder::sqrt(Value x) { return math::SqrtOp::create(b, loc, x); }

Value DoubleBuilder::poly(Value z, ArrayRef<double> coeffs) {
  Value p = c(coeffs.back());
  for (double k : llvm::reverse(coeffs.drop_back()))
    p = add(c(k), mul(z, p));
  return p;
}

Value DoubleBuilder::lt(Value x, Value y) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
}
Value DoubleBuilder::le(Value x, Value y) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, y);
}
Value DoubleBuilder::gt(Value x, Value y) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
}
Value DoubleBuilder::eq(Value x, Value y) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
}
Value DoubleBuilder::isNaN(Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
}
Value DoubleBuilder::signBit(Value x) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                               shr(bits(x), ci(63)), ci(0));
}
Value DoubleBuilder::select(Value cond, Value t, Value f) {
  return arith::SelectOp::create(b, loc, cond, t, f);
}
DD DoubleBuilder::select(Value cond, DD t, DD f) {
  return {select(cond, t.hi, f.hi), select(cond, t.lo, f.lo)};
}
Value DoubleBuilder::logicalAnd(Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}
Value DoubleBuilder::logicalOr(Value x, Value y) {
  return arith::OrIOp::create(b, loc, x, y);
}
Value DoubleBuilder::logicalNot(Value x) {
  Value t = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  return arith::XOrIOp::create(b, loc, x, t);
}

Value DoubleBuilder::ci(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}
Value DoubleBuilder::iadd(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}
Value DoubleBuilder::isub(Value x, Value y) {
  return arith::SubIOp::create(b, loc, x, y);
}
Value DoubleBuilder::imul(Value x, Value y) {
  return arith::MulIOp::create(b, loc, x, y);
}
Value DoubleBuilder::idiv(Value x, Value y) {
  return arith::DivUIOp::create(b, loc, x, y);
}
Value DoubleBuilder::iand(Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}
Value DoubleBuilder::ior(Value x, Value y) {
  return arith::OrIOp::create(b, loc, x, y);
}
Value DoubleBuilder::shl(Value x, Value y) {
  return arith::ShLIOp::create(b, loc, x, y);
}
Value DoubleBuilder::shr(Value x, Value y) {
  return arith::ShRUIOp::create(b, loc, x, y);
}
Value DoubleBuilder::ieq(Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
}
Value DoubleBuilder::ige(Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, x, y);
}
Value DoubleBuilder::bits(Value x) {
  return arith::BitcastOp::create(b, loc, b.getI64Type(), x);
}
Value DoubleBuilder::fromBits(Value i) {
  return arith::BitcastOp::create(b, loc, b.getF64Type(), i);
}
Value DoubleBuilder::toInt(Value x) {
  return arith::FPToSIOp::create(b, loc, b.getI64Type(), x);
}
Value DoubleBuilder::toDouble(Value i) {
  return arith::SIToFPOp::create(b, loc, b.getF64Type(), i);
}
Value DoubleBuilder::pow2(Value k) {
  return fromBits(shl(iadd(k, ci(1023)), ci(52)));
}
Value DoubleBuilder::scale(Value y, Value n) {
  Value half = arith::ShRSIOp::create(b, loc, n, ci(1));
  return mul(mul(y, pow2(half)), pow2(isub(n, half)));
}
Value DoubleBuilder::orSign(Value v, Value s) {
  Value sign = iand(bits(s), ci(INT64_MIN));
  return fromBits(ior(bits(v), sign));
}

DD DoubleBuilder::twoSum(Value x, Value y) {
  Value s = add(x, y);
  Value yy = sub(s, x);
  Value err = add(sub(x, sub(s, yy)), sub(y, yy));
  return {s, err};
}
DD DoubleBuilder::fastTwoSum(Value x, Value y) {
  Value s = add(x, y);
  return {s, sub(y, sub(s, x))};
}
DD DoubleBuilder::twoProd(Value x, Value y) {
  // Veltkamp's split into 26- and 27-bit halves, whose products are exact.
  auto split = [&](Value v) -> DD {
    Value t = mul(c(134217729.0), v);
    Value hi = sub(t, sub(t, v));
    return {hi, sub(v, hi)};
  };
  Value p = mul(x, y);
  DD xs = split(x), ys = split(y);
  Value err = add(sub(mul(xs.hi, ys.hi), p), mul(xs.hi, ys.lo));
  err = add(add(err, mul(xs.lo, ys.hi)), mul(xs.lo, ys.lo));
  return {p, err};
}
DD DoubleBuilder::add(DD x, DD y) {
  DD s = twoSum(x.hi, y.hi);
  return fastTwoSum(s.hi, add(s.lo, add(x.lo, y.lo)));
}
DD DoubleBuilder::mul(DD x, DD y) {
  DD p = twoProd(x.hi, y.hi);
  Value cross = add(mul(x.hi, y.lo), mul(x.lo, y.hi));
  return fastTwoSum(p.hi, add(p.lo, cross));
}
DD DoubleBuilder::mul(DD x, Value y) {
  DD p = twoProd(x.hi, y);
  return fastTwoSum(p.hi, add(p.lo, mul(x.lo, y)));
}
DD DoubleBuilder::neg(DD x) { return {neg(x.hi), neg(x.lo)}; }
DD DoubleBuilder::div(DD x, DD y) {
  Value q = div(x.hi, y.hi);
  DD p = twoProd(q, y.hi);
  Value rem = add(sub(sub(x.hi, p.hi), p.lo), x.lo);
  rem = sub(rem, mul(q, y.lo));
  return fastTwoSum(q, div(rem, y.hi));
}

Value DoubleBuilder::call(
    StringRef name, Type result, ValueRange args,
    function_ref<Value(DoubleBuilder &, ValueRange)> build) {
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    auto type = mb.getFunctionType(TypeRange(args), {result});
    fn = func::FuncOp::create(mb, loc, name, type);
    fn.setPrivate();
    Block *entry = fn.addEntryBlock();
    OpBuilder fb = OpBuilder::atBlockEnd(entry);
    DoubleBuilder fd(fb, loc, module);
    Value v = build(fd, entry->getArguments());
    func::ReturnOp::create(fb, loc, v);
  }
  return func::CallOp::create(b, loc, fn, args).getResult(0);
}

namespace {

/// A math function of doubles and what computes it.
struct DoubleFunction {
  StringRef name;
  Value (*unary)(DoubleBuilder &, Value) = nullptr;
  Value (*binary)(DoubleBuilder &, Value, Value) = nullptr;
};

} // namespace

static std::optional<DoubleFunction> getDoubleFunction(Operation *op) {
  using R = std::optional<DoubleFunction>;
  auto u = [](StringRef name, Value (*f)(DoubleBuilder &, Value)) -> R {
    return DoubleFunction{name, f, nullptr};
  };
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case([&](math::ExpOp) { return u("exp", emitExp); })
      .Case([&](math::Exp2Op) { return u("exp2", emitExp2); })
      .Case([&](math::LogOp) { return u("log", emitLog); })
      .Case([&](math::Log2Op) { return u("log2", emitLog2); })
      .Case([&](math::Log10Op) { return u("log10", emitLog10); })
      .Case([&](math::SinhOp) { return u("sinh", emitSinh); })
      .Case([&](math::CoshOp) { return u("cosh", emitCosh); })
      .Case([&](math::TanhOp) { return u("tanh", emitTanh); })
      .Case([&](math::SinOp) { return u("sin", emitSin); })
      .Case([&](math::CosOp) { return u("cos", emitCos); })
      .Case([&](math::TanOp) { return u("tan", emitTan); })
      .Case([&](math::AsinOp) { return u("asin", emitAsin); })
      .Case([&](math::AcosOp) { return u("acos", emitAcos); })
      .Case([&](math::AtanOp) { return u("atan", emitAtan); })
      .Case([](math::PowFOp) -> R {
        return DoubleFunction{"pow", nullptr, emitPow};
      })
      .Case([](math::Atan2Op) -> R {
        return DoubleFunction{"atan2", nullptr, emitAtan2};
      })
      .Default([](Operation *) -> R { return std::nullopt; });
}

void bsgp::spv::expandDoubleMath(ModuleOp device) {
  SmallVector<std::pair<Operation *, DoubleFunction>> calls;
  device.walk([&](Operation *op) {
    if (op->getNumResults() != 1)
      return;
    Type t = op->getResult(0).getType();
    // The float forms of exp2 and atan2 have no lowering to GLSL.std.450
    // either: they are computed in double and rounded.
    bool floatForm = t.isF32() && isa<math::Exp2Op, math::Atan2Op>(op);
    if (!t.isF64() && !floatForm)
      return;
    if (std::optional<DoubleFunction> f = getDoubleFunction(op))
      calls.push_back({op, *f});
  });
  for (auto &[op, f] : calls) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type f64 = b.getF64Type();
    SmallVector<Value> args;
    for (Value a : op->getOperands())
      args.push_back(a.getType().isF64()
                         ? a
                         : Value(arith::ExtFOp::create(b, loc, f64, a)));
    DoubleBuilder d(b, loc, device);
    std::string name = (kDoubleMathPrefix + f.name).str();
    Value v = d.call(name, f64, args, [&](DoubleBuilder &fd, ValueRange in) {
      return f.unary ? f.unary(fd, in[0]) : f.binary(fd, in[0], in[1]);
    });
    Type t = op->getResult(0).getType();
    if (t != f64)
      v = arith::TruncFOp::create(b, loc, t, v);
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
}
