//===- CompileCommands.h - a document's flags from the build ---*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An editor opens a file the build compiles with -I and -D flags; without
/// them its headers are not found and its macros are undefined. As clangd
/// does, the server reads the file's command from the nearest
/// compile_commands.json (CMake's CMAKE_EXPORT_COMPILE_COMMANDS writes
/// .bsgp entries in it): in the file's folder or one above it, or in a
/// `build` folder there.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_TOOLS_BSGP_LSP_COMPILECOMMANDS_H
#define BSGP_TOOLS_BSGP_LSP_COMPILECOMMANDS_H

#include "Document.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

#include <map>
#include <memory>
#include <string>

namespace bsgp {
namespace lspserver {

class CompileCommands {
public:
  /// \p Base with the -I, -D and -U of \p File's command (include
  /// directories relative to the command's directory made absolute), if a
  /// compilation database has one.
  CompileSettings settingsFor(const CompileSettings &Base,
                              llvm::StringRef File);

private:
  /// The database at \p Path, loaded once (null if it does not parse).
  clang::tooling::JSONCompilationDatabase *load(const std::string &Path);

  std::map<std::string,
           std::unique_ptr<clang::tooling::JSONCompilationDatabase>>
      Databases;
};

} // namespace lspserver
} // namespace bsgp

#endif // BSGP_TOOLS_BSGP_LSP_COMPILECOMMANDS_H
