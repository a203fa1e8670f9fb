//===- LowerKernelsToSPIRV.cpp - kernels into the SPIR-V device module ----===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Every bsgp.kernel becomes a GLCompute entry point of one SPIR-V module.
// The kernel reads its packed argument struct, its thread count and the
// slice of ranks it runs from a push constant block {uint64 args_address;
// uint64 size; uint64 first; uint64 end} ([0, size) on one device, a
// device's slice with several; ABI version 5); the struct lives in a
// PhysicalStorageBuffer at args_address, laid out as on every other target
// (KernelABI.h). The module is built nested in the host module, its
// functions still in bsgp, arith and scf ops; the passes after this one
// lower them to the SPIR-V dialect and bsgp-serialize-spirv writes the
// binary.
//
//===----------------------------------------------------------------------===//

#include "GridLoops.h"
#include "GroupOps.h"
#include "Recursion.h"
#include "SPIRVCommon.h"

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"
#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"
#include "bsgp/Transforms/TargetQueries.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/MathExtras.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLOWERKERNELSTOSPIRVPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp::spv;

/// The SPIR-V 1.6 (Vulkan 1.3) environment kernels are compiled for. It
/// lists what kernels may use; spirv-update-vce trims the module's
/// requirements to what they do use.
static spirv::TargetEnvAttr getVulkanTargetEnv(MLIRContext *ctx) {
  using C = spirv::Capability;
  C caps[] = {C::Shader,
              C::Int8,
              C::Int16,
              C::Int64,
              C::Float16,
              C::Float64,
              C::StorageBuffer8BitAccess,
              C::StorageBuffer16BitAccess,
              C::PhysicalStorageBufferAddresses,
              C::Int64Atomics,
              C::GroupNonUniform,
              C::GroupNonUniformVote,
              C::GroupNonUniformBallot,
              C::GroupNonUniformShuffle,
              C::GroupNonUniformArithmetic};
  auto vce = spirv::VerCapExtAttr::get(spirv::Version::V_1_6, caps,
                                       ArrayRef<spirv::Extension>{}, ctx);
  return spirv::TargetEnvAttr::get(vce, spirv::getDefaultResourceLimits(ctx),
                                   spirv::ClientAPI::Vulkan);
}

namespace {

struct LowerKernelsToSPIRVPass
    : public bsgp::impl::BSGPLowerKernelsToSPIRVPassBase<
          LowerKernelsToSPIRVPass> {
  using BSGPLowerKernelsToSPIRVPassBase::BSGPLowerKernelsToSPIRVPassBase;
  void runOnOperation() override;

private:
  ModuleOp createDeviceModule();
  LogicalResult buildKernel(bsgp::KernelOp kernel, OpBuilder &db);
  Block *emitGridStrideLoop(OpBuilder &b, Location loc, Value first, Value end,
                            Value &rank64, Value &rank);
  Block *emitGroupGuard(OpBuilder &b, Location loc, Value end, Value &rank64,
                        Value &rank, Value &inRange);
  LogicalResult expandGridLaunches(func::FuncOp fn, bsgp::KernelOp kernel);

  ModuleOp device;
  std::optional<bsgp::SPIRVBuiltins> builtins;
};

} // namespace

/// An empty device module with the rank's built-ins and the push constants,
/// at the end of the host module.
ModuleOp LowerKernelsToSPIRVPass::createDeviceModule() {
  ModuleOp host = getOperation();
  MLIRContext *ctx = host.getContext();
  Location loc = host.getLoc();
  OpBuilder hb = OpBuilder::atBlockEnd(host.getBody());
  // A builtin module until bsgp-convert-to-spirv: a spirv.module may hold
  // only SPIR-V ops, and the functions are func.func until then.
  auto module =
      ModuleOp::create(hb, loc, StringRef(bsgp::kSPIRVDeviceModuleName));
  module->setAttr(bsgp::BSGPDialect::getTargetAttrName(),
                  hb.getStringAttr("spirv"));
  module->setAttr(spirv::getTargetEnvAttrName(), getVulkanTargetEnv(ctx));
  OpBuilder db = OpBuilder::atBlockEnd(module.getBody());
  Type i64 = db.getI64Type();
  builtins.emplace(module);
  builtins->get(spirv::BuiltIn::GlobalInvocationId);
  builtins->get(spirv::BuiltIn::NumWorkgroups);
  auto pcStruct = spirv::StructType::get(
      {i64, i64, i64, i64}, {0, 8, 16, 24}, {},
      {spirv::StructType::StructDecorationInfo(spirv::Decoration::Block,
                                               UnitAttr::get(ctx))});
  spirv::GlobalVariableOp::create(
      db, loc,
      spirv::PointerType::get(pcStruct, spirv::StorageClass::PushConstant),
      bsgp::kSPIRVPushConstantsName);
  return module;
}

