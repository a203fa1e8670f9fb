//===- MLIRGenStructValues.cpp - struct values as their leaf fields -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Struct values (docs/language.md, "Structs") are scalarized: a struct
/// value is the list of its leaves, the scalar, vector and pointer fields
/// with nested structs flattened in declaration order, one SSA value each.
/// A struct variable is one environment key per leaf (leafKey), so that
/// the scf ops carry each leaf as they carry a scalar variable, and the §4
/// passes save, restore, permute (sortby, fork, kill) and fetch
/// (thread.get) each leaf with no knowledge of structs. A struct parameter
/// or result of a function is one MLIR argument or result per leaf. A
/// struct in memory (an element of a list, `*p`) is read and written leaf
/// by leaf at the C layout's offsets.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "bsgp/AST/Layout.h"

using namespace mlir;
using namespace mlirgen;

const bsgp::StructType *mlirgen::asStructValue(const bsgp::Type *t) {
  return t ? dyn_cast<bsgp::StructType>(t->getUnqualified()) : nullptr;
}

bool MLIRGen::structLeaves(const bsgp::StructType *st,
                           SmallVectorImpl<StructLeaf> &out,
                           bsgp::SourceRange where, uint64_t base) {
  if (!st->getDecl() || !bsgp::typeSize(st)) {
    (void)unsupported(where, "an incomplete struct type");
    return false;
  }
  for (bsgp::FieldDecl *f : st->getDecl()->getFields()) {
    const bsgp::Type *ft = f->getType()->getUnqualified();
    uint64_t offset = base + bsgp::fieldOffset(st, f->getIndex());
    if (auto *sub = dyn_cast<bsgp::StructType>(ft)) {
      if (!structLeaves(sub, out, where, offset))
        return false;
      continue;
    }
    if (!arrayLeaves(ft, out, where, offset))
      return false;
  }
  return true;
}

bool MLIRGen::arrayLeaves(const bsgp::Type *t, SmallVectorImpl<StructLeaf> &out,
                          bsgp::SourceRange where, uint64_t offset) {
  t = t->getUnqualified();
  if (auto *st = dyn_cast<bsgp::StructType>(t))
    return structLeaves(st, out, where, offset);
  auto *at = dyn_cast<bsgp::ArrayType>(t);
  if (!at) {
    out.push_back({t, offset});
    return true;
  }
  // An array field is one leaf per element, at C's element stride.
  uint64_t stride = bsgp::typeSize(at->getElementType());
  for (uint64_t i = 0; i < at->getSize(); ++i)
    if (!arrayLeaves(at->getElementType(), out, where, offset + i * stride))
      return false;
  return true;
}

bool mlirgen::hasArrayField(const bsgp::StructType *st) {
  if (!st || !st->getDecl())
    return false;
  for (bsgp::FieldDecl *f : st->getDecl()->getFields()) {
    const bsgp::Type *ft = f->getType()->getUnqualified();
    if (isa<bsgp::ArrayType>(ft) || hasArrayField(asStructValue(ft)))
      return true;
  }
  return false;
}

bool MLIRGen::structLeafTypes(const bsgp::StructType *st,
                              SmallVectorImpl<Type> &out,
                              bsgp::SourceRange where) {
  SmallVector<StructLeaf> leaves;
  if (!structLeaves(st, leaves, where))
    return false;
  for (const StructLeaf &leaf : leaves) {
    Type t = convertType(leaf.type, where);
    if (!t)
      return false;
    out.push_back(t);
  }
  return true;
}

/// Number of leaves of a field's type: those of a nested struct, those of
/// each element of an array, else one.
static unsigned leafCount(const bsgp::Type *t) {
  if (auto *at = dyn_cast<bsgp::ArrayType>(t->getUnqualified()))
    return at->getSize() * leafCount(at->getElementType());
  auto *st = asStructValue(t);
  if (!st || !st->getDecl())
    return 1;
  unsigned n = 0;
  for (bsgp::FieldDecl *f : st->getDecl()->getFields())
    n += leafCount(f->getType());
  return n;
}

