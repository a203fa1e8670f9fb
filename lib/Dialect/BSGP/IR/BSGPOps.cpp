//===- BSGPOps.cpp - bsgp op verifiers and custom forms
//--------------------===//
//
// The verifiers enforce where each BSGP construct may appear, so that IR
// written by hand or produced by a pass is checked as strictly as IR emitted
// from a checked AST. Three notions recur:
//   - device code: ops run by every thread (spawn bodies, supersteps,
//     kernels, collective and device functions, minus require bodies);
//   - the superstep level: the blocks that barriers split (spawn bodies, par
//     regions, superstep bodies, collective function bodies);
//   - thread-variant values: values that differ between threads, which host
//     code (a require body) cannot use.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace bsgp;

//===----------------------------------------------------------------------===//
// Context helpers
//===----------------------------------------------------------------------===//

bool bsgp::isCollectiveFunction(Operation *op) {
  return op && isa<FunctionOpInterface>(op) &&
         op->hasAttr(BSGPDialect::getCollectiveAttrName());
}

std::optional<LibraryKind> bsgp::getCalledLibraryKind(Operation *op) {
  auto call = dyn_cast_if_present<CallOpInterface>(op);
  auto callee =
      call ? dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee())
           : SymbolRefAttr();
  if (!callee)
    return std::nullopt;
  Operation *fn = SymbolTable::lookupNearestSymbolFrom(op, callee);
  LibraryKindAttr library =
      fn ? fn->getAttrOfType<LibraryKindAttr>(
               BSGPDialect::LibraryAttrHelper::getNameStr())
         : LibraryKindAttr();
  if (!library)
    return std::nullopt;
  return library.getValue();
}

static bool isDeviceFunction(Operation *op) {
  return op && isa<FunctionOpInterface>(op) &&
         (op->hasAttr(BSGPDialect::getCollectiveAttrName()) ||
          op->hasAttr(BSGPDialect::getDeviceAttrName()));
}

/// The nearest ancestor that decides whether `op` is host or device code.
static Operation *getCodeOwner(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (isa<SpawnOp, SuperstepOp, KernelOp, RequireOp, FunctionOpInterface>(p))
      return p;
  return nullptr;
}

bool bsgp::isGroupOp(Operation *op) {
  return isa<GroupRankOp, GroupSizeOp, GroupIdOp, GroupCountOp, GroupThreadsOp,
             SubgroupRankOp, SubgroupSizeOp, GroupBarrierOp, GroupLocalOp,
             SubgroupShuffleOp, SubgroupVoteOp, SubgroupReduceOp,
             SubgroupMatchOp, GroupLookbackOp>(op);
}

bool bsgp::isInDeviceCode(Operation *op) {
  Operation *owner = getCodeOwner(op);
  return owner && (isa<SpawnOp, SuperstepOp, KernelOp>(owner) ||
                   isDeviceFunction(owner));
}

/// True if `op` is nested in anything that runs per thread, including the
/// require bodies of a spawn (where `thread.size` is still meaningful).
static bool isInThreadScope(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (isa<SpawnOp, SuperstepOp, KernelOp>(p) || isDeviceFunction(p))
      return true;
  return false;
}

/// True if `value` is defined inside a spawn, superstep, kernel or device
/// function, i.e. it has one instance per thread.
static bool isDefinedInThreadScope(Value value) {
  for (Operation *p = value.getParentRegion()->getParentOp(); p;
       p = p->getParentOp())
    if (isa<SpawnOp, SuperstepOp, KernelOp>(p) || isDeviceFunction(p))
      return true;
  return false;
}

static bool dependsOnTargetQuery(Value value, unsigned depth) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 8)
    return false;
  // bsgp-single-pass answers its questions before the split too.
  if (isa<TargetIsOp, SinglePassOp>(def))
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOnTargetQuery(operand, depth + 1);
  });
}

bool bsgp::dependsOnTargetQuery(Value value) {
  return ::dependsOnTargetQuery(value, 0);
}

Operation *bsgp::getParentSkippingTargetBranches(Operation *op) {
  Operation *parent = op->getParentOp();
  while (auto branch = dyn_cast_or_null<scf::IfOp>(parent)) {
    if (!bsgp::dependsOnTargetQuery(branch.getCondition()))
      break;
    parent = parent->getParentOp();
  }
  return parent;
}

