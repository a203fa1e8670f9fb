//===- MLIRGenBuiltin.cpp - builtins, atomics and groups to MLIR ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// C math functions as math-dialect ops, thread.get, the other builtins
/// (thread.*, collectives, the library's chunk operations), atomics, and the
/// work-group and subgroup operations.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

using namespace mlir;
using namespace mlirgen;

//===----------------------------------------------------------------------===//
// Builtins
//===----------------------------------------------------------------------===//

Value MLIRGen::emitMathCall(bsgp::MathFunction f, ArrayRef<Value> a,
                            Location l) {
  using MF = bsgp::MathFunction;
  auto unary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return a.size() == 1 ? Value(Op::create(b, l, a[0])) : Value();
  };
  auto binary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return a.size() == 2 && a[0].getType() == a[1].getType()
               ? Value(Op::create(b, l, a[0], a[1]))
               : Value();
  };
  switch (f) {
  case MF::None:
    return {};
  case MF::Sin:
    return unary(math::SinOp());
  case MF::Cos:
    return unary(math::CosOp());
  case MF::Tan:
    return unary(math::TanOp());
  case MF::Asin:
    return unary(math::AsinOp());
  case MF::Acos:
    return unary(math::AcosOp());
  case MF::Atan:
    return unary(math::AtanOp());
  case MF::Atan2:
    return a.size() == 2 && a[0].getType() == a[1].getType()
               ? emitAtan2(a[0], a[1], l)
               : Value();
  case MF::Sinh:
    return unary(math::SinhOp());
  case MF::Cosh:
    return unary(math::CoshOp());
  case MF::Tanh:
    return unary(math::TanhOp());
  case MF::Exp:
    return unary(math::ExpOp());
  case MF::Exp2:
    return unary(math::Exp2Op());
  case MF::Log:
    return unary(math::LogOp());
  case MF::Log2:
    return unary(math::Log2Op());
  case MF::Log10:
    return unary(math::Log10Op());
  case MF::Sqrt:
    return unary(math::SqrtOp());
  case MF::Pow:
    return binary(math::PowFOp());
  case MF::Fabs:
    return unary(math::AbsFOp());
  case MF::Floor:
    return unary(math::FloorOp());
  case MF::Ceil:
    return unary(math::CeilOp());
  case MF::Round:
    return unary(math::RoundOp());
  case MF::Trunc:
    return unary(math::TruncOp());
  // C's fmin/fmax return the other operand when one is NaN.
  case MF::Fmin:
    return binary(arith::MinNumFOp());
  case MF::Fmax:
    return binary(arith::MaxNumFOp());
  case MF::Fmod:
    return binary(arith::RemFOp());
  case MF::Copysign:
    return binary(math::CopySignOp());
  case MF::Fma:
    return a.size() == 3 && a[0].getType() == a[1].getType() &&
                   a[1].getType() == a[2].getType()
               ? Value(math::FmaOp::create(b, l, a[0], a[1], a[2]))
               : Value();
  case MF::Rsqrt:
    return unary(math::RsqrtOp());
  }
  return {};
}

/// C's atan2(y, x). MLIR folds math.atan2 of two constant zeros to NaN,
/// where C (Annex F) gives +-0 for x = +0 and +-pi for x = -0, with y's
/// sign: those four cases are selected here, so that the folded value and
/// every backend's agree with the C library's.
Value MLIRGen::emitAtan2(Value y, Value x, Location l) {
  Type t = y.getType();
  auto cst = [&](double v) -> Value {
    return arith::ConstantOp::create(b, l, t, b.getFloatAttr(t, v));
  };
  Value zero = cst(0.0);
  auto isZero = [&](Value v) -> Value {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, v, zero);
  };
  Value both = arith::AndIOp::create(b, l, isZero(y), isZero(x));
  Value xNegative =
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT,
                            math::CopySignOp::create(b, l, cst(1.0), x), zero);
  Value onZeros = math::CopySignOp::create(
      b, l, arith::SelectOp::create(b, l, xNegative, cst(M_PI), zero), y);
  return arith::SelectOp::create(b, l, both, onZeros,
                                 math::Atan2Op::create(b, l, y, x));
}

