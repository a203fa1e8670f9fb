//===- SerializeToPTX.cpp - the CUDA device module to PTX -----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/CUDA/PTX.h"
#include "bsgp/Target/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSERIALIZETOPTXPASS
#include "bsgp/Target/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

struct SerializeToPTXPass
    : public bsgp::impl::BSGPSerializeToPTXPassBase<SerializeToPTXPass> {
  using BSGPSerializeToPTXPassBase::BSGPSerializeToPTXPassBase;
  void runOnOperation() override;
};

} // namespace

void SerializeToPTXPass::runOnOperation() {
  ModuleOp host = getOperation();
  for (ModuleOp device : bsgp::getCUDADeviceModules(host)) {
    // The mark means nothing to LLVM IR.
    device->removeAttr(bsgp::BSGPDialect::getTargetAttrName());
    bsgp::PTXOptions options;
    options.chip = chip;
    options.cudaPath = cudaPath;
    options.lineInfo = lineInfo;
    std::string ptx, error;
    if (failed(bsgp::compileToPTX(device, options, ptx, error))) {
      host.emitError("CUDA code generation failed: ") << error;
      return signalPassFailure();
    }
    host->setAttr(bsgp::kPTXAttrName, StringAttr::get(host.getContext(), ptx));
    device.erase();
  }
}