/// Kernels without work-group operations are grid-stride loops: ranks
/// first + GlobalInvocationId.x + GlobalInvocationId.y * (NumWorkgroups.x *
/// 256), then that plus the grid's invocations, and so on while below end,
/// in 64 bits (a launch past maxComputeWorkGroupCount[0] is a 2D grid).
/// The runtime may then dispatch fewer workgroups than ranks / 256; it
/// knows these kernels by GlobalInvocationId in their interface, which
/// kernels with group operations never read. Returns the loop's body, with
/// `b` before its terminator and `rank64` the loop's rank (`rank` in 32
/// bits).
Block *LowerKernelsToSPIRVPass::emitGridStrideLoop(OpBuilder &b, Location loc,
                                                   Value first, Value end,
                                                   Value &rank64, Value &rank) {
  Type i64 = b.getI64Type();
  Value gid = builtins->load(b, loc, spirv::BuiltIn::GlobalInvocationId);
  Value groups = builtins->load(b, loc, spirv::BuiltIn::NumWorkgroups);
  auto component = [&](Value v, int32_t i) -> Value {
    return arith::ExtUIOp::create(
        b, loc, i64, spirv::CompositeExtractOp::create(b, loc, v, {i}));
  };
  Value rowWidth = arith::MulIOp::create(
      b, loc, component(groups, 0),
      arith::ConstantIntOp::create(b, loc, i64, bsgp::kSPIRVWorkgroupSize));
  Value start = arith::AddIOp::create(
      b, loc, first,
      arith::AddIOp::create(
          b, loc, component(gid, 0),
          arith::MulIOp::create(b, loc, component(gid, 1), rowWidth)));
  Value stride = arith::MulIOp::create(b, loc, rowWidth, component(groups, 1));
  // The loop compares unsigned (docs/spirv.md: 64-bit signed relations are
  // avoided).
  auto loop = scf::ForOp::create(b, loc, start, end, stride, ValueRange{},
                                 nullptr, /*unsignedCmp=*/true);
  rank64 = loop.getInductionVar();
  b.setInsertionPoint(loop.getBody()->getTerminator());
  rank = arith::TruncIOp::create(b, loc, b.getI32Type(), rank64);
  return loop.getBody();
}

/// Kernels with work-group operations run one rank an invocation, the
/// invocations of a workgroup numbered by subgroup (emitGroupRank). Whole
/// workgroups past the thread count return at once (a 2D launch has some),
/// which keeps every invocation of a workgroup that runs the body alive.
/// Returns the guard's body, with `b` at its start; `inRange` is the
/// invocation's own bounds check, made before the guard with the rank.
/// group.id (emitGroupId) counts the workgroups of the slices before, so
/// the rank is the spawn's and is checked against the slice's end.
Block *LowerKernelsToSPIRVPass::emitGroupGuard(OpBuilder &b, Location loc,
                                               Value end, Value &rank64,
                                               Value &rank, Value &inRange) {
  Type i64 = b.getI64Type();
  Value group =
      arith::ExtUIOp::create(b, loc, i64, bsgp::emitGroupId(b, loc, *builtins));
  Value local = arith::ExtUIOp::create(b, loc, i64,
                                       bsgp::emitGroupRank(b, loc, *builtins));
  Value groupStart = arith::MulIOp::create(
      b, loc, group,
      arith::ConstantIntOp::create(b, loc, i64, bsgp::kSPIRVWorkgroupSize));
  rank64 = arith::AddIOp::create(b, loc, groupStart, local);
  inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rank64, end);
  rank = arith::TruncIOp::create(b, loc, b.getI32Type(), rank64);
  Value guardCond =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, groupStart, end);
  auto guard = scf::IfOp::create(b, loc, TypeRange{}, guardCond,
                                 /*addThenBlock=*/true,
                                 /*addElseBlock=*/false);
  Block *body = &guard.getThenRegion().front();
  b.setInsertionPointToStart(body);
  return body;
}

