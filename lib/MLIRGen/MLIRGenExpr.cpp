//===- MLIRGenExpr.cpp - expressions to MLIR ------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Conversions, literals, names, operators, assignments, members,
/// constructors and calls of user functions. Builtins, math functions,
/// atomics and group operations are in MLIRGenBuiltin.cpp.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

using namespace mlir;
using namespace mlirgen;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value MLIRGen::emitExpr(bsgp::Expr *e) {
  if (!e || failed)
    return {};
  if (asStructValue(e->getType())) {
    // Struct values are lists of leaves (emitStructValue); the users of one
    // ask for them. Here the value is discarded (`q = p;`, `f(p);`).
    SmallVector<Value> leaves;
    if (!emitStructValue(e, leaves))
      return {};
    return arith::ConstantIntOp::create(b, loc(e->getRange()), 0, 1);
  }
  return emitExprInner(e);
}

Value MLIRGen::emitToBool(Value v, Location l) {
  Type t = v.getType();
  if (t.isInteger(1))
    return v;
  if (isa<FloatType>(t))
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v,
                                 zeroOf(t, l));
  if (auto pt = dyn_cast<bsgp::PtrType>(t))
    return bsgp::PtrCmpOp::create(b, l, b.getI1Type(), arith::CmpIPredicate::ne,
                                  v, bsgp::PtrNullOp::create(b, l, pt));
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v, zeroOf(t, l));
}

Value MLIRGen::emitConversion(Value v, const bsgp::Type *from,
                              const bsgp::Type *to, Location l) {
  if (!v)
    return {};
  Type dst = convertType(to, {});
  if (!dst)
    return {};
  Type src = v.getType();
  if (src == dst)
    return v;
  const bsgp::Type *fromU = from ? from->getUnqualified() : nullptr;
  const bsgp::Type *toU = to->getUnqualified();
  if (isa<bsgp::PtrType>(dst)) {
    if (isa<bsgp::PtrType>(src))
      return bsgp::PtrCastOp::create(b, l, dst, v);
    if (fromU && isa<bsgp::NullType>(fromU))
      return bsgp::PtrNullOp::create(b, l, dst);
    return {};
  }
  // Scalar to vector: convert to the element type, then splat.
  if (auto dv = dyn_cast<mlir::VectorType>(dst)) {
    if (!isa<mlir::VectorType>(src)) {
      const bsgp::Type *eltTy = cast<bsgp::VectorType>(toU)->getElementType();
      Value s = emitConversion(v, from, eltTy, l);
      return vector::BroadcastOp::create(b, l, dv, s);
    }
  }
  Type srcElt = getElementTypeOrSelf(src), dstElt = getElementTypeOrSelf(dst);
  bool srcSigned = fromU && isSigned(fromU);
  bool dstSigned = isSigned(toU);
  if (dstElt.isInteger(1))
    return emitToBool(v, l);
  if (isa<IntegerType>(srcElt) && isa<IntegerType>(dstElt)) {
    unsigned sw = srcElt.getIntOrFloatBitWidth(),
             dw = dstElt.getIntOrFloatBitWidth();
    if (sw == dw)
      return v;
    if (sw > dw)
      return arith::TruncIOp::create(b, l, dst, v);
    if (srcSigned && sw > 1)
      return arith::ExtSIOp::create(b, l, dst, v);
    return arith::ExtUIOp::create(b, l, dst, v);
  }
  if (isa<IntegerType>(srcElt) && isa<FloatType>(dstElt)) {
    if (srcSigned && srcElt.getIntOrFloatBitWidth() > 1)
      return arith::SIToFPOp::create(b, l, dst, v);
    return arith::UIToFPOp::create(b, l, dst, v);
  }
  if (isa<FloatType>(srcElt) && isa<IntegerType>(dstElt)) {
    if (dstSigned)
      return arith::FPToSIOp::create(b, l, dst, v);
    return arith::FPToUIOp::create(b, l, dst, v);
  }
  if (isa<FloatType>(srcElt) && isa<FloatType>(dstElt)) {
    if (srcElt.getIntOrFloatBitWidth() < dstElt.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, l, dst, v);
    return arith::TruncFOp::create(b, l, dst, v);
  }
  (void)unsupported({}, "a conversion from '" + (from ? from->str() : "?") +
                            "' to '" + to->str() + "'");
  return {};
}

Value MLIRGen::stringLiteral(StringRef s, Location l) {
  std::string data = s.str();
  data.push_back('\0');
  std::string name = "__bsgp_strlit_" + std::to_string(stringCount++);
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  auto global = LLVM::GlobalOp::create(
      mb, l, type, true, LLVM::Linkage::Internal, name, mb.getStringAttr(data));
  Value addr = LLVM::AddressOfOp::create(b, l, global);
  return UnrealizedConversionCastOp::create(
             b, l, bsgp::PtrType::get(&ctx, b.getI8Type()), addr)
      .getResult(0);
}

