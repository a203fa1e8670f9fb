//===- Outputs.h - dependency files and C headers ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DRIVER_OUTPUTS_H
#define BSGP_DRIVER_OUTPUTS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace bsgp {
class ASTContext;
class SourceManager;

/// What a dependency file holds, as clang's -MD, -MMD, -MP, -MT and -MQ
/// choose it.
struct DependencyOptions {
  /// The rule's targets, already quoted where -MQ (or the default, the
  /// output's name) asks for it.
  std::vector<std::string> Targets;
  /// Files the rule leaves out (-MMD): bsgpc's own headers and the
  /// collective library, as clang leaves out system headers.
  std::vector<std::string> SystemPrefixes;
  /// A phony rule for every dependency but the main file (-MP), so that
  /// deleting a header does not break make.
  bool PhonyTargets = false;
  /// Only files the source manager read from this id on: those of one input
  /// of several.
  uint32_t FirstFileId = 1;
};

/// `Name` with the characters make treats specially quoted (-MQ).
std::string quoteForMake(llvm::StringRef Name);

/// Writes a make rule `Target: main.bsgp imported.bsgp ...` for the program
/// in \p Ctx.
void writeDependencyFile(const DependencyOptions &Opts, ASTContext &Ctx,
                         SourceManager &SM, llvm::raw_ostream &OS);

/// Writes a C/C++ header declaring the main file's non-inline functions with
/// C linkage (functions whose types C cannot spell are left out). Vector
/// types become `bsgp_float4` etc., structs of the same layout.
bool writeHeader(llvm::StringRef Guard, ASTContext &Ctx, llvm::raw_ostream &OS);

} // namespace bsgp

#endif // BSGP_DRIVER_OUTPUTS_H
