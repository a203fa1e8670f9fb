//===- SerializeSPIRV.cpp - the SPIR-V device module to a binary ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/Passes.h"
#include "bsgp/Target/SPIRV/SPIRV.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSERIALIZESPIRVPASS
#include "bsgp/Target/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

struct SerializeSPIRVPass
    : public bsgp::impl::BSGPSerializeSPIRVPassBase<SerializeSPIRVPass> {
  using BSGPSerializeSPIRVPassBase::BSGPSerializeSPIRVPassBase;
  void runOnOperation() override;

private:
  LogicalResult validateAndOptimize(std::vector<uint32_t> &words);
};

} // namespace

/// Runs SPIRV-Tools' validator (and optimizer) on the serialized module.
/// Invalid SPIR-V is a bug of the compiler, not of the program; the error
/// points at the kernel or function the validator names, when it names one.
LogicalResult
SerializeSPIRVPass::validateAndOptimize(std::vector<uint32_t> &words) {
  ModuleOp host = getOperation();
  bsgp::SPIRVToolsError error;
  if (succeeded(bsgp::validateAndOptimizeSPIRV(words, optLevel, error)))
    return success();
  Location loc = host.getLoc();
  if (!error.function.empty())
    if (Operation *sym = host.lookupSymbol(error.function))
      loc = sym->getLoc();
  InFlightDiagnostic diag = emitError(loc)
                            << "internal compiler error: the SPIR-V module ";
  if (error.optimizerFailed)
    diag << "cannot be optimized by SPIRV-Tools";
  else if (error.optimized)
    diag << "after SPIRV-Tools' optimizer fails Vulkan 1.3 validation";
  else
    diag << "fails Vulkan 1.3 validation";
  if (!error.function.empty())
    diag << " in function '" << error.function << "'";
  diag << ": " << error.message;
  return failure();
}

void SerializeSPIRVPass::runOnOperation() {
  ModuleOp host = getOperation();
  for (auto device :
       llvm::make_early_inc_range(host.getOps<spirv::ModuleOp>())) {
    SmallVector<uint32_t> serialized;
    if (failed(spirv::serialize(device, serialized))) {
      host.emitError("SPIR-V serialization failed");
      return signalPassFailure();
    }
    std::vector<uint32_t> words(serialized.begin(), serialized.end());
    if (failed(validateAndOptimize(words)))
      return signalPassFailure();
    host->setAttr(
        bsgp::kSPIRVAttrName,
        StringAttr::get(&getContext(),
                        StringRef(reinterpret_cast<const char *>(words.data()),
                                  words.size() * 4)));
    device.erase();
  }
}
