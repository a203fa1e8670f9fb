//===- LowerLaunches.cpp - launches as runtime calls ----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The compiled object carries one `bsgprt_module_desc` (runtime.h) listing
// its kernels; a launch names a kernel by its index in that table. The
// runtime picks the backend at run time, so the table holds every form the
// kernel was compiled to: a native entry point, PTX, SPIR-V.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/BSGPToLLVM/KernelABI.h"
#include "bsgp/Conversion/BSGPToLLVM/RuntimeAPI.h"
#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"
#include "bsgp/Target/SymbolNames.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLOWERLAUNCHESPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

/// Must match BSGPRT_ABI_VERSION in runtime/include/bsgp/runtime.h.
static constexpr unsigned kRuntimeABIVersion = 7;
static constexpr llvm::StringLiteral kModuleDescName = bsgp::kModuleDescSymbol;
static constexpr llvm::StringLiteral kRegisterName =
    bsgp::kRegisterModuleSymbol;

namespace {

struct LowerLaunchesPass
    : public bsgp::impl::BSGPLowerLaunchesPassBase<LowerLaunchesPass> {
  void runOnOperation() override;
};

/// Builds `{ptr, i64}` for an optional blob attribute of the module: the
/// address of a global holding its bytes and their count.
std::pair<Value, Value> emitBlob(OpBuilder &b, ModuleOp module, Location loc,
                                 StringRef attrName, StringRef globalName,
                                 bool nulTerminate) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  Type i64 = b.getI64Type();
  auto attr = module->getAttrOfType<StringAttr>(attrName);
  if (!attr)
    return {LLVM::ZeroOp::create(b, loc, ptr),
            LLVM::ConstantOp::create(b, loc, i64, 0)};
  std::string data = attr.getValue().str();
  uint64_t size = data.size();
  if (nulTerminate)
    data.push_back('\0');
  OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  auto global = LLVM::GlobalOp::create(gb, loc, type, /*isConstant=*/true,
                                       LLVM::Linkage::Internal, globalName,
                                       gb.getStringAttr(data),
                                       /*alignment=*/16);
  return {LLVM::AddressOfOp::create(b, loc, global),
          LLVM::ConstantOp::create(b, loc, i64, size)};
}

/// An internal constructor, run before main, that passes the module
/// descriptor to bsgprt_register_module.
void emitRegistration(ModuleOp module, LLVM::GlobalOp moduleDesc) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {});
  auto ctor = LLVM::LLVMFuncOp::create(mb, loc, kRegisterName, fnType,
                                       LLVM::Linkage::Internal);
  OpBuilder b = OpBuilder::atBlockBegin(ctor.addEntryBlock(mb));
  Value desc = LLVM::AddressOfOp::create(b, loc, moduleDesc);
  LLVM::CallOp::create(
      b, loc,
      bsgp::getOrInsertRuntimeFn(module, bsgp::RuntimeFn::RegisterModule),
      ValueRange{desc});
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  mb.setInsertionPointToEnd(module.getBody());
  LLVM::GlobalCtorsOp::create(
      mb, loc, mb.getArrayAttr({FlatSymbolRefAttr::get(ctor)}),
      mb.getI32ArrayAttr({65535}), mb.getArrayAttr({LLVM::ZeroAttr::get(ctx)}));
}

} // namespace

/// The module record of the descriptor, `bsgprt_module_desc`: the ABI
/// version, the kernel table, the PTX and SPIR-V blobs and the file name.
static LLVM::GlobalOp emitModuleDescriptor(OpBuilder &mb, ModuleOp module,
                                           LLVM::GlobalOp kernelTable,
                                           size_t numKernels) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  auto moduleDescTy = LLVM::LLVMStructType::getLiteral(
      ctx, {i32, i32, ptr, ptr, i64, ptr, i64, ptr});
  auto moduleDesc = LLVM::GlobalOp::create(
      mb, loc, moduleDescTy, /*isConstant=*/true, LLVM::Linkage::Internal,
      kModuleDescName, Attribute());
  {
    Block *init = new Block();
    moduleDesc.getInitializerRegion().push_back(init);
    OpBuilder b = OpBuilder::atBlockEnd(init);
    Value desc = LLVM::UndefOp::create(b, loc, moduleDescTy);
    auto [ptx, ptxSize] =
        emitBlob(b, module, loc, bsgp::BSGPDialect::PtxAttrHelper::getNameStr(),
                 bsgp::kPTXBlobSymbol, true);
    auto [spirv, spirvSize] = emitBlob(
        b, module, loc, bsgp::BSGPDialect::SpirvAttrHelper::getNameStr(),
        bsgp::kSPIRVBlobSymbol, false);
    std::string file = "<unknown>";
    if (auto fl = dyn_cast<FileLineColLoc>(module.getLoc()))
      file = fl.getFilename().str();
    Value fields[] = {LLVM::ConstantOp::create(b, loc, i32, kRuntimeABIVersion),
                      LLVM::ConstantOp::create(b, loc, i32, numKernels),
                      LLVM::AddressOfOp::create(b, loc, kernelTable),
                      ptx,
                      ptxSize,
                      spirv,
                      spirvSize,
                      bsgp::getSourceString(b, module, loc, file)};
    for (auto [f, v] : llvm::enumerate(fields))
      desc = LLVM::InsertValueOp::create(b, loc, desc, v,
                                         ArrayRef<int64_t>{int64_t(f)});
    LLVM::ReturnOp::create(b, loc, desc);
  }
  return moduleDesc;
}

