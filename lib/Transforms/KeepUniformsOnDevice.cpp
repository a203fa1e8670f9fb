//===- KeepUniformsOnDevice.cpp - uniform values the host never reads -----===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `float s = reduce(+, x); ... use s in the next superstep` computes s on
// the device; the library hands it to the host by reading it back
// (#bsgp.library<read_back>), and the host passes it to the next kernel as
// a parameter. The read-back waits for every kernel queued before it, so a
// loop of reduces runs one at a time with the host in between. Where only
// kernels use the value, they can load it themselves: the host passes its
// address and never waits (issue #43, "uniform values stay on the
// device").
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPKEEPUNIFORMSONDEVICEPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

struct KeepUniformsOnDevicePass
    : public bsgp::impl::BSGPKeepUniformsOnDevicePassBase<
          KeepUniformsOnDevicePass> {
  void runOnOperation() override;
};

/// True if `op`, which the host runs between the read-back of `p[0]` and a
/// launch that is to load it instead, cannot change `p[0]`: it writes no
/// memory (allocating is fine: a new list is not `p`), it is a call
/// declared to touch no memory the program sees (the runtime's allocator),
/// or it is a launch not given `p`. The read-back's list is one the
/// library allocated for the value, so no other pointer reaches it.
bool keepsValue(Operation *op, Value p) {
  if (auto launch = dyn_cast<LaunchOp>(op))
    return !llvm::is_contained(launch.getArgs(), p);
  if (auto call = dyn_cast<LLVM::CallOp>(op)) {
    LLVM::MemoryEffectsAttr memory = call.getMemoryEffectsAttr();
    return memory && memory.getOther() == LLVM::ModRefInfo::NoModRef &&
           memory.getArgMem() == LLVM::ModRefInfo::NoModRef;
  }
  return op->getNumRegions() == 0 &&
         !mightHaveEffect<MemoryEffects::Write, MemoryEffects::Free>(op);
}

/// The launches that take `value` as an argument, when these are all its
/// uses, each in the block of `call` after it with only ops that keep
/// `p[0]` in between, and each launching a kernel no other op names.
/// Empty otherwise.
SmallVector<LaunchOp> findLaunchUses(Operation *call, Value value, Value p,
                                     ModuleOp module) {
  SmallVector<LaunchOp> launches;
  for (OpOperand &use : value.getUses()) {
    auto launch = dyn_cast<LaunchOp>(use.getOwner());
    if (!launch || launch->getBlock() != call->getBlock() ||
        !call->isBeforeInBlock(launch) ||
        use.getOperandNumber() < launch.getArgs().getBeginOperandIndex())
      return {};
    if (!llvm::is_contained(launches, launch))
      launches.push_back(launch);
  }
  for (LaunchOp launch : launches) {
    for (Operation *op = call->getNextNode(); op != launch.getOperation();
         op = op->getNextNode())
      if (!keepsValue(op, p))
        return {};
    auto uses = SymbolTable::getSymbolUses(launch.getKernelAttr().getAttr(),
                                           module.getOperation());
    if (!uses || !llvm::hasSingleElement(*uses))
      return {};
  }
  return launches;
}

/// In `kernel`, parameter `index` becomes `p` (of type `ptrType`), and its
/// uses read `p[0]`, loaded once at the entry.
void loadParameter(KernelOp kernel, unsigned index, Type ptrType) {
  Block &entry = kernel.getBody().front();
  BlockArgument arg = entry.getArgument(index);
  Type valueType = arg.getType();
  arg.setType(ptrType);
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = kernel.getLoc();
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  Value loaded = PtrLoadOp::create(b, loc, valueType, arg, zero);
  arg.replaceAllUsesExcept(loaded, loaded.getDefiningOp());
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs[index] = ptrType;
  kernel.setFunctionTypeAttr(TypeAttr::get(
      FunctionType::get(kernel.getContext(), inputs, kernel.getResultTypes())));
}

} // namespace

void KeepUniformsOnDevicePass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTableCollection symbols;
  SmallVector<CallOpInterface> readBacks;
  module.walk([&](CallOpInterface call) {
    if (getCalledLibraryKind(call) == LibraryKind::ReadBack &&
        call->getNumResults() == 1 && call.getArgOperands().size() == 1)
      readBacks.push_back(call);
  });

  for (CallOpInterface call : readBacks) {
    Value value = call->getResult(0);
    Value p = call.getArgOperands()[0];
    SmallVector<LaunchOp> launches = findLaunchUses(call, value, p, module);
    if (launches.empty())
      continue;
    for (LaunchOp launch : launches) {
      auto kernel = symbols.lookupNearestSymbolFrom<KernelOp>(
          launch, launch.getKernelAttr());
      unsigned first = launch.getArgs().getBeginOperandIndex();
      for (OpOperand &operand : launch->getOpOperands()) {
        if (operand.getOperandNumber() < first || operand.get() != value)
          continue;
        operand.set(p);
        loadParameter(kernel, operand.getOperandNumber() - first, p.getType());
      }
    }
    call->erase();
  }
}