/// The leaves of field \p index of \p st: [first, first + count).
static std::pair<unsigned, unsigned> fieldLeafRange(const bsgp::StructType *st,
                                                    unsigned index) {
  unsigned first = 0;
  for (bsgp::FieldDecl *f : st->getDecl()->getFields()) {
    unsigned n = leafCount(f->getType());
    if (f->getIndex() == index)
      return {first, n};
    first += n;
  }
  return {first, 0};
}

VarKey MLIRGen::leafKey(VarKey base, unsigned i) {
  VarKey &k = leafKeys[{base, i}];
  if (!k)
    k = &keyPool.emplace_back();
  return k;
}

void MLIRGen::appendKeys(VarKey k, SmallVectorImpl<VarKey> &keys) {
  auto it = structVars.find(k);
  if (it == structVars.end()) {
    if (env.count(k) && !llvm::is_contained(keys, k))
      keys.push_back(k);
    return;
  }
  for (unsigned i = 0, n = leafCount(it->second); i < n; ++i) {
    VarKey lk = leafKey(k, i);
    if (env.count(lk) && !llvm::is_contained(keys, lk))
      keys.push_back(lk);
  }
}

void MLIRGen::bindStruct(VarKey k, const bsgp::StructType *st,
                         ArrayRef<Value> leaves, StringRef name) {
  structVars[k] = st;
  for (auto [i, v] : llvm::enumerate(leaves)) {
    if (!name.empty())
      nameValue(v, name);
    env[leafKey(k, i)] = v;
  }
}

bool MLIRGen::structVarValues(bsgp::VarDecl *vd, SmallVectorImpl<Value> &out,
                              Location l, unsigned first, unsigned count) {
  if (isInMemory(vd))
    return loadStructVariable(vd, out, l, first, count);
  const bsgp::StructType *st = asStructValue(vd->getType());
  SmallVector<Type> types;
  if (!structLeafTypes(st, types, vd->getRange()))
    return false;
  count = std::min<unsigned>(count, types.size() - first);
  for (unsigned i = first; i < first + count; ++i) {
    Value v = env.lookup(leafKey(vd, i));
    // Read before any assignment: C leaves it undefined; zero is as good.
    if (!v)
      v = zeroOf(types[i], l);
    else if (getRank && !vd->isHost())
      v = emitGetOfVariable(vd, v, l);
    if (!v)
      return false;
    out.push_back(v);
  }
  return true;
}

/// When \p e is a struct variable or a (nested) field of one, that
/// variable and the range of its leaves \p e is.
bsgp::VarDecl *MLIRGen::varLeafRange(bsgp::Expr *e, unsigned &first,
                                     unsigned &count) {
  e = e->ignoreParenImpCasts();
  if (auto *d = dyn_cast<bsgp::DeclRefExpr>(e)) {
    auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
    if (!vd || vd->getStorage() == bsgp::VarDecl::Global ||
        !asStructValue(vd->getType()))
      return nullptr;
    first = 0;
    count = leafCount(vd->getType());
    return vd;
  }
  auto *m = dyn_cast<bsgp::MemberExpr>(e);
  if (!m || m->isArrow() || !m->getField())
    return nullptr;
  bsgp::VarDecl *vd = varLeafRange(m->getBase(), first, count);
  if (!vd)
    return nullptr;
  auto [sub, n] = fieldLeafRange(asStructValue(m->getBase()->getType()),
                                 m->getField()->getIndex());
  first += sub;
  count = n;
  return vd;
}

/// True when the struct lvalue \p e lives in memory (an element of a list
/// or of a local array, `*p`, `p->s`, or a struct field of one), false for
/// a struct variable and the fields of one.
bool MLIRGen::isStructInMemory(bsgp::Expr *e) {
  e = e->ignoreParenImpCasts();
  if (auto *d = dyn_cast<bsgp::DeclRefExpr>(e)) {
    auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
    return vd && isInMemory(vd) && slotReachable(vd);
  }
  if (auto *m = dyn_cast<bsgp::MemberExpr>(e))
    return m->isArrow() || isStructInMemory(m->getBase());
  if (isa<bsgp::IndexExpr>(e))
    return true;
  if (auto *u = dyn_cast<bsgp::UnaryOperator>(e))
    return u->getOpcode() == bsgp::UnaryOperator::Deref;
  return false;
}

