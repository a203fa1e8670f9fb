//===- MLIRGenStmt.cpp - statements to MLIR -------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Statement lists (with the rest of a block under `if (!flag)` after an
/// early exit), returns, ifs, loops, spawn, require and par.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlirgen;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void MLIRGen::emitStmtList(ArrayRef<bsgp::Stmt *> stmts) {
  for (size_t i = 0; i < stmts.size() && !failed; ++i) {
    bsgp::Stmt *s = stmts[i];
    emitStmt(s);
    if (failed || i + 1 == stmts.size())
      return;
    // A return at the end of the function's own block ends it: nothing
    // after it runs.
    Block *cur = b.getInsertionBlock();
    if (!cur->empty() && cur->back().hasTrait<OpTrait::IsTerminator>())
      return;
    Effects e = effectsOf(s);
    bool mayExit = (e.hasReturn && useReturnFlag) ||
                   (!loops.empty() && (e.hasBreak || e.hasContinue));
    if (!mayExit)
      continue;
    // The rest of the block runs only if no exit was taken.
    ArrayRef<bsgp::Stmt *> rest = stmts.drop_front(i + 1);
    Location l = loc(rest.front()->getRange());
    Value any = anyExitFlag(l);
    if (!any)
      continue;
    Effects restEffects;
    for (bsgp::Stmt *r : rest)
      collectEffects(r, restEffects, false);
    SmallVector<VarKey> keys = carriedKeys(restEffects);
    SmallVector<Value> before = currentValues(keys);
    SmallVector<Type> types;
    for (Value v : before)
      types.push_back(v.getType());
    Value go = arith::XOrIOp::create(b, l, any,
                                     arith::ConstantIntOp::create(b, l, 1, 1));
    auto ifOp = scf::IfOp::create(b, l, types, go, true, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitStmtList(rest);
    if (failed)
      return;
    scf::YieldOp::create(b, l, currentValues(keys));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, l, before);
    b.setInsertionPointAfter(ifOp);
    rebind(keys, ifOp.getResults());
    return;
  }
}

void MLIRGen::emitStmt(bsgp::Stmt *s) {
  if (!s || failed)
    return;
  Location l = loc(s->getRange());
  switch (s->getKind()) {
  case bsgp::Stmt::SK_Compound:
    emitStmtList(cast<bsgp::CompoundStmt>(s)->body());
    return;
  case bsgp::Stmt::SK_Decl:
    for (bsgp::VarDecl *vd : cast<bsgp::DeclStmt>(s)->decls())
      emitDecl(vd);
    return;
  case bsgp::Stmt::SK_Expr: {
    // A collective whose result is dropped may skip work (the total of a
    // scan of 64-bit values).
    bsgp::Expr *expr = cast<bsgp::ExprStmt>(s)->getExpr();
    discarded = expr;
    emitExpr(expr);
    discarded = nullptr;
    return;
  }
  case bsgp::Stmt::SK_Null:
    return;
  case bsgp::Stmt::SK_If:
    emitIf(cast<bsgp::IfStmt>(s));
    return;
  case bsgp::Stmt::SK_For: {
    auto *f = cast<bsgp::ForStmt>(s);
    emitStmt(f->getInit());
    emitLoop(s, f->getCond(), f->getBody(), f->getInc(), true);
    return;
  }
  case bsgp::Stmt::SK_While: {
    auto *w = cast<bsgp::WhileStmt>(s);
    emitLoop(s, w->getCond(), w->getBody(), nullptr, true);
    return;
  }
  case bsgp::Stmt::SK_Do: {
    auto *d = cast<bsgp::DoStmt>(s);
    emitLoop(s, d->getCond(), d->getBody(), nullptr, false);
    return;
  }
  case bsgp::Stmt::SK_Break:
  case bsgp::Stmt::SK_Continue: {
    if (loops.empty()) {
      (void)unsupported(s->getRange(), "break or continue outside a loop");
      return;
    }
    VarKey k = s->getKind() == bsgp::Stmt::SK_Break
                   ? VarKey(&loops.back()->breakKey)
                   : VarKey(&loops.back()->continueKey);
    env[k] = arith::ConstantIntOp::create(b, l, 1, 1);
    return;
  }
  case bsgp::Stmt::SK_Return:
    emitReturn(cast<bsgp::ReturnStmt>(s));
    return;
  case bsgp::Stmt::SK_Spawn:
    emitSpawn(cast<bsgp::SpawnStmt>(s));
    return;
  case bsgp::Stmt::SK_Barrier: {
    auto op = bsgp::BarrierOp::create(b, l);
    if (cast<bsgp::BarrierStmt>(s)->isRankReassigned())
      op.setRankReassigned(true);
    return;
  }
  case bsgp::Stmt::SK_Require:
    emitRequire(cast<bsgp::RequireStmt>(s));
    return;
  case bsgp::Stmt::SK_Par:
    emitPar(cast<bsgp::ParStmt>(s));
    return;
  case bsgp::Stmt::SK_Delete:
    if (Value list = emitExpr(cast<bsgp::DeleteStmt>(s)->getList()))
      bsgp::DFreeOp::create(b, l, list);
    return;
  default:
    if (auto *e = dyn_cast<bsgp::Expr>(s)) {
      emitExpr(e);
      return;
    }
    (void)unsupported(s->getRange(), "this statement");
  }
}

