//===- ConstantEval.h - integer constant expressions ------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Integer constant expressions (docs/language.md, "Constants"): array
/// sizes, template value arguments, conditions decided in instantiations,
/// global constants' initializers and the divisors Sema checks. Every one
/// of them is folded here, by one evaluator with C's rules: each value has
/// its type, operands are promoted and brought to a common type by the
/// usual arithmetic conversions, and comparisons, shifts, division and
/// conversions follow that type's signedness and width.
///
/// The parser folds on the AST as written, before Sema, because it needs
/// an array's size to build its type (as a C parser asks its semantic
/// actions); the evaluator then types each node itself. After Sema it
/// also honours the implicit conversions Sema inserted, which are the same.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_CONSTANTEVAL_H
#define BSGP_AST_CONSTANTEVAL_H

#include "bsgp/AST/AST.h"
#include "bsgp/Basic/Diagnostic.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace bsgp {

/// The size in bytes of \p T as sizeof gives it (bsgp/AST/Layout.h);
/// nothing for void and incomplete structs.
std::optional<uint64_t> constantSizeOf(const Type *T);

/// The type of an integer literal, as C gives it on a 64-bit target with
/// BSGP's types: a decimal literal is the first of int, int64, uint64 that
/// holds it; an octal or hexadecimal one the first of int, uint, int64,
/// uint64; a `u` suffix leaves only the unsigned ones, an `l` suffix only
/// the 64-bit ones.
BuiltinType::BuiltinKind integerLiteralKind(const IntegerLiteral *L);

/// The integer kind (bool, char, int, uint, int64, uint64) of \p T, const
/// ignored; nothing for any other type.
std::optional<BuiltinType::BuiltinKind> integerKind(const Type *T);

/// A value of one of BSGP's integer types.
class IntConstant {
public:
  using Kind = BuiltinType::BuiltinKind;
  IntConstant() = default;
  /// The integer whose 64-bit two's complement pattern is \p Bits,
  /// converted to \p K as C converts: modulo 2^width, and for bool
  /// compared with zero.
  static IntConstant get(Kind K, uint64_t Bits);
  static IntConstant getBool(bool B) { return get(BuiltinType::Bool, B); }

  Kind getKind() const { return K; }
  bool isSigned() const;
  unsigned getWidth() const;
  /// The value's pattern, sign- or zero-extended to 64 bits as its type's
  /// signedness says.
  uint64_t getBits() const { return Bits; }
  bool isNegative() const {
    return isSigned() && static_cast<int64_t>(Bits) < 0;
  }
  bool isZero() const { return Bits == 0; }
  IntConstant convert(Kind To) const { return get(To, Bits); }
  double toDouble() const;
  /// The value in decimal.
  std::string toString() const;
  /// The type's name as BSGP spells it.
  const char *getTypeName() const;

private:
  Kind K = BuiltinType::Int;
  uint64_t Bits = 0;
};

/// Evaluates integer constant expressions: integer, character and bool
/// literals, names its lookup knows, sizeof of a type or of an expression
/// whose type is known, casts to integer
/// types, and the unary, binary and conditional operators on those.
/// Operations C leaves undefined make an expression not constant (division
/// by zero, INT_MIN / -1, shift counts out of range, left shifts of
/// negative values or that discard bits), as clang decides, with the reason
/// kept for a note; signed overflow of `+ - *` and negation wraps, as
/// clang's folding does, and is kept for a warning (-Winteger-overflow).
/// Operands that are not evaluated (the other arm of `?:`, the right of
/// `&&` and `||` when the left decides) are only typed.
class ConstantEvaluator {
public:
  using Lookup = std::function<std::optional<IntConstant>(const DeclRefExpr *)>;
  explicit ConstantEvaluator(Lookup L) : L(std::move(L)) {}
  /// The type of an expression Sema has not typed yet, for `sizeof(expr)`
  /// (the parser's declared types).
  using TypeOf = std::function<const Type *(const Expr *)>;
  void setTypeOf(TypeOf T) { TypeOfFn = std::move(T); }

  std::optional<IntConstant> evaluate(const Expr *E);

  /// Whether an evaluation overflowed (the first overflow is kept).
  bool hasOverflow() const { return Overflow.has_value(); }
  /// Reports the first signed overflow: a warning (-Winteger-overflow), or
  /// an error where the value must be exact (a template argument).
  void reportOverflow(DiagnosticEngine &Diags, bool AsError) const;
  /// After a failed evaluation: a note saying which undefined operation
  /// made the expression not constant, if that was the reason.
  void reportFailure(DiagnosticEngine &Diags) const;

private:
  struct Problem {
    SourceRange Range;
    diag::Kind Note;
    std::string Args[3];
  };
  std::optional<IntConstant> unary(const UnaryOperator *U);
  std::optional<IntConstant> binary(const BinaryOperator *B);
  std::optional<IntConstant> arith(const BinaryOperator *B, IntConstant X,
                                   IntConstant Y);
  std::optional<IntConstant> shift(const BinaryOperator *B, IntConstant X,
                                   IntConstant Y);
  std::optional<IntConstant> conditional(const ConditionalOperator *C);
  std::optional<IntConstant> cast(const Type *To, const Expr *Sub);
  /// An operation C leaves undefined: in an evaluated operand the
  /// expression is not constant; in one that is only typed, its value does
  /// not matter (\p Typed is returned).
  std::optional<IntConstant> undefined(SourceRange R, diag::Kind Note,
                                       IntConstant Typed, std::string A0 = "",
                                       std::string A1 = "",
                                       std::string A2 = "");
  /// A signed result \p Exact (in decimal) that \p Wrapped's type cannot
  /// hold; returns \p Wrapped.
  IntConstant overflow(SourceRange R, IntConstant Wrapped,
                       const std::string &Exact);

  Lookup L;
  TypeOf TypeOfFn;
  unsigned Unevaluated = 0;
  std::optional<Problem> Overflow, Failure;
};

/// A global integer constant named by \p R, after Sema: its declaration
/// const and global, its initializer an integer constant expression, its
/// value converted to its type. The lookup of evaluateCheckedIntConstant.
std::optional<IntConstant> lookupGlobalConstant(const DeclRefExpr *R);

/// The value of \p E, an expression Sema checked, if it is an integer
/// constant expression whose names are global integer constants.
std::optional<IntConstant> evaluateCheckedIntConstant(const Expr *E);

/// Whether \p E, an expression Sema checked, is C's null pointer constant
/// written as an integer: an integer constant expression of value 0
/// (`char *end = 0;`), which converts to any pointer as NULL does. Not a
/// bool: `false` is not a pointer.
bool isNullPointerConstant(const Expr *E);

} // namespace bsgp

#endif // BSGP_AST_CONSTANTEVAL_H