/// Each call of the program into a host function of the collective library
/// (a sort's passes, say) is bracketed by bsgprt_callsite_push/pop with the
/// call's source position: the runtime then lists the library's kernels
/// under the program's line in the profile and the trace, rather than at a
/// line of the generated library (docs/runtime.md, "Profiling").
static void markLibraryCalls(ModuleOp module) {
  StringRef library = bsgp::BSGPDialect::LibraryAttrHelper::getNameStr();
  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) {
    auto caller = call->getParentOfType<FunctionOpInterface>();
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    if (caller && callee && !caller->hasAttr(library) &&
        callee->hasAttr(library))
      calls.push_back(call);
  });
  if (calls.empty())
    return;
  LLVM::LLVMFuncOp push =
      bsgp::getOrInsertRuntimeFn(module, bsgp::RuntimeFn::CallSitePush);
  LLVM::LLVMFuncOp pop =
      bsgp::getOrInsertRuntimeFn(module, bsgp::RuntimeFn::CallSitePop);
  for (func::CallOp call : calls) {
    OpBuilder b(call);
    Location l = call.getLoc();
    Value where =
        bsgp::getSourceString(b, module, l, bsgp::formatSourceLocation(l));
    LLVM::CallOp::create(b, l, push, ValueRange{where});
    b.setInsertionPointAfter(call);
    LLVM::CallOp::create(b, l, pop, ValueRange{});
  }
}

/// Each bsgp.can_launch_grid_loop becomes bsgprt_can_launch_cooperative of
/// the kernel's index in the descriptor (bsgp-fuse-uniform-loops).
static LogicalResult
lowerGridLoopQueries(ModuleOp module, LLVM::GlobalOp moduleDesc,
                     const llvm::StringMap<unsigned> &kernelIndex) {
  Type i32 = IntegerType::get(module.getContext(), 32);
  Type i64 = IntegerType::get(module.getContext(), 64);
  WalkResult asked = module.walk([&](bsgp::CanLaunchGridLoopOp query) {
    auto kernel = module.lookupSymbol<bsgp::KernelOp>(query.getKernelAttr());
    if (!kernel) {
      query.emitOpError("asks about an unknown kernel");
      return WalkResult::interrupt();
    }
    Location l = query.getLoc();
    OpBuilder b(query);
    Value desc = LLVM::AddressOfOp::create(b, l, moduleDesc);
    Value index = LLVM::ConstantOp::create(
        b, l, i32,
        static_cast<int32_t>(kernelIndex.lookup(kernel.getSymName())));
    Value count = LLVM::SExtOp::create(b, l, i64, query.getThreadCount());
    Value can =
        LLVM::CallOp::create(b, l,
                             bsgp::getOrInsertRuntimeFn(
                                 module, bsgp::RuntimeFn::CanLaunchCooperative),
                             ValueRange{desc, index, count})
            .getResult();
    Value zero = LLVM::ConstantOp::create(b, l, i32, 0);
    query.replaceAllUsesWith(
        LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::ne, can, zero)
            .getResult());
    query.erase();
    return WalkResult::advance();
  });
  return failure(asked.wasInterrupted());
}

void LowerLaunchesPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);

  SmallVector<bsgp::KernelOp> kernels(module.getOps<bsgp::KernelOp>());
  if (kernels.empty())
    return;
  llvm::StringMap<unsigned> kernelIndex;
  for (auto [i, k] : llvm::enumerate(kernels))
    kernelIndex[k.getSymName()] = i;

  // The descriptor: an array of kernel descriptors and the module record.
  auto kernelDescTy = LLVM::LLVMStructType::getLiteral(
      ctx, {ptr, ptr, ptr, i32, i32, i32, i32});
  auto kernelArrayTy = LLVM::LLVMArrayType::get(kernelDescTy, kernels.size());
  Location loc = module.getLoc();
  OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());

  auto kernelTable = LLVM::GlobalOp::create(
      mb, loc, kernelArrayTy, /*isConstant=*/true, LLVM::Linkage::Internal,
      bsgp::kKernelTableSymbol, Attribute());
  {
    Block *init = new Block();
    kernelTable.getInitializerRegion().push_back(init);
    OpBuilder b = OpBuilder::atBlockEnd(init);
    Value table = LLVM::UndefOp::create(b, loc, kernelArrayTy);
    for (auto [i, k] : llvm::enumerate(kernels)) {
      Value desc = LLVM::UndefOp::create(b, loc, kernelDescTy);
      Value name = bsgp::getSourceString(b, module, loc, k.getSymName());
      Value cpu;
      if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(
              bsgp::getCPUEntryName(k.getSymName())))
        cpu = LLVM::AddressOfOp::create(b, loc, fn);
      else
        cpu = LLVM::ZeroOp::create(b, loc, ptr);
      std::string where;
      if (auto s = k->getAttrOfType<StringAttr>(
              bsgp::BSGPDialect::getSourceLocAttrName()))
        where = s.getValue().str();
      else
        where = bsgp::formatSourceLocation(k.getLoc());
      Value srcloc = bsgp::getSourceString(b, module, loc, where);
      Value argsSize = LLVM::ConstantOp::create(
          b, loc, i32, static_cast<int32_t>(bsgp::getKernelArgsSize(k)));
      // A kernel with work-group operations needs the block size it was
      // compiled for; 0 lets the runtime choose. The CUDA lowering knows:
      // the other targets' folding may have removed the ops it keeps.
      int32_t blockSize = 0;
      if (auto size = k->getAttrOfType<IntegerAttr>(bsgp::kGroupSizeAttrName))
        blockSize = static_cast<int32_t>(size.getInt());
      Value groupSize = LLVM::ConstantOp::create(b, loc, i32, blockSize);
      int32_t groups = 0;
      if (auto g = k->getAttrOfType<IntegerAttr>(bsgp::kGroupsPerBlockAttrName))
        groups = static_cast<int32_t>(g.getInt());
      Value groupsPerBlock = LLVM::ConstantOp::create(b, loc, i32, groups);
      // BSGPRT_KERNEL_LOOKBACK: its blocks wait for the blocks before them.
      Value flags = LLVM::ConstantOp::create(
          b, loc, i32, k->hasAttr(bsgp::kLookbackAttrName) ? 1 : 0);
      Value fields[] = {name,           cpu,  srcloc, argsSize, groupSize,
                        groupsPerBlock, flags};
      for (auto [f, v] : llvm::enumerate(fields))
        desc = LLVM::InsertValueOp::create(b, loc, desc, v,
                                           ArrayRef<int64_t>{int64_t(f)});
      table = LLVM::InsertValueOp::create(b, loc, table, desc,
                                          ArrayRef<int64_t>{int64_t(i)});
    }
    LLVM::ReturnOp::create(b, loc, table);
  }

  LLVM::GlobalOp moduleDesc =
      emitModuleDescriptor(mb, module, kernelTable, kernels.size());

  // GPU code is registered before main, so that the backend prepares it
  // (JIT-compiles the PTX) when it starts rather than in the middle of the
  // program's first superstep.
  if (module->hasAttr(bsgp::BSGPDialect::PtxAttrHelper::getNameStr()) ||
      module->hasAttr(bsgp::BSGPDialect::SpirvAttrHelper::getNameStr()))
    emitRegistration(module, moduleDesc);

  LLVM::LLVMFuncOp launchFn =
      bsgp::getOrInsertRuntimeFn(module, bsgp::RuntimeFn::Launch);
  StringRef gridLoop = bsgp::BSGPDialect::GridLoopAttrHelper::getNameStr();
  if (failed(lowerGridLoopQueries(module, moduleDesc, kernelIndex)))
    return signalPassFailure();
  WalkResult result = module.walk([&](bsgp::LaunchOp launch) {
    auto kernel = module.lookupSymbol<bsgp::KernelOp>(launch.getKernelAttr());
    if (!kernel) {
      launch.emitOpError("launches an unknown kernel");
      return WalkResult::interrupt();
    }
    Location l = launch.getLoc();
    auto fn = launch->getParentOfType<FunctionOpInterface>();
    OpBuilder b(launch);
    Value slot = bsgp::packKernelArgs(b, l, kernel, launch.getArgs(),
                                      fn.getFunctionBody().front());
    Value desc = LLVM::AddressOfOp::create(b, l, moduleDesc);
    Value index = LLVM::ConstantOp::create(
        b, l, i32, static_cast<int32_t>(kernelIndex[kernel.getSymName()]));
    // Sign-extended, as the count is a C int: the runtime reports a
    // negative one as such.
    Value count = LLVM::SExtOp::create(b, l, i64, launch.getThreadCount());
    LLVM::LLVMFuncOp fnToCall =
        kernel->hasAttr(gridLoop)
            ? bsgp::getOrInsertRuntimeFn(module,
                                         bsgp::RuntimeFn::LaunchCooperative)
            : launchFn;
    LLVM::CallOp::create(b, l, fnToCall, ValueRange{desc, index, count, slot});
    launch.erase();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return signalPassFailure();
  markLibraryCalls(module);

  for (bsgp::KernelOp k : kernels)
    k.erase();
}
