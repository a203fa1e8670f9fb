//===- Codegen.h - from the checked AST to output files ---------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The back half of bsgpc: MLIRGen, the §4 pipeline, a target, and the host
/// code emitter. runDriver() calls it once the frontend has succeeded.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_DRIVER_CODEGEN_H
#define BSGP_DRIVER_CODEGEN_H

#include "bsgp/Basic/Target.h"

#include <string>

namespace bsgp {
class ASTContext;
class DiagnosticEngine;

struct CodegenOptions {
  enum Action {
    EmitMLIR,     ///< -emit-mlir: the module MLIRGen built.
    EmitLowered,  ///< -emit-mlir with -lower: after the whole MLIR pipeline.
    EmitLLVM,     ///< -emit-llvm -S: LLVM IR text.
    EmitBitcode,  ///< -emit-llvm -c: LLVM bitcode.
    EmitAssembly, ///< -S: host assembly.
    EmitObject,   ///< -c: an object file.
    EmitSPIRV,    ///< -emit-spirv: the kernels' SPIR-V binary.
  };
  Action Action = EmitObject;
  std::string Output = "-";
  unsigned OptLevel = 2;
  /// --target=cpu,cuda,spirv: the forms kernels are compiled to.
  TargetSet Targets = {Target::CPU};
  std::string CUDAArch = "sm_90";
  std::string CUDAPath;
  /// Work groups one CUDA thread block runs in kernels with work-group
  /// operations (--cuda-groups-per-block).
  unsigned CUDAGroupsPerBlock = 8;
  std::string Triple;
  std::string CPU;
  bool PrintIRAfterAll = false;
  /// -g: line tables for host code and CPU kernels.
  bool DebugInfo = false;
  /// -ftime-report: the steps' times on standard error.
  bool TimeReport = false;
  /// --print-supersteps[=dot]: "" (off), "table" or "dot".
  std::string PrintSupersteps;
};

/// Runs code generation for the program in \p Ctx. Errors are reported
/// through \p Diags with their BSGP source locations. Returns 0 on success
/// and 1 on failure, like the driver.
int runCodegen(ASTContext &Ctx, DiagnosticEngine &Diags,
               const CodegenOptions &Opts);

} // namespace bsgp

#endif // BSGP_DRIVER_CODEGEN_H