void MLIRGen::emitReturn(bsgp::ReturnStmt *s) {
  Location l = loc(s->getRange());
  if (s->getValue() && asStructValue(s->getValue()->getType())) {
    SmallVector<Value> leaves;
    if (!emitStructValue(s->getValue(), leaves))
      return;
    if (useReturnFlag) {
      env[&returnFlagKey] = arith::ConstantIntOp::create(b, l, 1, 1);
      bindStruct(&returnValueKey, asStructValue(s->getValue()->getType()),
                 leaves, "");
      return;
    }
    func::ReturnOp::create(b, l, leaves);
    return;
  }
  Value v;
  if (s->getValue())
    v = emitExpr(s->getValue());
  if (failed)
    return;
  if (useReturnFlag) {
    env[&returnFlagKey] = arith::ConstantIntOp::create(b, l, 1, 1);
    if (v)
      env[&returnValueKey] = v;
    return;
  }
  // `return;` in `void main()`, which returns an exit status of 0.
  auto fn =
      b.getInsertionBlock()->getParentOp()->getParentOfType<func::FuncOp>();
  if (!fn)
    fn = dyn_cast<func::FuncOp>(b.getInsertionBlock()->getParentOp());
  if (!v && fn && fn.getNumResults() == 1)
    v = zeroOf(fn.getResultTypes()[0], l);
  if (v)
    func::ReturnOp::create(b, l, v);
  else
    func::ReturnOp::create(b, l);
}

void MLIRGen::emitIf(bsgp::IfStmt *s) {
  Location l = loc(s->getRange());
  Value cond = emitExpr(s->getCond());
  if (!cond)
    return;
  cond = emitToBool(cond, l);
  Effects e = effectsOf(s->getThen());
  if (s->getElse())
    collectEffects(s->getElse(), e, false);
  SmallVector<VarKey> keys = carriedKeys(e);
  SmallVector<Value> before = currentValues(keys);
  SmallVector<Type> types;
  for (Value v : before)
    types.push_back(v.getType());

  auto ifOp = scf::IfOp::create(b, l, types, cond, true, true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitStmt(s->getThen());
    if (failed)
      return;
    scf::YieldOp::create(b, l, currentValues(keys));
    rebind(keys, before);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    emitStmt(s->getElse());
    if (failed)
      return;
    scf::YieldOp::create(b, l, currentValues(keys));
  }
  rebind(keys, ifOp.getResults());
}