/// `thread.get(r, e)`: e as thread r had it at the end of the previous
/// superstep. Sema admits only variables, constants and operators in e, so
/// e is recomputed here from its thread-local variables as thread r had
/// them (one bsgp.get each, see emitGetOfVariable); host variables and
/// constants are the same in every thread.
Value MLIRGen::emitThreadGet(bsgp::BuiltinCallExpr *e) {
  Location l = loc(e->getRange());
  Value valid, rank;
  if (!emitGetRank(e, valid, rank))
    return {};
  Value outer = getRank;
  getRank = rank;
  Value v = emitExpr(e->args()[1]);
  getRank = outer;
  return v ? zeroUnless(valid, v, l) : Value();
}

/// A rank outside the spawn gets the zero of the value's type
/// (docs/language.md): the saved values are read at rank 0 instead, which
/// every running superstep has, so no thread reads past its lists.
bool MLIRGen::emitGetRank(bsgp::BuiltinCallExpr *e, Value &valid, Value &rank) {
  Location l = loc(e->getRange());
  rank = emitExpr(e->args()[0]);
  if (!rank)
    return false;
  rank = toI32(rank, e->args()[0]->getType(), l);
  Value size = bsgp::ThreadSizeOp::create(b, l, b.getI32Type());
  // Unsigned, so that a negative rank is outside too.
  valid = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, rank, size);
  rank = arith::SelectOp::create(b, l, valid, rank, zeroOf(rank.getType(), l));
  return true;
}

Value MLIRGen::zeroUnless(Value valid, Value v, Location l) {
  return arith::SelectOp::create(b, l, valid, v, zeroOf(v.getType(), l));
}

/// The read of thread-local variable `vd` (current value `v`) inside the
/// value of a thread.get: the value of the previous superstep, so a barrier
/// must separate the get from the variable's last assignment. A parameter
/// of an inline function is the caller's value, checked where the function
/// is inlined.
Value MLIRGen::emitGetOfVariable(bsgp::VarDecl *vd, Value v, Location l) {
  auto get = bsgp::GetOp::create(b, l, v.getType(), getRank, v);
  if (!bsgp::isFunctionParameter(v) && !bsgp::isSeparatedByBarrier(v, get)) {
    // A loop variable: the barriers of the loop may come after the get in
    // its body, so the question waits for the spawn's end.
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && isa<scf::WhileOp>(arg.getOwner()->getParentOp())) {
      pendingGets.push_back({get, vd->getName().str()});
      return get;
    }
    failed = true;
    emitError(l) << "'thread.get' reads '" << vd->getName()
                 << "' as another thread had it at the end of the previous "
                    "superstep, but no barrier separates this get from the "
                    "assignment of '"
                 << vd->getName() << "'";
    return {};
  }
  return get;
}

/// The operator of a chunk or list op as the op spells it (bsgp.chunk_reduce
/// and bsgp.list_reduce), with the signedness of min and max from the BSGP
/// element type `t` (the MLIR integer types are signless).
static StringRef getCombineKind(bsgp::BuiltinCallExpr::ReduceOp op,
                                const bsgp::Type *t) {
  using BK = bsgp::BuiltinCallExpr;
  bool isFloat = t->isFloating(), isSigned = t->isSignedInteger();
  switch (op) {
  case BK::OpAdd:
    return "add";
  case BK::OpMul:
    return "mul";
  case BK::OpMin:
    return isFloat ? "minf" : isSigned ? "mins" : "minu";
  case BK::OpMax:
    return isFloat ? "maxf" : isSigned ? "maxs" : "maxu";
  case BK::OpAnd:
    return "and";
  case BK::OpOr:
    return "or";
  case BK::OpXor:
    return "xor";
  case BK::None:
    break;
  }
  return "";
}

/// The collective library's accumulation over a CPU chunk
/// (`__bsgp_chunk_reduce`, `__bsgp_chunk_scan`) as bsgp.chunk_reduce or
/// bsgp.chunk_scan.
Value MLIRGen::emitChunkOp(bsgp::BuiltinCallExpr *e, ArrayRef<Value> args) {
  using BK = bsgp::BuiltinCallExpr;
  Location l = loc(e->getRange());
  StringAttr kind = b.getStringAttr(getCombineKind(
      e->getReduceOp(), e->args()[0]->getType()->getUnqualified()));
  if (e->getBuiltinKind() == BK::ChunkScan)
    return bsgp::ChunkScanOp::create(b, l, args[0].getType(), kind, args[0],
                                     args[1]);
  bsgp::ChunkReduceOp::create(b, l, kind, args[0], args[1]);
  return arith::ConstantIntOp::create(b, l, 0, 1);
}

