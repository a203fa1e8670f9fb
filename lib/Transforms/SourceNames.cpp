//===- SourceNames.cpp - source positions and names -----------------------===//
//
// Reading source positions and value names off locations, for the
// diagnostics and tables of the passes.
//
//===----------------------------------------------------------------------===//

#include "SourceNames.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
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

std::string describeType(Type type) {
  if (type.isInteger(1))
    return "bool";
  if (type.isInteger(8))
    return "char";
  if (type.isInteger(32))
    return "int";
  if (type.isInteger(64))
    return "int64";
  if (auto i = dyn_cast<IntegerType>(type))
    return "a " + std::to_string(i.getWidth()) + "-bit integer";
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (auto v = dyn_cast<VectorType>(type))
    return "a vector of " + std::to_string(v.getNumElements()) + " " +
           describeType(v.getElementType());
  if (isa<PtrType>(type))
    return "a pointer";
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(type);
      a && a.getElementType().isInteger(8))
    return "a struct of " + std::to_string(a.getNumElements()) + " bytes";
  if (isa<LLVM::LLVMPointerType>(type))
    return "the address of a thread-private array";
  return "a value of the compiler's own";
}

InFlightDiagnostic emitUnsavableError(Value value, StringRef where) {
  std::string name = getValueName(value);
  InFlightDiagnostic diag = mlir::emitError(value.getLoc());
  diag << "cannot keep " << (name.empty() ? "this value" : "'" + name + "'")
       << " " << where << ": " << describeType(value.getType())
       << " cannot be saved for later supersteps";
  return diag;
}

} // namespace ssutil
} // namespace bsgp