void MLIRGen::emitLoop(bsgp::Stmt *s, bsgp::Expr *condExpr, bsgp::Stmt *body,
                       bsgp::Expr *inc, bool condFirst) {
  Location l = loc(s->getRange());
  LoopFlags flags;
  Effects e = effectsOf(s);
  Effects bodyEffects;
  collectEffects(body, bodyEffects, false);

  // The loop's own flags, live only inside it.
  Value falseV = arith::ConstantIntOp::create(b, l, 0, 1);
  bool hasBreak = bodyEffects.hasBreak, hasContinue = bodyEffects.hasContinue;
  SmallVector<VarKey> keys = carriedKeys(e);
  if (hasBreak) {
    env[&flags.breakKey] = falseV;
    keys.push_back(&flags.breakKey);
  }
  if (hasContinue) {
    env[&flags.continueKey] = falseV;
    keys.push_back(&flags.continueKey);
  }
  SmallVector<Value> inits = currentValues(keys);
  SmallVector<Type> types;
  for (Value v : inits)
    types.push_back(v.getType());

  auto whileOp = scf::WhileOp::create(b, l, types, inits);
  // Every exit path below leaves the builder right after the loop.
  llvm::scope_exit restore([&] { b.setInsertionPointAfter(whileOp); });
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types,
                                SmallVector<Location>(types.size(), l));
  Block *after = b.createBlock(&whileOp.getAfter(), {}, types,
                               SmallVector<Location>(types.size(), l));
  loops.push_back(&flags);

  // "Keep going" = no return or break taken, and the condition holds. The
  // condition is evaluated only when no exit was taken (it may read memory
  // that an exit guarded).
  auto emitCondition = [&]() -> Value {
    Value stop;
    auto addStop = [&](VarKey k) {
      if (!llvm::is_contained(keys, k))
        return;
      Value f = env.lookup(k);
      stop = stop ? arith::OrIOp::create(b, l, stop, f).getResult() : f;
    };
    if (useReturnFlag)
      addStop(&returnFlagKey);
    addStop(&flags.breakKey);
    if (!condExpr) {
      Value t = arith::ConstantIntOp::create(b, l, 1, 1);
      return stop ? arith::XOrIOp::create(b, l, stop, t).getResult() : t;
    }
    if (!stop) {
      Value c = emitExpr(condExpr);
      return c ? emitToBool(c, l) : Value();
    }
    auto ifOp =
        scf::IfOp::create(b, l, TypeRange{b.getI1Type()}, stop, true, true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, l,
                         ValueRange{arith::ConstantIntOp::create(b, l, 0, 1)});
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value c = emitExpr(condExpr);
    if (!c)
      return {};
    scf::YieldOp::create(b, l, ValueRange{emitToBool(c, l)});
    return ifOp.getResult(0);
  };
  auto emitBodyAndInc = [&]() {
    if (hasContinue)
      env[&flags.continueKey] = arith::ConstantIntOp::create(b, l, 0, 1);
    emitStmt(body);
    if (failed || !inc)
      return;
    // The increment runs after a continue, but not after a break/return.
    if (hasContinue)
      env[&flags.continueKey] = arith::ConstantIntOp::create(b, l, 0, 1);
    Value stop;
    if (useReturnFlag && llvm::is_contained(keys, VarKey(&returnFlagKey)))
      stop = env.lookup(&returnFlagKey);
    if (hasBreak)
      stop = stop
                 ? arith::OrIOp::create(b, l, stop, env.lookup(&flags.breakKey))
                       .getResult()
                 : env.lookup(&flags.breakKey);
    if (!stop) {
      emitExpr(inc);
      return;
    }
    Effects incEffects = effectsOf(inc);
    SmallVector<VarKey> incKeys = carriedKeys(incEffects);
    SmallVector<Value> old = currentValues(incKeys);
    SmallVector<Type> incTypes;
    for (Value v : old)
      incTypes.push_back(v.getType());
    Value go = arith::XOrIOp::create(b, l, stop,
                                     arith::ConstantIntOp::create(b, l, 1, 1));
    auto ifOp = scf::IfOp::create(b, l, incTypes, go, true, true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitExpr(inc);
    scf::YieldOp::create(b, l, currentValues(incKeys));
    rebind(incKeys, old);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, l, old);
    b.setInsertionPointAfter(ifOp);
    rebind(incKeys, ifOp.getResults());
  };

  if (condFirst) {
    b.setInsertionPointToStart(before);
    rebind(keys, before->getArguments());
    Value c = emitCondition();
    if (!c || failed) {
      loops.pop_back();
      return;
    }
    scf::ConditionOp::create(b, l, c, currentValues(keys));
    b.setInsertionPointToStart(after);
    rebind(keys, after->getArguments());
    emitBodyAndInc();
    if (failed) {
      loops.pop_back();
      return;
    }
    scf::YieldOp::create(b, l, currentValues(keys));
  } else {
    // do { body } while (cond): the body is the "before" region.
    b.setInsertionPointToStart(before);
    rebind(keys, before->getArguments());
    emitBodyAndInc();
    if (failed) {
      loops.pop_back();
      return;
    }
    Value c = emitCondition();
    if (!c || failed) {
      loops.pop_back();
      return;
    }
    scf::ConditionOp::create(b, l, c, currentValues(keys));
    b.setInsertionPointToStart(after);
    scf::YieldOp::create(b, l, ValueRange(after->getArguments()));
  }
  loops.pop_back();
  rebind(keys, whileOp.getResults());
  env.erase(&flags.breakKey);
  env.erase(&flags.continueKey);
}