Operation *bsgp::getSyncParent(Operation *op) {
  Operation *parent = op->getParentOp();
  while (isa_and_nonnull<scf::IfOp, scf::WhileOp>(parent))
    parent = parent->getParentOp();
  return parent;
}

/// Blocks that barriers split into supersteps.
static bool isSuperstepLevel(Operation *parent) {
  return isa<SpawnOp, ParOp, SuperstepOp>(parent) ||
         isCollectiveFunction(parent);
}

static LogicalResult verifyDeviceCode(Operation *op) {
  if (!isInDeviceCode(op))
    return op->emitOpError(
        "must be in device code (a bsgp.spawn body outside bsgp.require, a "
        "bsgp.kernel, or a function marked bsgp.collective or bsgp.device)");
  return success();
}

static LogicalResult verifyHostCode(Operation *op) {
  if (isInDeviceCode(op))
    return op->emitOpError("must be in host code; inside a bsgp.spawn, "
                           "place it in a bsgp.require");
  return success();
}

/// A barrier, a par containing one (par aligns its regions' barriers), or
/// a call of a collective function (inlined later, barriers included).
static bool isBarrierLike(Operation &op) {
  if (isa<BarrierOp>(op))
    return true;
  if (auto call = dyn_cast<CallOpInterface>(op))
    if (auto sym =
            dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee()))
      if (Operation *callee = SymbolTable::lookupNearestSymbolFrom(&op, sym))
        if (isCollectiveFunction(callee))
          return true;
  if (auto par = dyn_cast<ParOp>(op))
    for (Region &region : par.getBranches())
      for (Operation &nested : region.front())
        if (isBarrierLike(nested))
          return true;
  return false;
}

/// True if every path through `op` crosses a barrier: a barrier-like op, a
/// branch both of whose sides hold one at their top level, or a loop whose
/// condition region (the body of a do loop) holds one.
static bool crossesBarrier(Operation &op) {
  if (isBarrierLike(op))
    return true;
  auto holds = [](Region &region) {
    return !region.empty() && llvm::any_of(region.front(), crossesBarrier);
  };
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return holds(ifOp.getThenRegion()) && holds(ifOp.getElseRegion());
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return holds(loop.getBefore());
  return false;
}

