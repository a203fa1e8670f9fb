//===- PrintSPIRV.cpp - SPIR-V binaries as text ---------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/SPIRV/SPIRV.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/SPIRV/Deserialization.h"

#include <cstring>

using namespace mlir;

LogicalResult bsgp::printSPIRV(StringRef bytes, MLIRContext *ctx,
                               raw_ostream &os) {
  if (bytes.size() % 4 != 0) {
    emitError(UnknownLoc::get(ctx), "SPIR-V binary of ")
        << bytes.size() << " bytes is not a whole number of words";
    return failure();
  }
  SmallVector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  ctx->getOrLoadDialect<spirv::SPIRVDialect>();
  OwningOpRef<spirv::ModuleOp> module = spirv::deserialize(words, ctx);
  if (!module)
    return failure();
  module->print(os);
  os << "\n";
  return success();
}