/// The spawn's count as the `int` the spawn op takes. An `int` (or a
/// narrower type) is taken as is: the launch sign-extends it, so the
/// runtime reports a negative count as such. A count of another type goes
/// through `bsgprt_spawn_count`, which reports one that is not a valid
/// `int` count at the spawn's line and yields 0 for it, rather than letting
/// it wrap around to a different number of threads.
Value MLIRGen::emitSpawnCount(Value n, bsgp::Expr *count, Location l,
                              bool alwaysCheck) {
  const bsgp::Type *from = count->getType();
  unsigned width = n.getType().getIntOrFloatBitWidth();
  bool sgn = isSigned(from);
  if (!alwaysCheck && (width < 32 || (width == 32 && sgn)))
    return toI32(n, from, l);
  Type i64 = b.getI64Type();
  if (width < 64)
    n = sgn ? (Value)arith::ExtSIOp::create(b, l, i64, n)
            : (Value)arith::ExtUIOp::create(b, l, i64, n);
  else if (!sgn) // above INT64_MAX: still far too many threads
    n = arith::MinUIOp::create(
        b, l, n, arith::ConstantIntOp::create(b, l, i64, INT64_MAX));
  return emitCountCheck(n, l);
}

/// The runtime's check that \p n64 is a thread count (from 0 to INT_MAX),
/// which reports the spawn's source location otherwise.
Value MLIRGen::emitCountCheck(Value n64, Location l) {
  Type i64 = b.getI64Type();
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>("bsgprt_spawn_count");
  Type llvmPtr = LLVM::LLVMPointerType::get(&ctx);
  if (!callee) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    callee = LLVM::LLVMFuncOp::create(
        mb, l, "bsgprt_spawn_count",
        LLVM::LLVMFunctionType::get(b.getI32Type(), {i64, llvmPtr}));
  }
  std::string where = "<unknown>";
  if (auto fl = dyn_cast<FileLineColLoc>(l))
    where = (fl.getFilename().getValue() + ":" + Twine(fl.getLine()) + ":" +
             Twine(fl.getColumn()))
                .str();
  Value str =
      UnrealizedConversionCastOp::create(b, l, llvmPtr, stringLiteral(where, l))
          .getResult(0);
  return LLVM::CallOp::create(b, l, callee, ValueRange{n64, str}).getResult();
}

