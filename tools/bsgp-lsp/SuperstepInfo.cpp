//===- SuperstepInfo.cpp - saved values and streams of a document ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The same path as `bsgpc --print-supersteps`: MLIRGen, the host module's
// layout, the superstep pipeline (§4.2 steps 1-5), then the tables of
// computeSuperstepTables; each table's saved values go through
// allocateStreams as for `--print-supersteps=dot`, which gives the
// temporary stream of every word. MLIR's diagnostics are dropped: the
// frontend has already reported what is wrong with the program, and a
// failure here only means the hover has no stream line.
//
//===----------------------------------------------------------------------===//

#include "Document.h"

#include "bsgp/MLIRGen/MLIRGen.h"
#include "bsgp/Target/EmitObject.h"
#include "bsgp/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

using namespace bsgp;
using namespace bsgp::lspserver;

SuperstepInfo bsgp::lspserver::computeSuperstepInfo(ASTContext &Ctx,
                                                    SourceManager &SM) {
  SuperstepInfo Info;
  mlir::DialectRegistry Registry;
  registerBSGPDialects(Registry);
  mlir::MLIRContext Context(Registry, mlir::MLIRContext::Threading::DISABLED);
  Context.loadAllAvailableDialects();
  std::string FirstError;
  mlir::ScopedDiagnosticHandler Handler(&Context, [&](mlir::Diagnostic &D) {
    if (D.getSeverity() == mlir::DiagnosticSeverity::Error &&
        FirstError.empty())
      FirstError = D.str();
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> Module = emitMLIR(Context, Ctx, SM);
  if (!Module) {
    Info.Error =
        "MLIRGen failed" + (FirstError.empty() ? "" : ": " + FirstError);
    return Info;
  }
  std::string Error;
  if (mlir::failed(prepareHostModule(*Module, HostCodegenOptions(), Error))) {
    Info.Error = Error;
    return Info;
  }
  // The CPU target, as bsgpc without --target.
  mlir::PassManager PM(&Context);
  buildBSGPSuperstepPipeline(PM, BSGPSpecializeTargetsPassOptions());
  if (mlir::failed(PM.run(*Module))) {
    Info.Error = "the superstep pipeline failed" +
                 (FirstError.empty() ? "" : ": " + FirstError);
    return Info;
  }
  Info.Tables = computeSuperstepTables(*Module);
  for (const SpawnSuperstepTable &Table : Info.Tables) {
    std::vector<std::vector<unsigned>> &Rows = Info.Streams.emplace_back();
    Rows.resize(Table.values.size());
    llvm::SmallVector<unsigned> RowOf;
    llvm::SmallVector<SavedValue> Values = getStreamValues(Table, &RowOf);
    if (Values.empty())
      continue;
    llvm::Expected<StreamAllocation> Allocation =
        allocateStreams(Table.numSupersteps, Values);
    if (!Allocation) {
      llvm::consumeError(Allocation.takeError());
      continue;
    }
    for (auto [V, Row] : llvm::enumerate(RowOf))
      for (unsigned Stream : Allocation->wordStream[V])
        if (!llvm::is_contained(Rows[Row], Stream))
          Rows[Row].push_back(Stream);
  }
  return Info;
}