/// A pointer of element type \p t to the leaf \p offset bytes into the
/// struct at \p addr.
Value MLIRGen::leafPointer(Value addr, uint64_t offset, Type t, Location l) {
  Type bytePtr = bsgp::PtrType::get(&ctx, b.getI8Type());
  Value p = bsgp::PtrCastOp::create(b, l, bytePtr, addr);
  if (offset)
    p = bsgp::PtrOffsetOp::create(b, l, bytePtr, p,
                                  constInt(b.getI64Type(), offset, l));
  return bsgp::PtrCastOp::create(b, l, bsgp::PtrType::get(&ctx, t), p);
}

bool MLIRGen::loadStruct(Value addr, const bsgp::StructType *st,
                         SmallVectorImpl<Value> &out, Location l,
                         bsgp::SourceRange where) {
  SmallVector<StructLeaf> leaves;
  if (!structLeaves(st, leaves, where))
    return false;
  for (const StructLeaf &leaf : leaves) {
    Type t = convertType(leaf.type, where);
    if (!t)
      return false;
    Value p = leafPointer(addr, leaf.offset, t, l);
    out.push_back(
        bsgp::PtrLoadOp::create(b, l, t, p, constInt(b.getI32Type(), 0, l)));
  }
  return true;
}

bool MLIRGen::storeStruct(Value addr, const bsgp::StructType *st,
                          ArrayRef<Value> values, Location l,
                          bsgp::SourceRange where) {
  SmallVector<StructLeaf> leaves;
  if (!structLeaves(st, leaves, where))
    return false;
  for (auto [leaf, v] : llvm::zip(leaves, values)) {
    Value p = leafPointer(addr, leaf.offset, v.getType(), l);
    bsgp::PtrStoreOp::create(b, l, v, p, constInt(b.getI32Type(), 0, l));
  }
  return true;
}

/// `{a, b, {c, d}, {e, f}}` for a struct: each element initializes the
/// next field (a nested list a nested struct, or an array field's
/// elements); the fields it leaves out are zero. Sema converted each
/// element to its field's type.
bool MLIRGen::emitStructInitList(bsgp::InitListExpr *il,
                                 const bsgp::StructType *st,
                                 SmallVectorImpl<Value> &out) {
  auto inits = il->inits();
  for (auto [i, f] : llvm::enumerate(st->getDecl()->getFields()))
    if (!emitFieldInit(f->getType(), i < inits.size() ? inits[i] : nullptr,
                       il->getRange(), out))
      return false;
  return true;
}

/// The leaves of a field of type \p t initialized by \p init (null: zero).
bool MLIRGen::emitFieldInit(const bsgp::Type *t, bsgp::Expr *init,
                            bsgp::SourceRange where,
                            SmallVectorImpl<Value> &out) {
  Location l = loc(where);
  if (isa<bsgp::ArrayType>(t->getUnqualified())) {
    // Sema flattened the field's list (brace elision of nested arrays
    // included) to one expression or null per scalar or struct element.
    auto [elem, count] = flattenArray(t);
    ArrayRef<bsgp::Expr *> flat;
    if (auto *list = dyn_cast_or_null<bsgp::InitListExpr>(init))
      flat = list->getFlat();
    for (uint64_t k = 0; k < count; ++k)
      if (!emitFieldInit(elem, k < flat.size() ? flat[k] : nullptr, where, out))
        return false;
    return true;
  }
  if (auto *sub = asStructValue(t)) {
    if (auto *subList = dyn_cast_or_null<bsgp::InitListExpr>(init))
      return emitStructInitList(subList, sub, out);
    if (init)
      return emitStructValue(init, out);
    SmallVector<Type> types;
    if (!structLeafTypes(sub, types, where))
      return false;
    for (Type lt : types)
      out.push_back(zeroOf(lt, l));
    return true;
  }
  Type lt = convertType(t, where);
  if (!lt)
    return false;
  Value v = init ? emitExpr(init) : zeroOf(lt, l);
  if (!v)
    return false;
  out.push_back(v);
  return true;
}

