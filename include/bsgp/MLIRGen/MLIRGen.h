//===- MLIRGen.h - the checked AST to the bsgp dialect ----------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// MLIRGen turns the program Sema checked into one MLIR module in SSA form:
/// host functions and spawns as func/bsgp ops, device code with structured
/// control flow (scf), every mutable local an SSA value. Each op carries the
/// FileLineColLoc of the source it came from.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_MLIRGEN_MLIRGEN_H
#define BSGP_MLIRGEN_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace bsgp {
class ASTContext;
class SourceManager;

/// Adds every dialect MLIRGen and the pipeline create to \p registry.
void registerBSGPDialects(mlir::DialectRegistry &registry);

/// Emits the whole program held by \p ast (the main file first, then its
/// imports). Functions of imported files are emitted as private definitions
/// when they are inline or device functions, and as declarations otherwise
/// (their object file defines them). Constructs code generation does not
/// handle yet are reported with mlir::emitError at their location; the
/// result is null then.
mlir::OwningOpRef<mlir::ModuleOp>
emitMLIR(mlir::MLIRContext &context, ASTContext &ast, SourceManager &sources);

} // namespace bsgp

#endif // BSGP_MLIRGEN_MLIRGEN_H