/// The runtime's list primitives, on the host (`__bsgp_native_reduce`,
/// `__bsgp_native_scan_exclusive`, `__bsgp_native_sort_pairs`).
Value MLIRGen::emitNativeListOp(bsgp::BuiltinCallExpr *e,
                                ArrayRef<Value> args) {
  using BK = bsgp::BuiltinCallExpr;
  Location l = loc(e->getRange());
  const bsgp::Type *elem =
      cast<bsgp::PointerType>(e->args()[0]->getType()->getUnqualified())
          ->getPointee()
          ->getUnqualified();
  switch (e->getBuiltinKind()) {
  case BK::NativeReduce:
    return bsgp::ListReduceOp::create(b, l, convertType(elem, e->getRange()),
                                      getCombineKind(e->getReduceOp(), elem),
                                      args[0], args[1]);
  case BK::NativeScanExclusive:
    return bsgp::ListScanExclusiveOp::create(
        b, l, convertType(elem, e->getRange()),
        getCombineKind(e->getReduceOp(), elem), args[0], args[1], args[2]);
  default:
    bsgp::ListSortPairsOp::create(b, l, args[0], args[1], args[2],
                                  elem->isInteger() &&
                                      !elem->isSignedInteger());
    return arith::ConstantIntOp::create(b, l, 0, 1);
  }
}

/// min, max, clamp and abs. Integers use the signed or unsigned min and
/// max of their type; floats the IEEE minNum and maxNum of C's fmin and
/// fmax (a NaN operand gives the other), which every GPU has as one
/// instruction. clamp(x, lo, hi) is min(max(x, lo), hi); abs of a signed
/// integer wraps at its minimum, as two's complement negation does.
Value MLIRGen::emitMathBuiltin(bsgp::MathBuiltinExpr *e) {
  using MB = bsgp::MathBuiltinExpr;
  Location l = loc(e->getRange());
  SmallVector<Value, 3> a;
  for (bsgp::Expr *x : e->args()) {
    Value v = emitExpr(x);
    if (!v)
      return {};
    a.push_back(v);
  }
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(a[0].getType()));
  bool sgn = isSigned(e->getType());
  auto minOrMax = [&](bool isMin, Value x, Value y) -> Value {
    if (isFloat)
      return isMin ? (Value)arith::MinNumFOp::create(b, l, x, y)
                   : (Value)arith::MaxNumFOp::create(b, l, x, y);
    if (isMin)
      return sgn ? (Value)arith::MinSIOp::create(b, l, x, y)
                 : (Value)arith::MinUIOp::create(b, l, x, y);
    return sgn ? (Value)arith::MaxSIOp::create(b, l, x, y)
               : (Value)arith::MaxUIOp::create(b, l, x, y);
  };
  switch (e->getOp()) {
  case MB::Min:
    return minOrMax(true, a[0], a[1]);
  case MB::Max:
    return minOrMax(false, a[0], a[1]);
  case MB::Clamp:
    return minOrMax(true, minOrMax(false, a[0], a[1]), a[2]);
  case MB::Abs: {
    if (isFloat)
      return math::AbsFOp::create(b, l, a[0]);
    if (!sgn)
      return a[0];
    Value zero = zeroOf(a[0].getType(), l);
    Value neg =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[0], zero);
    return arith::SelectOp::create(
        b, l, neg, arith::SubIOp::create(b, l, zero, a[0]), a[0]);
  }
  }
  return {};
}

/// "'scan' with '+' on (double)": the primitive as the user wrote it, for
/// diagnostics (never the library function's name).
static std::string spellCollective(bsgp::BuiltinCallExpr *e) {
  using BK = bsgp::BuiltinCallExpr;
  std::string s = "'" + std::string(BK::getName(e->getBuiltinKind())) + "'";
  if (e->getReduceOp() != BK::None)
    s += " with '" + std::string(BK::getOpSpelling(e->getReduceOp())) + "'";
  s += " on (";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(e->args(), os, [&](bsgp::Expr *a) {
    os << a->getType()->getUnqualified()->str();
  });
  return s + ")";
}

