//===- Passes.h - conversion passes of bsgpc --------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The passes of lib/Conversion: from outlined kernels and launches to the
/// LLVM dialect (host and CPU), to an NVVM device module (CUDA) and to a
/// SPIR-V device module (Vulkan). The pattern sets behind them are in the
/// headers of each conversion.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_CONVERSION_PASSES_H
#define BSGP_CONVERSION_PASSES_H

#include "bsgp/Conversion/BSGPToLLVM/BSGPToLLVM.h"
#include "bsgp/Conversion/BSGPToNVVM/BSGPToNVVM.h"
#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
namespace arith {
class ArithDialect;
}
namespace func {
class FuncDialect;
}
namespace scf {
class SCFDialect;
}
namespace LLVM {
class LLVMDialect;
}
namespace NVVM {
class NVVMDialect;
}
namespace spirv {
class SPIRVDialect;
}
namespace cf {
class ControlFlowDialect;
}
namespace ub {
class UBDialect;
}
namespace vector {
class VectorDialect;
}
} // namespace mlir

namespace bsgp {

#define GEN_PASS_DECL
#include "bsgp/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "bsgp/Conversion/Passes.h.inc"

} // namespace bsgp

#endif // BSGP_CONVERSION_PASSES_H