/// True if a barrier is nested anywhere in `op`.
static bool containsBarrier(Operation *op) {
  return op->walk([](BarrierOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

bool bsgp::isFunctionParameter(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner()->isEntryBlock() &&
         isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

static bool isSeparated(Value value, Operation *user,
                        llvm::SmallPtrSetImpl<Value> &visiting);

/// A loop argument of `loop` reaches its use from the code before the loop
/// (its initial value) and from the iteration before (its yielded value):
/// both must be separated from the end of where they come from. A cycle
/// of arguments passed on unchanged adds nothing.
static bool isSeparatedLoopArg(BlockArgument arg, scf::WhileOp loop,
                               llvm::SmallPtrSetImpl<Value> &visiting) {
  if (!visiting.insert(arg).second)
    return true;
  // MLIRGen asks while it builds the loop, before a region has its
  // terminator: what the unbuilt part passes on is not known yet, and the
  // verifier asks again once the loop is complete.
  auto terminator = [](Region &region) -> Operation * {
    if (region.empty() || region.front().empty())
      return nullptr;
    Operation &last = region.front().back();
    return last.hasTrait<OpTrait::IsTerminator>() ? &last : nullptr;
  };
  unsigned i = arg.getArgNumber();
  if (!loop.getAfter().empty() && arg.getOwner() == loop.getAfterBody()) {
    auto cond =
        dyn_cast_if_present<scf::ConditionOp>(terminator(loop.getBefore()));
    return !cond || isSeparated(cond.getArgs()[i], cond, visiting);
  }
  auto yield = dyn_cast_if_present<scf::YieldOp>(terminator(loop.getAfter()));
  return isSeparated(loop.getInits()[i], loop, visiting) &&
         (!yield || isSeparated(yield.getOperand(i), yield, visiting));
}

static bool isSeparated(Value value, Operation *user,
                        llvm::SmallPtrSetImpl<Value> &visiting) {
  for (Operation *cur = user; Operation *parent = cur->getParentOp();
       cur = parent) {
    Block *block = cur->getBlock();
    if (isSuperstepLevel(parent) || isa<scf::IfOp, scf::WhileOp>(parent)) {
      Block::iterator begin = block->begin();
      bool definedHere = false;
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        definedHere = arg.getOwner() == block;
      } else if (Operation *def =
                     block->findAncestorOpInBlock(*value.getDefiningOp())) {
        // A use before the definition breaks dominance, which the verifier
        // reports after the ops; scanning from `def` to `cur` here would run
        // off the end of the block.
        if (!def->isBeforeInBlock(cur))
          return true;
        begin = std::next(def->getIterator());
        definedHere = true;
      }
      for (auto it = begin, end = cur->getIterator(); it != end; ++it)
        if (crossesBarrier(*it))
          return true;
      // A loop argument of a loop holding barriers (uniform control flow).
      if (auto loop = dyn_cast<scf::WhileOp>(parent);
          loop && definedHere && isa<BlockArgument>(value) &&
          containsBarrier(loop))
        return isSeparatedLoopArg(cast<BlockArgument>(value), loop, visiting);
      if (definedHere)
        return false;
      // A value from outside a superstep op was saved by an earlier one.
      if (isa<SuperstepOp>(parent))
        return true;
    }
    if (isa<SpawnOp, KernelOp, FunctionOpInterface>(parent))
      return false;
  }
  return false;
}

bool bsgp::isSeparatedByBarrier(Value value, Operation *user) {
  llvm::SmallPtrSet<Value, 4> visiting;
  return isSeparated(value, user, visiting);
}

/// The uses of `value` that some path reaches without crossing a barrier,
/// following the value where branches and loops pass it on unchanged.
static Operation *findUnseparatedUse(Value value,
                                     llvm::SmallPtrSetImpl<Value> &seen) {
  if (!seen.insert(value).second)
    return nullptr;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (bsgp::isSeparatedByBarrier(value, user))
      continue;
    // Yielded by its superstep: the value reaches the later supersteps.
    if (isa<YieldOp>(user) && isa<SuperstepOp>(user->getParentOp()))
      continue;
    unsigned i = use.getOperandNumber();
    SmallVector<Value, 2> next;
    if (auto loop = dyn_cast<scf::WhileOp>(user)) {
      next.push_back(loop.getBeforeArguments()[i]);
    } else if (auto cond = dyn_cast<scf::ConditionOp>(user)) {
      if (i == 0)
        return user;
      auto loop = cast<scf::WhileOp>(cond->getParentOp());
      next.push_back(loop.getAfterArguments()[i - 1]);
      next.push_back(loop.getResult(i - 1));
    } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      Operation *parent = yield->getParentOp();
      if (auto loop = dyn_cast<scf::WhileOp>(parent))
        next.push_back(loop.getBeforeArguments()[i]);
      else if (isa<scf::IfOp>(parent))
        next.push_back(parent->getResult(i));
      else
        return user;
    } else {
      return user;
    }
    for (Value forwarded : next)
      if (Operation *found = findUnseparatedUse(forwarded, seen))
        return found;
  }
  return nullptr;
}

Operation *bsgp::findUseBeforeBarrier(Value value) {
  llvm::SmallPtrSet<Value, 8> seen;
  return findUnseparatedUse(value, seen);
}

/// True if `value` may differ between threads. Conservative in the other
/// direction: values it cannot classify count as uniform, so that the
/// verifier never rejects IR that a pass produced from valid IR.
static bool isThreadVariant(Value value, unsigned depth = 0) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 32 || !isInDeviceCode(def) || isa<UniformOp>(def))
    return false;
  if (isa<ThreadRankOp, GetOp, PutOp, LoadOp, PtrLoadOp, ChunkScanOp>(def))
    return true;
  if (def->getNumRegions() != 0)
    return false;
  for (Value operand : def->getOperands())
    if (isThreadVariant(operand, depth + 1))
      return true;
  return false;
}

/// The bsgp.yield ending a single-block region, or null. The op verifiers
/// run before the SingleBlockImplicitTerminator check on their regions, so
/// the last op may be anything; that check reports a wrong terminator.
static YieldOp getYield(Region &region) {
  if (region.empty() || region.front().empty())
    return nullptr;
  return dyn_cast<YieldOp>(region.front().back());
}

/// Yields of a single-block region must match the expected types.
static LogicalResult verifyYieldTypes(Operation *op, Region &region,
                                      TypeRange expected, StringRef what) {
  YieldOp yield = getYield(region);
  if (!yield)
    return success();
  if (yield.getValues().getTypes() != expected)
    return op->emitOpError()
           << what << " yields (" << yield.getValues().getTypes() << ") but ("
           << expected << ") are expected";
  return success();
}

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// The result types after `->`: `T` or `(T, U)`, as for a function.
static ParseResult parseResultTypes(OpAsmParser &parser,
                                    SmallVectorImpl<Type> &types) {
  if (succeeded(parser.parseOptionalLParen()))
    return failure(parser.parseTypeList(types) || parser.parseRParen());
  return parser.parseTypeList(types);
}