/// The function of the collective library that Sema bound \p fd to, if it
/// was emitted with the arguments' types and \p results results.
func::FuncOp MLIRGen::lookupLibraryCallee(bsgp::FunctionDecl *fd,
                                          ArrayRef<Value> args,
                                          unsigned results) {
  auto fn = fd ? dyn_cast_or_null<func::FuncOp>(functions.lookup(fd)) : nullptr;
  if (!fn || fn.isExternal() || fn.getNumResults() != results ||
      TypeRange(fn.getArgumentTypes()) != TypeRange(args))
    return nullptr;
  return fn;
}

/// scan(op, x) assigns x its exclusive scan and returns the total. Sema
/// bound the call to the library's scan for the operator and type, which
/// returns both as a 2-vector (scanned, total), or the scanned value alone
/// where BSGP has no such vector (64-bit types); the total is then the
/// bound reduce of the same operator (getTotalCallee). A scan written as a
/// statement drops the total: it calls the library's scan without one
/// where Sema bound it (in one pass where the caller's superstep allows),
/// and otherwise saves the reduce.
Value MLIRGen::emitScan(bsgp::BuiltinCallExpr *e, ArrayRef<Value> args) {
  Location l = loc(e->getRange());
  Type ret = convertType(e->getType(), e->getRange());
  if (!ret)
    return {};
  bool totalUnused = e == discarded;
  auto dropTotal = [&](Value scanned) -> Value {
    emitAssign(e->args()[0], scanned, l);
    return arith::ConstantOp::create(b, l, ret, b.getZeroAttr(ret));
  };
  // Every thread receives the same total: conditions on it are uniform
  // (bsgp-split-uniform-flow).
  auto uniform = [&](Value v) -> Value {
    return bsgp::UniformOp::create(b, l, v.getType(), v).getResult();
  };
  if (totalUnused)
    if (func::FuncOp only =
            lookupLibraryCallee(e->getCalleeWithoutTotal(), args, 1))
      return dropTotal(func::CallOp::create(b, l, only, args).getResult(0));
  func::FuncOp fn = lookupLibraryCallee(e->getCallee(), args, 1);
  if (!fn) {
    failed = true;
    emitError(l) << spellCollective(e)
                 << " is not provided by the collective library";
    return {};
  }
  Value result = func::CallOp::create(b, l, fn, args).getResult(0);
  if (auto vt = dyn_cast<mlir::VectorType>(result.getType());
      vt && !isa<mlir::VectorType>(ret)) {
    Value scanned = vector::ExtractOp::create(b, l, result, int64_t(0));
    Value total = vector::ExtractOp::create(b, l, result, int64_t(1));
    emitAssign(e->args()[0], scanned, l);
    return uniform(total);
  }
  if (totalUnused)
    return dropTotal(result);
  func::FuncOp reduceFn = lookupLibraryCallee(e->getTotalCallee(), args, 1);
  if (!reduceFn) {
    failed = true;
    emitError(l) << "the total of " << spellCollective(e)
                 << " is not provided by the collective library; call the "
                    "scan as a statement to drop it";
    return {};
  }
  Value total = func::CallOp::create(b, l, reduceFn, args).getResult(0);
  emitAssign(e->args()[0], result, l);
  return uniform(total);
}

/// The primitives bound by their library kind (reduce, sort_idx, compact,
/// thread.fork, ...): a call of the collective library's function that Sema
/// bound the call to (docs/collectives.md); segscan assigns x the result.
Value MLIRGen::emitBoundCollective(bsgp::BuiltinCallExpr *e,
                                   ArrayRef<Value> args) {
  using BK = bsgp::BuiltinCallExpr;
  if (e->getBuiltinKind() == BK::Scan)
    return emitScan(e, args);
  Location l = loc(e->getRange());
  bool returnsValue =
      !e->getType()->isVoid() || e->getBuiltinKind() == BK::SegScan;
  func::FuncOp fn =
      lookupLibraryCallee(e->getCallee(), args, returnsValue ? 1 : 0);
  if (!fn) {
    failed = true;
    emitError(l) << spellCollective(e)
                 << " is not provided by the collective library";
    return {};
  }
  auto call = func::CallOp::create(b, l, fn, args);
  if (!returnsValue)
    return arith::ConstantIntOp::create(b, l, 0, 1);
  switch (e->getBuiltinKind()) {
  case BK::SegScan:
    emitAssign(e->args()[0], call.getResult(0), l);
    return arith::ConstantIntOp::create(b, l, 0, 1);
  case BK::Reduce:
    // Every thread receives the same reduction: conditions on it are
    // uniform (bsgp-split-uniform-flow).
    return bsgp::UniformOp::create(b, l, call.getResult(0).getType(),
                                   call.getResult(0))
        .getResult();
  default:
    return call.getResult(0);
  }
}

