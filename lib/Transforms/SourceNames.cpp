//===- SourceNames.cpp - source positions and names -----------------------===//
//
// Reading source positions and value names off locations, for the
// diagnostics and tables of the passes.
//
//===----------------------------------------------------------------------===//

#include "SourceNames.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

namespace bsgp {
namespace ssutil {

FileLineColLoc findFileLineCol(Location loc) {
  // Code inlined from a collective function is attributed to its call site,
  // which is where it appears in the spawn.
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    if (FileLineColLoc caller = findFileLineCol(callSite.getCaller()))
      return caller;
  FileLineColLoc found;
  loc->walk([&](Location nested) {
    if (auto flc = dyn_cast<FileLineColLoc>(nested)) {
      found = flc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::string getValueName(Value value) {
  std::string name;
  Location loc = isa<BlockArgument>(value) ? cast<BlockArgument>(value).getLoc()
                                           : value.getDefiningOp()->getLoc();
  loc->walk([&](Location nested) {
    if (auto named = dyn_cast<NameLoc>(nested)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

InFlightDiagnostic emitUnsavableError(Value value, StringRef where) {
  // MLIRGen gives every value a type that a stream holds (structs and
  // private arrays are carried word by word), so only IR written for
  // bsgp-opt gets here, and its reader knows the type by its IR name.
  std::string name = getValueName(value);
  return mlir::emitError(value.getLoc())
         << "cannot keep " << (name.empty() ? "this value" : "'" + name + "'")
         << " " << where << ": no temporary stream holds " << value.getType();
}

} // namespace ssutil
} // namespace bsgp