void MLIRGen::emitSpawn(bsgp::SpawnStmt *s) {
  Location l = loc(s->getRange());
  // Sema converts the count to int; a wider or unsigned count is checked
  // by emitSpawnCount before that conversion could wrap it around.
  // A domain of 2 or 3 dimensions checks each extent and each partial
  // product, so that thread.nx, thread.ny and nx * ny (for thread.z) are
  // ints too.
  bool multi = s->getNumDims() > 1;
  SmallVector<Value, 4> domain;
  Value n;
  for (bsgp::Expr *count : s->getExtents()) {
    if (auto *c = dyn_cast<bsgp::ImplicitCastExpr>(count);
        c && c->getCastKind() == bsgp::ImplicitCastExpr::IntegralCast &&
        c->getSubExpr()->getType()->isInteger())
      count = c->getSubExpr();
    Value e = emitExpr(count);
    if (!e)
      return;
    // A 1-D count is reported at the spawn, a domain's extent at itself.
    e = emitSpawnCount(e, count, multi ? loc(count->getRange()) : l, multi);
    domain.push_back(e);
    if (!n) {
      n = e;
      continue;
    }
    Type i64 = b.getI64Type();
    Value product =
        arith::MulIOp::create(b, l, arith::ExtUIOp::create(b, l, i64, n),
                              arith::ExtUIOp::create(b, l, i64, e));
    n = emitCountCheck(product, l);
    if (domain.size() == 2 && s->getNumDims() == 3)
      domain.push_back(n); // nx * ny, after nz below
  }
  if (s->getNumDims() == 3)
    std::swap(domain[2], domain[3]);
  spawnDomain = domain;
  auto clearDomain = llvm::make_scope_exit([&] { spawnDomain.clear(); });
  assignedInRequire.clear();
  auto spawn = bsgp::SpawnOp::create(b, l, TypeRange{}, n);
  if (unsigned block = s->getBlockSize())
    spawn->setAttr(bsgp::kBlockSizeAttrName, b.getI32IntegerAttr(block));
  if (unsigned blocks = s->getMinBlocks())
    spawn->setAttr(bsgp::kMinBlocksAttrName, b.getI32IntegerAttr(blocks));
  Block *body = new Block();
  spawn.getBody().push_back(body);
  llvm::DenseMap<VarKey, Value> outer = env;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  // Device code cannot return from the host function; loops inside a spawn
  // start a fresh loop nest.
  bool savedFlag = useReturnFlag;
  SmallVector<LoopFlags *> savedLoops;
  std::swap(savedLoops, loops);
  useReturnFlag = false;
  emitStmtList(s->getBody()->body());
  useReturnFlag = savedFlag;
  std::swap(savedLoops, loops);
  if (failed || !checkPuts())
    return;
  for (auto &[get, name] : pendingGets) {
    if (bsgp::isSeparatedByBarrier(get.getValue(), get))
      continue;
    failed = true;
    emitError(get.getLoc())
        << "'thread.get' reads '" << name
        << "' as another thread had it at the end of the previous superstep, "
           "but no barrier separates this get from the assignment of '"
        << name << "'";
    return;
  }
  pendingGets.clear();
  if (!checkMemoryGets())
    return;

  // Host variables from before the spawn that its require blocks assigned
  // keep their new values after it: the spawn yields them. Sema allows
  // such assignments only in requires at the top level of the body.
  SmallVector<VarKey> keys;
  SmallVector<Value> vals;
  SmallVector<Type> types;
  SmallVector<VarKey> assigned;
  for (VarKey k : effectsOf(s->getBody()).assigned)
    appendKeys(k, assigned);
  for (VarKey k : assigned) {
    if (!outer.count(k))
      continue;
    Value v = env.lookup(k);
    if (v == outer.lookup(k))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !isa<bsgp::RequireOp>(def) || def->getBlock() != body)
      continue;
    keys.push_back(k);
    vals.push_back(v);
    types.push_back(v.getType());
  }
  bsgp::YieldOp::create(b, loc(s->getRange().End), vals);
  env = outer;
  b.setInsertionPoint(spawn);
  // A spawn of no threads runs nothing, not even its require blocks (the
  // reference interpreter's rule): the host variables keep their values.
  // Without threads, no thread would compute the uniform values its
  // branches and loops test. A negative count still reaches the runtime,
  // which reports it at the launch.
  Value any = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, n,
                                    arith::ConstantIntOp::create(b, l, 0, 32));
  auto guardIf = scf::IfOp::create(b, l, types, any, /*addThenBlock=*/true,
                                   /*addElseBlock=*/true);
  b.setInsertionPointToStart(guardIf.thenBlock());
  auto run = bsgp::SpawnOp::create(b, l, types, n);
  run->setAttrs(spawn->getAttrs());
  run.getBody().takeBody(spawn.getBody());
  spawn.erase();
  b.setInsertionPointToEnd(guardIf.thenBlock());
  scf::YieldOp::create(b, l, run.getResults());
  b.setInsertionPointToEnd(guardIf.elseBlock());
  SmallVector<Value> old;
  for (VarKey k : keys)
    old.push_back(outer.lookup(k));
  scf::YieldOp::create(b, l, old);
  b.setInsertionPointAfter(guardIf);
  if (!keys.empty())
    rebind(keys, guardIf.getResults());
}

