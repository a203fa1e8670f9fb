//===- SourceNames.h - source positions and names ---------------*- C++ -*-===//
//
// Reading source positions and value names off locations, for the
// diagnostics and tables of the passes. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_SOURCENAMES_H
#define BSGP_LIB_TRANSFORMS_SOURCENAMES_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include <string>

namespace bsgp {
namespace ssutil {

/// The first file:line:col location inside `loc` (the call site's for
/// inlined code), or null.
mlir::FileLineColLoc findFileLineCol(mlir::Location loc);

/// The source name of `value`: its NameLoc, else "".
std::string getValueName(mlir::Value value);

/// The error for `value`, of a type that no temporary stream or list holds,
/// which would have to be kept `where` ("across a barrier").
mlir::InFlightDiagnostic emitUnsavableError(mlir::Value value,
                                            llvm::StringRef where);

} // namespace ssutil
} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_SOURCENAMES_H