bool MLIRGen::emitStructValue(bsgp::Expr *e, SmallVectorImpl<Value> &out) {
  if (!e || failed)
    return false;
  const bsgp::StructType *st = asStructValue(e->getType());
  Location l = loc(e->getRange());
  switch (e->getKind()) {
  case bsgp::Stmt::SK_Paren:
    return emitStructValue(cast<bsgp::ParenExpr>(e)->getSubExpr(), out);
  case bsgp::Stmt::SK_ImplicitCast:
    // Only a no-op cast (an lvalue read, a qualifier dropped) has a struct
    // type.
    return emitStructValue(cast<bsgp::ImplicitCastExpr>(e)->getSubExpr(), out);
  case bsgp::Stmt::SK_DeclRef: {
    auto *vd =
        dyn_cast_or_null<bsgp::VarDecl>(cast<bsgp::DeclRefExpr>(e)->getDecl());
    // A constant struct is its initializer, made again where it is used
    // (its fields are constants).
    if (vd && vd->getStorage() == bsgp::VarDecl::Global &&
        isGlobalConstant(vd)) {
      auto *il = dyn_cast_or_null<bsgp::InitListExpr>(vd->getInit());
      if (il)
        return emitStructInitList(il, st, out);
      SmallVector<Type> types;
      if (!structLeafTypes(st, types, e->getRange()))
        return false;
      for (Type t : types)
        out.push_back(zeroOf(t, l));
      return true;
    }
    if (!vd || (vd->getStorage() == bsgp::VarDecl::Global && !isInMemory(vd)))
      break;
    return structVarValues(vd, out, l);
  }
  case bsgp::Stmt::SK_InitList:
    return emitStructInitList(cast<bsgp::InitListExpr>(e), st, out);
  case bsgp::Stmt::SK_Member: {
    auto *m = cast<bsgp::MemberExpr>(e);
    if (!m->getField())
      break;
    // Inside a thread.get: thread r's struct field, read at the barrier.
    unsigned gotFirst, gotCount;
    if (bsgp::VarDecl *vd = gotMemoryStruct(m, gotFirst, gotCount))
      return structVarValues(vd, out, l, gotFirst, gotCount);
    if (isStructInMemory(m)) {
      Value addr = fieldAddress(m);
      return addr && loadStruct(addr, st, out, l, e->getRange());
    }
    unsigned first, count;
    if (bsgp::VarDecl *vd = varLeafRange(m, first, count))
      return structVarValues(vd, out, l, first, count);
    SmallVector<Value> base;
    if (!emitStructValue(m->getBase(), base))
      return false;
    std::tie(first, count) = fieldLeafRange(
        asStructValue(m->getBase()->getType()), m->getField()->getIndex());
    llvm::append_range(out, ArrayRef<Value>(base).slice(first, count));
    return true;
  }
  case bsgp::Stmt::SK_Index:
  case bsgp::Stmt::SK_Unary: {
    if (auto *u = dyn_cast<bsgp::UnaryOperator>(e);
        u && u->getOpcode() != bsgp::UnaryOperator::Deref)
      break;
    Value addr = structAddress(e);
    return addr && loadStruct(addr, st, out, l, e->getRange());
  }
  case bsgp::Stmt::SK_Binary: {
    auto *bo = cast<bsgp::BinaryOperator>(e);
    if (bo->getOpcode() == bsgp::BinaryOperator::Comma) {
      emitExpr(bo->getLHS());
      return !failed && emitStructValue(bo->getRHS(), out);
    }
    if (bo->getOpcode() != bsgp::BinaryOperator::Assign)
      break;
    SmallVector<Value> v;
    if (!emitStructValue(bo->getRHS(), v) || !assignStruct(bo->getLHS(), v, l))
      return false;
    llvm::append_range(out, v);
    return true;
  }
  case bsgp::Stmt::SK_Cast:
    // `(struct P)p`: Sema allows only the struct's own type.
    return emitStructValue(cast<bsgp::CastExpr>(e)->getSubExpr(), out);
  case bsgp::Stmt::SK_Call:
    return emitStructCall(cast<bsgp::CallExpr>(e), out);
  case bsgp::Stmt::SK_Conditional:
    return emitStructConditional(cast<bsgp::ConditionalOperator>(e), out);
  case bsgp::Stmt::SK_BuiltinCall: {
    auto *bc = cast<bsgp::BuiltinCallExpr>(e);
    if (bc->getBuiltinKind() != bsgp::BuiltinCallExpr::ThreadGet)
      break;
    Value valid, rank;
    if (!emitGetRank(bc, valid, rank))
      return false;
    Value outer = getRank;
    getRank = rank;
    size_t first = out.size();
    bool ok = emitStructValue(bc->args()[1], out);
    getRank = outer;
    // Outside the spawn, every field is zero.
    for (size_t i = first; ok && i < out.size(); ++i)
      out[i] = zeroUnless(valid, out[i], l);
    return ok;
  }
  default:
    break;
  }
  (void)unsupported(e->getRange(), "this struct-valued expression");
  return false;
}

