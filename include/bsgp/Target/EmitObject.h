//===- EmitObject.h - LLVM-dialect modules to host code ---------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_EMITOBJECT_H
#define BSGP_TARGET_EMITOBJECT_H

#include "mlir/Support/LLVM.h"

#include <string>

namespace llvm {
class raw_pwrite_stream;
}
namespace mlir {
class ModuleOp;
}

namespace bsgp {

enum class HostOutputKind { Object, Assembly, LLVMIR, Bitcode };

struct HostCodegenOptions {
  HostOutputKind kind = HostOutputKind::Object;
  /// 0-3, as clang's -O0..-O3; LLVM's default pipelines for that level.
  unsigned optLevel = 2;
  /// Target triple; empty means the host's.
  std::string triple;
  /// CPU name for -march; empty means a generic CPU of the triple, "native"
  /// the machine bsgpc runs on.
  std::string cpu;
  /// Position-independent code (the default, as for clang on Debian).
  bool pic = true;
};

/// Records the host triple and data layout on `module` so that layout
/// queries made while lowering (argument structs, element sizes) agree with
/// the code generator. Returns failure with `error` set if the triple has no
/// registered target.
mlir::LogicalResult prepareHostModule(mlir::ModuleOp module,
                                      const HostCodegenOptions &options,
                                      std::string &error);

/// Translates an LLVM-dialect `module` to LLVM IR, optimizes it and writes
/// the requested output to `os`.
mlir::LogicalResult emitHostCode(mlir::ModuleOp module,
                                 const HostCodegenOptions &options,
                                 llvm::raw_pwrite_stream &os,
                                 std::string &error);

} // namespace bsgp

#endif // BSGP_TARGET_EMITOBJECT_H
