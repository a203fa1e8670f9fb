//===- Type.h - the BSGP type system ----------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Types are interned by the ASTContext: two Type pointers denote the same
/// type exactly when they are equal. `const` is a wrapper (ConstType) around
/// the unqualified type; typedefs are resolved when parsed and leave no trace
/// in the type (they are sugar).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_TYPE_H
#define BSGP_AST_TYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

#include <cstdint>
#include <string>

namespace bsgp {

class StructDecl;

class Type {
public:
  enum TypeKind {
    TK_Builtin,
    TK_Vector,
    TK_Pointer,
    TK_Const,
    TK_Array,
    TK_Struct,
    TK_Function,
    TK_Operator, ///< A reduction operator as a template argument (`f<+>`).
    TK_Value,    ///< An integer as a template argument (`f<32>`).
    TK_Null,     ///< The type of NULL; converts to every pointer type.
    TK_Error,    ///< Given to expressions that failed to check; never reported.
  };
  TypeKind getKind() const { return Kind; }

  /// The type without a top-level const.
  const Type *getUnqualified() const;
  bool isConst() const { return Kind == TK_Const; }

  bool isVoid() const;
  bool isBool() const;
  /// bool, char and the int/uint kinds.
  bool isInteger() const;
  bool isSignedInteger() const;
  bool isFloating() const;
  /// Integer or floating (bool and char included).
  bool isArithmetic() const;
  bool isPointer() const;
  /// Arithmetic, pointer or null: usable as a condition.
  bool isScalar() const;
  bool isVector() const;
  bool isError() const { return Kind == TK_Error; }

  /// The C-like spelling used in diagnostics and -ast-dump.
  std::string str() const;

protected:
  explicit Type(TypeKind K) : Kind(K) {}

private:
  TypeKind Kind;
};

class BuiltinType : public Type {
public:
  enum BuiltinKind {
    Void,
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Int64,
    UInt64,
    Float,
    Double
  };
  explicit BuiltinType(BuiltinKind K) : Type(TK_Builtin), BKind(K) {}
  BuiltinKind getBuiltinKind() const { return BKind; }
  /// Bit width (bool is 1, char and uchar 8, short and ushort 16).
  unsigned getBitWidth() const;
  /// Rank for the usual arithmetic conversions.
  unsigned getRank() const;
  /// BSGP's spelling of kind \p K (`uint`, `ushort`), as diagnostics print
  /// it.
  static const char *getName(BuiltinKind K);
  static bool classof(const Type *T) { return T->getKind() == TK_Builtin; }

private:
  BuiltinKind BKind;
};

class VectorType : public Type {
public:
  VectorType(const BuiltinType *Elem, unsigned N)
      : Type(TK_Vector), Elem(Elem), NumElems(N) {}
  const BuiltinType *getElementType() const { return Elem; }
  unsigned getNumElements() const { return NumElems; }
  static bool classof(const Type *T) { return T->getKind() == TK_Vector; }

private:
  const BuiltinType *Elem;
  unsigned NumElems;
};

class PointerType : public Type {
public:
  explicit PointerType(const Type *Pointee)
      : Type(TK_Pointer), Pointee(Pointee) {}
  const Type *getPointee() const { return Pointee; }
  static bool classof(const Type *T) { return T->getKind() == TK_Pointer; }

private:
  const Type *Pointee;
};

class ConstType : public Type {
public:
  explicit ConstType(const Type *Inner) : Type(TK_Const), Inner(Inner) {}
  const Type *getInner() const { return Inner; }
  static bool classof(const Type *T) { return T->getKind() == TK_Const; }

private:
  const Type *Inner;
};

class ArrayType : public Type {
public:
  ArrayType(const Type *Elem, uint64_t Size)
      : Type(TK_Array), Elem(Elem), Size(Size) {}
  const Type *getElementType() const { return Elem; }
  uint64_t getSize() const { return Size; }
  static bool classof(const Type *T) { return T->getKind() == TK_Array; }

private:
  const Type *Elem;
  uint64_t Size;
};

/// One StructType per struct name; its declaration is filled in when the
/// body is parsed (null while the struct is only forward-referenced).
class StructType : public Type {
public:
  explicit StructType(llvm::StringRef Name) : Type(TK_Struct), Name(Name) {}
  llvm::StringRef getName() const { return Name; }
  StructDecl *getDecl() const { return Decl; }
  void setDecl(StructDecl *D) { Decl = D; }
  static bool classof(const Type *T) { return T->getKind() == TK_Struct; }

private:
  llvm::StringRef Name;
  StructDecl *Decl = nullptr;
};

class FunctionType : public Type {
public:
  FunctionType(const Type *Ret, llvm::ArrayRef<const Type *> Params,
               bool Varargs)
      : Type(TK_Function), Ret(Ret), Params(Params), Varargs(Varargs) {}
  const Type *getReturnType() const { return Ret; }
  llvm::ArrayRef<const Type *> getParams() const { return Params; }
  bool isVarargs() const { return Varargs; }
  static bool classof(const Type *T) { return T->getKind() == TK_Function; }

private:
  const Type *Ret;
  llvm::ArrayRef<const Type *> Params;
  bool Varargs;
};

/// The operator of reduce and scan as a type: a template argument such as
/// the `+` of `f<+, int>(x)`, which a generic function applies as
/// `reduce(Op, x)` or `Op(a, b)` (docs/language.md, "Generic functions").
/// It has no values. One per operator.
class OperatorType : public Type {
public:
  OperatorType(llvm::StringRef Spelling, llvm::StringRef Name)
      : Type(TK_Operator), Spelling(Spelling), Name(Name) {}
  /// As written: +, *, min, max, &, |, ^.
  llvm::StringRef getSpelling() const { return Spelling; }
  /// As names mangle it: add, mul, min, max, and, or, xor.
  llvm::StringRef getName() const { return Name; }
  static bool classof(const Type *T) { return T->getKind() == TK_Operator; }

private:
  llvm::StringRef Spelling, Name;
};

/// The value given for a non-type template parameter (`int Bits` of
/// `template <typename U, int Bits>`), as a type so that template arguments
/// stay a list of types and instantiations are told apart by them
/// (docs/language.md, "Generic functions"). It has no values. One per
/// integer, whatever the type of the expression that gave it (`4` and `4u`
/// are one argument); a bool argument is 0 or 1. Values run from -2^63 to
/// 2^64 - 1.
class ValueType : public Type {
public:
  /// \p Bits is the value's 64-bit two's complement pattern; \p Negative
  /// tells a negative value from one of 2^63 and above with that pattern.
  ValueType(uint64_t Bits, bool Negative)
      : Type(TK_Value), Bits(Bits), Negative(Negative) {}
  uint64_t getBits() const { return Bits; }
  bool isNegative() const { return Negative; }
  /// The value in decimal.
  std::string getDecimal() const {
    return Negative ? "-" + std::to_string(0 - Bits) : std::to_string(Bits);
  }
  static bool classof(const Type *T) { return T->getKind() == TK_Value; }

private:
  uint64_t Bits;
  bool Negative;
};

class NullType : public Type {
public:
  NullType() : Type(TK_Null) {}
  static bool classof(const Type *T) { return T->getKind() == TK_Null; }
};

class ErrorType : public Type {
public:
  ErrorType() : Type(TK_Error) {}
  static bool classof(const Type *T) { return T->getKind() == TK_Error; }
};

} // namespace bsgp

#endif // BSGP_AST_TYPE_H