/// A variable's current value; inside the value of a thread.get, thread
/// r's (emitGetOfVariable).
Value MLIRGen::emitDeclRef(bsgp::DeclRefExpr *d) {
  Location l = loc(d->getRange());
  auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
  if (!vd) {
    (void)unsupported(d->getRange(), "a function used as a value");
    return {};
  }
  if (vd->getStorage() == bsgp::VarDecl::Global && !isInMemory(vd))
    return emitGlobalRef(vd, l);
  if (isInMemory(vd))
    return loadVariable(vd, d->getRange());
  Value v = env.lookup(vd);
  if (!v) {
    // Read before any assignment: C leaves it undefined; zero is as good.
    Type t = convertType(vd->getType(), vd->getRange());
    if (!t)
      return {};
    v = zeroOf(t, l);
  } else if (getRank && !vd->isHost()) {
    return emitGetOfVariable(vd, v, l);
  }
  return v;
}

/// `c ? t : f` as an scf.if that yields the value and carries what the
/// branches assign.
Value MLIRGen::emitConditional(bsgp::ConditionalOperator *c) {
  Location l = loc(c->getRange());
  Value cond = emitExpr(c->getCond());
  if (!cond)
    return {};
  cond = emitToBool(cond, l);
  Type t = convertType(c->getType(), c->getRange());
  if (!t)
    return {};
  Effects eff;
  collectEffects(c->getTrueExpr(), eff, false);
  collectEffects(c->getFalseExpr(), eff, false);
  SmallVector<VarKey> keys = carriedKeys(eff);
  SmallVector<Value> before = currentValues(keys);
  SmallVector<Type> types{t};
  for (Value v : before)
    types.push_back(v.getType());
  auto ifOp = scf::IfOp::create(b, l, types, cond, true, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value tv = emitExpr(c->getTrueExpr());
  if (!tv)
    return {};
  SmallVector<Value> yields{tv};
  llvm::append_range(yields, currentValues(keys));
  scf::YieldOp::create(b, l, yields);
  rebind(keys, before);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  Value fv = emitExpr(c->getFalseExpr());
  if (!fv)
    return {};
  yields.assign({fv});
  llvm::append_range(yields, currentValues(keys));
  scf::YieldOp::create(b, l, yields);
  b.setInsertionPointAfter(ifOp);
  rebind(keys, ifOp.getResults().drop_front());
  return ifOp.getResult(0);
}

Value MLIRGen::emitIndex(bsgp::IndexExpr *ix) {
  Location l = loc(ix->getRange());
  Value base = emitExpr(ix->getBase());
  Value idx = emitExpr(ix->getIndex());
  if (!base || !idx)
    return {};
  // a[i] of `T a[N][M]` is the row a + i*M, still an array.
  if (auto *at = dyn_cast_or_null<bsgp::ArrayType>(
          ix->getType() ? ix->getType()->getUnqualified() : nullptr)) {
    uint64_t row = flattenArray(at).second;
    Value scaled = arith::MulIOp::create(
        b, l, idx, constInt(idx.getType(), static_cast<int64_t>(row), l));
    return bsgp::PtrOffsetOp::create(b, l, base.getType(), base, scaled);
  }
  if (isa<bsgp::PtrType>(base.getType()))
    return bsgp::PtrLoadOp::create(
        b, l, cast<bsgp::PtrType>(base.getType()).getElementType(), base, idx);
  if (isa<mlir::VectorType>(base.getType()))
    return vector::ExtractOp::create(
        b, l, base, ArrayRef<OpFoldResult>{OpFoldResult(toIndex(idx, l))});
  (void)unsupported(ix->getRange(), "indexing this type");
  return {};
}

Value MLIRGen::emitImplicitCast(bsgp::ImplicitCastExpr *c) {
  Location l = loc(c->getRange());
  Value v = emitExpr(c->getSubExpr());
  if (!v)
    return {};
  switch (c->getCastKind()) {
  case bsgp::ImplicitCastExpr::ToBool:
    return emitToBool(v, l);
  case bsgp::ImplicitCastExpr::NullToPointer: {
    Type t = convertType(c->getType(), c->getRange());
    return t ? bsgp::PtrNullOp::create(b, l, t).getResult() : Value();
  }
  case bsgp::ImplicitCastExpr::ArrayToPointer: {
    // Arrays are already pointers to their first element.
    Type t = convertType(c->getType(), c->getRange());
    if (t && t != v.getType())
      return bsgp::PtrCastOp::create(b, l, t, v);
    return v;
  }
  default:
    return emitConversion(v, c->getSubExpr()->getType(), c->getType(), l);
  }
}

Value MLIRGen::emitSizeof(bsgp::SizeofExpr *s) {
  Location l = loc(s->getRange());
  const bsgp::Type *t =
      s->getArgType() ? s->getArgType() : s->getArgExpr()->getType();
  Type rt = convertType(s->getType(), s->getRange());
  if (!rt)
    return {};
  // Struct values have no layout in code generation yet: a 0 would be a
  // silently wrong size.
  uint64_t size = sizeOf(t);
  if (!size) {
    (void)unsupported(s->getRange(), "sizeof of type '" + t->str() + "'");
    return {};
  }
  return constInt(rt, size, l);
}

Value MLIRGen::emitNew(bsgp::NewExpr *n) {
  Location l = loc(n->getRange());
  Value count = emitExpr(n->getCount());
  Type pt = convertType(n->getType(), n->getRange());
  if (!count || !pt)
    return {};
  // 64-bit, as C's size_t: a list of 2^31 elements or more is legal.
  count = emitConversion(count, n->getCount()->getType(),
                         ast.getBuiltinType(bsgp::BuiltinType::Int64), l);
  if (!count)
    return {};
  if (n->isTemporary())
    return bsgp::DTempNewOp::create(b, l, pt, count);
  return bsgp::DNewOp::create(b, l, pt, count);
}

/// Dispatches on the kind of expression; emitExpr() wraps it.
Value MLIRGen::emitExprInner(bsgp::Expr *e) {
  Location l = loc(e->getRange());
  switch (e->getKind()) {
  case bsgp::Stmt::SK_IntegerLiteral: {
    Type t = convertType(e->getType(), e->getRange());
    if (!t)
      return {};
    return constInt(t, cast<bsgp::IntegerLiteral>(e)->getValue(), l);
  }
  case bsgp::Stmt::SK_FloatingLiteral: {
    Type t = convertType(e->getType(), e->getRange());
    if (!t)
      return {};
    return arith::ConstantOp::create(
        b, l, t, b.getFloatAttr(t, cast<bsgp::FloatingLiteral>(e)->getValue()));
  }
  case bsgp::Stmt::SK_BoolLiteral:
    return arith::ConstantIntOp::create(
        b, l, cast<bsgp::BoolLiteral>(e)->getValue() ? 1 : 0, 1);
  case bsgp::Stmt::SK_CharLiteral:
    return constInt(b.getI8Type(), cast<bsgp::CharLiteral>(e)->getValue(), l);
  case bsgp::Stmt::SK_StringLiteral:
    return stringLiteral(cast<bsgp::StringLiteral>(e)->getValue(), l);
  case bsgp::Stmt::SK_NullLiteral:
    return bsgp::PtrNullOp::create(b, l,
                                   bsgp::PtrType::get(&ctx, b.getI8Type()));
  case bsgp::Stmt::SK_DeclRef:
    return emitDeclRef(cast<bsgp::DeclRefExpr>(e));
  case bsgp::Stmt::SK_Paren:
    return emitExpr(cast<bsgp::ParenExpr>(e)->getSubExpr());
  case bsgp::Stmt::SK_Unary:
    return emitUnary(cast<bsgp::UnaryOperator>(e));
  case bsgp::Stmt::SK_Binary:
    return emitBinary(cast<bsgp::BinaryOperator>(e));
  case bsgp::Stmt::SK_Conditional:
    return emitConditional(cast<bsgp::ConditionalOperator>(e));
  case bsgp::Stmt::SK_Call:
    return emitCall(cast<bsgp::CallExpr>(e));
  case bsgp::Stmt::SK_BuiltinCall:
    return emitBuiltin(cast<bsgp::BuiltinCallExpr>(e));
  case bsgp::Stmt::SK_Group:
    return emitGroup(cast<bsgp::GroupExpr>(e));
  case bsgp::Stmt::SK_TargetQuery:
    return bsgp::TargetIsOp::create(b, l, b.getI1Type(),
                                    cast<bsgp::TargetQueryExpr>(e)->getName());
  case bsgp::Stmt::SK_Atomic:
    return emitAtomic(cast<bsgp::AtomicExpr>(e));
  case bsgp::Stmt::SK_MathBuiltin:
    return emitMathBuiltin(cast<bsgp::MathBuiltinExpr>(e));
  case bsgp::Stmt::SK_ThreadAttr:
    return emitThreadAttr(cast<bsgp::ThreadAttrExpr>(e));
  case bsgp::Stmt::SK_Index:
    return emitIndex(cast<bsgp::IndexExpr>(e));
  case bsgp::Stmt::SK_Member:
    return emitMember(cast<bsgp::MemberExpr>(e));
  case bsgp::Stmt::SK_Cast: {
    auto *c = cast<bsgp::CastExpr>(e);
    // An array compound literal: a private array (as a local array is,
    // emitDecl), its pointer the value.
    if (auto *il = dyn_cast<bsgp::InitListExpr>(c->getSubExpr());
        il && isa<bsgp::ArrayType>(c->getType()->getUnqualified())) {
      auto [elem, count] = flattenArray(c->getType());
      Type et = memoryType(elem, c->getRange());
      if (!et)
        return {};
      Value ptr = stackSlot(et, count, l);
      storeInitList(il, ptr, et, l);
      return ptr;
    }
    Value v = emitExpr(c->getSubExpr());
    return emitConversion(v, c->getSubExpr()->getType(), c->getWrittenType(),
                          l);
  }
  case bsgp::Stmt::SK_ImplicitCast:
    return emitImplicitCast(cast<bsgp::ImplicitCastExpr>(e));
  case bsgp::Stmt::SK_Construct:
    return emitConstruct(cast<bsgp::ConstructExpr>(e));
  case bsgp::Stmt::SK_Sizeof:
    return emitSizeof(cast<bsgp::SizeofExpr>(e));
  case bsgp::Stmt::SK_New:
    return emitNew(cast<bsgp::NewExpr>(e));
  default:
    (void)unsupported(e->getRange(), "this expression");
    return {};
  }
}

arith::IntegerOverflowFlags MLIRGen::signedOverflowFlags(const bsgp::Type *t,
                                                         Type valueType) {
  auto i = dyn_cast<IntegerType>(getElementTypeOrSelf(valueType));
  if (t && i && i.getWidth() >= 32 && isSigned(t))
    return arith::IntegerOverflowFlags::nsw;
  return arith::IntegerOverflowFlags::none;
}

Value MLIRGen::emitArith(bsgp::BinaryOperator::Opcode op, Value lhs, Value rhs,
                         const bsgp::Type *operandType, Location l,
                         bool wraps) {
  using BO = bsgp::BinaryOperator;
  Type t = getElementTypeOrSelf(lhs.getType());
  bool isFloat = isa<FloatType>(t);
  bool sgn = operandType && isSigned(operandType);
  arith::IntegerOverflowFlags nsw =
      wraps ? arith::IntegerOverflowFlags::none
            : signedOverflowFlags(operandType, lhs.getType());
  if (isa<bsgp::PtrType>(lhs.getType())) {
    switch (op) {
    case BO::Add:
      return bsgp::PtrOffsetOp::create(b, l, lhs.getType(), lhs, rhs);
    case BO::Sub:
      if (isa<bsgp::PtrType>(rhs.getType()))
        return bsgp::PtrDiffOp::create(b, l, b.getI64Type(), lhs, rhs);
      return bsgp::PtrOffsetOp::create(
          b, l, lhs.getType(), lhs,
          arith::SubIOp::create(b, l, zeroOf(rhs.getType(), l), rhs));
    case BO::EQ:
    case BO::NE:
    case BO::LT:
    case BO::GT:
    case BO::LE:
    case BO::GE: {
      arith::CmpIPredicate p = op == BO::EQ   ? arith::CmpIPredicate::eq
                               : op == BO::NE ? arith::CmpIPredicate::ne
                               : op == BO::LT ? arith::CmpIPredicate::ult
                               : op == BO::GT ? arith::CmpIPredicate::ugt
                               : op == BO::LE ? arith::CmpIPredicate::ule
                                              : arith::CmpIPredicate::uge;
      if (rhs.getType() != lhs.getType())
        rhs = bsgp::PtrCastOp::create(b, l, lhs.getType(), rhs);
      return bsgp::PtrCmpOp::create(b, l, b.getI1Type(), p, lhs, rhs);
    }
    default:
      break;
    }
  }
  if (isa<bsgp::PtrType>(rhs.getType()) && op == BO::Add)
    return bsgp::PtrOffsetOp::create(b, l, rhs.getType(), rhs, lhs);
  switch (op) {
  case BO::Add:
    return isFloat ? (Value)arith::AddFOp::create(b, l, lhs, rhs)
                   : (Value)arith::AddIOp::create(b, l, lhs, rhs, nsw);
  case BO::Sub:
    return isFloat ? (Value)arith::SubFOp::create(b, l, lhs, rhs)
                   : (Value)arith::SubIOp::create(b, l, lhs, rhs, nsw);
  case BO::Mul:
    return isFloat ? (Value)arith::MulFOp::create(b, l, lhs, rhs)
                   : (Value)arith::MulIOp::create(b, l, lhs, rhs, nsw);
  case BO::Div:
    if (isFloat)
      return arith::DivFOp::create(b, l, lhs, rhs);
    return sgn ? (Value)arith::DivSIOp::create(b, l, lhs, rhs)
               : (Value)arith::DivUIOp::create(b, l, lhs, rhs);
  case BO::Rem:
    if (isFloat)
      return arith::RemFOp::create(b, l, lhs, rhs);
    return sgn ? (Value)arith::RemSIOp::create(b, l, lhs, rhs)
               : (Value)arith::RemUIOp::create(b, l, lhs, rhs);
  case BO::Shl:
    if (rhs.getType() != lhs.getType())
      rhs = emitConversion(rhs, nullptr, operandType, l);
    return arith::ShLIOp::create(b, l, lhs, rhs);
  case BO::Shr:
    if (rhs.getType() != lhs.getType())
      rhs = emitConversion(rhs, nullptr, operandType, l);
    return sgn ? (Value)arith::ShRSIOp::create(b, l, lhs, rhs)
               : (Value)arith::ShRUIOp::create(b, l, lhs, rhs);
  case BO::And:
    return arith::AndIOp::create(b, l, lhs, rhs);
  case BO::Or:
    return arith::OrIOp::create(b, l, lhs, rhs);
  case BO::Xor:
    return arith::XOrIOp::create(b, l, lhs, rhs);
  case BO::EQ:
  case BO::NE:
  case BO::LT:
  case BO::GT:
  case BO::LE:
  case BO::GE: {
    if (isFloat) {
      arith::CmpFPredicate p = op == BO::EQ   ? arith::CmpFPredicate::OEQ
                               : op == BO::NE ? arith::CmpFPredicate::UNE
                               : op == BO::LT ? arith::CmpFPredicate::OLT
                               : op == BO::GT ? arith::CmpFPredicate::OGT
                               : op == BO::LE ? arith::CmpFPredicate::OLE
                                              : arith::CmpFPredicate::OGE;
      return arith::CmpFOp::create(b, l, p, lhs, rhs);
    }
    arith::CmpIPredicate p =
        op == BO::EQ   ? arith::CmpIPredicate::eq
        : op == BO::NE ? arith::CmpIPredicate::ne
        : op == BO::LT
            ? (sgn ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult)
        : op == BO::GT
            ? (sgn ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::ugt)
        : op == BO::LE
            ? (sgn ? arith::CmpIPredicate::sle : arith::CmpIPredicate::ule)
            : (sgn ? arith::CmpIPredicate::sge : arith::CmpIPredicate::uge);
    return arith::CmpIOp::create(b, l, p, lhs, rhs);
  }
  default:
    (void)unsupported({}, "this operator");
    return {};
  }
}

Value MLIRGen::emitBinary(bsgp::BinaryOperator *e) {
  using BO = bsgp::BinaryOperator;
  Location l = loc(e->getRange());
  BO::Opcode op = e->getOpcode();
  if (op == BO::Comma) {
    emitExpr(e->getLHS());
    return emitExpr(e->getRHS());
  }
  if (op == BO::LAnd || op == BO::LOr) {
    // Short-circuit: the right side may read memory the left side guards.
    Value lhs = emitExpr(e->getLHS());
    if (!lhs)
      return {};
    lhs = emitToBool(lhs, l);
    Effects eff = effectsOf(e->getRHS());
    SmallVector<VarKey> keys = carriedKeys(eff);
    SmallVector<Value> before = currentValues(keys);
    SmallVector<Type> types{b.getI1Type()};
    for (Value v : before)
      types.push_back(v.getType());
    auto ifOp = scf::IfOp::create(b, l, types, lhs, true, true);
    OpBuilder::InsertionGuard guard(b);
    // && evaluates the right side when the left is true; || when false.
    Region &evalRegion =
        op == BO::LAnd ? ifOp.getThenRegion() : ifOp.getElseRegion();
    Region &constRegion =
        op == BO::LAnd ? ifOp.getElseRegion() : ifOp.getThenRegion();
    b.setInsertionPointToStart(&evalRegion.front());
    Value rhs = emitExpr(e->getRHS());
    if (!rhs)
      return {};
    SmallVector<Value> yields{emitToBool(rhs, l)};
    llvm::append_range(yields, currentValues(keys));
    scf::YieldOp::create(b, l, yields);
    rebind(keys, before);
    b.setInsertionPointToStart(&constRegion.front());
    yields.assign({arith::ConstantIntOp::create(b, l, op == BO::LOr, 1)});
    llvm::append_range(yields, before);
    scf::YieldOp::create(b, l, yields);
    b.setInsertionPointAfter(ifOp);
    rebind(keys, ifOp.getResults().drop_front());
    return ifOp.getResult(0);
  }
  if (op == BO::Assign) {
    Value v = emitExpr(e->getRHS());
    if (!v)
      return {};
    return emitAssign(e->getLHS(), v, l);
  }
  if (e->isCompoundAssignmentOp()) {
    const bsgp::Type *compTy = e->getComputationType() ? e->getComputationType()
                                                       : e->getLHS()->getType();
    Value rhs = emitExpr(e->getRHS());
    Value cur = emitLValueLoad(e->getLHS());
    if (!rhs || !cur)
      return {};
    Value curC = isa<bsgp::PtrType>(cur.getType())
                     ? cur
                     : emitConversion(cur, e->getLHS()->getType(), compTy, l);
    if (!curC)
      return {};
    if (!isa<bsgp::PtrType>(cur.getType()) && rhs.getType() != curC.getType())
      rhs = emitConversion(rhs, e->getRHS()->getType(), compTy, l);
    Value res = emitArith(BO::getBaseOp(op), curC, rhs, compTy, l);
    if (!res)
      return {};
    if (!isa<bsgp::PtrType>(res.getType()))
      res = emitConversion(res, compTy, e->getLHS()->getType(), l);
    return emitAssign(e->getLHS(), res, l);
  }
  Value lhs = emitExpr(e->getLHS());
  Value rhs = emitExpr(e->getRHS());
  if (!lhs || !rhs)
    return {};
  return emitArith(op, lhs, rhs, e->getLHS()->getType(), l,
                   e->wrapsOnOverflow());
}

Value MLIRGen::emitLValueLoad(bsgp::Expr *target) { return emitExpr(target); }

Value MLIRGen::emitAssign(bsgp::Expr *target, Value v, Location l) {
  target = target->ignoreParenImpCasts();
  if (auto *d = dyn_cast<bsgp::DeclRefExpr>(target)) {
    auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
    if (!vd) {
      (void)unsupported(target->getRange(), "assigning this");
      return {};
    }
    // An inferred local whose address is taken: its first assignment
    // declares it, and makes its slot.
    if (addressTaken.contains(vd) && !isInMemory(vd) &&
        !asStructValue(vd->getType())) {
      placeInMemory(vd, v, {}, l);
      return v;
    }
    if (isInMemory(vd)) {
      noteRequireWrite(vd);
      bsgp::PtrStoreOp::create(b, l, v, env.lookup(vd),
                               constInt(b.getI32Type(), 0, l));
      return v;
    }
    // thread.get reads a variable as it was at the last barrier: a value
    // computed before a barrier and assigned after it is a new value of
    // the variable, so the variable gets its own SSA value here (folded
    // away later) for the get's check to see where it was assigned.
    Operation *where = b.getInsertionBlock()->getParentOp();
    bool inThreads = (isa<bsgp::SpawnOp>(where) ||
                      where->getParentOfType<bsgp::SpawnOp>()) &&
                     !isa<bsgp::RequireOp>(where) &&
                     !where->getParentOfType<bsgp::RequireOp>();
    if (inThreads) {
      Value t = arith::ConstantIntOp::create(b, l, 1, 1);
      auto copy = arith::SelectOp::create(b, l, t, v, v);
      if (bsgp::isSeparatedByBarrier(v, copy)) {
        v = copy;
      } else {
        copy.erase();
        t.getDefiningOp()->erase();
      }
    }
    nameValue(v, vd->getName());
    env[vd] = v;
    return v;
  }
  if (auto *ix = dyn_cast<bsgp::IndexExpr>(target)) {
    Value base = emitExpr(ix->getBase());
    Value idx = emitExpr(ix->getIndex());
    if (!base || !idx)
      return {};
    if (isa<bsgp::PtrType>(base.getType())) {
      bsgp::PtrStoreOp::create(b, l, v, base, idx);
      return v;
    }
    if (isa<mlir::VectorType>(base.getType())) {
      Value nv = vector::InsertOp::create(
          b, l, v, base, ArrayRef<OpFoldResult>{OpFoldResult(toIndex(idx, l))});
      emitAssign(ix->getBase(), nv, l);
      return v;
    }
  }
  if (auto *u = dyn_cast<bsgp::UnaryOperator>(target)) {
    if (u->getOpcode() == bsgp::UnaryOperator::Deref) {
      Value p = emitExpr(u->getSubExpr());
      if (!p)
        return {};
      bsgp::PtrStoreOp::create(b, l, v, p, constInt(b.getI32Type(), 0, l));
      return v;
    }
  }
  if (auto *m = dyn_cast<bsgp::MemberExpr>(target)) {
    if (m->getField() && !isStructInMemory(m))
      return emitValueFieldStore(m, v, l);
    if (m->getField())
      return emitFieldStore(m, v, l);
    if (!m->isArrow()) {
      Value base = emitExpr(m->getBase());
      if (!base)
        return {};
      ArrayRef<unsigned> comps = m->getComponents();
      Value nv = base;
      if (comps.size() == 1) {
        nv = vector::InsertOp::create(b, l, v, nv, int64_t(comps[0]));
      } else {
        for (auto [i, c] : llvm::enumerate(comps)) {
          Value elt = vector::ExtractOp::create(b, l, v, int64_t(i));
          nv = vector::InsertOp::create(b, l, elt, nv, int64_t(c));
        }
      }
      emitAssign(m->getBase(), nv, l);
      return v;
    }
  }
  if (auto *t = dyn_cast<bsgp::ThreadAttrExpr>(target)) {
    // Collective functions implement rank reassignment and fork/kill by
    // assigning the thread attributes (Listing 3, §5).
    Value i32 = toI32(v, nullptr, l);
    if (t->getAttr() == bsgp::ThreadAttrExpr::OldRank) {
      bsgp::SetOldRankOp::create(b, l, i32);
      return v;
    }
    if (t->getAttr() == bsgp::ThreadAttrExpr::Size) {
      bsgp::SetSizeOp::create(b, l, i32);
      return v;
    }
  }
  (void)unsupported(target->getRange(), "assigning to this expression");
  return {};
}

Value MLIRGen::emitUnary(bsgp::UnaryOperator *e) {
  using UO = bsgp::UnaryOperator;
  Location l = loc(e->getRange());
  switch (e->getOpcode()) {
  case UO::Plus:
    return emitExpr(e->getSubExpr());
  case UO::Minus: {
    Value v = emitExpr(e->getSubExpr());
    if (!v)
      return {};
    if (isa<FloatType>(getElementTypeOrSelf(v.getType())))
      return arith::NegFOp::create(b, l, v);
    return arith::SubIOp::create(
        b, l, zeroOf(v.getType(), l), v,
        e->wrapsOnOverflow() ? arith::IntegerOverflowFlags::none
                             : signedOverflowFlags(e->getType(), v.getType()));
  }
  case UO::Not: {
    Value v = emitExpr(e->getSubExpr());
    if (!v)
      return {};
    v = emitToBool(v, l);
    return arith::XOrIOp::create(b, l, v,
                                 arith::ConstantIntOp::create(b, l, 1, 1));
  }
  case UO::BitNot: {
    Value v = emitExpr(e->getSubExpr());
    if (!v)
      return {};
    Type t = v.getType();
    Value ones = isa<mlir::VectorType>(t)
                     ? (Value)arith::ConstantOp::create(
                           b, l, t,
                           DenseElementsAttr::get(
                               cast<ShapedType>(t),
                               b.getIntegerAttr(getElementTypeOrSelf(t), -1)))
                     : constInt(t, -1, l);
    return arith::XOrIOp::create(b, l, v, ones);
  }
  case UO::Deref: {
    Value p = emitExpr(e->getSubExpr());
    if (!p)
      return {};
    return bsgp::PtrLoadOp::create(
        b, l, cast<bsgp::PtrType>(p.getType()).getElementType(), p,
        constInt(b.getI32Type(), 0, l));
  }
  case UO::AddrOf: {
    // &p[i] is p + i; &x of a variable is its stack slot (findAddressTaken
    // put it in memory).
    bsgp::Expr *sub = e->getSubExpr()->ignoreParenImpCasts();
    if (auto *d = dyn_cast<bsgp::DeclRefExpr>(sub)) {
      auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
      if (vd && isInMemory(vd)) {
        if (!slotReachable(vd)) {
          (void)unsupported(e->getRange(),
                            "taking the address of a host variable in threads");
          return {};
        }
        Value p = env.lookup(vd);
        Type t = convertType(e->getType(), e->getRange());
        if (t && t != p.getType())
          p = bsgp::PtrCastOp::create(b, l, t, p);
        return p;
      }
    }
    if (auto *ix = dyn_cast<bsgp::IndexExpr>(sub)) {
      Value base = emitExpr(ix->getBase());
      Value idx = emitExpr(ix->getIndex());
      if (base && idx && isa<bsgp::PtrType>(base.getType()))
        return bsgp::PtrOffsetOp::create(b, l, base.getType(), base, idx);
    }
    if (auto *u = dyn_cast<bsgp::UnaryOperator>(sub))
      if (u->getOpcode() == UO::Deref)
        return emitExpr(u->getSubExpr());
    // &p[i].f, &p->f: the field's address. A struct variable's fields are
    // SSA values, as a scalar variable is.
    if (auto *m = dyn_cast<bsgp::MemberExpr>(sub);
        m && m->getField() && isStructInMemory(m)) {
      Value p = fieldAddress(m);
      Type t = convertType(e->getType(), e->getRange());
      if (p && t && t != p.getType())
        p = bsgp::PtrCastOp::create(b, l, t, p);
      return p;
    }
    (void)unsupported(e->getRange(), "taking the address of a variable");
    return {};
  }
  case UO::PreInc:
  case UO::PreDec:
  case UO::PostInc:
  case UO::PostDec: {
    Value old = emitLValueLoad(e->getSubExpr());
    if (!old)
      return {};
    bool inc = e->getOpcode() == UO::PreInc || e->getOpcode() == UO::PostInc;
    Value nv;
    Type t = old.getType();
    if (isa<bsgp::PtrType>(t)) {
      nv = bsgp::PtrOffsetOp::create(b, l, old.getType(), old,
                                     constInt(b.getI32Type(), inc ? 1 : -1, l));
    } else if (isa<FloatType>(t)) {
      Value one = arith::ConstantOp::create(b, l, t, b.getFloatAttr(t, 1.0));
      nv = inc ? (Value)arith::AddFOp::create(b, l, old, one)
               : (Value)arith::SubFOp::create(b, l, old, one);
    } else {
      Value one = constInt(t, 1, l);
      arith::IntegerOverflowFlags nsw =
          signedOverflowFlags(e->getSubExpr()->getType(), t);
      nv = inc ? (Value)arith::AddIOp::create(b, l, old, one, nsw)
               : (Value)arith::SubIOp::create(b, l, old, one, nsw);
    }
    emitAssign(e->getSubExpr(), nv, l);
    bool pre = e->getOpcode() == UO::PreInc || e->getOpcode() == UO::PreDec;
    return pre ? nv : old;
  }
  }
  return {};
}

Value MLIRGen::emitMember(bsgp::MemberExpr *e) {
  Location l = loc(e->getRange());
  // Inside a thread.get, a scalar field of a thread's struct variable in
  // memory is thread r's, read at the barrier before (loadForGet), not
  // this thread's memory.
  if (isGotMemoryField(e))
    return emitGotMemoryField(e);
  if (e->getField() && !isStructInMemory(e))
    return emitValueFieldLoad(e);
  if (e->getField())
    return emitFieldLoad(e);
  Value base = emitExpr(e->getBase());
  if (!base)
    return {};
  ArrayRef<unsigned> comps = e->getComponents();
  if (comps.size() == 1)
    return vector::ExtractOp::create(b, l, base, int64_t(comps[0]));
  SmallVector<int64_t> mask(comps.begin(), comps.end());
  return vector::ShuffleOp::create(b, l, base, base, mask);
}

Value MLIRGen::emitConstruct(bsgp::ConstructExpr *e) {
  Location l = loc(e->getRange());
  const bsgp::Type *t = e->getConstructedType()->getUnqualified();
  if (auto *op = dyn_cast<bsgp::OperatorType>(t)) {
    // `Op(a, b)` with Op min or max (Sema made the others binary
    // operators): `b < a ? b : a` or `a < b ? b : a`, the operands
    // converted to the result type.
    Value lhs = emitExpr(e->args()[0]);
    Value rhs = emitExpr(e->args()[1]);
    if (!lhs || !rhs)
      return {};
    bool isMin = op->getSpelling() == "min";
    Value less =
        isMin ? emitArith(bsgp::BinaryOperator::LT, rhs, lhs, e->getType(), l)
              : emitArith(bsgp::BinaryOperator::LT, lhs, rhs, e->getType(), l);
    return arith::SelectOp::create(b, l, less, rhs, lhs);
  }
  auto *vt = dyn_cast<bsgp::VectorType>(t);
  if (!vt) {
    // A functional cast `int(x)`.
    if (e->args().size() != 1) {
      (void)unsupported(e->getRange(), "this construction");
      return {};
    }
    Value v = emitExpr(e->args()[0]);
    return emitConversion(v, e->args()[0]->getType(), t, l);
  }
  Type vecTy = convertType(vt, e->getRange());
  if (!vecTy)
    return {};
  SmallVector<Value> elts;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    if (auto av = dyn_cast<mlir::VectorType>(v.getType())) {
      for (int64_t i = 0; i < av.getNumElements(); ++i)
        elts.push_back(emitConversion(
            vector::ExtractOp::create(b, l, v, i),
            cast<bsgp::VectorType>(a->getType()->getUnqualified())
                ->getElementType(),
            vt->getElementType(), l));
      continue;
    }
    elts.push_back(emitConversion(v, a->getType(), vt->getElementType(), l));
  }
  if (elts.size() == 1)
    return vector::BroadcastOp::create(b, l, vecTy, elts[0]);
  if (elts.size() != vt->getNumElements()) {
    (void)unsupported(e->getRange(), "a vector constructor with this many "
                                     "components");
    return {};
  }
  return vector::FromElementsOp::create(b, l, cast<mlir::VectorType>(vecTy),
                                        elts);
}

