//===- MLIRGenEffects.cpp - what statements assign and how they exit ------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Before an if or a loop is emitted, its effects are collected: the
/// variables it assigns (which the scf op carries as results or loop values)
/// and the early exits it contains (whose flags it carries too).
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

using namespace mlir;
using namespace mlirgen;

//===----------------------------------------------------------------------===//
// Effects of statements
//===----------------------------------------------------------------------===//

bsgp::VarDecl *MLIRGen::asVariable(bsgp::Expr *e) {
  if (!e)
    return nullptr;
  if (auto *p = dyn_cast<bsgp::ParenExpr>(e))
    return asVariable(p->getSubExpr());
  if (auto *d = dyn_cast<bsgp::DeclRefExpr>(e)) {
    // A variable in memory is written there, not rebound.
    auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
    return vd && addressTaken.contains(vd) ? nullptr : vd;
  }
  // v.x = ... and v[i] = ... on a vector variable rebind v.
  // So do v.f = ... on a struct variable, and v.f.x = ... .
  if (auto *m = dyn_cast<bsgp::MemberExpr>(e))
    if (!m->isArrow() && (!m->getField() || !isStructInMemory(m)))
      return asVariable(m->getBase());
  if (auto *ix = dyn_cast<bsgp::IndexExpr>(e))
    if (ix->getBase()->getType() &&
        ix->getBase()->getType()->getUnqualified()->isVector())
      return asVariable(ix->getBase());
  return nullptr;
}

/// The expression part of collectEffects: assignments, increments,
/// thread.put and scan write variables; expressions hold no early exits.
void MLIRGen::collectExprEffects(bsgp::Expr *ex, Effects &e) {
  // Walk expressions for assignments, increments and thread.put.
  SmallVector<bsgp::Expr *> work{ex};
  while (!work.empty()) {
    bsgp::Expr *x = work.pop_back_val();
    if (!x)
      continue;
    switch (x->getKind()) {
    case bsgp::Stmt::SK_Binary: {
      auto *bo = cast<bsgp::BinaryOperator>(x);
      if (bo->isAssignmentOp())
        if (bsgp::VarDecl *v = asVariable(bo->getLHS()))
          e.assigned.insert(v);
      work.push_back(bo->getLHS());
      work.push_back(bo->getRHS());
      break;
    }
    case bsgp::Stmt::SK_Unary: {
      auto *uo = cast<bsgp::UnaryOperator>(x);
      auto op = uo->getOpcode();
      if (op == bsgp::UnaryOperator::PreInc ||
          op == bsgp::UnaryOperator::PreDec ||
          op == bsgp::UnaryOperator::PostInc ||
          op == bsgp::UnaryOperator::PostDec)
        if (bsgp::VarDecl *v = asVariable(uo->getSubExpr()))
          e.assigned.insert(v);
      work.push_back(uo->getSubExpr());
      break;
    }
    case bsgp::Stmt::SK_Paren:
      work.push_back(cast<bsgp::ParenExpr>(x)->getSubExpr());
      break;
    case bsgp::Stmt::SK_ImplicitCast:
      work.push_back(cast<bsgp::ImplicitCastExpr>(x)->getSubExpr());
      break;
    case bsgp::Stmt::SK_Cast:
      work.push_back(cast<bsgp::CastExpr>(x)->getSubExpr());
      break;
    case bsgp::Stmt::SK_Conditional: {
      auto *c = cast<bsgp::ConditionalOperator>(x);
      work.append({c->getCond(), c->getTrueExpr(), c->getFalseExpr()});
      break;
    }
    case bsgp::Stmt::SK_Call:
      for (bsgp::Expr *a : cast<bsgp::CallExpr>(x)->args())
        work.push_back(a);
      break;
    case bsgp::Stmt::SK_BuiltinCall: {
      auto *bc = cast<bsgp::BuiltinCallExpr>(x);
      if (bc->getBuiltinKind() == bsgp::BuiltinCallExpr::ThreadPut &&
          bc->args().size() == 3)
        if (bsgp::VarDecl *v = asVariable(bc->args()[1]))
          e.assigned.insert(v);
      // scan(op, x) and segscan(op, x, head) overwrite x with its
      // exclusive scan: a par branch or
      // a uniform if around it must carry x out.
      if ((bc->getBuiltinKind() == bsgp::BuiltinCallExpr::Scan ||
           bc->getBuiltinKind() == bsgp::BuiltinCallExpr::SegScan) &&
          !bc->args().empty())
        if (bsgp::VarDecl *v = asVariable(bc->args()[0]))
          e.assigned.insert(v);
      for (bsgp::Expr *a : bc->args())
        work.push_back(a);
      break;
    }
    case bsgp::Stmt::SK_Index:
      work.push_back(cast<bsgp::IndexExpr>(x)->getBase());
      work.push_back(cast<bsgp::IndexExpr>(x)->getIndex());
      break;
    case bsgp::Stmt::SK_Member:
      work.push_back(cast<bsgp::MemberExpr>(x)->getBase());
      break;
    case bsgp::Stmt::SK_Construct:
      for (bsgp::Expr *a : cast<bsgp::ConstructExpr>(x)->args())
        work.push_back(a);
      break;
    case bsgp::Stmt::SK_New:
      work.push_back(cast<bsgp::NewExpr>(x)->getCount());
      break;
    case bsgp::Stmt::SK_Atomic:
      for (bsgp::Expr *a : cast<bsgp::AtomicExpr>(x)->args())
        work.push_back(a);
      break;
    case bsgp::Stmt::SK_MathBuiltin:
      for (bsgp::Expr *a : cast<bsgp::MathBuiltinExpr>(x)->args())
        work.push_back(a);
      break;
    case bsgp::Stmt::SK_InitList:
      for (bsgp::Expr *a : cast<bsgp::InitListExpr>(x)->getFlat())
        if (a)
          work.push_back(a);
      break;
    case bsgp::Stmt::SK_Group:
      for (bsgp::Expr *a : cast<bsgp::GroupExpr>(x)->args())
        work.push_back(a);
      break;
    default:
      break;
    }
  }
}

