//===- Outputs.h - dependency files and C headers ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DRIVER_OUTPUTS_H
#define BSGP_DRIVER_OUTPUTS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
}

namespace bsgp {
class ASTContext;
class SourceManager;

/// Writes a make rule `Target: main.bsgp imported.bsgp ...` for the program
/// in \p Ctx, with phony rules for the imports.
void writeDependencyFile(llvm::StringRef Target, ASTContext &Ctx,
                         SourceManager &SM, llvm::raw_ostream &OS);

/// Writes a C/C++ header declaring the main file's non-inline functions with
/// C linkage (functions whose types C cannot spell are left out). Vector
/// types become `bsgp_float4` etc., structs of the same layout.
bool writeHeader(llvm::StringRef Guard, ASTContext &Ctx, llvm::raw_ostream &OS);

} // namespace bsgp

#endif // BSGP_DRIVER_OUTPUTS_H
