//===- BSGPDialect.cpp - bsgp dialect, types and inlining ------------------===//
//
// Registers the bsgp ops and types, verifies the `bsgp.*` discardable
// attributes, and lets the upstream inliner inline collective functions into
// spawn bodies (§4.2 step 1).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace bsgp;

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "bsgp/Dialect/BSGP/IR/BSGPTypes.cpp.inc"

namespace {
/// Every bsgp op may be inlined, and anything may be inlined into bsgp
/// regions: step 1 of §4.2 inlines collective functions into spawn bodies.
/// Whether a barrier lands in a legal place is checked by the verifier
/// afterwards, not here, so that a misplaced call is reported, not skipped.
struct BSGPInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void BSGPDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "bsgp/Dialect/BSGP/IR/BSGPTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "bsgp/Dialect/BSGP/IR/BSGPOps.cpp.inc"
      >();
  addInterfaces<BSGPInlinerInterface>();
}

LogicalResult BSGPDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  // Source ranges for the runtime's kernel-to-source log (on kernels and
  // the functions targets make of them), and the device code blobs a target
  // attaches to the module for the module descriptor.
  if (name == getSourceLocAttrName() || name == "bsgp.ptx" ||
      name == "bsgp.spirv") {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a string attribute";
    return success();
  }
  // The CUDA block size of a kernel with work-group operations, and how
  // many work groups one block runs (bsgp-lower-kernels-nvvm).
  if (name == "bsgp.group_size" || name == "bsgp.groups_per_block" ||
      name == kBlockSizeAttrName || name == kMinBlocksAttrName) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be an integer";
    return success();
  }
  // Which copy of a spawn versioned by bsgp-rematerialize-loads,
  // bsgp-single-pass or bsgp-forward-sort-results this is.
  if (name == "bsgp.load_version" || name == "bsgp.pass_version" ||
      name == "bsgp.result_version") {
    if (!isa<SpawnOp>(op) || !isa<StringAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a string attribute of a spawn";
    return success();
  }
  if (name == getTargetAttrName()) {
    auto target = dyn_cast<StringAttr>(attr.getValue());
    if (!target || (target.getValue() != "cpu" && target.getValue() != "cuda" &&
                    target.getValue() != "spirv"))
      return op->emitError()
             << "'" << name << "' must be \"cpu\", \"cuda\" or \"spirv\"";
    return success();
  }
  if (name != getCollectiveAttrName() && name != getDeviceAttrName())
    return op->emitError() << "unknown bsgp attribute '" << name << "'";
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitError() << "'" << name << "' must be a unit attribute";
  if (!isa<FunctionOpInterface>(op))
    return op->emitError() << "'" << name << "' may only mark a function";
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type elementType) {
  // Memory holds only what C can store: scalars, vectors and pointers.
  if (getStreamWordCount(elementType) == 0)
    return emitError() << "pointer element type must be an integer, float, "
                          "vector or !bsgp.ptr type, got "
                       << elementType;
  return success();
}

unsigned bsgp::getStreamWordCount(Type type) {
  if (isa<PtrType>(type))
    return 2;
  if (type.isIntOrFloat()) {
    unsigned bits = type.getIntOrFloatBitWidth();
    return bits <= 64 ? (bits + 31) / 32 : 0;
  }
  if (auto vec = dyn_cast<VectorType>(type)) {
    if (vec.isScalable() || vec.getRank() != 1)
      return 0;
    // 64-bit arithmetic: vector<4294967297xf32> must not wrap to one word.
    uint64_t words = static_cast<uint64_t>(vec.getNumElements()) *
                     getStreamWordCount(vec.getElementType());
    return words <= std::numeric_limits<unsigned>::max()
               ? static_cast<unsigned>(words)
               : 0;
  }
  return 0;
}