Value MLIRGen::emitCall(bsgp::CallExpr *e) {
  Location l = loc(e->getRange());
  bsgp::FunctionDecl *fd = e->getDirectCallee();
  if (!fd) {
    (void)unsupported(e->getRange(), "an indirect call");
    return {};
  }
  // A device printf's format is an attribute, not a value: no string
  // global in device code.
  bool devicePrintf = e->isDevicePrintf();
  SmallVector<Value> args;
  if (devicePrintf) {
    // Sema checked the literal format and promoted the arguments.
    for (bsgp::Expr *a : e->args().drop_front()) {
      Value v = emitExpr(a);
      if (!v)
        return {};
      args.push_back(v);
    }
    auto *lit = cast<bsgp::StringLiteral>(e->args()[0]->ignoreParenImpCasts());
    bsgp::PrintfOp::create(b, l, b.getStringAttr(lit->getValue()), args);
    return arith::ConstantIntOp::create(b, l, 0, 1); // no value; unused
  }
  if (callsThroughCABI(fd)) {
    // A struct by value crosses the call as C's ABI says (MLIRGenCABI.cpp).
    bool structs = asStructValue(e->getType()) != nullptr;
    for (bsgp::Expr *a : e->args())
      structs |= asStructValue(a->getType()) != nullptr;
    Value r;
    if (structs)
      return emitExternCCall(e, fd, r, nullptr) ? r : Value();
  }
  if (!emitCallArgs(e, args))
    return {};
  // A struct result is the call's leaf results (emitStructCall).
  Type ret = asStructValue(e->getType())
                 ? NoneType::get(&ctx)
                 : convertType(e->getType(), e->getRange());
  if (!ret)
    return {};

  if (fd->isExternC() && args.size() >= 1 &&
      isa<FloatType>(args[0].getType())) {
    if (Value v = emitMathCall(bsgp::getMathFunction(fd->getName()), args, l))
      return v;
  }
  if (fd->isExternC()) {
    // C calling convention: pointers are plain LLVM pointers, and variadic
    // arguments get C's default promotions.
    Type llvmPtr = LLVM::LLVMPointerType::get(&ctx);
    auto toC = [&](Type t) -> Type {
      return isa<bsgp::PtrType>(t) ? llvmPtr : t;
    };
    size_t fixed = fd->getParams().size();
    SmallVector<Type> paramTypes;
    for (size_t i = 0; i < fixed && i < args.size(); ++i)
      paramTypes.push_back(toC(args[i].getType()));
    for (auto [i, a] : llvm::enumerate(args)) {
      if (isa<bsgp::PtrType>(a.getType()))
        a = UnrealizedConversionCastOp::create(b, l, llvmPtr, a).getResult(0);
      if (i >= fixed) {
        if (a.getType().isF32())
          a = arith::ExtFOp::create(b, l, b.getF64Type(), a);
        else if (a.getType().isInteger(1) || a.getType().isInteger(8))
          a = arith::ExtUIOp::create(b, l, b.getI32Type(), a);
      }
    }
    Type cRet = isa<NoneType>(ret) ? LLVM::LLVMVoidType::get(&ctx) : toC(ret);
    auto fnTy = LLVM::LLVMFunctionType::get(cRet, paramTypes, fd->isVarargs());
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(fd->getName());
    if (!callee) {
      OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
      callee =
          LLVM::LLVMFuncOp::create(mb, loc(fd->getLoc()), fd->getName(), fnTy);
      // C's extension of arguments and results narrower than 32 bits.
      for (size_t i = 0; i < fixed && i < paramTypes.size(); ++i)
        if (StringRef attr = getCExtensionAttr(fd->getParams()[i]->getType());
            !attr.empty())
          callee.setArgAttr(i, attr, b.getUnitAttr());
      if (!isa<NoneType>(ret))
        if (StringRef attr = getCExtensionAttr(fd->getReturnType());
            !attr.empty())
          callee.setResultAttr(0, attr, b.getUnitAttr());
    }
    auto call = LLVM::CallOp::create(b, l, callee, args);
    if (isa<NoneType>(ret))
      return arith::ConstantIntOp::create(b, l, 0, 1); // no value; unused
    Value r = call.getResult();
    if (isa<bsgp::PtrType>(ret))
      r = UnrealizedConversionCastOp::create(b, l, ret, r).getResult(0);
    return r;
  }

  auto fn = dyn_cast_or_null<func::FuncOp>(functions.lookup(fd));
  if (!fn) {
    (void)unsupported(e->getRange(), "a call to '" + fd->getName() + "'");
    return {};
  }
  for (auto [i, a] : llvm::enumerate(args))
    if (i < fn.getNumArguments() && a.getType() != fn.getArgumentTypes()[i] &&
        isa<bsgp::PtrType>(a.getType()))
      args[i] = bsgp::PtrCastOp::create(b, l, fn.getArgumentTypes()[i], a);
  auto call = func::CallOp::create(b, l, fn, args);
  if (call.getNumResults() == 0)
    return arith::ConstantIntOp::create(b, l, 0, 1);
  return call.getResult(0);
}