/// Clones `folded`'s body at `b` as one rank: `rank` and `size` (i32) for
/// thread.rank and thread.size, a return ending the rank. A single-block
/// body is inlined, which keeps the kernel structured so that it skips the
/// CFG round trip of bsgp-convert-to-spirv.
static void cloneRanks(bsgp::KernelOp folded, OpBuilder &b, IRMapping &mapping,
                       Value rank, Value size) {
  Location loc = folded.getLoc();
  auto region = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
  b.cloneRegionBefore(folded.getBody(), region.getRegion(),
                      region.getRegion().end(), mapping);
  SmallVector<Operation *> toReplace;
  region.getRegion().walk([&](Operation *op) {
    if (isa<bsgp::ThreadRankOp, bsgp::ThreadSizeOp, bsgp::ReturnOp>(op))
      toReplace.push_back(op);
  });
  for (Operation *op : toReplace) {
    OpBuilder rb(op);
    if (isa<bsgp::ReturnOp>(op)) {
      scf::YieldOp::create(rb, op->getLoc());
      op->erase();
      continue;
    }
    op->getResult(0).replaceAllUsesWith(isa<bsgp::ThreadRankOp>(op) ? rank
                                                                    : size);
    op->erase();
  }
  b.setInsertionPointAfter(region);
  if (!region.getRegion().hasOneBlock())
    return;
  Block &inner = region.getRegion().front();
  inner.getTerminator()->erase();
  region->getBlock()->getOperations().splice(Block::iterator(region),
                                             inner.getOperations());
  region.erase();
}

/// In a grid-loop kernel, each bsgp.grid_launch becomes the launched
/// kernel's ranks a grid stride apart, inlined with the launch's arguments
/// for its parameters, then the grid-wide barrier (GridLoops.h).
LogicalResult
LowerKernelsToSPIRVPass::expandGridLaunches(func::FuncOp fn,
                                            bsgp::KernelOp kernel) {
  SmallVector<bsgp::GridLaunchOp> launches;
  fn.walk([&](bsgp::GridLaunchOp l) { launches.push_back(l); });
  if (launches.empty())
    return success();
  ModuleOp host = getOperation();
  OpBuilder b(fn.getContext());
  b.setInsertionPointToStart(&fn.getBody().front());
  // The runtime passes the barrier's word where other kernels take the
  // first rank of their slice.
  Value word = loadPushConstant(b, kernel.getLoc(), device, 2);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  for (bsgp::GridLaunchOp launch : launches) {
    Location loc = launch.getLoc();
    auto callee = host.lookupSymbol<bsgp::KernelOp>(launch.getKernelAttr());
    if (!callee || callee.getBody().empty())
      return launch.emitOpError("launches a kernel without a body");
    OwningOpRef<bsgp::KernelOp> folded(cast<bsgp::KernelOp>(callee->clone()));
    bsgp::foldTargetQueries(*folded, bsgp::Target::SPIRV);
    b.setInsertionPoint(launch);
    // A negative count runs no rank, as bsgprt_launch would refuse it.
    Value count =
        arith::MaxSIOp::create(b, loc, launch.getThreadCount(),
                               arith::ConstantIntOp::create(b, loc, i32, 0));
    Value end = arith::ExtUIOp::create(b, loc, i64, count);
    Value rank64, rank;
    emitGridStrideLoop(b, loc, arith::ConstantIntOp::create(b, loc, i64, 0),
                       end, rank64, rank);
    IRMapping mapping;
    for (auto [param, arg] :
         llvm::zip(folded->getBody().getArguments(), launch.getArgs()))
      mapping.map(param, arg);
    cloneRanks(*folded, b, mapping, rank, count);
    b.setInsertionPoint(launch);
    bsgp::emitSPIRVGridBarrier(b, loc, *builtins, word);
    launch.erase();
  }
  return success();
}

