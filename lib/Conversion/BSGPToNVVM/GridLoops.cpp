//===- GridLoops.cpp - a uniform loop of supersteps in one CUDA kernel ----===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A kernel marked bsgp.grid_loop (bsgp-fuse-uniform-loops) runs a whole
// uniform loop: where the host would launch a superstep, its threads run
// the superstep's ranks a grid stride apart (the superstep kernel's body,
// built as a device function) and wait for each other at a grid-wide
// barrier. The runtime launches it cooperatively, so all its blocks are
// resident and the barrier cannot wait for a block that never starts.
//
// The barrier is the arrival count of CUDA's cooperative groups: one word
// in global memory, to which each block's first thread adds 1 and block 0
// adds 2^31 - (blocks - 1), so that the word's top bit flips exactly when
// the last block arrives. Every block waits for the flip of the bit it saw,
// which leaves the word ready for the next barrier and the next launch
// without a reset.
//
//===----------------------------------------------------------------------===//

#include "GridLoops.h"

#include "bsgp/Conversion/BSGPToLLVM/KernelABI.h"
#include "bsgp/Conversion/BSGPToNVVM/BSGPToNVVM.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"
#include "bsgp/Target/SymbolNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kArrivedName = bsgp::kGridArrivedSymbol;
constexpr llvm::StringLiteral kBarrierName = bsgp::kGridBarrierSymbol;

/// The grid-wide barrier: `void __bsgp_grid_barrier()`, and its word.
LLVM::LLVMFuncOp getOrCreateGridBarrier(ModuleOp device) {
  if (auto fn = device.lookupSymbol<LLVM::LLVMFuncOp>(kBarrierName))
    return fn;
  MLIRContext *ctx = device.getContext();
  Location loc = device.getLoc();
  OpBuilder mb = OpBuilder::atBlockBegin(device.getBody());
  Type i32 = mb.getI32Type();
  auto arrived = LLVM::GlobalOp::create(
      mb, loc, i32, /*isConstant=*/false, LLVM::Linkage::Internal, kArrivedName,
      mb.getI32IntegerAttr(0), /*alignment=*/4, bsgp::kNVVMGlobalAddressSpace);
  mb.setInsertionPointToEnd(device.getBody());
  auto fn = LLVM::LLVMFuncOp::create(
      mb, loc, kBarrierName,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}),
      LLVM::Linkage::Internal);
  Block *entry = fn.addEntryBlock(mb);
  Block *arrive = fn.addBlock(), *spin = fn.addBlock(), *done = fn.addBlock(),
        *exit = fn.addBlock();
  spin->addArgument(i32, loc);

  OpBuilder b = OpBuilder::atBlockEnd(entry);
  auto c = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
  };
  // The block's threads have all written what the next superstep reads.
  NVVM::Barrier0Op::create(b, loc);
  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  Value first =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid, c(0));
  LLVM::CondBrOp::create(b, loc, first, arrive, exit);

  b.setInsertionPointToEnd(arrive);
  Value block = NVVM::BlockIdXOp::create(b, loc, i32);
  Value blocks = NVVM::GridDimXOp::create(b, loc, i32);
  Value isZero =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, block, c(0));
  // 2^31 - (blocks - 1), in 32-bit wrapping arithmetic.
  Value masterAdd = LLVM::SubOp::create(
      b, loc, c(int64_t(0x80000000u) - 0x100000000ll + 1), blocks);
  Value add = LLVM::SelectOp::create(b, loc, isZero, masterAdd, c(1));
  Value word = LLVM::AddressOfOp::create(b, loc, arrived);
  // Released at the device's scope: the block's writes, ordered before
  // this thread's by the bar.sync, reach the device before its arrival.
  // A fence, as NVPTX makes a release atomicrmw a relaxed atom.
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, "device");
  Value old =
      LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, word, add,
                                LLVM::AtomicOrdering::monotonic, "device");
  LLVM::BrOp::create(b, loc, ValueRange{old}, spin);

  b.setInsertionPointToEnd(spin);
  Value seen = spin->getArgument(0);
  // Acquired: the other blocks' writes are seen once their arrivals are.
  Value now = LLVM::LoadOp::create(
      b, loc, i32, word, /*alignment=*/4, /*isVolatile=*/false,
      /*isNonTemporal=*/false, /*isInvariant=*/false,
      /*isInvariantGroup=*/false, LLVM::AtomicOrdering::acquire, "device");
  Value flipped =
      LLVM::AndOp::create(b, loc, LLVM::XOrOp::create(b, loc, seen, now),
                          c(int64_t(0x80000000u) - 0x100000000ll));
  Value waiting =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, flipped, c(0));
  LLVM::CondBrOp::create(b, loc, waiting, spin, ValueRange{seen}, done,
                         ValueRange{});

  b.setInsertionPointToEnd(done);
  LLVM::BrOp::create(b, loc, ValueRange{}, exit);

  b.setInsertionPointToEnd(exit);
  NVVM::Barrier0Op::create(b, loc);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return fn;
}

} // namespace

std::string bsgp::getGridBodyName(StringRef kernel) {
  return (bsgp::kGridBodySymbolPrefix + kernel).str();
}

LogicalResult bsgp::lowerGridLaunches(LLVM::LLVMFuncOp fn, ModuleOp host,
                                      ModuleOp device) {
  SmallVector<GridLaunchOp> launches;
  fn.walk([&](GridLaunchOp l) { launches.push_back(l); });
  if (launches.empty())
    return success();
  Type i64 = IntegerType::get(fn.getContext(), 64);
  LLVM::LLVMFuncOp barrier = getOrCreateGridBarrier(device);
  Block &entry = fn.getBody().front();
  for (GridLaunchOp launch : launches) {
    Location loc = launch.getLoc();
    auto kernel = host.lookupSymbol<KernelOp>(launch.getKernelAttr());
    auto body = device.lookupSymbol<LLVM::LLVMFuncOp>(
        getGridBodyName(launch.getKernel()));
    if (!kernel || !body)
      return launch.emitOpError("launches a kernel without a CUDA body");
    OpBuilder b(launch);
    Value slot = packKernelArgs(b, loc, kernel, launch.getArgs(), entry);
    // A negative count launches nothing, as bsgprt_launch would refuse it.
    Value zero32 = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value count =
        arith::MaxSIOp::create(b, loc, launch.getThreadCount(), zero32);
    Value n = arith::ExtUIOp::create(b, loc, i64, count);
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
    LLVM::CallOp::create(b, loc, body, ValueRange{slot, n, zero, n});
    LLVM::CallOp::create(b, loc, barrier, ValueRange{});
    launch.erase();
  }
  return success();
}
