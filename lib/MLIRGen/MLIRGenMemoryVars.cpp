//===- MLIRGenMemoryVars.cpp - variables whose address is taken -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every variable is an SSA value that structured control flow carries,
/// except those whose address the function takes (`&x`, `&s.f`): C lets a
/// callee write them through the pointer (`clock_gettime(..., &ts)`,
/// `sscanf(s, "%d", &n)`), so they live in a stack slot, as clang's allocas
/// do before mem2reg, and each use loads or stores it. LLVM's mem2reg and
/// SROA turn the slots that do not escape back into registers.
///
/// Threads cannot reach the host's stack: when threads read a host variable
/// kept in memory, the value is loaded before the spawn (threads cannot
/// assign host variables, so it does not change while they run).
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

using namespace mlir;
using namespace mlirgen;

/// The variable \p e designates if it is a variable or a field (of a field)
/// of a struct variable: the storage that `&e` needs in memory.
static bsgp::VarDecl *addressedVariable(bsgp::Expr *e) {
  e = e->ignoreParenImpCasts();
  while (auto *m = dyn_cast<bsgp::MemberExpr>(e)) {
    if (m->isArrow() || !m->getField())
      return nullptr;
    e = m->getBase()->ignoreParenImpCasts();
  }
  auto *d = dyn_cast<bsgp::DeclRefExpr>(e);
  auto *vd = d ? dyn_cast_or_null<bsgp::VarDecl>(d->getDecl()) : nullptr;
  if (!vd || vd->getStorage() == bsgp::VarDecl::Global ||
      isa<bsgp::ArrayType>(vd->getType()->getUnqualified()))
    return nullptr;
  return vd;
}

void MLIRGen::findAddressTaken(bsgp::Stmt *body) {
  addressTaken.clear();
  inMemory.clear();
  SmallVector<bsgp::Stmt *> work{body};
  while (!work.empty()) {
    bsgp::Stmt *s = work.pop_back_val();
    if (auto *u = dyn_cast<bsgp::UnaryOperator>(s))
      if (u->getOpcode() == bsgp::UnaryOperator::AddrOf)
        if (bsgp::VarDecl *vd = addressedVariable(u->getSubExpr()))
          addressTaken.insert(vd);
    // `s.a[i]` indexes the struct's memory, as `&s.a[0]` would.
    if (auto *d = dyn_cast<bsgp::DeclStmt>(s))
      for (bsgp::VarDecl *vd : d->decls())
        if (vd->getType() && hasArrayField(asStructValue(vd->getType())))
          addressTaken.insert(vd);
    bsgp::forEachChild(s, [&](bsgp::Stmt *c) { work.push_back(c); });
  }
}

Value MLIRGen::stackSlot(Type et, uint64_t count, Location l) {
  OpBuilder::InsertionGuard guard(b);
  // Outside a spawn the slot goes to the function's entry block, where LLVM
  // treats it as a fixed stack slot even if declared in a loop.
  Operation *parent = b.getInsertionBlock()->getParentOp();
  if (!parent->getParentOfType<bsgp::SpawnOp>() &&
      !isa<bsgp::SpawnOp>(parent)) {
    auto fn = isa<func::FuncOp>(parent)
                  ? cast<func::FuncOp>(parent)
                  : parent->getParentOfType<func::FuncOp>();
    b.setInsertionPointToStart(&fn.getBody().front());
  }
  Value n = LLVM::ConstantOp::create(b, l, b.getI64Type(),
                                     static_cast<int64_t>(count));
  auto llvmPtr = LLVM::LLVMPointerType::get(&ctx);
  Value slot = LLVM::AllocaOp::create(
      b, l, llvmPtr, isa<bsgp::PtrType>(et) ? Type(llvmPtr) : et, n,
      /*alignment=*/16);
  return UnrealizedConversionCastOp::create(b, l, bsgp::PtrType::get(&ctx, et),
                                            slot)
      .getResult(0);
}

void MLIRGen::placeInMemory(bsgp::VarDecl *vd, Value v, ArrayRef<Value> leaves,
                            Location l) {
  Type et = v ? v.getType() : Type();
  const bsgp::StructType *st = asStructValue(vd->getType());
  if (st)
    et = structMemoryType(st, vd->getRange());
  if (!et)
    return;
  Value slot = stackSlot(et, 1, l);
  nameValue(slot, vd->getName());
  env[vd] = slot;
  inMemory.insert(vd);
  if (st)
    (void)storeStruct(slot, st, leaves, l, vd->getRange());
  else
    bsgp::PtrStoreOp::create(b, l, v, slot, constInt(b.getI32Type(), 0, l));
}

void MLIRGen::moveToMemory(bsgp::VarDecl *param) {
  Location l = loc(param->getLoc());
  SmallVector<Value> leaves;
  if (asStructValue(param->getType())) {
    if (structVarValues(param, leaves, l))
      placeInMemory(param, Value(), leaves, l);
    return;
  }
  if (Value v = env.lookup(param))
    placeInMemory(param, v, {}, l);
}