/// thread.rank, thread.size and thread.oldrank are ops; the coordinates in
/// the spawn's domain follow the rank, `rank == x + nx * (y + ny * z)`, with
/// the extents the host computed before the spawn (kernel parameters once
/// the supersteps are outlined). Ranks are never negative and the extents of
/// a spawn with threads never 0, so the divisions are unsigned.
Value MLIRGen::emitThreadAttr(bsgp::ThreadAttrExpr *e) {
  using TA = bsgp::ThreadAttrExpr;
  Location l = loc(e->getRange());
  Type i32 = b.getI32Type();
  TA::Attr a = e->getAttr();
  switch (a) {
  case TA::Rank:
    return bsgp::ThreadRankOp::create(b, l, i32);
  case TA::Size:
    return bsgp::ThreadSizeOp::create(b, l, i32);
  case TA::OldRank:
    return bsgp::OldRankOp::create(b, l, i32);
  default:
    break;
  }
  unsigned dims = spawnDomain.size() == 4 ? 3 : spawnDomain.size();
  if (dims == 0) { // Sema allows these directly in a spawn body only
    failed = true;
    emitError(l) << "'thread." << TA::getName(a) << "' outside a spawn";
    return {};
  }
  auto extent = [&](unsigned d) -> Value {
    return d < dims ? spawnDomain[d] : constInt(i32, 1, l);
  };
  if (a == TA::NX || a == TA::NY || a == TA::NZ)
    return extent(a - TA::NX);
  unsigned d = a - TA::X;
  if (d >= dims)
    return constInt(i32, 0, l);
  Value rank = bsgp::ThreadRankOp::create(b, l, i32);
  if (dims == 1)
    return rank;
  // x = rank % nx; y = rank / nx (% ny in 3-D); z = rank / (nx * ny).
  if (d == 0)
    return arith::RemUIOp::create(b, l, rank, spawnDomain[0]);
  if (d == 2)
    return arith::DivUIOp::create(b, l, rank, spawnDomain[3]);
  Value y = arith::DivUIOp::create(b, l, rank, spawnDomain[0]);
  return dims == 3 ? (Value)arith::RemUIOp::create(b, l, y, spawnDomain[1]) : y;
}

