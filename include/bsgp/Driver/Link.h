//===- Link.h - linking programs through Clang's driver ---------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DRIVER_LINK_H
#define BSGP_DRIVER_LINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace bsgp {
class DiagnosticEngine;

struct LinkOptions {
  /// What Clang's driver is asked for: a program linked with libbsgprt, or,
  /// for a C or C++ input given with -c or -S, its object or assembly.
  enum class Mode { Link, CompileObject, CompileAssembly };
  Mode Action = Mode::Link;
  /// Objects compiled from .bsgp inputs, and every other input (C/C++
  /// sources, objects, archives) in command-line order.
  std::vector<std::string> Inputs;
  std::string Output = "a.out";
  /// -L, -l, -Wl, -I, -D, -O, -std= and other flags passed to Clang's
  /// driver as given.
  std::vector<std::string> ExtraArgs;
  /// Link libbsgprt statically (-static-bsgprt) instead of the shared one.
  bool StaticRuntime = false;
  bool Verbose = false;
};

/// The directory holding bsgpc's libraries (libbsgprt, the collective
/// library): <directory of the bsgpc executable>/../lib.
std::string getLibraryDir(const char *Argv0);
/// The directory holding the runtime's headers: <bindir>/../include.
std::string getIncludeDir(const char *Argv0);

/// Compiles the C/C++ inputs and links everything with libbsgprt through
/// Clang's driver library, as `clang++` would; with a compile mode, only
/// compiles (the runtime's headers on the include path). Returns the exit
/// status.
int runLink(const char *Argv0, const LinkOptions &Opts,
            DiagnosticEngine &Diags);

} // namespace bsgp

#endif // BSGP_DRIVER_LINK_H
