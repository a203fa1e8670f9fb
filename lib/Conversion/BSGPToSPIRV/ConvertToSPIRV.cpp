//===- ConvertToSPIRV.cpp - the SPIR-V device module to SPIR-V ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The last conversion of the SPIR-V device module: its functions, with
// structured control flow and their group ops and local arrays lowered,
// become SPIR-V functions, the kernels get their entry points, and the
// module its version, capabilities and extensions.
//
//===----------------------------------------------------------------------===//

#include "SPIRVCommon.h"

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"
#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/ControlFlowToSPIRV/ControlFlowToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/UBToSPIRV/UBToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPCONVERTTOSPIRVPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

/// True if a SPIR-V atomic of `module` acts on a 64-bit integer.
static bool usesInt64Atomics(spirv::ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    if (!op->getName().getStringRef().starts_with("spirv.Atomic") ||
        op->getNumResults() != 1)
      return WalkResult::advance();
    return op->getResult(0).getType().isInteger(64) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// True if a variable of `module` is a subgroup built-in.
static bool usesSubgroupBuiltins(spirv::ModuleOp module) {
  for (auto var : module.getOps<spirv::GlobalVariableOp>()) {
    std::optional<StringRef> builtin = var.getBuiltIn();
    if (builtin && builtin->starts_with("Subgroup"))
      return true;
  }
  return false;
}

/// The global variables `entry` and the functions it calls use, in the
/// module's order: an entry point's interface.
static SmallVector<Attribute> getInterface(spirv::ModuleOp module,
                                           spirv::FuncOp entry) {
  llvm::SetVector<StringAttr> used;
  llvm::SetVector<Operation *> fns;
  fns.insert(entry);
  for (size_t i = 0; i < fns.size(); ++i)
    fns[i]->walk([&](Operation *op) {
      if (auto addr = dyn_cast<spirv::AddressOfOp>(op))
        used.insert(addr.getVariableAttr().getAttr());
      if (auto call = dyn_cast<spirv::FunctionCallOp>(op))
        if (Operation *callee = module.lookupSymbol(call.getCalleeAttr()))
          fns.insert(callee);
    });
  SmallVector<Attribute> iface;
  for (auto var : module.getOps<spirv::GlobalVariableOp>())
    if (used.contains(var.getSymNameAttr()))
      iface.push_back(SymbolRefAttr::get(var.getSymNameAttr()));
  return iface;
}

/// Converts what is left in `device` with the upstream and bsgp patterns;
/// reports anything that stays.
static LogicalResult convertOps(spirv::ModuleOp device) {
  MLIRContext *ctx = device.getContext();
  spirv::TargetEnvAttr env = spirv::lookupTargetEnvOrDefault(device);
  SPIRVConversionOptions options;
  options.use64bitIndex = true;
  SPIRVTypeConverter converter(env, options);
  bsgp::addBSGPToSPIRVTypeConversions(converter);

  RewritePatternSet patterns(ctx);
  ScfToSPIRVContext scfContext;
  arith::populateArithToSPIRVPatterns(converter, patterns);
  cf::populateControlFlowToSPIRVPatterns(converter, patterns);
  populateFuncToSPIRVPatterns(converter, patterns);
  populateBuiltinFuncToSPIRVPatterns(converter, patterns);
  populateMathToSPIRVPatterns(converter, patterns);
  populateSCFToSPIRVPatterns(converter, scfContext, patterns);
  index::populateIndexToSPIRVPatterns(converter, patterns);
  ub::populateUBToSPIRVConversionPatterns(converter, patterns);
  // BSGP's vectors (float3(...), v.xy, v + s) are vector ops of 2 to 4 lanes.
  populateVectorToSPIRVPatterns(converter, patterns);
  bsgp::populateBSGPToSPIRVPatterns(converter, patterns);

  std::unique_ptr<ConversionTarget> target = SPIRVConversionTarget::get(env);
  target->addLegalOp<UnrealizedConversionCastOp>();
  if (failed(applyPartialConversion(device, *target, std::move(patterns))))
    return failure();

  SmallVector<UnrealizedConversionCastOp> casts;
  device.walk([&](UnrealizedConversionCastOp c) { casts.push_back(c); });
  SmallVector<UnrealizedConversionCastOp> remaining;
  reconcileUnrealizedCasts(casts, &remaining);
  for (UnrealizedConversionCastOp c : remaining)
    return c.emitError("cannot lower this value for the SPIR-V target");

  WalkResult left = device.walk([&](Operation *op) {
    if (op == device.getOperation() ||
        isa<spirv::SPIRVDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError("'") << op->getName()
                       << "' has no lowering for the SPIR-V target";
    return WalkResult::interrupt();
  });
  return failure(left.wasInterrupted());
}

/// Runs SPIRV-Tools' validator (and optimizer) on the serialized module.
/// Invalid SPIR-V is a bug of this pass, not of the program; the error

namespace {

struct ConvertToSPIRVPass
    : public bsgp::impl::BSGPConvertToSPIRVPassBase<ConvertToSPIRVPass> {
  void runOnOperation() override;

private:
  LogicalResult addEntryPoints(spirv::ModuleOp device);
  LogicalResult setVersion(spirv::ModuleOp device);
};

} // namespace

/// A grid-loop shader's supersteps read what other workgroups wrote in the
/// same dispatch. Under the GLSL450 memory model a barrier's semantics bind
/// only memory declared Coherent, and NVIDIA's driver served plain (and
/// volatile) loads of device memory from a multiprocessor's cache, stale
/// after another workgroup's write. Each load goes through a one-member
/// struct whose member is Coherent, as GLSL's `coherent` buffer references
/// are compiled.
static void makeDeviceLoadsCoherent(spirv::FuncOp fn) {
  SmallVector<spirv::LoadOp> loads;
  fn.walk([&](spirv::LoadOp load) {
    if (cast<spirv::PointerType>(load.getPtr().getType()).getStorageClass() ==
        spirv::StorageClass::PhysicalStorageBuffer)
      loads.push_back(load);
  });
  for (spirv::LoadOp load : loads) {
    Location loc = load.getLoc();
    OpBuilder b(load);
    auto ptrTy = cast<spirv::PointerType>(load.getPtr().getType());
    Value addr =
        spirv::ConvertPtrToUOp::create(b, loc, b.getI64Type(), load.getPtr());
    load.getPtrMutable().assign(
        bsgp::spv::coherentPointerPSB(b, loc, ptrTy.getPointeeType(), addr));
  }
}

/// Float operations get NoContraction, every kernel an entry point, and
/// the `bsgp.*` attributes, which mean nothing to SPIR-V, go away.
LogicalResult ConvertToSPIRVPass::addEntryPoints(spirv::ModuleOp device) {
  ModuleOp host = getOperation();
  Location loc = device.getLoc();
  SmallVector<bsgp::KernelOp> kernels;
  bsgp::getKernelsForTarget(host, bsgp::Target::SPIRV, kernels);
  OpBuilder db(device.getContext());
  // Vulkan drivers may fuse or reassociate float arithmetic unless told not
  // to; BSGP promises the IEEE results of the cpu and cuda targets (no FMA
  // contraction), so every float operation carries NoContraction.
  device->walk([](Operation *op) {
    if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp, spirv::FDivOp,
            spirv::FRemOp, spirv::FModOp, spirv::FNegateOp>(op))
      op->setAttr("no_contraction", UnitAttr::get(op->getContext()));
  });

  // Entry points: one per kernel, 256 threads per workgroup (the runtime
  // dispatches ceil(size / 256) workgroups). Their interface lists every
  // global variable their call tree uses (SPIR-V 1.4 and later).
  db.setInsertionPointToEnd(device.getBody());
  for (bsgp::KernelOp kernel : kernels) {
    auto fn = device.lookupSymbol<spirv::FuncOp>(kernel.getSymName());
    if (!fn)
      return kernel.emitOpError("was not lowered to a SPIR-V function");
    if (kernel->hasAttr(bsgp::BSGPDialect::GridLoopAttrHelper::getNameStr()))
      makeDeviceLoadsCoherent(fn);
    spirv::EntryPointOp::create(db, loc, spirv::ExecutionModel::GLCompute, fn,
                                getInterface(device, fn));
    spirv::ExecutionModeOp::create(
        db, loc, fn, spirv::ExecutionMode::LocalSize,
        ArrayRef<int32_t>{bsgp::kSPIRVWorkgroupSize, 1, 1});
  }
  device->walk([](Operation *op) {
    SmallVector<StringAttr> names;
    for (NamedAttribute a : op->getDiscardableAttrs())
      if (a.getName().getValue().starts_with("bsgp."))
        names.push_back(a.getName());
    for (StringAttr n : names)
      op->removeDiscardableAttr(n);
  });
  return success();
}

/// The module's version, capabilities and extensions.
LogicalResult ConvertToSPIRVPass::setVersion(spirv::ModuleOp device) {
  MLIRContext *ctx = device.getContext();
  // The minimal capabilities for what the kernels use.
  OpPassManager pm(spirv::ModuleOp::getOperationName());
  pm.addPass(spirv::createSPIRVUpdateVCEPass());
  if (failed(runPipeline(pm, device))) {
    getOperation().emitError("SPIR-V code generation failed");
    return failure();
  }
  // The module is SPIR-V 1.6 (Vulkan 1.3) whatever the minimum version of
  // its instructions: entry points list the push constants among their
  // interface variables (1.4), and physical storage buffers are core (1.5).
  spirv::VerCapExtAttr vce = device.getVceTriple().value();
  SmallVector<spirv::Capability> caps;
  for (spirv::Capability c : vce.getCapabilities())
    caps.push_back(c);
  // spirv-update-vce does not derive Int64Atomics from the atomics' type,
  // nor GroupNonUniform from the subgroup built-ins.
  if (usesInt64Atomics(device))
    caps.push_back(spirv::Capability::Int64Atomics);
  if (usesSubgroupBuiltins(device) &&
      !llvm::is_contained(caps, spirv::Capability::GroupNonUniform))
    caps.push_back(spirv::Capability::GroupNonUniform);
  SmallVector<spirv::Extension> exts;
  for (spirv::Extension e : vce.getExtensions())
    if (e != spirv::Extension::SPV_EXT_physical_storage_buffer &&
        e != spirv::Extension::SPV_KHR_physical_storage_buffer)
      exts.push_back(e);
  device.setVceTripleAttr(
      spirv::VerCapExtAttr::get(spirv::Version::V_1_6, caps, exts, ctx));
  return success();
}

/// MLIR's serializer writes a loop header block that holds a nested
/// spirv.mlir.loop or spirv.mlir.selection as two SPIR-V blocks: the header
/// with its OpLoopMerge, then a new block for the rest. But the OpPhi of a
/// nested loop entered from there names the header as its predecessor,
/// which the validator rejects. Splitting such a header before its first
/// nested construct gives that block an MLIR identity the serializer names.
static void splitLoopHeadersAtNestedConstructs(spirv::ModuleOp device) {
  SmallVector<spirv::LoopOp> loops;
  device.walk([&](spirv::LoopOp loop) { loops.push_back(loop); });
  for (spirv::LoopOp loop : loops) {
    Block *header = loop.getHeaderBlock();
    auto nested = llvm::find_if(*header, [](Operation &op) {
      return isa<spirv::LoopOp, spirv::SelectionOp>(op);
    });
    if (nested == header->end())
      continue;
    Block *rest = header->splitBlock(&*nested);
    OpBuilder b = OpBuilder::atBlockEnd(header);
    spirv::BranchOp::create(b, nested->getLoc(), rest);
  }
}

/// MLIR's serializer takes a spirv.mlir.loop's next-to-last block as the
/// loop's continue target; where the loop's body is one block (a scf.while
/// whose body holds its nested constructs), the whole body is then the
/// continue construct. Drivers handle that less well than a loop whose
/// continue construct is a block of its own: lavapipe dropped the stores
/// of a kernel with an OpMemoryBarrier in a selection in such a loop. Each
/// loop gets an empty continue block through which its back edges go.
static void giveLoopsContinueBlocks(spirv::ModuleOp device) {
  SmallVector<spirv::LoopOp> loops;
  device.walk([&](spirv::LoopOp loop) { loops.push_back(loop); });
  for (spirv::LoopOp loop : loops) {
    Region &body = loop.getBody();
    Block *header = loop.getHeaderBlock();
    Block *merge = loop.getMergeBlock();
    Block *entry = &body.front();
    auto *cont = new Block();
    body.getBlocks().insert(merge->getIterator(), cont);
    SmallVector<Location> locs(header->getNumArguments(), loop.getLoc());
    cont->addArguments(header->getArgumentTypes(), locs);
    for (Block &block : body) {
      if (&block == entry || &block == cont)
        continue;
      Operation *term = block.getTerminator();
      for (BlockOperand &succ : term->getBlockOperands())
        if (succ.get() == header)
          succ.set(cont);
    }
    OpBuilder b = OpBuilder::atBlockEnd(cont);
    spirv::BranchOp::create(b, loop.getLoc(), header, cont->getArguments());
  }
}

/// Moves what `staged` holds into a new spirv.module in its place: from
/// here on the module holds SPIR-V only.
static spirv::ModuleOp moveIntoSPIRVModule(ModuleOp staged) {
  OpBuilder b(staged);
  auto device = spirv::ModuleOp::create(
      b, staged.getLoc(), spirv::AddressingModel::PhysicalStorageBuffer64,
      spirv::MemoryModel::GLSL450);
  device->setAttr(spirv::getTargetEnvAttrName(),
                  staged->getAttr(spirv::getTargetEnvAttrName()));
  device.getBody()->getOperations().splice(device.getBody()->end(),
                                           staged.getBody()->getOperations());
  staged.erase();
  return device;
}

void ConvertToSPIRVPass::runOnOperation() {
  for (ModuleOp staged : bsgp::getSPIRVDeviceModules(getOperation())) {
    spirv::ModuleOp device = moveIntoSPIRVModule(staged);
    if (failed(convertOps(device)) || failed(addEntryPoints(device)) ||
        failed(setVersion(device)))
      return signalPassFailure();
    splitLoopHeadersAtNestedConstructs(device);
    giveLoopsContinueBlocks(device);
  }
}
