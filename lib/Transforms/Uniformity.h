//===- Uniformity.h - which values every thread of a spawn shares -*- C++
//-*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The uniformity (divergence) analysis of a spawn body, after LLVM's
/// UniformityAnalysis: a value is uniform when every thread of the spawn
/// computes the same one. Private to lib/Transforms.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_UNIFORMITY_H
#define BSGP_LIB_TRANSFORMS_UNIFORMITY_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "llvm/ADT/DenseSet.h"

namespace bsgp {

/// Uniform: values from outside the spawn (host values), constants,
/// `thread.size`, the group and subgroup sizes, target queries, the
/// results of requires (host code), collective results marked
/// `bsgp.uniform`; the results of side-effect-free ops of uniform operands;
/// the results of an `scf.if` whose condition and yielded values are
/// uniform; the arguments and results of an `scf.while` whose condition,
/// initial and yielded values are uniform. Everything else (the rank,
/// memory, calls) varies. Loops are solved at a fixed point, starting from
/// "all uniform" and marking what varies until nothing changes, so that a
/// counter that starts and steps uniformly stays uniform.
class UniformityInfo {
public:
  explicit UniformityInfo(SpawnOp spawn);

  bool isUniform(mlir::Value v) const { return !varying.contains(v); }

  /// The condition that decides whether the ops of `region` run, for the
  /// regions of `scf.if` and `scf.while`; null for others.
  static mlir::Value getBranchCondition(mlir::Operation *op);

private:
  bool variesNow(mlir::OpResult r) const;
  bool argVariesNow(mlir::BlockArgument a) const;

  llvm::DenseSet<mlir::Value> varying;
};

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_UNIFORMITY_H
