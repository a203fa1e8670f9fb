//===- ASTContext.cpp - owner of AST nodes and types ----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/AST/ASTContext.h"

using namespace bsgp;

void *Decl::operator new(size_t Size, ASTContext &Ctx) {
  return Ctx.allocate(Size, alignof(std::max_align_t));
}
void *Stmt::operator new(size_t Size, ASTContext &Ctx) {
  return Ctx.allocate(Size, alignof(std::max_align_t));
}

ASTContext::ASTContext() {
  for (unsigned K = 0; K <= BuiltinType::Double; ++K)
    Builtins[K] = new (allocate(sizeof(BuiltinType), alignof(BuiltinType)))
        BuiltinType(static_cast<BuiltinType::BuiltinKind>(K));
}

template <typename T, typename... Args>
static T *make(ASTContext &Ctx, Args &&...A) {
  return new (Ctx.allocate(sizeof(T), alignof(T))) T(std::forward<Args>(A)...);
}

const VectorType *ASTContext::getVectorType(const BuiltinType *Elem,
                                            unsigned N) {
  auto &Slot = Vectors[{Elem, N}];
  if (!Slot)
    Slot = make<VectorType>(*this, Elem, N);
  return Slot;
}

const PointerType *ASTContext::getPointerType(const Type *Pointee) {
  auto &Slot = Pointers[Pointee];
  if (!Slot)
    Slot = make<PointerType>(*this, Pointee);
  return Slot;
}

const Type *ASTContext::getConstType(const Type *T) {
  if (T->isConst() || T->isError())
    return T;
  auto &Slot = Consts[T];
  if (!Slot)
    Slot = make<ConstType>(*this, T);
  return Slot;
}

const ArrayType *ASTContext::getArrayType(const Type *Elem, uint64_t Size) {
  auto &Slot = Arrays[{Elem, Size}];
  if (!Slot)
    Slot = make<ArrayType>(*this, Elem, Size);
  return Slot;
}

const FunctionType *
ASTContext::getFunctionType(const Type *Ret,
                            llvm::ArrayRef<const Type *> Params, bool Varargs) {
  std::vector<const void *> Key;
  Key.push_back(Ret);
  Key.push_back(Varargs ? this : nullptr);
  for (const Type *P : Params)
    Key.push_back(P);
  auto &Slot = Functions[Key];
  if (!Slot)
    Slot = make<FunctionType>(*this, Ret, copyArray(Params), Varargs);
  return Slot;
}

const OperatorType *ASTContext::getOperatorType(llvm::StringRef Spelling) {
  static const std::pair<const char *, const char *> Known[] = {
      {"+", "add"}, {"*", "mul"}, {"min", "min"}, {"max", "max"},
      {"&", "and"}, {"|", "or"},  {"^", "xor"}};
  for (auto [S, N] : Known) {
    if (Spelling != S)
      continue;
    auto &Slot = Operators[Spelling];
    if (!Slot)
      Slot = make<OperatorType>(*this, S, N);
    return Slot;
  }
  return nullptr;
}

const ValueType *ASTContext::getValueType(uint64_t Bits, bool Negative) {
  auto &Slot = Values[{Bits, Negative}];
  if (!Slot)
    Slot = make<ValueType>(*this, Bits, Negative);
  return Slot;
}

StructType *ASTContext::getStructType(llvm::StringRef Name) {
  auto &Slot = Structs[Name];
  if (!Slot)
    Slot = make<StructType>(*this, copyString(Name));
  return Slot;
}
