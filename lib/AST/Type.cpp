//===- Type.cpp - the BSGP type system ------------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/AST/Type.h"
#include "bsgp/AST/AST.h"

using namespace bsgp;

const Type *Type::getUnqualified() const {
  if (auto *C = llvm::dyn_cast<ConstType>(this))
    return C->getInner();
  return this;
}

static const BuiltinType *asBuiltin(const Type *T) {
  return llvm::dyn_cast<BuiltinType>(T->getUnqualified());
}

bool Type::isVoid() const {
  auto *B = asBuiltin(this);
  return B && B->getBuiltinKind() == BuiltinType::Void;
}
bool Type::isBool() const {
  auto *B = asBuiltin(this);
  return B && B->getBuiltinKind() == BuiltinType::Bool;
}
bool Type::isInteger() const {
  auto *B = asBuiltin(this);
  return B && B->getBuiltinKind() >= BuiltinType::Bool &&
         B->getBuiltinKind() <= BuiltinType::UInt64;
}
bool Type::isSignedInteger() const {
  auto *B = asBuiltin(this);
  return B && (B->getBuiltinKind() == BuiltinType::Char ||
               B->getBuiltinKind() == BuiltinType::Short ||
               B->getBuiltinKind() == BuiltinType::Int ||
               B->getBuiltinKind() == BuiltinType::Int64);
}
bool Type::isFloating() const {
  auto *B = asBuiltin(this);
  return B && (B->getBuiltinKind() == BuiltinType::Float ||
               B->getBuiltinKind() == BuiltinType::Double);
}
bool Type::isArithmetic() const { return isInteger() || isFloating(); }
bool Type::isPointer() const {
  return llvm::isa<PointerType>(getUnqualified());
}
bool Type::isScalar() const {
  return isArithmetic() || isPointer() || llvm::isa<NullType>(getUnqualified());
}
bool Type::isVector() const { return llvm::isa<VectorType>(getUnqualified()); }

unsigned BuiltinType::getBitWidth() const {
  switch (BKind) {
  case Void:
    return 0;
  case Bool:
    return 1;
  case Char:
  case UChar:
    return 8;
  case Short:
  case UShort:
    return 16;
  case Int:
  case UInt:
  case Float:
    return 32;
  case Int64:
  case UInt64:
  case Double:
    return 64;
  }
  return 0;
}

unsigned BuiltinType::getRank() const { return BKind; }

const char *BuiltinType::getName(BuiltinKind K) {
  switch (K) {
  case BuiltinType::Void:
    return "void";
  case BuiltinType::Bool:
    return "bool";
  case BuiltinType::Char:
    return "char";
  case BuiltinType::UChar:
    return "uchar";
  case BuiltinType::Short:
    return "short";
  case BuiltinType::UShort:
    return "ushort";
  case BuiltinType::Int:
    return "int";
  case BuiltinType::UInt:
    return "uint";
  case BuiltinType::Int64:
    return "int64";
  case BuiltinType::UInt64:
    return "uint64";
  case BuiltinType::Float:
    return "float";
  case BuiltinType::Double:
    return "double";
  }
  return "?";
}

std::string Type::str() const {
  switch (Kind) {
  case TK_Builtin:
    return BuiltinType::getName(
        llvm::cast<BuiltinType>(this)->getBuiltinKind());
  case TK_Vector: {
    auto *V = llvm::cast<VectorType>(this);
    return std::string(
               BuiltinType::getName(V->getElementType()->getBuiltinKind())) +
           std::to_string(V->getNumElements());
  }
  case TK_Pointer:
    return llvm::cast<PointerType>(this)->getPointee()->str() + "*";
  case TK_Const: {
    const Type *In = llvm::cast<ConstType>(this)->getInner();
    if (llvm::isa<PointerType>(In))
      return In->str() + " const";
    return "const " + In->str();
  }
  case TK_Array: {
    // C spelling: `int[2][3]` is an array of 2 arrays of 3 ints.
    std::string Dims;
    const Type *T = this;
    while (auto *A = llvm::dyn_cast<ArrayType>(T)) {
      Dims += "[" + std::to_string(A->getSize()) + "]";
      T = A->getElementType();
    }
    return T->str() + Dims;
  }
  case TK_Struct:
    return "struct " + llvm::cast<StructType>(this)->getName().str();
  case TK_Function: {
    auto *F = llvm::cast<FunctionType>(this);
    std::string S = F->getReturnType()->str() + " (";
    bool First = true;
    for (const Type *P : F->getParams()) {
      if (!First)
        S += ", ";
      First = false;
      S += P->str();
    }
    if (F->isVarargs())
      S += First ? "..." : ", ...";
    return S + ")";
  }
  case TK_Operator:
    return llvm::cast<OperatorType>(this)->getSpelling().str();
  case TK_Value:
    return llvm::cast<ValueType>(this)->getDecimal();
  case TK_Null:
    return "null";
  case TK_Error:
    return "<error>";
  }
  return "?";
}
