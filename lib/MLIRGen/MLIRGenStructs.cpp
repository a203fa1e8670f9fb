//===- MLIRGenStructs.cpp - lists of structs
//-------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Structs in memory (docs/language.md, "Structs"): lists of structs made
/// by dnew, struct pointers, and loads and stores of their fields. A
/// `struct P *` is a pointer whose element is P's bytes (an LLVM array of
/// sizeof(struct P) bytes), so that indexing, pointer arithmetic and dnew
/// step over whole structs on every target; a field is that address plus
/// the field's offset in the C layout (bsgp/AST/Layout.h), read and
/// written as a pointer to the field's type. Struct values are
/// MLIRGenStructValues.cpp's, and variables whose address is taken
/// MLIRGenMemoryVars.cpp's.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "bsgp/AST/Layout.h"

using namespace mlir;
using namespace mlirgen;

Type MLIRGen::structMemoryType(const bsgp::StructType *st,
                               bsgp::SourceRange where) {
  uint64_t size = bsgp::typeSize(st);
  if (!st->getDecl() || !size) {
    (void)unsupported(where, "an incomplete struct type");
    return {};
  }
  return LLVM::LLVMArrayType::get(b.getI8Type(), size);
}

/// The address of struct lvalue \p e (an element of a list, `*p`, or a
/// struct field of either), as a pointer to the struct.
Value MLIRGen::structAddress(bsgp::Expr *e) {
  e = e->ignoreParenImpCasts();
  Location l = loc(e->getRange());
  if (auto *ix = dyn_cast<bsgp::IndexExpr>(e)) {
    Value base = emitExpr(ix->getBase());
    Value idx = emitExpr(ix->getIndex());
    if (!base || !idx)
      return {};
    if (isa<bsgp::PtrType>(base.getType()))
      return bsgp::PtrOffsetOp::create(b, l, base.getType(), base, idx);
  }
  if (auto *u = dyn_cast<bsgp::UnaryOperator>(e))
    if (u->getOpcode() == bsgp::UnaryOperator::Deref)
      return emitExpr(u->getSubExpr());
  if (auto *m = dyn_cast<bsgp::MemberExpr>(e); m && m->getField())
    return fieldAddress(m);
  if (auto *d = dyn_cast<bsgp::DeclRefExpr>(e))
    if (auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
        vd && isInMemory(vd) && slotReachable(vd)) {
      // A field's address may be written through.
      noteRequireWrite(vd);
      return env.lookup(vd);
    }
  (void)unsupported(e->getRange(), "a struct value");
  return {};
}

/// The address of field \p m (`s.f` of a struct in memory, or `p->f`), as
/// a pointer to the field's type (to its first element for an array).
Value MLIRGen::fieldAddress(bsgp::MemberExpr *m) {
  Location l = loc(m->getRange());
  Value base =
      m->isArrow() ? emitExpr(m->getBase()) : structAddress(m->getBase());
  if (!base)
    return {};
  bsgp::FieldDecl *f = m->getField();
  const bsgp::Type *baseType = m->getBase()->getType()->getUnqualified();
  if (m->isArrow())
    baseType =
        cast<bsgp::PointerType>(baseType)->getPointee()->getUnqualified();
  uint64_t offset =
      bsgp::fieldOffset(cast<bsgp::StructType>(baseType), f->getIndex());
  const bsgp::Type *ft = f->getType()->getUnqualified();
  Type elt;
  if (auto *st = dyn_cast<bsgp::StructType>(ft))
    elt = structMemoryType(st, m->getRange());
  else
    elt = memoryType(flattenArray(ft).first, m->getRange());
  if (!elt)
    return {};
  Type bytePtr = bsgp::PtrType::get(&ctx, b.getI8Type());
  Value bytes = bsgp::PtrCastOp::create(b, l, bytePtr, base);
  if (offset)
    bytes = bsgp::PtrOffsetOp::create(
        b, l, bytePtr, bytes, constInt(b.getI64Type(), (int64_t)offset, l));
  return bsgp::PtrCastOp::create(b, l, bsgp::PtrType::get(&ctx, elt), bytes);
}

/// Reads field \p m: its value, or for an array field a pointer to its
/// first element (arrays are pointers).
Value MLIRGen::emitFieldLoad(bsgp::MemberExpr *m) {
  Value p = fieldAddress(m);
  if (!p)
    return {};
  const bsgp::Type *ft = m->getField()->getType()->getUnqualified();
  if (isa<bsgp::ArrayType>(ft))
    return p;
  if (isa<bsgp::StructType>(ft)) {
    (void)unsupported(m->getRange(), "a struct value");
    return {};
  }
  Location l = loc(m->getRange());
  return bsgp::PtrLoadOp::create(
      b, l, cast<bsgp::PtrType>(p.getType()).getElementType(), p,
      constInt(b.getI32Type(), 0, l));
}

Value MLIRGen::emitFieldStore(bsgp::MemberExpr *m, Value v, Location l) {
  const bsgp::Type *ft = m->getField()->getType()->getUnqualified();
  if (isa<bsgp::ArrayType, bsgp::StructType>(ft)) {
    (void)unsupported(m->getRange(), "assigning a whole array or struct");
    return {};
  }
  Value p = fieldAddress(m);
  if (!p)
    return {};
  bsgp::PtrStoreOp::create(b, l, v, p, constInt(b.getI32Type(), 0, l));
  return v;
}
