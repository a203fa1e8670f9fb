//===- ConstantEval.h - integer constant expressions ------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Integer constant expressions (docs/language.md, "Constants"): what an
/// array size and a global constant's initializer may be. They are folded
/// on the AST as written, before Sema, because the parser needs an array's
/// size to build its type (as a C parser asks its semantic actions).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_CONSTANTEVAL_H
#define BSGP_AST_CONSTANTEVAL_H

#include "bsgp/AST/AST.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>

namespace bsgp {

/// The size in bytes of \p T as sizeof gives it (bsgp/AST/Layout.h);
/// nothing for void and incomplete structs.
std::optional<uint64_t> constantSizeOf(const Type *T);

/// The value of \p E if it is an integer constant expression: integer,
/// character and bool literals, names \p Lookup knows (the global integer
/// constants declared so far), sizeof of a type or of such a name, casts
/// to integer types, and the unary, binary and conditional operators on
/// those, evaluated in 64-bit two's complement. Nothing otherwise, and for
/// a division by zero.
std::optional<int64_t> evaluateIntConstant(
    const Expr *E,
    llvm::function_ref<std::optional<int64_t>(const DeclRefExpr *)> Lookup);

/// evaluateIntConstant after Sema: a name is a global integer constant
/// (its declaration const, its initializer such an expression).
std::optional<int64_t> evaluateCheckedIntConstant(const Expr *E);

} // namespace bsgp

#endif // BSGP_AST_CONSTANTEVAL_H