void MLIRGen::notePut(bsgp::PutOp put, bsgp::Expr *target) {
  auto *ref = dyn_cast<bsgp::DeclRefExpr>(target->ignoreParenImpCasts());
  pendingPuts.push_back({put, ref ? ref->getName().str() : std::string()});
}

/// The variable a thread.put assigns holds the value from the next barrier
/// on. Sema rejects a use written before that barrier; a barrier in a
/// branch or loop may be skipped, so the uses after them are checked here
/// on every path, as the gets of loop variables are. Returns false (and
/// reports) if a use comes too early.
bool MLIRGen::checkPuts() {
  auto puts = std::move(pendingPuts);
  pendingPuts.clear();
  for (auto &[put, name] : puts) {
    Operation *use = bsgp::findUseBeforeBarrier(put.getResult());
    if (!use)
      continue;
    std::string what = name.empty() ? "the variable" : "'" + name + "'";
    failed = true;
    InFlightDiagnostic diag = emitError(use->getLoc());
    diag << what
         << " may be used before the next 'barrier;' (a branch or loop "
            "that holds the barrier may be skipped), but thread.put gave it "
            "the value that other threads put, which exists only after that "
            "barrier";
    diag.attachNote(put.getLoc()) << what << " is put here";
    return false;
  }
  return true;
}

Value MLIRGen::emitBuiltin(bsgp::BuiltinCallExpr *e) {
  using BK = bsgp::BuiltinCallExpr;
  Location l = loc(e->getRange());
  if (e->getBuiltinKind() == BK::ThreadGet)
    return emitThreadGet(e);
  if (e->getBuiltinKind() == BK::ThreadPut && e->args().size() == 3 &&
      asStructValue(e->args()[1]->getType()))
    return emitStructPut(e) ? arith::ConstantIntOp::create(b, l, 0, 1)
                            : Value();
  SmallVector<Value> args;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    args.push_back(v);
  }
  switch (e->getBuiltinKind()) {
  case BK::ThreadPut: {
    // put is an assignment to p in the thread it targets (§5): p is
    // rebound to the op's result.
    Value v = args[2];
    if (v.getType() != args[1].getType())
      v = emitConversion(v, e->args()[2]->getType(), e->args()[1]->getType(),
                         l);
    auto r = bsgp::PutOp::create(b, l, v.getType(),
                                 toI32(args[0], e->args()[0]->getType(), l), v);
    notePut(r, e->args()[1]);
    emitAssign(e->args()[1], r, l);
    return arith::ConstantIntOp::create(b, l, 0, 1);
  }
  case BK::ThreadRebind:
    bsgp::RebindOp::create(b, l, args[0], args[1]);
    return arith::ConstantIntOp::create(b, l, 0, 1);
  case BK::ChunkReduce:
  case BK::ChunkScan:
    return emitChunkOp(e, args);
  case BK::GroupLookback:
    return bsgp::GroupLookbackOp::create(
        b, l, b.getI32Type(), args[0], args[1],
        b.getI32IntegerAttr(
            int32_t(cast<bsgp::IntegerLiteral>(e->args()[2])->getValue())));
  case BK::SinglePass:
    return bsgp::SinglePassOp::create(b, l, b.getI1Type());
  case BK::NativeReduce:
  case BK::NativeScanExclusive:
  case BK::NativeSortPairs:
    return emitNativeListOp(e, args);
  default:
    break;
  }
  assert(BK::isBoundByLibraryKind(e->getBuiltinKind()) &&
         "the other builtins are the primitives Sema binds");
  return emitBoundCollective(e, args);
}