static void printResultTypes(OpAsmPrinter &p, Operation *, TypeRange types) {
  if (types.size() == 1 && !isa<FunctionType>(types.front()))
    p << types.front();
  else
    p << '(' << types << ')';
}

/// The type of a dnew/dtempnew count: `, i64` after the pointer type, or
/// nothing for `i32` (the form of IR written before counts were 64-bit).
static ParseResult parseCountType(OpAsmParser &parser, Type &type) {
  type = parser.getBuilder().getI32Type();
  if (failed(parser.parseOptionalComma()))
    return success();
  return parser.parseType(type);
}

static void printCountType(OpAsmPrinter &p, Operation *, Type type) {
  if (!type.isInteger(32))
    p << ", " << type;
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

LogicalResult SpawnOp::verify() {
  if (isInThreadScope(*this))
    return emitOpError("cannot be nested in device code");
  if (failed(verifyYieldTypes(*this, getBody(), getResultTypes(), "body")))
    return failure();
  // Only host values leave a spawn: what requires compute, or what was
  // there before it.
  Block &body = getBody().front();
  for (Value v : body.getTerminator()->getOperands()) {
    Operation *def = v.getDefiningOp();
    if (!def || !(*this)->isProperAncestor(def))
      continue;
    if (!isa<RequireOp>(def) || def->getBlock() != &body)
      return emitOpError("may only yield results of bsgp.require ops of its "
                         "body (host values)");
  }
  return success();
}

LogicalResult BarrierOp::verify() {
  Operation *parent = getSyncParent(*this);
  if (!isa<SpawnOp, ParOp>(parent) && !isCollectiveFunction(parent))
    return emitOpError("must be in a bsgp.spawn body, a bsgp.par region or "
                       "a function marked bsgp.collective (directly or "
                       "under scf.if/scf.while)");
  return success();
}

/// Placement shared by require and par.
static LogicalResult verifySuperstepLevel(Operation *op) {
  if (!isSuperstepLevel(getSyncParent(op)))
    return op->emitOpError(
        "must be in a bsgp.spawn body, a bsgp.par region, a bsgp.superstep "
        "or a function marked bsgp.collective (directly or under "
        "scf.if/scf.while)");
  return success();
}

LogicalResult RequireOp::verify() {
  if (failed(verifySuperstepLevel(*this)) ||
      failed(verifyYieldTypes(*this, getBody(), getResultTypes(), "body")))
    return failure();
  Region &body = getBody();
  WalkResult walk = body.walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      if (operand.getParentRegion() == &body ||
          body.isAncestor(operand.getParentRegion()))
        continue;
      if (isThreadVariant(operand)) {
        InFlightDiagnostic diag =
            emitOpError("host code cannot use a thread-local value");
        diag.attachNote(operand.getLoc()) << "defined here";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult ParOp::verify() {
  if (failed(verifySuperstepLevel(*this)))
    return failure();
  if (getBranches().empty())
    return emitOpError("needs at least one region");
  SmallVector<Type> yielded;
  for (Region &region : getBranches()) {
    YieldOp yield = getYield(region);
    if (!yield)
      return success();
    llvm::append_range(yielded, yield.getValues().getTypes());
  }
  if (TypeRange(yielded) != getResultTypes())
    return emitOpError() << "regions yield (" << TypeRange(yielded)
                         << ") but the results are (" << getResultTypes()
                         << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Thread intrinsics and communication
//===----------------------------------------------------------------------===//

LogicalResult ThreadRankOp::verify() { return verifyDeviceCode(*this); }

LogicalResult TargetIsOp::verify() {
  if (!parseTargetName(getTarget()))
    return emitOpError("unknown target '")
           << getTarget() << "'; expected cpu, cuda or spirv";
  return success();
}

/// Atomics act on 32- and 64-bit integers, and on f32 where `allowFloat`.
static LogicalResult verifyAtomicType(Operation *op, Type t, bool allowFloat,
                                      bool allowInt) {
  if (allowInt && (t.isSignlessInteger(32) || t.isSignlessInteger(64)))
    return success();
  if (allowFloat && t.isF32())
    return success();
  return op->emitOpError("element type ")
         << t << " is not supported by this atomic operation";
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyDeviceCode(*this)))
    return failure();
  using K = arith::AtomicRMWKind;
  switch (getKind()) {
  case K::addi:
  case K::mins:
  case K::minu:
  case K::maxs:
  case K::maxu:
  case K::andi:
  case K::ori:
  case K::xori:
    return verifyAtomicType(*this, getType(), /*allowFloat=*/false,
                            /*allowInt=*/true);
  case K::addf:
    return verifyAtomicType(*this, getType(), /*allowFloat=*/true,
                            /*allowInt=*/false);
  case K::assign:
    return verifyAtomicType(*this, getType(), /*allowFloat=*/true,
                            /*allowInt=*/true);
  default:
    return emitOpError("kind '") << arith::stringifyAtomicRMWKind(getKind())
                                 << "' is not a BSGP atomic";
  }
}

LogicalResult AtomicLoadOp::verify() {
  if (failed(verifyDeviceCode(*this)))
    return failure();
  return verifyAtomicType(*this, getType(), /*allowFloat=*/false,
                          /*allowInt=*/true);
}

LogicalResult FenceOp::verify() { return verifyDeviceCode(*this); }

LogicalResult AtomicCASOp::verify() {
  if (failed(verifyDeviceCode(*this)))
    return failure();
  return verifyAtomicType(*this, getType(), /*allowFloat=*/true,
                          /*allowInt=*/true);
}

LogicalResult ThreadSizeOp::verify() {
  if (!isInThreadScope(*this))
    return emitOpError("must be in a bsgp.spawn, a bsgp.kernel or a "
                       "function marked bsgp.collective or bsgp.device");
  return success();
}

LogicalResult SetOldRankOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (!isSuperstepLevel(getSyncParent(*this)))
    return emitOpError("must be directly in a bsgp.spawn body, a bsgp.par "
                       "region, a bsgp.superstep or a bsgp.collective "
                       "function");
  for (Operation *prev = (*this)->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    if (isa<SetOldRankOp>(prev))
      return emitOpError("thread.oldrank is already set in this superstep");
    if (auto barrier = dyn_cast<BarrierOp>(prev))
      if (barrier.getRankReassigned())
        return success();
    // A par holding barriers ends the superstep too; its last barrier is
    // not the one that reassigned the ranks of this superstep.
    if (isBarrierLike(*prev))
      break;
  }
  if (auto step = dyn_cast<SuperstepOp>(parent))
    if (step.getRankReassigned())
      return success();
  return emitOpError("must follow a barrier with rank_reassigned");
}

LogicalResult SetSizeOp::verify() {
  if (!(*this)->getParentOfType<RequireOp>())
    return emitOpError("must be in a bsgp.require");
  return success();
}

LogicalResult GetOp::verify() {
  if (failed(verifyDeviceCode(*this)))
    return failure();
  Value value = getValue();
  // A host value or a constant is the same in every thread, so thread r's
  // value is the caller's: canonicalization may fold a variable to one
  // (`x = 5`), and bsgp-save-restore then reads it directly.
  if (!isDefinedInThreadScope(value) || matchPattern(value, m_Constant()))
    return success();
  // A parameter is the caller's value: where the function is inlined,
  // the barrier may be before the call.
  if (!isFunctionParameter(value) && !isSeparatedByBarrier(value, *this))
    return emitOpError("reads the value of the previous superstep, but no "
                       "barrier separates it from the definition");
  return success();
}

LogicalResult PutOp::verify() {
  if (failed(verifyDeviceCode(*this)))
    return failure();
  if (!isSuperstepLevel((*this)->getParentOp()))
    return emitOpError("must be directly in a bsgp.spawn body, a bsgp.par "
                       "region, a bsgp.superstep or a bsgp.collective "
                       "function; put to rank -1 to skip it");
  if (Operation *user = findUseBeforeBarrier(getResult())) {
    InFlightDiagnostic diag = emitOpError(
        "result is the value put by other threads and is only defined after "
        "the next barrier");
    diag.attachNote(user->getLoc()) << "used here";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Accumulation over a CPU chunk
//===----------------------------------------------------------------------===//

bool bsgp::isCombineKind(StringRef kind, Type type) {
  static constexpr StringLiteral intKinds[] = {
      "add", "mul", "mins", "minu", "maxs", "maxu", "and", "or", "xor"};
  static constexpr StringLiteral floatKinds[] = {"add", "mul", "minf", "maxf"};
  if (isa<FloatType>(type))
    return llvm::is_contained(floatKinds, kind);
  return type.isSignlessInteger() && llvm::is_contained(intKinds, kind);
}

TypedAttr bsgp::getCombineIdentityAttr(Type type, StringRef kind) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    APFloat v = kind == "mul"    ? APFloat::getOne(sem)
                : kind == "minf" ? APFloat::getInf(sem)
                : kind == "maxf" ? APFloat::getInf(sem, /*Negative=*/true)
                                 : APFloat::getZero(sem);
    return FloatAttr::get(ft, v);
  }
  unsigned w = type.getIntOrFloatBitWidth();
  APInt v = kind == "mul"                     ? APInt(w, 1)
            : kind == "and" || kind == "minu" ? APInt::getAllOnes(w)
            : kind == "mins"                  ? APInt::getSignedMaxValue(w)
            : kind == "maxs"                  ? APInt::getSignedMinValue(w)
                                              : APInt(w, 0);
  return IntegerAttr::get(type, v);
}

static LogicalResult verifyCombineKind(Operation *op, StringRef kind,
                                       Type type) {
  if (isCombineKind(kind, type))
    return success();
  return op->emitOpError("kind '")
         << kind << "' is not defined on " << type << "; expected "
         << (isa<FloatType>(type)
                 ? "add, mul, minf or maxf"
                 : "add, mul, mins, minu, maxs, maxu, and, or or xor");
}

/// The chunk ops are lowered to a value carried by the CPU rank loop, which
/// is exact only if every rank runs the op once: straight-line code of a
/// superstep level or of a kernel's entry block, or a target branch that
/// the CPU lowering folds away first.
static LogicalResult verifyChunkOp(Operation *op, StringRef kind, Type type) {
  if (failed(verifyDeviceCode(op)))
    return failure();
  Operation *parent = getParentSkippingTargetBranches(op);
  // Under a branch or loop that holds a barrier (uniform control flow, in
  // a spawn) every rank runs it once too: bsgp-split-uniform-flow moves it
  // to a superstep level.
  bool straight = isSuperstepLevel(parent);
  bool synchronizing = false;
  Operation *flow = op->getParentOp();
  for (; isa_and_nonnull<scf::IfOp, scf::WhileOp>(flow);
       flow = flow->getParentOp())
    synchronizing |= containsBarrier(flow);
  straight |= synchronizing && isa_and_nonnull<SpawnOp, ParOp>(flow);
  if (auto kernel = dyn_cast<KernelOp>(parent))
    straight = !kernel.getBody().empty() &&
               kernel.getBody().front().findAncestorOpInBlock(*op);
  if (!straight)
    return op->emitOpError(
        "must be in straight-line code, directly in a bsgp.spawn body, a "
        "bsgp.par region, a bsgp.superstep, the entry block of a "
        "bsgp.kernel or a function marked bsgp.collective: every rank of a "
        "chunk must run it once");
  return verifyCombineKind(op, kind, type);
}

LogicalResult ChunkReduceOp::verify() {
  return verifyChunkOp(*this, getKind(), getValue().getType());
}

LogicalResult ChunkScanOp::verify() {
  return verifyChunkOp(*this, getKind(), getValue().getType());
}

//===----------------------------------------------------------------------===//
// The runtime's list primitives
//===----------------------------------------------------------------------===//

LogicalResult ListReduceOp::verify() {
  if (failed(verifyHostCode(*this)))
    return failure();
  return verifyCombineKind(*this, getKind(), getResult().getType());
}

/// A reduce of no element is the operator's identity: the collective
/// library asks for it this way, and it needs no call.
OpFoldResult ListReduceOp::fold(FoldAdaptor adaptor) {
  auto count = dyn_cast_if_present<IntegerAttr>(adaptor.getCount());
  if (!count || !count.getValue().isZero() ||
      !isCombineKind(getKind(), getResult().getType()))
    return {};
  return getCombineIdentityAttr(getResult().getType(), getKind());
}

LogicalResult ListScanExclusiveOp::verify() {
  if (failed(verifyHostCode(*this)))
    return failure();
  return verifyCombineKind(*this, getKind(), getTotal().getType());
}

LogicalResult ListSortPairsOp::verify() {
  if (failed(verifyHostCode(*this)))
    return failure();
  Type key = cast<PtrType>(getKeys().getType()).getElementType();
  if (!key.isInteger(32) && !key.isInteger(64) && !key.isF32() && !key.isF64())
    return emitOpError("keys must be i32, i64, f32 or f64, not ") << key;
  if (getIsUnsigned() && !isa<IntegerType>(key))
    return emitOpError("'unsigned' needs integer keys");
  if (!cast<PtrType>(getValues().getType()).getElementType().isInteger(32))
    return emitOpError("values must be a list of i32");
  return success();
}

//===----------------------------------------------------------------------===//
// Lists and pointers
//===----------------------------------------------------------------------===//

LogicalResult DNewOp::verify() { return verifyHostCode(*this); }
LogicalResult DTempNewOp::verify() { return verifyHostCode(*this); }
LogicalResult DFreeOp::verify() { return verifyHostCode(*this); }
LogicalResult DTempFreeOp::verify() { return verifyHostCode(*this); }

OpFoldResult PtrCastOp::fold(FoldAdaptor) {
  if (getPtr().getType() == getType())
    return getPtr();
  // cast(cast(p)) folds to a single cast.
  if (auto inner = getPtr().getDefiningOp<PtrCastOp>()) {
    getPtrMutable().assign(inner.getPtr());
    return getResult();
  }
  return {};
}

OpFoldResult PtrToIntOp::fold(FoldAdaptor) {
  if (auto from = getPtr().getDefiningOp<PtrFromIntOp>())
    return from.getValue();
  return {};
}

OpFoldResult PtrFromIntOp::fold(FoldAdaptor) {
  // from_int(to_int(p)) is p where the pointer types agree.
  if (auto to = getValue().getDefiningOp<PtrToIntOp>();
      to && to.getPtr().getType() == getType())
    return to.getPtr();
  return {};
}

LogicalResult PtrCmpOp::verify() {
  switch (getPredicate()) {
  case arith::CmpIPredicate::eq:
  case arith::CmpIPredicate::ne:
  case arith::CmpIPredicate::ult:
  case arith::CmpIPredicate::ule:
  case arith::CmpIPredicate::ugt:
  case arith::CmpIPredicate::uge:
    return success();
  default:
    return emitOpError("pointers compare as unsigned addresses; use eq, ne, "
                       "ult, ule, ugt or uge");
  }
}

//===----------------------------------------------------------------------===//
// Supersteps and streams
//===----------------------------------------------------------------------===//

LogicalResult SuperstepOp::verify() {
  if (static_cast<bool>(getSourceBeginAttr()) !=
      static_cast<bool>(getSourceEndAttr()))
    return emitOpError("needs both source_begin and source_end, or neither");
  if (auto prev = dyn_cast_or_null<SuperstepOp>((*this)->getPrevNode()))
    if (prev.getIndex() >= getIndex())
      return emitOpError() << "index " << getIndex()
                           << " must be greater than the previous superstep's "
                           << prev.getIndex();
  return verifyYieldTypes(*this, getBody(), getResultTypes(), "body");
}

LogicalResult StreamAllocOp::verify() { return verifyHostCode(*this); }
LogicalResult StreamFreeOp::verify() { return verifyHostCode(*this); }

static LogicalResult verifyStreamWords(Operation *op, Type type,
                                       size_t numStreams) {
  unsigned words = getStreamWordCount(type);
  if (words == 0)
    return op->emitOpError()
           << "cannot save a value of type " << type << " to streams";
  if (words != numStreams)
    return op->emitOpError()
           << "a value of type " << type << " takes " << words
           << " stream word(s), but " << numStreams << " stream(s) are given";
  return verifyDeviceCode(op);
}

LogicalResult SaveOp::verify() {
  return verifyStreamWords(*this, getValue().getType(), getStreams().size());
}

LogicalResult LoadOp::verify() {
  return verifyStreamWords(*this, getType(), getStreams().size());
}

//===----------------------------------------------------------------------===//
// Kernels and launches
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> args,
                      ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(args, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult KernelOp::verify() {
  if (!getFunctionType().getResults().empty())
    return emitOpError("must not return values; kernels write memory and "
                       "streams");
  if (isInThreadScope(*this))
    return emitOpError("cannot be nested in device code");
  return success();
}

LogicalResult LaunchOp::verify() { return verifyHostCode(*this); }

/// The callee of a launch is a kernel taking `args`.
static LogicalResult verifyLaunchedKernel(Operation *op, FlatSymbolRefAttr sym,
                                          ValueRange args,
                                          SymbolTableCollection &symbolTable) {
  auto kernel = symbolTable.lookupNearestSymbolFrom<KernelOp>(op, sym);
  if (!kernel)
    return op->emitOpError()
           << "'" << sym.getValue() << "' does not reference a bsgp.kernel";
  ArrayRef<Type> params = kernel.getArgumentTypes();
  if (params.size() != args.size())
    return op->emitOpError() << "passes " << args.size() << " argument(s) but '"
                             << sym.getValue() << "' takes " << params.size();
  for (auto [i, arg, param] : llvm::enumerate(args, params))
    if (arg.getType() != param)
      return op->emitOpError()
             << "argument #" << i << " has type " << arg.getType() << " but '"
             << sym.getValue() << "' expects " << param;
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyLaunchedKernel(*this, getKernelAttr(), getArgs(), symbolTable);
}

LogicalResult GridLaunchOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel ||
      !kernel->hasAttr(BSGPDialect::GridLoopAttrHelper::getNameStr()))
    return emitOpError() << "must be in a bsgp.kernel marked "
                         << BSGPDialect::GridLoopAttrHelper::getNameStr();
  return success();
}