void MLIRGen::emitRequire(bsgp::RequireStmt *s) {
  Location l = loc(s->getRange());
  Effects e = effectsOf(s->getBody());
  llvm::DenseMap<VarKey, Value> before = env;
  auto req = bsgp::RequireOp::create(b, l, TypeRange{});
  Block *body = new Block();
  req.getBody().push_back(body);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(body);
    emitStmt(s->getBody());
    if (failed)
      return;
  }
  // require opens no scope: whatever it assigned or declared at its top
  // level is visible after it, so those values are its results. That
  // includes a variable given the value of another one from outside
  // (`a = b;`): the spawn yields require results only.
  SmallVector<VarKey> keys;
  SmallVector<Value> vals;
  SmallVector<Type> types;
  SmallVector<VarKey> assigned;
  for (VarKey k : e.assigned)
    appendKeys(k, assigned);
  for (VarKey k : assigned) {
    auto it = env.find(k);
    if (it == env.end() || before.lookup(k) == it->second)
      continue;
    // Variables of blocks nested in the require end with them.
    Region *r = it->second.getParentRegion();
    if (r != &req.getBody() && req->isProperAncestor(r->getParentOp()))
      continue;
    keys.push_back(k);
    vals.push_back(it->second);
    types.push_back(it->second.getType());
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(body);
    bsgp::YieldOp::create(b, l, vals);
  }
  if (keys.empty())
    return;
  // Results cannot be added to an op; rebuild it with them.
  auto withResults = bsgp::RequireOp::create(b, l, types);
  withResults.getBody().takeBody(req.getBody());
  req.erase();
  rebind(keys, withResults.getResults());
}

void MLIRGen::emitPar(bsgp::ParStmt *s) {
  Location l = loc(s->getRange());
  ArrayRef<bsgp::Stmt *> stmts = s->getBody()->body();
  SmallVector<SmallVector<VarKey>> keysPer;
  SmallVector<Type> types;
  for (bsgp::Stmt *st : stmts) {
    Effects e = effectsOf(st);
    SmallVector<VarKey> k = carriedKeys(e);
    for (VarKey key : k)
      types.push_back(env.lookup(key).getType());
    keysPer.push_back(std::move(k));
  }
  OperationState state(l, bsgp::ParOp::getOperationName());
  state.addTypes(types);
  for (size_t i = 0; i < stmts.size(); ++i)
    state.addRegion();
  auto par = cast<bsgp::ParOp>(b.create(state));
  llvm::DenseMap<VarKey, Value> outer = env;
  bool declares = false;
  for (auto [i, st] : llvm::enumerate(stmts)) {
    Block *blk = new Block();
    par->getRegion(i).push_back(blk);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(blk);
    env = outer;
    emitStmt(st);
    if (failed)
      return;
    // par opens no scope (Listing 8): a variable a statement declares or
    // first assigns at its top level is read after the par, so it is a
    // result too.
    for (VarKey k : effectsOf(st).assigned) {
      auto it = env.find(k);
      if (outer.count(k) || it == env.end() ||
          it->second.getParentRegion() != &par->getRegion(i))
        continue;
      keysPer[i].push_back(k);
      declares = true;
    }
    bsgp::YieldOp::create(b, l, currentValues(keysPer[i]));
  }
  env = outer;
  if (declares) {
    // Results cannot be added to an op; rebuild it with them.
    OperationState withResults(l, bsgp::ParOp::getOperationName());
    for (Region &region : par->getRegions())
      withResults.addTypes(region.front().getTerminator()->getOperandTypes());
    for (size_t i = 0; i < stmts.size(); ++i)
      withResults.addRegion();
    auto rebuilt = cast<bsgp::ParOp>(b.create(withResults));
    for (size_t i = 0; i < stmts.size(); ++i)
      rebuilt->getRegion(i).takeBody(par->getRegion(i));
    par.erase();
    par = rebuilt;
  }
  unsigned r = 0;
  for (auto &keys : keysPer)
    for (VarKey k : keys)
      env[k] = par->getResult(r++);
}
