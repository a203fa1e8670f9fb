//===- GridLoops.cpp - a uniform loop of supersteps in one SPIR-V shader --===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A kernel marked bsgp.grid_loop (bsgp-fuse-uniform-loops) runs a whole
// uniform loop; where the host would launch a superstep its invocations run
// the superstep's ranks a grid stride apart and wait for each other at a
// grid-wide barrier. Vulkan promises no forward progress to workgroups that
// wait for others, so the runtime dispatches such a shader only where it
// knows the workgroups are all resident at once (docs/spirv.md, "Uniform
// loops as one dispatch"); elsewhere the host runs the loop.
//
// The barrier counts arrivals as the CUDA form does (BSGPToNVVM/
// GridLoops.cpp): the first invocation of each workgroup adds 1 to a word
// in device memory, workgroup 0 adds 2^31 - (workgroups - 1), and every
// one waits until the word's top bit differs from the one it saw. The word
// is ready for the next barrier and the next dispatch without a reset.
//
//===----------------------------------------------------------------------===//

#include "GridLoops.h"

#include "GroupOps.h"
#include "SPIRVCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;

void bsgp::emitSPIRVGridBarrier(OpBuilder &b, Location loc,
                                SPIRVBuiltins &builtins, Value word) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  using Sem = spirv::MemorySemantics;
  auto workgroup = spirv::ScopeAttr::get(ctx, spirv::Scope::Workgroup);
  auto deviceScope = spirv::ScopeAttr::get(ctx, spirv::Scope::Device);
  // Device memory at the device's scope: the workgroup's writes are made
  // available before its arrival, and the others' visible after the wait.
  auto all = spirv::MemorySemanticsAttr::get(
      ctx, Sem::AcquireRelease | Sem::UniformMemory | Sem::WorkgroupMemory);
  auto c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v).getResult();
  };
  spirv::ControlBarrierOp::create(b, loc, workgroup, deviceScope, all);

  // The workgroup's first subgroup waits, all its invocations together, so
  // that the wait is a loop uniform in the subgroup. (lavapipe of Mesa 22
  // still runs a dispatch of several workgroups wrongly: the subgroup that
  // waited skips the supersteps after the wait, whether one invocation or
  // all of it polls. Tests there use one workgroup; docs/spirv.md.)
  Value subgroup = builtins.load(b, loc, spirv::BuiltIn::SubgroupId);
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, subgroup, c(0));
  auto first = scf::IfOp::create(b, loc, TypeRange{}, isFirst,
                                 /*addThenBlock=*/true, /*addElseBlock=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    Value x = builtins.load(b, loc, spirv::BuiltIn::WorkgroupId, 0);
    Value y = builtins.load(b, loc, spirv::BuiltIn::WorkgroupId, 1);
    Value row = builtins.load(b, loc, spirv::BuiltIn::NumWorkgroups, 0);
    Value rows = builtins.load(b, loc, spirv::BuiltIn::NumWorkgroups, 1);
    Value group =
        arith::AddIOp::create(b, loc, x, arith::MulIOp::create(b, loc, y, row));
    Value groups = arith::MulIOp::create(b, loc, row, rows);
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, group, c(0));
    // 2^31 - (groups - 1), in 32-bit wrapping arithmetic.
    Value masterAdd = arith::SubIOp::create(
        b, loc, c(int64_t(0x80000000u) - 0x100000000ll + 1), groups);
    Value add = arith::SelectOp::create(b, loc, isZero, masterAdd, c(1));
    Value ptr = spv::psbPointer(b, loc, i32, word);
    // The subgroup's first invocation arrives, releasing what the control
    // barrier made available; all see what it saw.
    Value lane =
        builtins.load(b, loc, spirv::BuiltIn::SubgroupLocalInvocationId);
    Value isLeader =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, c(0));
    auto arrive = scf::IfOp::create(b, loc, TypeRange{i32}, isLeader,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard inArrive(b);
      b.setInsertionPointToStart(&arrive.getThenRegion().front());
      Value old = spirv::AtomicIAddOp::create(
          b, loc, i32, ptr, spirv::Scope::Device,
          Sem::AcquireRelease | Sem::UniformMemory, add);
      scf::YieldOp::create(b, loc, old);
      b.setInsertionPointToStart(&arrive.getElseRegion().front());
      scf::YieldOp::create(b, loc, c(0));
    }
    // A subgroup-uniform constant: the lane that broadcasts.
    Value zero = spirv::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0));
    Value seen = spirv::GroupNonUniformBroadcastOp::create(
        b, loc, spirv::Scope::Subgroup, arrive.getResult(0), zero);
    // Polled by the whole subgroup with a volatile load, which
    // makeDeviceLoadsCoherent (ConvertToSPIRV.cpp) makes coherent like the
    // shader's other loads: NVIDIA's driver served a merely volatile load
    // of the word from a stale cache, and the wait never ended. Polling by
    // an atomic read-modify-write of the word instead cost 0.3 µs a barrier
    // more on the H200 (bench/README.md). The subgroup goes by its first
    // invocation's value, so that it leaves the loop at once. An elect,
    // whose effects MLIR does not know, keeps the loop, which would
    // otherwise count as dead; the loop holds no memory barrier, since
    // lavapipe dropped the stores after a loop whose selection held one
    // (ConvertToSPIRV.cpp).
    scf::WhileOp::create(
        b, loc, TypeRange{}, ValueRange{},
        [&](OpBuilder &wb, Location wl, ValueRange) {
          Value now =
              spirv::LoadOp::create(wb, wl, ptr,
                                    spirv::MemoryAccessAttr::get(
                                        ctx, spirv::MemoryAccess::Volatile |
                                                 spirv::MemoryAccess::Aligned),
                                    wb.getI32IntegerAttr(4));
          spirv::GroupNonUniformElectOp::create(wb, wl, spirv::Scope::Subgroup);
          now = spirv::GroupNonUniformBroadcastOp::create(
              wb, wl, spirv::Scope::Subgroup, now, zero);
          Value flipped = arith::AndIOp::create(
              wb, wl, arith::XOrIOp::create(wb, wl, seen, now),
              arith::ConstantIntOp::create(
                  wb, wl, i32, int64_t(0x80000000u) - 0x100000000ll));
          Value waiting = arith::CmpIOp::create(
              wb, wl, arith::CmpIPredicate::eq, flipped,
              arith::ConstantIntOp::create(wb, wl, i32, 0));
          scf::ConditionOp::create(wb, wl, waiting, ValueRange{});
        },
        [&](OpBuilder &wb, Location wl, ValueRange) {
          scf::YieldOp::create(wb, wl);
        });
    scf::YieldOp::create(b, loc);
  }
  // Every invocation acquires the other workgroups' writes.
  spirv::ControlBarrierOp::create(b, loc, workgroup, deviceScope, all);
}
