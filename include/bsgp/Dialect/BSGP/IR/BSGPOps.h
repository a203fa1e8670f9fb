//===- BSGPOps.h - bsgp dialect operations ----------------------*- C++ -*-===//
//
// The operations of the bsgp dialect, generated from BSGPOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPOPS_H
#define BSGP_DIALECT_BSGP_IR_BSGPOPS_H

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

#define GET_OP_CLASSES
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h.inc"

namespace bsgp {

/// Names of discardable attributes declared in BSGPDialect.td, kept under
/// their old spelling for brevity: `bsgp.block_size` and `bsgp.min_blocks`
/// of a spawn and its kernels.
constexpr llvm::StringLiteral kBlockSizeAttrName =
    BSGPDialect::BlockSizeAttrHelper::getNameStr();
constexpr llvm::StringLiteral kMinBlocksAttrName =
    BSGPDialect::MinBlocksAttrHelper::getNameStr();

/// True if `op` is a function marked `bsgp.collective` (may hold barriers).
bool isCollectiveFunction(mlir::Operation *op);

/// The `bsgp.library` kind of the function that `call` (a call op) calls
/// directly: what the collective library says the callee is. Nothing if it
/// calls no function of the library, or calls indirectly.
std::optional<LibraryKind> getCalledLibraryKind(mlir::Operation *call);

/// True if `op` runs on the device: its nearest enclosing spawn, superstep,
/// kernel, require or function is a spawn, a superstep, a kernel or a
/// function marked `bsgp.collective` or `bsgp.device`.
bool isInDeviceCode(mlir::Operation *op);

/// True if `op` is one of the work-group and subgroup ops (`group.*`,
/// `subgroup.*`, `local` arrays): a kernel holding one needs its work
/// groups, and a function holding one is inlined where it is called.
bool isGroupOp(mlir::Operation *op);

/// True if `value` is computed from a target query (`target.cuda`,
/// `!target.cpu`, `target.cpu || target.spirv`, ...) or a bsgp.single_pass
/// question: a branch on it is taken by every thread alike, and is gone
/// before the spawn is split.
bool dependsOnTargetQuery(mlir::Value value);

/// The parent of `op`, skipping the `scf.if`s on target queries (and
/// bsgp.single_pass) around it: a barrier, require or collective call under
/// such a branch belongs to the superstep level above it
/// (bsgp-specialize-targets and bsgp-single-pass remove the branch before
/// supersteps are cut).
mlir::Operation *getParentSkippingTargetBranches(mlir::Operation *op);

/// The op whose superstep level `op` (a barrier, require, par, put,
/// collective call) belongs to: its parent, skipping the `scf.if` and
/// `scf.while` around it inside a spawn or collective function. Barriers
/// under control flow are allowed when every thread takes the same path
/// (docs/language.md, "Uniform control flow"); bsgp-split-uniform-flow
/// checks that and turns the flow into host control flow around spawns.
mlir::Operation *getSyncParent(mlir::Operation *op);

/// True if a superstep boundary (a barrier, a par holding one, or a branch
/// or loop every path through which crosses one) separates the definition
/// of `value` from `user`: `user` sees the value as it was
/// in an earlier superstep, which is what `bsgp.get` reads.
bool isSeparatedByBarrier(mlir::Value value, mlir::Operation *user);

/// A use of `value` (the result of a `bsgp.put`, which holds its value only
/// after the next barrier) that some path from its definition reaches
/// without crossing a barrier, following the value through the arguments
/// and results of `scf.while` and `scf.if` that pass it on; null if every
/// path crosses one. A use as the result of its superstep is fine.
mlir::Operation *findUseBeforeBarrier(mlir::Value value);

/// True if `value` is a parameter of the function around it: a `bsgp.get`
/// of it in an inline function reads the caller's value, which is checked
/// once the function is inlined (bsgp-inline-collectives).
bool isFunctionParameter(mlir::Value value);

/// True if `kind` names an operator of the chunk and list ops on elements
/// of `type`: add, mul, and, or, xor, mins, minu, maxs, maxu for integers;
/// add, mul, minf, maxf for floats.
bool isCombineKind(llvm::StringRef kind, mlir::Type type);

/// The identity of the operator `kind` (isCombineKind) on `type`: 0 for
/// add, or and xor, 1 for mul, all ones for and, the largest and smallest
/// values for min and max, +-infinity for floats.
mlir::TypedAttr getCombineIdentityAttr(mlir::Type type, llvm::StringRef kind);

} // namespace bsgp

#endif // BSGP_DIALECT_BSGP_IR_BSGPOPS_H