bool MLIRGen::slotReachable(bsgp::VarDecl *vd) {
  if (!vd->isHost())
    return true;
  // Host code inside a spawn (a require block) runs on the host.
  Operation *where = b.getInsertionBlock()->getParentOp();
  bool inThreads =
      (isa<bsgp::SpawnOp>(where) || where->getParentOfType<bsgp::SpawnOp>()) &&
      !isa<bsgp::RequireOp>(where) &&
      !where->getParentOfType<bsgp::RequireOp>();
  return !inThreads;
}

/// The outermost spawn around the insertion point, or null.
static Operation *outermostSpawn(OpBuilder &b) {
  Operation *spawn = nullptr;
  for (Operation *op = b.getInsertionBlock()->getParentOp(); op;
       op = op->getParentOp())
    if (isa<bsgp::SpawnOp>(op))
      spawn = op;
  return spawn;
}

/// Where threads' reads of host variable \p vd in memory are loaded: before
/// the spawn. False, after reporting, where that cannot be: a variable of
/// one of the spawn's require blocks, or one such a block assigns (the
/// threads would not see the new value).
bool MLIRGen::hostSlotLoadPoint(bsgp::VarDecl *vd, bsgp::SourceRange where) {
  Operation *spawn = outermostSpawn(b);
  Value slot = env.lookup(vd);
  if (spawn->isAncestor(slot.getDefiningOp()) ||
      assignedInRequire.contains(vd)) {
    (void)unsupported(where, "threads reading a variable in host memory (a "
                             "global, or one whose address is taken) that a "
                             "require block declares or assigns");
    return false;
  }
  b.setInsertionPoint(spawn);
  return true;
}

void MLIRGen::noteRequireWrite(bsgp::VarDecl *vd) {
  Operation *op = b.getInsertionBlock()->getParentOp();
  auto require = isa<bsgp::RequireOp>(op)
                     ? cast<bsgp::RequireOp>(op)
                     : op->getParentOfType<bsgp::RequireOp>();
  if (!require)
    return;
  Operation *spawn = require->getParentOfType<bsgp::SpawnOp>();
  Value slot = env.lookup(vd);
  // Threads load a host variable before the spawn (hostSlotLoadPoint): from
  // here on they would not see what the require writes.
  if (spawn && slot && !spawn->isAncestor(slot.getDefiningOp()))
    assignedInRequire.insert(vd);
}

/// True if `op` is a barrier or a call of a collective function (which
/// holds barriers once inlined).
static bool isSuperstepEnd(Operation *op) {
  if (isa<bsgp::BarrierOp>(op))
    return true;
  auto call = dyn_cast<CallOpInterface>(op);
  auto sym =
      call ? dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee())
           : SymbolRefAttr();
  if (!sym)
    return false;
  Operation *callee = SymbolTable::lookupNearestSymbolFrom(op, sym);
  return !callee || bsgp::isCollectiveFunction(callee);
}

/// True if `op` may end a superstep: it is or holds a barrier or a
/// collective call (a branch, a loop, a par).
static bool mayEndSuperstep(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isSuperstepEnd(nested) ? WalkResult::interrupt()
                                      : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The barrier that ended the superstep before the insertion point, when it
/// is one op that every path to here crosses last: walking back through
/// the enclosing blocks, the first barrier met, provided no branch, loop,
/// par or collective call that may end a superstep comes between, and no
/// loop that holds a barrier encloses the insertion point (its earlier
/// rounds end at its own barriers). Null otherwise.
static Operation *lastBarrierBefore(OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  Block::iterator it = b.getInsertionPoint();
  while (block) {
    for (Block::iterator at = it; at != block->begin();) {
      Operation &op = *--at;
      if (isa<bsgp::BarrierOp>(op))
        return &op;
      if (mayEndSuperstep(&op))
        return nullptr;
    }
    Operation *parent = block->getParentOp();
    if (!parent || isa<bsgp::SpawnOp, bsgp::RequireOp>(parent) ||
        isa<FunctionOpInterface>(parent))
      return nullptr;
    if (isa<scf::WhileOp>(parent) && mayEndSuperstep(parent))
      return nullptr;
    it = parent->getIterator();
    block = parent->getBlock();
  }
  return nullptr;
}

/// True if `def` comes before `op` in `def`'s block or before the op of
/// that block around `op`: the structured regions here have one block each.
static bool comesBefore(Operation *def, Operation *op) {
  Operation *around = def->getBlock()->findAncestorOpInBlock(*op);
  return around && def->isBeforeInBlock(around);
}

bool MLIRGen::loadForGet(bsgp::VarDecl *vd, SmallVectorImpl<Value> &leaves,
                         Location l) {
  Value slot = env.lookup(vd);
  Operation *barrier = lastBarrierBefore(b);
  Operation *def = slot ? slot.getDefiningOp() : nullptr;
  if (!barrier || !def || !comesBefore(def, barrier)) {
    reportMemoryGet(l, vd->getName());
    return false;
  }
  SmallVector<Value> loaded;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(barrier);
    if (const bsgp::StructType *st = asStructValue(vd->getType())) {
      if (!loadStruct(slot, st, loaded, l, vd->getRange()))
        return false;
    } else {
      loaded.push_back(bsgp::PtrLoadOp::create(
          b, l, cast<bsgp::PtrType>(slot.getType()).getElementType(), slot,
          constInt(b.getI32Type(), 0, l)));
    }
  }
  bsgp::GetOp first;
  for (Value v : loaded) {
    auto get = bsgp::GetOp::create(b, l, v.getType(), getRank, v);
    if (!first)
      first = get;
    leaves.push_back(get);
  }
  // A loop around the get may still get a barrier after it in its body.
  if (first)
    pendingMemoryGets.push_back({first, barrier, vd->getName().str()});
  return true;
}