/// Kernels without work-group operations run their body in a grid-stride
/// loop (emitGridStrideLoop). Kernels with them run every invocation to
/// the end (predicateMissingRanks), and number the invocations of a
/// workgroup so that subgroups are consecutive ranks (emitGroupGuard).
LogicalResult LowerKernelsToSPIRVPass::buildKernel(bsgp::KernelOp kernel,
                                                   OpBuilder &db) {
  if (kernel.getBody().empty())
    return kernel.emitOpError("has no body to compile for SPIR-V");
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  Type i32 = db.getI32Type(), i64 = db.getI64Type();

  // The body with the target queries folded, so that group operations in
  // branches for other targets do not count.
  OwningOpRef<bsgp::KernelOp> folded(cast<bsgp::KernelOp>(kernel->clone()));
  bsgp::foldTargetQueries(*folded, bsgp::Target::SPIRV);
  bool grouped = bsgp::usesGroupOps(*folded);

  auto fn = func::FuncOp::create(db, loc, kernel.getSymName(),
                                 FunctionType::get(ctx, {}, {}));
  OpBuilder b(ctx);
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);

  // Push constants: {uint64 args_address; uint64 size; uint64 first;
  // uint64 end}.
  Value args = loadPushConstant(b, loc, device, 0),
        size = loadPushConstant(b, loc, device, 1);

  // The packed struct has the natural C layout of the parameters' storage
  // types (KernelABI.h).
  IRMapping mapping;
  Block &kernelEntry = folded->getBody().front();
  uint64_t offset = 0;
  for (BlockArgument param : kernelEntry.getArguments()) {
    std::optional<ElementInfo> info = getNaturalLayout(param.getType());
    if (!info)
      return kernel.emitOpError("parameter of type ")
             << param.getType() << " is not supported by the SPIR-V target";
    uint64_t align = info->align;
    offset = llvm::alignTo(offset, align);
    Type memTy = getMemoryType(param.getType());
    Value addr = arith::AddIOp::create(
        b, loc, args, arith::ConstantIntOp::create(b, loc, i64, offset));
    Value v = loadPSB(b, loc, memTy, addr, align);
    if (param.getType().isInteger(1))
      v = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                arith::ConstantIntOp::create(b, loc, memTy, 0));
    else if (v.getType() != param.getType())
      v = UnrealizedConversionCastOp::create(b, loc, param.getType(), v)
              .getResult(0);
    mapping.map(param, v);
    offset += info->size;
  }

  Value size32;
  {
    OpBuilder::InsertionGuard atEntry(b);
    b.setInsertionPointAfterValue(size);
    size32 = arith::TruncIOp::create(b, loc, i32, size);
  }
  if (kernel->hasAttr(bsgp::BSGPDialect::GridLoopAttrHelper::getNameStr())) {
    // Every invocation runs the loop; its grid launches run the ranks.
    cloneRanks(*folded, b, mapping,
               arith::ConstantIntOp::create(b, loc, i32, 0), size32);
    if (failed(expandGridLaunches(fn, kernel)))
      return failure();
    rewriteAtomicLoads(fn);
    fn->setAttr(bsgp::BSGPDialect::getDeviceAttrName(), b.getUnitAttr());
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, loc);
    return success();
  }

  Value rank64, rank, inRange;
  Value end = loadPushConstant(b, loc, device, 3);
  Block *body =
      grouped ? emitGroupGuard(b, loc, end, rank64, rank, inRange)
              : emitGridStrideLoop(b, loc, loadPushConstant(b, loc, device, 2),
                                   end, rank64, rank);
  cloneRanks(*folded, b, mapping, rank, size32);
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  rewriteAtomicLoads(fn);
  if (unrollLoops)
    unrollShortLoops(fn);
  if (grouped) {
    // SPIR-V's core has no match: ballots, which missing ranks then vote
    // false in.
    bsgp::expandSubgroupMatches(fn);
    if (failed(bsgp::predicateMissingRanks(*body, body->begin(), inRange,
                                           {rank64, rank})))
      return failure();
  }
  // The passes after this one verify the function: the guard's block gets
  // its terminator where the predication did not add one (the scf
  // lowerings replace it by their own branch), and the function holds
  // device code.
  if (body->empty() || !body->back().hasTrait<OpTrait::IsTerminator>()) {
    b.setInsertionPointToEnd(body);
    scf::YieldOp::create(b, loc);
  }
  fn->setAttr(bsgp::BSGPDialect::getDeviceAttrName(), b.getUnitAttr());
  return success();
}

void LowerKernelsToSPIRVPass::runOnOperation() {
  ModuleOp host = getOperation();
  SmallVector<bsgp::KernelOp> kernels;
  bsgp::getKernelsForTarget(host, bsgp::Target::SPIRV, kernels);
  if (kernels.empty())
    return;

  // The device functions kernels call, transitively.
  SmallVector<func::FuncOp> callees;
  if (failed(bsgp::collectDeviceFunctions(host, kernels, callees)) ||
      failed(bsgp::rejectSPIRVRecursion(callees)))
    return signalPassFailure();
  device = createDeviceModule();
  OpBuilder db = OpBuilder::atBlockEnd(device.getBody());
  // SPIR-V functions have no visibility: the module holds nothing else.
  for (func::FuncOp callee : callees)
    cast<func::FuncOp>(db.clone(*callee)).setPublic();
  for (bsgp::KernelOp kernel : kernels)
    if (failed(buildKernel(kernel, db)))
      return signalPassFailure();
  if (failed(bsgp::inlineMultiResultCalls(device)))
    return signalPassFailure();
  // Before any check or conversion: code for the other targets goes away.
  bsgp::foldTargetQueries(device, bsgp::Target::SPIRV);
  // Chunk accumulations under `if (target.cpu)` are gone by now.
  if (failed(bsgp::rejectChunkOps(device, "SPIR-V")) ||
      failed(bsgp::rejectGroupLookbacks(device, "SPIR-V")))
    return signalPassFailure();
}