LogicalResult
GridLaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyLaunchedKernel(*this, getKernelAttr(), getArgs(), symbolTable);
}

LogicalResult CanLaunchGridLoopOp::verify() { return verifyHostCode(*this); }

LogicalResult
CanLaunchGridLoopOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel ||
      !kernel->hasAttr(BSGPDialect::GridLoopAttrHelper::getNameStr()))
    return emitOpError() << "'" << getKernel()
                         << "' does not reference a bsgp.kernel marked "
                         << BSGPDialect::GridLoopAttrHelper::getNameStr();
  return success();
}

#define GET_OP_CLASSES
#include "bsgp/Dialect/BSGP/IR/BSGPOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Work groups and subgroups
//===----------------------------------------------------------------------===//

LogicalResult GroupRankOp::verify() { return verifyDeviceCode(*this); }
// Host code asks it too: bsgp-resolve-target-queries replaces it there.
LogicalResult GroupSizeOp::verify() { return success(); }
LogicalResult GroupIdOp::verify() { return verifyDeviceCode(*this); }
LogicalResult GroupCountOp::verify() { return verifyDeviceCode(*this); }
LogicalResult GroupThreadsOp::verify() { return verifyDeviceCode(*this); }
LogicalResult SubgroupRankOp::verify() { return verifyDeviceCode(*this); }
LogicalResult SubgroupSizeOp::verify() { return verifyDeviceCode(*this); }
LogicalResult GroupBarrierOp::verify() { return verifyDeviceCode(*this); }
LogicalResult GroupLocalOp::verify() { return verifyDeviceCode(*this); }
LogicalResult SinglePassOp::verify() { return verifyDeviceCode(*this); }

