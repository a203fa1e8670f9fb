//===- GridLoopsCPU.cpp - a uniform loop of supersteps on a CPU team ------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// On the CPU a kernel marked bsgp.grid_loop (bsgp-fuse-uniform-loops) runs
// in one OpenMP parallel region (bsgprt_launch_cooperative): every thread of
// the team runs the loop's arithmetic, and where the host would launch a
// superstep, each runs its contiguous share of the ranks through the
// superstep's CPU entry (the rank loop LLVM vectorizes) and waits at the
// team's barrier. A superstep then costs a barrier rather than the start and
// end of a parallel region.
//
//===----------------------------------------------------------------------===//

#include "GridLoopsCPU.h"

#include "bsgp/Conversion/BSGPToLLVM/KernelABI.h"
#include "bsgp/Conversion/BSGPToLLVM/RuntimeAPI.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

LogicalResult bsgp::lowerGridLaunchesForCPU(LLVM::LLVMFuncOp fn,
                                            ModuleOp module) {
  SmallVector<GridLaunchOp> launches;
  fn.walk([&](GridLaunchOp l) { launches.push_back(l); });
  if (launches.empty())
    return success();
  Block &entry = fn.getBody().front();
  Location loc = fn.getLoc();
  // The team, once per thread: its size and this thread's place in it.
  OpBuilder eb = OpBuilder::atBlockBegin(&entry);
  auto call = [&](OpBuilder &b, RuntimeFn which) {
    return LLVM::CallOp::create(b, loc, getOrInsertRuntimeFn(module, which),
                                ValueRange{});
  };
  Value me = call(eb, RuntimeFn::CPUTeamRank).getResult();
  Value team = call(eb, RuntimeFn::CPUTeamSize).getResult();
  Value next = arith::AddIOp::create(
      eb, loc, me, arith::ConstantIntOp::create(eb, loc, 1, 64));
  for (GridLaunchOp launch : launches) {
    // The call of the superstep's entry may be inlined, and with -g LLVM
    // wants every inlinable call in a function with debug information to
    // have a line.
    Location l = isa<UnknownLoc>(launch.getLoc()) ? loc : launch.getLoc();
    auto kernel = module.lookupSymbol<KernelOp>(launch.getKernelAttr());
    auto body = kernel ? module.lookupSymbol<LLVM::LLVMFuncOp>(
                             getCPUEntryName(kernel.getSymName()))
                       : LLVM::LLVMFuncOp();
    if (!body)
      return launch.emitOpError("launches a kernel without a CPU entry");
    OpBuilder b(launch);
    Value slot = packKernelArgs(b, l, kernel, launch.getArgs(), entry);
    // A negative count launches nothing, as bsgprt_launch would refuse it.
    Value zero32 = arith::ConstantIntOp::create(b, l, 0, 32);
    Value count = arith::MaxSIOp::create(b, l, launch.getThreadCount(), zero32);
    Value n = arith::ExtUIOp::create(b, l, b.getI64Type(), count);
    // Ranks [n * me / team, n * (me + 1) / team): contiguous, disjoint, and
    // their sizes differ by at most one, as the runtime's chunks. The
    // products stay below 2^63 (n < 2^31, and a team is far below 2^32).
    Value begin =
        arith::DivUIOp::create(b, l, arith::MulIOp::create(b, l, n, me), team);
    Value end = arith::DivUIOp::create(
        b, l, arith::MulIOp::create(b, l, n, next), team);
    LLVM::CallOp::create(b, l, body, ValueRange{slot, begin, end, n});
    call(b, RuntimeFn::CPUTeamBarrier);
    launch.erase();
  }
  return success();
}