/// Assigns struct \p values to \p target: a struct variable (rebinding its
/// leaves), a struct field of one, or a struct in memory.
bool MLIRGen::assignStruct(bsgp::Expr *target, ArrayRef<Value> values,
                           Location l) {
  target = target->ignoreParenImpCasts();
  const bsgp::StructType *st = asStructValue(target->getType());
  if (auto *d = dyn_cast<bsgp::DeclRefExpr>(target)) {
    auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
    if (!vd || (vd->getStorage() == bsgp::VarDecl::Global && !isInMemory(vd))) {
      (void)unsupported(target->getRange(), "assigning this");
      return false;
    }
    if (isInMemory(vd)) {
      noteRequireWrite(vd);
      return storeStruct(env.lookup(vd), st, values, l, target->getRange());
    }
    bindStruct(vd, st, values, vd->getName());
    return true;
  }
  if (!isStructInMemory(target)) {
    auto *m = dyn_cast<bsgp::MemberExpr>(target);
    if (!m || !m->getField()) {
      (void)unsupported(target->getRange(), "assigning to this expression");
      return false;
    }
    // A struct field of a struct value: the whole value with the field's
    // leaves replaced, assigned back.
    SmallVector<Value> whole;
    if (!emitStructValue(m->getBase(), whole))
      return false;
    auto [first, count] = fieldLeafRange(asStructValue(m->getBase()->getType()),
                                         m->getField()->getIndex());
    for (unsigned i = 0; i < count; ++i)
      whole[first + i] = values[i];
    return assignStruct(m->getBase(), whole, l);
  }
  Value addr = isa<bsgp::MemberExpr>(target)
                   ? fieldAddress(cast<bsgp::MemberExpr>(target))
                   : structAddress(target);
  return addr && storeStruct(addr, st, values, l, target->getRange());
}

/// Reads scalar or vector field \p m of a struct value (`p.m`, `p.q.v`).
Value MLIRGen::emitValueFieldLoad(bsgp::MemberExpr *m) {
  unsigned first, count;
  if (bsgp::VarDecl *vd = varLeafRange(m, first, count)) {
    // Only the leaf read: a thread.get fetches that one alone.
    SmallVector<Value> leaf;
    if (!structVarValues(vd, leaf, loc(m->getRange()), first, 1))
      return {};
    return leaf[0];
  }
  SmallVector<Value> base;
  if (!emitStructValue(m->getBase(), base))
    return {};
  const bsgp::StructType *st = asStructValue(m->getBase()->getType());
  const bsgp::Type *ft = m->getField()->getType()->getUnqualified();
  if (isa<bsgp::ArrayType>(ft)) {
    // An array field of a struct value that is not a variable (a global
    // constant, a call's result) is indexed in a temporary copy, as C
    // materializes it.
    Location l = loc(m->getRange());
    Type mt = structMemoryType(st, m->getRange());
    Type et = memoryType(flattenArray(ft).first, m->getRange());
    if (!mt || !et)
      return {};
    Value slot = stackSlot(mt, 1, l);
    if (!storeStruct(slot, st, base, l, m->getRange()))
      return {};
    return leafPointer(slot, bsgp::fieldOffset(st, m->getField()->getIndex()),
                       et, l);
  }
  return base[fieldLeafRange(st, m->getField()->getIndex()).first];
}

