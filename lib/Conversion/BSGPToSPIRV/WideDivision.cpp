//===- WideDivision.cpp - 64-bit integer division for SPIR-V
//---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// 64-bit integer division and remainder as a function of the device module
// built from operations every Vulkan driver we test computes right
// (WideDivision.h says which one does not).
//
//===----------------------------------------------------------------------===//

#include "WideDivision.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

/// Count of leading zero bits of a 64-bit value, from the 32-bit counts
/// of its halves (SPIR-V's FindUMsb takes 32-bit integers only).
Value countLeadingZeros64(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  Value c32 = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 32);
  Value hi = arith::TruncIOp::create(b, loc, i32,
                                     arith::ShRUIOp::create(b, loc, x, c32));
  Value lo = arith::TruncIOp::create(b, loc, i32, x);
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value hiZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, hi, zero);
  Value loCount = arith::AddIOp::create(
      b, loc, math::CountLeadingZerosOp::create(b, loc, lo),
      arith::ConstantIntOp::create(b, loc, i32, 32));
  return arith::SelectOp::create(b, loc, hiZero, loCount,
                                 math::CountLeadingZerosOp::create(b, loc, hi));
}

/// `bsgp.int.udiv64(a, d) -> a / d`, unsigned. (One result: a SPIR-V
/// function returns one value.)
func::FuncOp getOrCreateUDivRem(ModuleOp device, Location loc) {
  if (auto fn = device.lookupSymbol<func::FuncOp>(bsgp::spv::kWideDivisionName))
    return fn;
  OpBuilder mb = OpBuilder::atBlockEnd(device.getBody());
  Type i64 = mb.getI64Type(), i32 = mb.getI32Type();
  auto fn = func::FuncOp::create(mb, loc, bsgp::spv::kWideDivisionName,
                                 mb.getFunctionType({i64, i64}, {i64}));
  fn.setPrivate();
  Block *entry = fn.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  Value a = entry->getArgument(0), d = entry->getArgument(1);
  auto c64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };

  // Both operands below 2^32 (every index a 64-bit size_t computes on
  // lists that fit an int): one 32-bit division.
  Value high = arith::ShRUIOp::create(
      b, loc, arith::OrIOp::create(b, loc, a, d), c64(32));
  Value narrow =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, high, c64(0));
  auto branch = scf::IfOp::create(b, loc, TypeRange{i64}, narrow,
                                  /*withElseRegion=*/true);
  b.setInsertionPointToStart(branch.thenBlock());
  Value a32 = arith::TruncIOp::create(b, loc, i32, a);
  Value d32 = arith::TruncIOp::create(b, loc, i32, d);
  scf::YieldOp::create(
      b, loc,
      ValueRange{arith::ExtUIOp::create(
          b, loc, i64, arith::DivUIOp::create(b, loc, a32, d32))});

  // Otherwise long division over the quotient's bits only: the divisor is
  // shifted up to the dividend's highest bit, then subtracted where it
  // fits and shifted down, once a bit. A divisor above the dividend makes
  // no step (quotient 0).
  b.setInsertionPointToStart(branch.elseBlock());
  Value shift = arith::SubIOp::create(b, loc, countLeadingZeros64(b, loc, d),
                                      countLeadingZeros64(b, loc, a));
  Value none =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, shift, c32(0));
  Value steps = arith::SelectOp::create(
      b, loc, none, c32(0), arith::AddIOp::create(b, loc, shift, c32(1)));
  Value up = arith::ExtUIOp::create(
      b, loc, i64, arith::SelectOp::create(b, loc, none, c32(0), shift));
  Value first = arith::ShLIOp::create(b, loc, d, up);
  // A while loop, not scf.for: MLIR's SPIR-V lowering of scf.for stores
  // the results in the body only, so a loop that makes no step would leave
  // them undefined, where scf.while's condition stores them every time.
  Type types[] = {i32, i64, i64, i64};
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange(types), ValueRange{c32(0), c64(0), a, first},
      [&](OpBuilder &lb, Location l, ValueRange it) {
        Value more = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::slt,
                                           it[0], steps);
        scf::ConditionOp::create(lb, l, more, it);
      },
      [&](OpBuilder &lb, Location l, ValueRange it) {
        Value i = it[0], q = it[1], r = it[2], s = it[3];
        Value fits =
            arith::CmpIOp::create(lb, l, arith::CmpIPredicate::uge, r, s);
        Value rest = arith::SelectOp::create(
            lb, l, fits, arith::SubIOp::create(lb, l, r, s), r);
        Value one = arith::ConstantIntOp::create(lb, l, i64, 1);
        Value next =
            arith::OrIOp::create(lb, l, arith::ShLIOp::create(lb, l, q, one),
                                 arith::ExtUIOp::create(lb, l, i64, fits));
        Value step = arith::AddIOp::create(
            lb, l, i, arith::ConstantIntOp::create(lb, l, i32, 1));
        scf::YieldOp::create(lb, l,
                             ValueRange{step, next, rest,
                                        arith::ShRUIOp::create(lb, l, s, one)});
      });
  scf::YieldOp::create(b, loc, ValueRange{loop.getResult(1)});

  b.setInsertionPointAfter(branch);
  func::ReturnOp::create(b, loc, branch.getResults());
  return fn;
}

} // namespace

void bsgp::spv::expandWideDivision(ModuleOp device) {
  SmallVector<Operation *> divisions;
  device.walk([&](Operation *op) {
    if (!isa<arith::DivUIOp, arith::RemUIOp, arith::DivSIOp, arith::RemSIOp>(
            op) ||
        !op->getResult(0).getType().isInteger(64))
      return;
    // A constant divisor is uniform; the driver divides by those right,
    // and keeping the op lets it multiply by a reciprocal instead.
    if (matchPattern(op->getOperand(1), m_Constant()))
      return;
    divisions.push_back(op);
  });
  for (Operation *op : divisions) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    func::FuncOp fn = getOrCreateUDivRem(device, loc);
    Value a = op->getOperand(0), d = op->getOperand(1);
    bool isSigned = isa<arith::DivSIOp, arith::RemSIOp>(op);
    bool isQuotient = isa<arith::DivUIOp, arith::DivSIOp>(op);
    Value aNeg, dNeg;
    if (isSigned) {
      Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
      auto magnitude = [&](Value x, Value &negative) -> Value {
        negative =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
        return arith::SelectOp::create(
            b, loc, negative, arith::SubIOp::create(b, loc, zero, x), x);
      };
      a = magnitude(a, aNeg);
      d = magnitude(d, dNeg);
    }
    Value v = func::CallOp::create(b, loc, fn, ValueRange{a, d}).getResult(0);
    if (!isQuotient)
      v = arith::SubIOp::create(b, loc, a, arith::MulIOp::create(b, loc, v, d));
    if (isSigned) {
      Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
      Value negate =
          isQuotient ? Value(arith::XOrIOp::create(b, loc, aNeg, dNeg)) : aNeg;
      v = arith::SelectOp::create(b, loc, negate,
                                  arith::SubIOp::create(b, loc, zero, v), v);
    }
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
}