bsgp::VarDecl *MLIRGen::gotMemoryStruct(bsgp::MemberExpr *e, unsigned &first,
                                        unsigned &count) {
  if (!getRank || !e->getField() || e->isArrow())
    return nullptr;
  bsgp::VarDecl *vd = varLeafRange(e, first, count);
  return vd && isInMemory(vd) && !vd->isHost() ? vd : nullptr;
}

bool MLIRGen::isGotMemoryField(bsgp::MemberExpr *e) {
  unsigned first, count;
  if (!gotMemoryStruct(e, first, count) || count != 1)
    return false;
  const bsgp::Type *ft = e->getField()->getType()->getUnqualified();
  return !isa<bsgp::ArrayType, bsgp::StructType>(ft);
}

Value MLIRGen::emitGotMemoryField(bsgp::MemberExpr *e) {
  unsigned first, count;
  bsgp::VarDecl *vd = gotMemoryStruct(e, first, count);
  SmallVector<Value, 1> leaves;
  if (!loadStructVariable(vd, leaves, loc(e->getRange()), first, count))
    return {};
  return leaves.front();
}

bool MLIRGen::checkMemoryGets() {
  SmallVector<MemoryGet> gets;
  std::swap(gets, pendingMemoryGets);
  for (MemoryGet &g : gets) {
    // From the get out to the op of the barrier's block around it: a loop
    // with a barrier ends the superstep before the get in its later rounds.
    Block *block = g.barrier->getBlock();
    for (Operation *op = g.get; op->getBlock() != block;) {
      op = op->getParentOp();
      if (!op)
        break;
      if (isa<scf::WhileOp>(op) && mayEndSuperstep(op)) {
        reportMemoryGet(g.get.getLoc(), g.name);
        return false;
      }
    }
  }
  return true;
}

void MLIRGen::reportMemoryGet(Location l, StringRef name) {
  failed = true;
  emitError(l) << "'thread.get' reads '" << name
               << "' as another thread had it at the end of the previous "
                  "superstep, but no barrier separates this get from the "
                  "declaration of '"
               << name
               << "' (a variable whose address is taken, or a struct with "
                  "an array field, is read at the one barrier before the "
                  "get, outside any branch or loop with barriers)";
}

Value MLIRGen::loadVariable(bsgp::VarDecl *vd, bsgp::SourceRange where) {
  Location l = loc(where);
  if (getRank && !vd->isHost()) {
    // The value at the barrier that ended the previous superstep, as
    // thread r had it.
    SmallVector<Value, 1> got;
    return loadForGet(vd, got, l) ? got.front() : Value();
  }
  Value slot = env.lookup(vd);
  OpBuilder::InsertionGuard guard(b);
  if (!slotReachable(vd) && !hostSlotLoadPoint(vd, where))
    return {};
  return bsgp::PtrLoadOp::create(
      b, l, cast<bsgp::PtrType>(slot.getType()).getElementType(), slot,
      constInt(b.getI32Type(), 0, l));
}

bool MLIRGen::loadStructVariable(bsgp::VarDecl *vd, SmallVectorImpl<Value> &out,
                                 Location l, unsigned first, unsigned count) {
  SmallVector<Value> leaves;
  if (getRank && !vd->isHost()) {
    if (!loadForGet(vd, leaves, l))
      return false;
  } else {
    OpBuilder::InsertionGuard guard(b);
    if (!slotReachable(vd) && !hostSlotLoadPoint(vd, vd->getRange()))
      return false;
    if (!loadStruct(env.lookup(vd), asStructValue(vd->getType()), leaves, l,
                    vd->getRange()))
      return false;
  }
  count = std::min<unsigned>(count, leaves.size() - first);
  llvm::append_range(out, ArrayRef<Value>(leaves).slice(first, count));
  return true;
}