void MLIRGen::collectEffects(bsgp::Stmt *s, Effects &e, bool inLoop) {
  if (!s)
    return;
  if (auto *ex = dyn_cast<bsgp::Expr>(s)) {
    collectExprEffects(ex, e);
    return;
  }
  switch (s->getKind()) {
  case bsgp::Stmt::SK_Compound:
    for (bsgp::Stmt *c : cast<bsgp::CompoundStmt>(s)->body())
      collectEffects(c, e, inLoop);
    break;
  case bsgp::Stmt::SK_Decl:
    for (bsgp::VarDecl *v : cast<bsgp::DeclStmt>(s)->decls()) {
      e.assigned.insert(v);
      collectEffects(v->getInit(), e, inLoop);
    }
    break;
  case bsgp::Stmt::SK_Expr:
    collectEffects(cast<bsgp::ExprStmt>(s)->getExpr(), e, inLoop);
    break;
  case bsgp::Stmt::SK_If: {
    auto *i = cast<bsgp::IfStmt>(s);
    collectEffects(i->getCond(), e, inLoop);
    collectEffects(i->getThen(), e, inLoop);
    collectEffects(i->getElse(), e, inLoop);
    break;
  }
  case bsgp::Stmt::SK_For: {
    auto *f = cast<bsgp::ForStmt>(s);
    collectEffects(f->getInit(), e, inLoop);
    Effects inner;
    collectEffects(f->getCond(), inner, true);
    collectEffects(f->getBody(), inner, true);
    collectEffects(f->getInc(), inner, true);
    e.assigned.insert(inner.assigned.begin(), inner.assigned.end());
    e.hasReturn |= inner.hasReturn;
    break;
  }
  case bsgp::Stmt::SK_While:
  case bsgp::Stmt::SK_Do: {
    bsgp::Expr *cond = isa<bsgp::WhileStmt>(s)
                           ? cast<bsgp::WhileStmt>(s)->getCond()
                           : cast<bsgp::DoStmt>(s)->getCond();
    bsgp::Stmt *body = isa<bsgp::WhileStmt>(s)
                           ? cast<bsgp::WhileStmt>(s)->getBody()
                           : cast<bsgp::DoStmt>(s)->getBody();
    Effects inner;
    collectEffects(cond, inner, true);
    collectEffects(body, inner, true);
    e.assigned.insert(inner.assigned.begin(), inner.assigned.end());
    e.hasReturn |= inner.hasReturn;
    break;
  }
  case bsgp::Stmt::SK_Return:
    collectEffects(cast<bsgp::ReturnStmt>(s)->getValue(), e, inLoop);
    e.hasReturn = true;
    break;
  case bsgp::Stmt::SK_Delete:
    collectEffects(cast<bsgp::DeleteStmt>(s)->getList(), e, inLoop);
    break;
  case bsgp::Stmt::SK_Break:
    e.hasBreak = true;
    break;
  case bsgp::Stmt::SK_Continue:
    e.hasContinue = true;
    break;
  case bsgp::Stmt::SK_Spawn: {
    // The spawn's require blocks may assign host variables of the code
    // around it (the spawn yields their new values), so a loop or a branch
    // around the spawn carries them. The other variables it assigns are its
    // threads' own, declared inside it, and carriedKeys drops them.
    auto *sp = cast<bsgp::SpawnStmt>(s);
    for (bsgp::Expr *x : sp->getExtents())
      collectEffects(x, e, inLoop);
    Effects inner;
    collectEffects(sp->getBody(), inner, false);
    e.assigned.insert(inner.assigned.begin(), inner.assigned.end());
    break;
  }
  case bsgp::Stmt::SK_Require:
    collectEffects(cast<bsgp::RequireStmt>(s)->getBody(), e, inLoop);
    break;
  case bsgp::Stmt::SK_Par:
    collectEffects(cast<bsgp::ParStmt>(s)->getBody(), e, inLoop);
    break;
  default:
    break;
  }
}

