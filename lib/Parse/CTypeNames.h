//===- CTypeNames.h - C's spellings of BSGP's types -------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The types C and C++ programmers write that BSGP spells otherwise
/// (`long`, `unsigned int`, `size_t`) or lacks (`long double`): one table,
/// which the parser uses to read the first as BSGP's type and to say of
/// the others "unknown type name 'long double' (BSGP has no floating type
/// wider than 'double'); did you mean 'double'?", going on with that type. The
/// sizes are those of the LP64 hosts bsgpc compiles for (`long` is 64 bits).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_PARSE_CTYPENAMES_H
#define BSGP_LIB_PARSE_CTYPENAMES_H

#include "bsgp/AST/Type.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace bsgp {

/// One C spelling and BSGP's type for it.
struct CTypeName {
  /// The spelling, its words in the order signedness, size, base, and
  /// without `int` after another word (`unsigned long long`, `signed
  /// char`, `short`, `size_t`).
  const char *C;
  /// BSGP's type with the same values, or the nearest where BSGP has none.
  BuiltinType::BuiltinKind BSGP;
  /// What BSGP lacks (`floating type wider than 'double'`) where BSGP is only
  /// the nearest type; null where it is the same type.
  const char *Missing;
};

/// True if \p Word begins a spelling of the table: one of C's type
/// specifiers BSGP does not have (`unsigned`, `signed`, `short`, `long`)
/// or a library type name (`size_t`, `int32_t`).
bool isCTypeWord(llvm::StringRef Word);

/// True if \p Word may follow the first word of a spelling: a type
/// specifier of C (`unsigned`, `signed`, `short`, `long`, `int`, `char`,
/// `double`).
bool continuesCTypeName(llvm::StringRef Word);

/// The entry for \p Words, a spelling as written (`long unsigned int`
/// finds `unsigned long`); null if C has no such type.
const CTypeName *lookupCTypeName(llvm::ArrayRef<llvm::StringRef> Words);

} // namespace bsgp

#endif // BSGP_LIB_PARSE_CTYPENAMES_H
