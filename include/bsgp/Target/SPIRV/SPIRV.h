//===- SPIRV.h - the SPIR-V (Vulkan) target ---------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The SPIR-V binary bsgp-serialize-spirv stores in the host module, and
/// the SPIRV-Tools functions that validate, optimize and print it. The
/// workgroup size and push-constant block are in BSGPToSPIRV.h.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_SPIRV_SPIRV_H
#define BSGP_TARGET_SPIRV_SPIRV_H

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"
#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
}

namespace bsgp {

/// Prints the SPIR-V binary `bytes` as the MLIR SPIR-V dialect to `os`.
/// Returns failure (with an MLIR diagnostic) when it is no SPIR-V module.
mlir::LogicalResult printSPIRV(llvm::StringRef bytes, mlir::MLIRContext *ctx,
                               llvm::raw_ostream &os);

/// Why a module failed validateAndOptimizeSPIRV.
struct SPIRVToolsError {
  /// The validator's (or optimizer's) message.
  std::string message;
  /// The OpName of the function the message is about, if any.
  std::string function;
  /// Whether the failure came after the optimizer ran.
  bool optimized = false;
  /// Whether SPIRV-Tools' optimizer itself failed (not the validator).
  bool optimizerFailed = false;
};

/// Validates `words` for Vulkan 1.3 with SPIRV-Tools; at `optLevel` >= 1
/// runs SPIRV-Tools' performance passes on it and validates the result,
/// which replaces `words`. A failure is a compiler bug: the caller reports
/// `error`.
mlir::LogicalResult validateAndOptimizeSPIRV(std::vector<uint32_t> &words,
                                             unsigned optLevel,
                                             SPIRVToolsError &error);

/// The SPIR-V assembly of the binary `bytes`, as `spirv-dis` prints it
/// (header comment, indentation, friendly names).
mlir::LogicalResult disassembleSPIRV(llvm::StringRef bytes, std::string &text,
                                     std::string &error);

} // namespace bsgp

#endif // BSGP_TARGET_SPIRV_SPIRV_H
