//===- BSGPDialect.cpp - bsgp dialect, types and inlining
//------------------===//
//
// Registers the bsgp ops, attributes and types, verifies the `bsgp.*`
// discardable attributes, and lets the upstream inliner inline collective
// functions into spawn bodies (§4.2 step 1).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace bsgp;

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.cpp.inc"

#include "bsgp/Dialect/BSGP/IR/BSGPEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "bsgp/Dialect/BSGP/IR/BSGPAttrs.cpp.inc"

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
  addAttributes<
#define GET_ATTRDEF_LIST
#include "bsgp/Dialect/BSGP/IR/BSGPAttrs.cpp.inc"
      >();
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

Operation *BSGPDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

/// Checks a `#bsgp.library<sort_ranks>` function's signature, which
/// bsgp-forward-sort-keys and bsgp-forward-sort-results rely on
/// (SortRanksOperand).
static LogicalResult verifySortRanksSignature(Operation *op,
                                              FunctionOpInterface fn) {
  auto error = [&] {
    return op->emitError()
           << "a #bsgp.library<sort_ranks> function must take (!bsgp.ptr<T> "
              "input, !bsgp.ptr<T> keys, !bsgp.ptr<i32> ids, !bsgp.ptr<T> "
              "spareKeys, !bsgp.ptr<i32> spareIds, i64 count) and return i1";
  };
  ArrayRef<Type> in = fn.getArgumentTypes(), out = fn.getResultTypes();
  if (in.size() != kNumSortOperands || out.size() != 1 ||
      !out[0].isInteger(1) || !in[kSortCount].isInteger(64))
    return error();
  Type keys = in[kSortKeys];
  auto ids = dyn_cast<PtrType>(in[kSortIds]);
  if (!isa<PtrType>(keys) || in[kSortInput] != keys ||
      in[kSortSpareKeys] != keys || !ids ||
      !ids.getElementType().isInteger(32) || in[kSortSpareIds] != ids)
    return error();
  return success();
}

/// `(p: !bsgp.ptr<T>) -> T`: the value at p[0], read by the host.
static LogicalResult verifyReadBackSignature(Operation *op,
                                             FunctionOpInterface fn) {
  ArrayRef<Type> in = fn.getArgumentTypes(), out = fn.getResultTypes();
  auto ptr = in.size() == 1 ? dyn_cast<PtrType>(in[0]) : PtrType();
  if (!ptr || out.size() != 1 || ptr.getElementType() != out[0])
    return op->emitError() << "a #bsgp.library<read_back> function must take "
                              "(!bsgp.ptr<T> p) and return T";
  return success();
}

/// thread.kill(flag) is `(i1) -> ()`, thread.fork(n) `(i32) -> i32`.
static LogicalResult
verifyThreadChangeSignature(Operation *op, FunctionOpInterface fn, bool fork) {
  ArrayRef<Type> in = fn.getArgumentTypes(), out = fn.getResultTypes();
  Builder b(op->getContext());
  bool ok = fork ? in.size() == 1 && in[0] == b.getI32Type() &&
                       out.size() == 1 && out[0] == b.getI32Type()
                 : in.size() == 1 && in[0] == b.getI1Type() && out.empty();
  if (!ok)
    return op->emitError()
           << (fork ? "a #bsgp.library<thread_fork> function must take (i32) "
                      "and return i32"
                    : "a #bsgp.library<thread_kill> function must take (i1) "
                      "and return nothing");
  return success();
}

LogicalResult BSGPDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  // Source ranges for the runtime's kernel-to-source log (on kernels and
  // the functions targets make of them), and the device code blobs a target
  // attaches to the module for the module descriptor.
  if (name == SrclocAttrHelper::getNameStr() ||
      name == PtxAttrHelper::getNameStr() ||
      name == SpirvAttrHelper::getNameStr()) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a string attribute";
    return success();
  }
  // The CUDA block size of a kernel with work-group operations, and how
  // many work groups one block runs (bsgp-lower-kernels-nvvm).
  if (name == GroupSizeAttrHelper::getNameStr() ||
      name == GroupsPerBlockAttrHelper::getNameStr() ||
      name == BlockSizeAttrHelper::getNameStr() ||
      name == MinBlocksAttrHelper::getNameStr()) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be an integer";
    return success();
  }
  // A dtempnew list that bsgp-split-uniform-flow frees.
  if (name == FreedByFlowAttrHelper::getNameStr()) {
    if (!isa<DTempNewOp>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a unit attribute of a dtempnew";
    return success();
  }
  // A kernel whose CUDA blocks wait for the blocks before them.
  if (name == LookbackAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  // A uniform loop of supersteps made one kernel (bsgp-fuse-uniform-loops).
  if (name == GridLoopAttrHelper::getNameStr()) {
    if (!isa<KernelOp>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a unit attribute of a bsgp.kernel";
    return success();
  }
  // Which copy of a spawn versioned by bsgp-rematerialize-loads,
  // bsgp-single-pass or bsgp-forward-sort-results this is.
  if (name == LoadVersionAttrHelper::getNameStr() ||
      name == PassVersionAttrHelper::getNameStr() ||
      name == ResultVersionAttrHelper::getNameStr()) {
    if (!isa<SpawnOp>(op) || !isa<StringAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a string attribute of a spawn";
    return success();
  }
  if (name == TargetAttrHelper::getNameStr()) {
    auto target = dyn_cast<StringAttr>(attr.getValue());
    if (!target || !parseTargetName(target.getValue()))
      return op->emitError()
             << "'" << name << "' must be \"cpu\", \"cuda\" or \"spirv\"";
    return success();
  }
  // The contract with the collective library (BSGPAttrs.td).
  if (name == LibraryAttrHelper::getNameStr()) {
    auto library = dyn_cast<LibraryKindAttr>(attr.getValue());
    auto fn = dyn_cast<FunctionOpInterface>(op);
    if (!library || !fn)
      return op->emitError()
             << "'" << name << "' must be a #bsgp.library of a function";
    if (library.getValue() == LibraryKind::SortRanks)
      return verifySortRanksSignature(op, fn);
    if (library.getValue() == LibraryKind::ReadBack)
      return verifyReadBackSignature(op, fn);
    if (library.getValue() == LibraryKind::ThreadKill ||
        library.getValue() == LibraryKind::ThreadFork)
      return verifyThreadChangeSignature(
          op, fn, library.getValue() == LibraryKind::ThreadFork);
    return success();
  }
  if (name != CollectiveAttrHelper::getNameStr() &&
      name != DeviceAttrHelper::getNameStr())
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
  // Memory holds only what C can store: scalars, vectors and pointers, and
  // structs, which MLIRGen lays out as their bytes (`!llvm.array<N x i8>`).
  auto bytes = dyn_cast<LLVM::LLVMArrayType>(elementType);
  if (bytes && bytes.getElementType().isInteger(8) && bytes.getNumElements())
    return success();
  if (getStreamWordCount(elementType) == 0)
    return emitError() << "pointer element type must be an integer, float, "
                          "vector or !bsgp.ptr type, or a struct's bytes "
                          "(!llvm.array<N x i8>), got "
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
