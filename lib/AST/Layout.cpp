//===- Layout.cpp - the memory layout of BSGP types -----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/AST/Layout.h"
#include "bsgp/AST/AST.h"

#include "llvm/Support/MathExtras.h"

using namespace bsgp;
using llvm::dyn_cast;

uint64_t bsgp::typeSize(const Type *T) {
  T = T->getUnqualified();
  if (auto *B = dyn_cast<BuiltinType>(T))
    return B->isVoid() ? 0 : std::max(1u, B->getBitWidth() / 8);
  if (auto *V = dyn_cast<VectorType>(T))
    return llvm::PowerOf2Ceil(V->getNumElements() *
                              typeSize(V->getElementType()));
  if (llvm::isa<PointerType, NullType>(T))
    return 8;
  if (auto *A = dyn_cast<ArrayType>(T))
    return A->getSize() * typeSize(A->getElementType());
  if (auto *S = dyn_cast<StructType>(T)) {
    if (!S->getDecl())
      return 0;
    auto Fields = S->getDecl()->getFields();
    // An empty struct takes a byte, as in C++.
    if (Fields.empty())
      return 1;
    uint64_t End =
        fieldOffset(S, Fields.size() - 1) + typeSize(Fields.back()->getType());
    return llvm::alignTo(End, typeAlign(S));
  }
  return 0;
}

uint64_t bsgp::typeAlign(const Type *T) {
  T = T->getUnqualified();
  if (auto *A = dyn_cast<ArrayType>(T))
    return typeAlign(A->getElementType());
  if (auto *S = dyn_cast<StructType>(T)) {
    uint64_t Max = 1;
    if (S->getDecl())
      for (FieldDecl *F : S->getDecl()->getFields())
        Max = std::max(Max, typeAlign(F->getType()));
    return Max;
  }
  return std::max<uint64_t>(1, typeSize(T));
}

uint64_t bsgp::fieldOffset(const StructType *S, unsigned Index) {
  uint64_t Off = 0;
  auto Fields = S->getDecl()->getFields();
  for (unsigned I = 0;; ++I) {
    Off = llvm::alignTo(Off, typeAlign(Fields[I]->getType()));
    if (I == Index)
      return Off;
    Off += typeSize(Fields[I]->getType());
  }
}