Effects MLIRGen::effectsOf(bsgp::Stmt *s) {
  Effects e;
  collectEffects(s, e, false);
  return e;
}

SmallVector<VarKey> MLIRGen::carriedKeys(const Effects &e) {
  SmallVector<VarKey> keys;
  for (VarKey k : e.assigned)
    appendKeys(k, keys);
  auto addFlag = [&](VarKey k) { appendKeys(k, keys); };
  if (e.hasReturn && useReturnFlag) {
    addFlag(&returnFlagKey);
    addFlag(&returnValueKey);
  }
  if (!loops.empty()) {
    if (e.hasBreak)
      addFlag(&loops.back()->breakKey);
    if (e.hasContinue)
      addFlag(&loops.back()->continueKey);
  }
  return keys;
}

SmallVector<Value> MLIRGen::currentValues(ArrayRef<VarKey> keys) {
  SmallVector<Value> vals;
  for (VarKey k : keys)
    vals.push_back(env.lookup(k));
  return vals;
}

void MLIRGen::rebind(ArrayRef<VarKey> keys, ValueRange values) {
  for (auto [k, v] : llvm::zip(keys, values))
    env[k] = v;
}

Value MLIRGen::anyExitFlag(Location l) {
  Value any;
  auto add = [&](VarKey k) {
    auto it = env.find(k);
    if (it == env.end())
      return;
    any = any ? arith::OrIOp::create(b, l, any, it->second).getResult()
              : it->second;
  };
  if (useReturnFlag)
    add(&returnFlagKey);
  if (!loops.empty()) {
    add(&loops.back()->breakKey);
    add(&loops.back()->continueKey);
  }
  return any;
}
