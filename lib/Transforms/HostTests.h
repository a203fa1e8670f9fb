//===- HostTests.h - versioning a spawn on host tests -----------*- C++ -*-===//
//
// The passes that transform a spawn only where run-time facts hold
// (pointers apart, distinct allocations) build those facts as host tests
// and keep both versions of the spawn. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_HOSTTESTS_H
#define BSGP_LIB_TRANSFORMS_HOSTTESTS_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

namespace mlir {
class IRMapping;
} // namespace mlir

namespace bsgp {
/// The attributes marking the two copies of a spawn that
/// bsgp-rematerialize-loads, bsgp-single-pass and bsgp-forward-sort-results
/// version (declared in BSGPDialect.td).
inline constexpr llvm::StringLiteral kLoadVersionAttr =
    BSGPDialect::LoadVersionAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kPassVersionAttr =
    BSGPDialect::PassVersionAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kResultVersionAttr =
    BSGPDialect::ResultVersionAttrHelper::getNameStr();

namespace ssutil {

/// Versions `spawn` on the host value `test`: `scf.if test { copy } else {
/// spawn }`, each branch yielding its spawn's results, which replace the
/// spawn's uses. The copy gets `attr` = `copyVersion`, the original
/// `attr` = `version`. Returns the copy; `mapping` maps the original's ops
/// to the copy's.
SpawnOp versionSpawn(SpawnOp spawn, mlir::Value test, llvm::StringRef attr,
                     llvm::StringRef copyVersion, llvm::StringRef version,
                     mlir::IRMapping &mapping);

/// A call at `b` of the runtime's C function `name` (declared in the
/// module if need be), `!bsgp.ptr` arguments passed as `!llvm.ptr`; its
/// result, or null for `void`.
mlir::Value buildRuntimeCall(mlir::OpBuilder &b, mlir::Location loc,
                             llvm::StringRef name, mlir::Type result,
                             mlir::ValueRange args);

/// Host code at `b` that is true if the runtime places `p` and `q` in
/// different allocations (bsgprt_distinct_allocations, declared in the
/// module if need be).
mlir::Value buildDistinctAllocationsTest(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Value p, mlir::Value q);

/// Host code at `b` that is true if the ranges of `n` elements from `p`
/// and from `q` (pointers to elements of one width) do not meet, or, with
/// `orSame`, are the same range.
mlir::Value buildApartTest(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value p, mlir::Value q, mlir::Value n,
                           bool orSame);

/// The spawn's thread count as an i64, built at `b` (before the spawn), the
/// `n` of the host tests.
mlir::Value buildThreadCount64(mlir::OpBuilder &b, SpawnOp spawn);

/// `all && test`, or `test` while `all` is null: the conjunction of host
/// tests built one at a time.
mlir::Value andTest(mlir::OpBuilder &b, mlir::Location loc, mlir::Value all,
                    mlir::Value test);

} // namespace ssutil
} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_HOSTTESTS_H
