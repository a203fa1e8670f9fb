//===- SuperstepUtils.h - helpers shared by the §4 passes ------*- C++ -*-===//
//
// Small helpers on spawns in superstep form, private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_SUPERSTEPUTILS_H
#define BSGP_LIB_TRANSFORMS_SUPERSTEPUTILS_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/IR/Location.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
class IRMapping;
namespace func {
class CallOp;
} // namespace func
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

/// The superstep ops of `spawn`'s body, in execution order.
llvm::SmallVector<SuperstepOp> getSupersteps(SpawnOp spawn);

/// Replaces `step` by a superstep with the same attributes and body that
/// yields `yielded` (values defined at the top level of the body). Uses of an
/// old result whose yielded value is still yielded move to the new result;
/// the other old results must be unused. Returns the new op.
SuperstepOp replaceSuperstepResults(SuperstepOp step,
                                    llvm::ArrayRef<mlir::Value> yielded);

/// Replaces `step` by a superstep without the results that nothing uses.
/// Returns the new op (`step` itself if all are used).
SuperstepOp dropUnusedResults(SuperstepOp step);
/// The first file:line:col location inside `loc` (the call site's for
/// inlined code), or null.
mlir::FileLineColLoc findFileLineCol(mlir::Location loc);

/// The source name of `value`: its NameLoc, else "".
std::string getValueName(mlir::Value value);

/// The number of the superstep of `op` among `steps`, from 0, or -1 if `op`
/// is in none of them.
int getStepNumber(llvm::ArrayRef<SuperstepOp> steps, mlir::Operation *op);

/// True if `value` is defined inside `spawn`'s body.
bool isDefinedIn(SpawnOp spawn, mlir::Value value);

/// True if `index` is thread.rank, maybe widened (a rank is never
/// negative, so sign and zero extension agree).
bool isRankIndex(mlir::Value index);

/// The op that allocated the memory `ptr` points into if that happened
/// inside `spawn` (a require's `dnew`/`dtempnew`, a work group's `local`
/// array): no host pointer from before the spawn can reach it. Else null.
mlir::Operation *getFreshRoot(SpawnOp spawn, mlir::Value ptr);

/// True for `!bsgp.ptr` and `!llvm.ptr`.
bool isPointer(mlir::Type type);

/// What the passes checking a superstep's writes can tell of `op` (not its
/// nested ops) before looking at its memory effects: true if it writes
/// nothing (no memory effects, or only its nested ops', or work-group
/// communication) or calls the collective library (a function marked
/// `bsgp.library`) or the runtime (`bsgprt_*`), which write only through
/// their pointer arguments, with only memory `spawn` allocated (other than
/// `excludedRoot`'s); false for any other call and an op whose effects are
/// unknown; nothing if its effects need a look.
std::optional<bool> checkWritesBeforeEffects(SpawnOp spawn, mlir::Operation *op,
                                             mlir::Operation *excludedRoot);

/// True if `a` and `b` point to elements of one width, which a ptr.diff
/// can compare.
bool sameElementWidth(PtrType a, PtrType b);

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

/// `op` if it calls the collective library's sort of ranks (a function
/// marked #bsgp.library<sort_ranks>, whose operands are SortRanksOperand);
/// else null.
mlir::func::CallOp getListSortCall(mlir::Operation *op);

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

#endif // BSGP_LIB_TRANSFORMS_SUPERSTEPUTILS_H