/// atomicSub(p, v) is an atomic add of -v (the old value is the same); min
/// and max take their signedness from the pointee type.
Value MLIRGen::emitAtomic(bsgp::AtomicExpr *e) {
  using AO = bsgp::AtomicExpr;
  using K = arith::AtomicRMWKind;
  Location l = loc(e->getRange());
  if (e->getOp() == AO::Fence) {
    bsgp::FenceOp::create(b, l);
    return {};
  }
  SmallVector<Value, 3> args;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    args.push_back(v);
  }
  if (e->getOp() == AO::CAS)
    return bsgp::AtomicCASOp::create(b, l, args[1].getType(), args[0], args[1],
                                     args[2]);
  if (e->getOp() == AO::Load)
    return bsgp::AtomicLoadOp::create(
        b, l, cast<bsgp::PtrType>(args[0].getType()).getElementType(), args[0]);
  Value v = args[1];
  bool isFloat = isa<FloatType>(v.getType());
  bool isSigned = e->getType()->isSignedInteger();
  K kind = K::addi;
  switch (e->getOp()) {
  case AO::Add:
    kind = isFloat ? K::addf : K::addi;
    break;
  case AO::Sub:
    v = arith::SubIOp::create(b, l, zeroOf(v.getType(), l), v);
    break;
  case AO::Min:
    kind = isSigned ? K::mins : K::minu;
    break;
  case AO::Max:
    kind = isSigned ? K::maxs : K::maxu;
    break;
  case AO::And:
    kind = K::andi;
    break;
  case AO::Or:
    kind = K::ori;
    break;
  case AO::Xor:
    kind = K::xori;
    break;
  case AO::Exch:
    kind = K::assign;
    break;
  case AO::CAS:
  case AO::Load:
  case AO::Fence:
    break;
  }
  return bsgp::AtomicRMWOp::create(b, l, v.getType(), kind, v, args[0]);
}

//===----------------------------------------------------------------------===//
// Work groups and subgroups
//===----------------------------------------------------------------------===//

Value MLIRGen::emitGroup(bsgp::GroupExpr *e) {
  using GE = bsgp::GroupExpr;
  Location l = loc(e->getRange());
  Type i32 = b.getI32Type();
  SmallVector<Value, 2> args;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    args.push_back(v);
  }
  auto shuffle = [&](StringRef mode) -> Value {
    return bsgp::SubgroupShuffleOp::create(
        b, l, args[0].getType(), b.getStringAttr(mode), args[0], args[1]);
  };
  auto vote = [&](StringRef mode, Type t) -> Value {
    return bsgp::SubgroupVoteOp::create(b, l, t, b.getStringAttr(mode),
                                        args[0]);
  };
  switch (e->getGroupOp()) {
  case GE::GroupRank:
    return bsgp::GroupRankOp::create(b, l, i32);
  case GE::GroupSize:
    return bsgp::GroupSizeOp::create(b, l, i32);
  case GE::GroupId:
    return bsgp::GroupIdOp::create(b, l, i32);
  case GE::GroupCount:
    return bsgp::GroupCountOp::create(b, l, i32);
  case GE::GroupThreads:
    return bsgp::GroupThreadsOp::create(b, l, i32);
  case GE::SubgroupRank:
    return bsgp::SubgroupRankOp::create(b, l, i32);
  case GE::SubgroupSize:
    return bsgp::SubgroupSizeOp::create(b, l, i32);
  case GE::GroupBarrier:
    bsgp::GroupBarrierOp::create(b, l);
    return {};
  case GE::Shuffle:
    return shuffle("idx");
  case GE::ShuffleXor:
    return shuffle("xor");
  case GE::ShuffleUp:
    return shuffle("up");
  case GE::ShuffleDown:
    return shuffle("down");
  case GE::Any:
    return vote("any", b.getI1Type());
  case GE::All:
    return vote("all", b.getI1Type());
  case GE::Ballot:
    return vote("ballot", b.getI64Type());
  case GE::SubgroupMatch:
    return bsgp::SubgroupMatchOp::create(b, l, b.getI64Type(), args[0]);
  case GE::SubgroupAdd:
  case GE::SubgroupMin:
  case GE::SubgroupMax:
  case GE::SubgroupAnd:
  case GE::SubgroupOr:
  case GE::SubgroupXor: {
    bool isSigned = e->getType()->isSignedInteger();
    StringRef kind;
    switch (e->getGroupOp()) {
    case GE::SubgroupAdd:
      kind = "add";
      break;
    case GE::SubgroupMin:
      kind = isSigned ? "mins" : "minu";
      break;
    case GE::SubgroupMax:
      kind = isSigned ? "maxs" : "maxu";
      break;
    case GE::SubgroupAnd:
      kind = "and";
      break;
    case GE::SubgroupOr:
      kind = "or";
      break;
    default:
      kind = "xor";
      break;
    }
    return bsgp::SubgroupReduceOp::create(b, l, args[0].getType(),
                                          b.getStringAttr(kind), args[0]);
  }
  }
  return {};
}