/// Writes scalar or vector field \p m of a struct value.
Value MLIRGen::emitValueFieldStore(bsgp::MemberExpr *m, Value v, Location l) {
  SmallVector<Value> base;
  if (!emitStructValue(m->getBase(), base))
    return {};
  base[fieldLeafRange(asStructValue(m->getBase()->getType()),
                      m->getField()->getIndex())
           .first] = v;
  return assignStruct(m->getBase(), base, l) ? v : Value();
}

/// `c ? p : q` of structs: an scf.if that yields every leaf.
bool MLIRGen::emitStructConditional(bsgp::ConditionalOperator *c,
                                    SmallVectorImpl<Value> &out) {
  Location l = loc(c->getRange());
  Value cond = emitExpr(c->getCond());
  if (!cond)
    return false;
  cond = emitToBool(cond, l);
  SmallVector<Type> types;
  if (!structLeafTypes(asStructValue(c->getType()), types, c->getRange()))
    return false;
  size_t numLeaves = types.size();
  Effects eff;
  collectEffects(c->getTrueExpr(), eff, false);
  collectEffects(c->getFalseExpr(), eff, false);
  SmallVector<VarKey> keys = carriedKeys(eff);
  SmallVector<Value> before = currentValues(keys);
  for (Value v : before)
    types.push_back(v.getType());
  auto ifOp = scf::IfOp::create(b, l, types, cond, true, true);
  OpBuilder::InsertionGuard guard(b);
  for (bool isThen : {true, false}) {
    b.setInsertionPointToStart(isThen ? &ifOp.getThenRegion().front()
                                      : &ifOp.getElseRegion().front());
    SmallVector<Value> yields;
    if (!emitStructValue(isThen ? c->getTrueExpr() : c->getFalseExpr(), yields))
      return false;
    llvm::append_range(yields, currentValues(keys));
    scf::YieldOp::create(b, l, yields);
    rebind(keys, before);
  }
  b.setInsertionPointAfter(ifOp);
  rebind(keys, ifOp.getResults().drop_front(numLeaves));
  llvm::append_range(out, ifOp.getResults().take_front(numLeaves));
  return true;
}

/// The arguments of a call to a BSGP function: a struct argument passes
/// its leaves.
bool MLIRGen::emitCallArgs(bsgp::CallExpr *e, SmallVectorImpl<Value> &args) {
  for (bsgp::Expr *a : e->args()) {
    if (asStructValue(a->getType())) {
      if (!emitStructValue(a, args))
        return false;
      continue;
    }
    Value v = emitExpr(a);
    if (!v)
      return false;
    args.push_back(v);
  }
  return true;
}

/// A call of a function that returns a struct: its results are the leaves.
bool MLIRGen::emitStructCall(bsgp::CallExpr *e, SmallVectorImpl<Value> &out) {
  bsgp::FunctionDecl *fd = e->getDirectCallee();
  if (fd && callsThroughCABI(fd)) {
    Value unused;
    return emitExternCCall(e, fd, unused, &out);
  }
  auto fn = fd ? dyn_cast_or_null<func::FuncOp>(functions.lookup(fd))
               : func::FuncOp();
  if (!fn) {
    (void)unsupported(e->getRange(), "this call of a function returning a "
                                     "struct");
    return false;
  }
  Value v = emitCall(e);
  if (!v)
    return false;
  llvm::append_range(out, v.getDefiningOp()->getResults());
  return true;
}

/// thread.put(r, p, v) of a struct variable: one bsgp.put per leaf, each
/// an assignment to that leaf in thread r (§5).
bool MLIRGen::emitStructPut(bsgp::BuiltinCallExpr *e) {
  Location l = loc(e->getRange());
  Value rank = emitExpr(e->args()[0]);
  SmallVector<Value> values;
  if (!rank || !emitStructValue(e->args()[2], values))
    return false;
  rank = toI32(rank, e->args()[0]->getType(), l);
  SmallVector<Value> put;
  for (Value v : values) {
    auto op = bsgp::PutOp::create(b, l, v.getType(), rank, v);
    notePut(op, e->args()[1]);
    put.push_back(op);
  }
  return assignStruct(e->args()[1], put, l);
}
