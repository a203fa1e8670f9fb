//===- CompileCommands.cpp - a document's flags from the build ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "CompileCommands.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/Path.h"

using namespace bsgp;
using namespace bsgp::lspserver;
namespace path = llvm::sys::path;

clang::tooling::JSONCompilationDatabase *
CompileCommands::load(const std::string &Path) {
  auto [It, Inserted] = Databases.try_emplace(Path);
  if (Inserted) {
    std::string Error;
    It->second = clang::tooling::JSONCompilationDatabase::loadFromFile(
        Path, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
    if (!It->second)
      llvm::lsp::Logger::error("cannot read {0}: {1}", Path, Error);
  }
  return It->second.get();
}

CompileSettings CompileCommands::settingsFor(const CompileSettings &Base,
                                             llvm::StringRef File) {
  CompileSettings S = Base;
  if (!path::is_absolute(File))
    return S;
  for (llvm::StringRef Dir = path::parent_path(File); !Dir.empty();
       Dir = path::parent_path(Dir)) {
    for (const char *Sub : {"", "build"}) {
      llvm::SmallString<256> DB(Dir);
      path::append(DB, Sub, "compile_commands.json");
      if (!llvm::sys::fs::exists(DB))
        continue;
      clang::tooling::JSONCompilationDatabase *Commands = load(DB.str().str());
      if (!Commands)
        continue;
      std::vector<clang::tooling::CompileCommand> Found =
          Commands->getCompileCommands(File);
      if (Found.empty())
        continue;
      const clang::tooling::CompileCommand &C = Found.front();
      auto Absolute = [&](llvm::StringRef P) {
        llvm::SmallString<256> A(P);
        if (!path::is_absolute(A))
          A = (llvm::Twine(C.Directory) + "/" + P).str();
        path::remove_dots(A, /*remove_dot_dot=*/true);
        return A.str().str();
      };
      const std::vector<std::string> &Args = C.CommandLine;
      for (size_t I = 1; I < Args.size(); ++I) {
        llvm::StringRef A = Args[I];
        // -I<dir>, -I <dir>, and the same for -D and -U.
        for (char Flag : {'I', 'D', 'U'}) {
          if (A.size() < 2 || A[0] != '-' || A[1] != Flag)
            continue;
          std::string Value = A.size() > 2          ? A.drop_front(2).str()
                              : I + 1 < Args.size() ? Args[++I]
                                                    : std::string();
          if (Value.empty())
            break;
          if (Flag == 'I') {
            S.IncludePaths.push_back(Absolute(Value));
            S.PP.IncludePaths.push_back(Absolute(Value));
          } else {
            S.PP.Macros.push_back({Value, Flag == 'U'});
          }
          break;
        }
      }
      return S;
    }
  }
  return S;
}
