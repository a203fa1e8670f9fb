//===- LegalizeDebugLocations.cpp - call sites only inside functions ------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// bsgp-legalize-debug-locations: ops outside every LLVM function lose
/// their call-site locations, so that MLIR's debug scope pass, which maps
/// a call site to an inlined scope of the enclosing function, has one to
/// map it to.
///
//===----------------------------------------------------------------------===//

#include "bsgp/Target/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLEGALIZEDEBUGLOCATIONSPASS
#include "bsgp/Target/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

/// The outermost caller of a chain of call sites: the program's own line.
Location outermostCaller(CallSiteLoc loc) {
  Location caller = loc.getCaller();
  while (auto inner = dyn_cast<CallSiteLoc>(caller))
    caller = inner.getCaller();
  return caller;
}

/// `loc` without call sites at its top or, for fused and named locations,
/// among their parts (where the debug scope pass looks for them).
Location withoutCallSites(Location loc) {
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return withoutCallSites(outermostCaller(callSite));
  if (auto name = dyn_cast<NameLoc>(loc))
    return NameLoc::get(name.getName(), withoutCallSites(name.getChildLoc()));
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    SmallVector<Location> parts;
    for (Location part : fused.getLocations())
      parts.push_back(withoutCallSites(part));
    return FusedLoc::get(loc.getContext(), parts, fused.getMetadata());
  }
  return loc;
}

struct LegalizeDebugLocationsPass
    : public bsgp::impl::BSGPLegalizeDebugLocationsPassBase<
          LegalizeDebugLocationsPass> {
  void runOnOperation() override {
    // Pre-order, so that a function's body is skipped as a whole: its ops
    // have the function for their inlined scopes.
    getOperation()->walk<WalkOrder::PreOrder>([](Operation *op) {
      if (isa<LLVM::LLVMFuncOp>(op))
        return WalkResult::skip();
      Location loc = withoutCallSites(op->getLoc());
      if (loc != op->getLoc())
        op->setLoc(loc);
      return WalkResult::advance();
    });
  }
};

} // namespace