LogicalResult GroupLookbackOp::verify() {
  Type elem = cast<PtrType>(getStatus().getType()).getElementType();
  if (!elem.isInteger(64))
    return emitOpError("status must be a list of 64-bit words, not ")
           << getStatus().getType();
  return verifyDeviceCode(*this);
}

LogicalResult SubgroupShuffleOp::verify() {
  if (!llvm::is_contained({"idx", "xor", "up", "down"}, getMode()))
    return emitOpError("mode must be idx, xor, up or down, not '")
           << getMode() << "'";
  return verifyDeviceCode(*this);
}

LogicalResult SubgroupVoteOp::verify() {
  if (!llvm::is_contained({"any", "all", "ballot"}, getMode()))
    return emitOpError("mode must be any, all or ballot, not '")
           << getMode() << "'";
  bool ballot = getMode() == "ballot";
  if (!getResult().getType().isInteger(ballot ? 64 : 1))
    return emitOpError("result must be ")
           << (ballot ? "i64" : "i1") << " for " << getMode();
  return verifyDeviceCode(*this);
}

LogicalResult SubgroupMatchOp::verify() { return verifyDeviceCode(*this); }

LogicalResult SubgroupReduceOp::verify() {
  if (!llvm::is_contained(
          {"add", "mins", "minu", "maxs", "maxu", "and", "or", "xor"},
          getKind()))
    return emitOpError("kind must be add, mins, minu, maxs, maxu, and, or "
                       "or xor, not '")
           << getKind() << "'";
  return verifyDeviceCode(*this);
}
