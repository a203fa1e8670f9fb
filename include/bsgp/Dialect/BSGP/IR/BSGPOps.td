//===- BSGPOps.td - bsgp dialect operations ----------------*- tablegen -*-===//
//
// Operations of the bsgp dialect, one topic file each, in pipeline order: the
// source constructs of §5 (spawn, barrier, require, par, thread intrinsics,
// communication; memory; the runtime's list primitives), the ops that the §4 passes produce (supersteps,
// temporary streams, kernels and launches), and the work-group ops. Section
// numbers refer to the BSGP paper.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPOPS_TD
#define BSGP_DIALECT_BSGP_IR_BSGPOPS_TD

include "bsgp/Dialect/BSGP/IR/BSGPAttrs.td"
include "bsgp/Dialect/BSGP/IR/BSGPDialect.td"
include "bsgp/Dialect/BSGP/IR/BSGPTypes.td"
include "mlir/Dialect/Arith/IR/ArithBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// The per-thread rank and the thread count. Ops that read them must not be
/// merged or moved across a rank-reassigning barrier, `bsgp.set_oldrank` or
/// `bsgp.set_size`, so they read this resource instead of being `Pure`.
def BSGP_ThreadState : Resource<"::bsgp::ThreadStateResource">;

// The ops, by topic.
include "bsgp/Dialect/BSGP/IR/BSGPStructureOps.td"
include "bsgp/Dialect/BSGP/IR/BSGPMemoryOps.td"
include "bsgp/Dialect/BSGP/IR/BSGPListOps.td"
include "bsgp/Dialect/BSGP/IR/BSGPLoweredOps.td"
include "bsgp/Dialect/BSGP/IR/BSGPGroupOps.td"

#endif // BSGP_DIALECT_BSGP_IR_BSGPOPS_TD
