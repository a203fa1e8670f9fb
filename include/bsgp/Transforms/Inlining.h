//===- Inlining.h - inlining that the compiler requires --------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TRANSFORMS_INLINING_H
#define BSGP_TRANSFORMS_INLINING_H

#include "mlir/Transforms/InliningUtils.h"

namespace bsgp {

/// An inliner that inlines whatever it is asked to: collective functions
/// and the device functions the GPU targets cannot call must be inlined
/// whatever they contain, while the per-dialect legality hooks would refuse
/// ops of dialects without an inliner interface (the llvm.call of an
/// extern "C" list primitive and its builtin pointer casts in a require of
/// the collective library, say).
struct RequiredInliner : public mlir::InlinerInterface {
  using InlinerInterface::InlinerInterface;
  bool isLegalToInline(mlir::Operation *, mlir::Operation *,
                       bool) const override {
    return true;
  }
  bool isLegalToInline(mlir::Region *, mlir::Region *, bool,
                       mlir::IRMapping &) const override {
    return true;
  }
  bool isLegalToInline(mlir::Operation *, mlir::Region *, bool,
                       mlir::IRMapping &) const override {
    return true;
  }
};

} // namespace bsgp

#endif // BSGP_TRANSFORMS_INLINING_H
