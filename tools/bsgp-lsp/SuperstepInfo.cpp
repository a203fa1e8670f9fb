//===- SuperstepInfo.cpp - saved values and streams of a document ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The same path as `bsgpc --print-supersteps`: MLIRGen, the host module's
// layout, the superstep pipeline (§4.2 steps 1-5), then the tables of
// computeSuperstepTables. Then the first two passes of the stream pipeline,
// bsgp-save-restore and bsgp-allocate-streams, as bsgpc runs them next: each
// bsgp.save is mapped back to its table row by the value's source name and
// position, which the passes keep, and its streams are numbered in the order
// the spawn allocates them. (A value that fork or kill makes the spawn save
// again, for the new number of threads, has two saves.)
//
// MLIR's diagnostics are dropped: the frontend has already reported what is
// wrong with the program, and a failure here only means the hover has no
// superstep lines, or no stream numbers.
//
//===----------------------------------------------------------------------===//

#include "Document.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"
#include "bsgp/MLIRGen/MLIRGen.h"
#include "bsgp/Target/EmitObject.h"
#include "bsgp/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"

using namespace bsgp;
using namespace bsgp::lspserver;

namespace {

/// What ties a value of the IR to a row of a table: its source name and the
/// position the tables give it (SuperstepValueInfo::file/line/col).
struct ValueKey {
  std::string Name, File;
  unsigned Line = 0, Col = 0;
  bool operator==(const ValueKey &O) const {
    return Name == O.Name && File == O.File && Line == O.Line && Col == O.Col;
  }
};

/// The first file position of `Loc`, the call site's for inlined code, as
/// the tables find it.
mlir::FileLineColLoc findPosition(mlir::Location Loc) {
  if (auto CallSite = llvm::dyn_cast<mlir::CallSiteLoc>(Loc))
    if (mlir::FileLineColLoc Caller = findPosition(CallSite.getCaller()))
      return Caller;
  mlir::FileLineColLoc Found;
  Loc->walk([&](mlir::Location Nested) {
    if (auto Pos = llvm::dyn_cast<mlir::FileLineColLoc>(Nested)) {
      Found = Pos;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return Found;
}

ValueKey keyOf(mlir::Value V) {
  ValueKey Key;
  mlir::Location Loc = V.getLoc();
  Loc->walk([&](mlir::Location Nested) {
    if (auto Named = llvm::dyn_cast<mlir::NameLoc>(Nested)) {
      Key.Name = Named.getName().str();
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  if (mlir::FileLineColLoc Pos = findPosition(Loc)) {
    Key.File = Pos.getFilename().getValue().str();
    Key.Line = Pos.getLine();
    Key.Col = Pos.getColumn();
  }
  return Key;
}

/// Spawn `Index` of function `Function`, numbered as computeSuperstepTables
/// numbers them (every spawn of the function, in order).
SpawnOp findSpawn(mlir::ModuleOp Module, llvm::StringRef Function,
                  unsigned Index) {
  SpawnOp Found;
  Module.walk([&](mlir::FunctionOpInterface Func) {
    if (Found || Func.getName() != Function)
      return;
    unsigned N = 0;
    Func.walk([&](SpawnOp Spawn) {
      if (N++ == Index)
        Found = Spawn;
    });
  });
  return Found;
}

/// The saves of `Spawn` after bsgp-allocate-streams, with their keys;
/// `NumStreams` receives the number of streams the spawn allocates.
std::vector<std::pair<ValueKey, StreamSave>>
collectSaves(SpawnOp Spawn, unsigned &NumStreams) {
  // The streams are allocated in bsgp.require ops of the spawn's body, each
  // right before the first superstep that writes it.
  llvm::DenseMap<mlir::Value, unsigned> StreamIndex;
  llvm::SmallVector<mlir::Operation *> Steps;
  for (mlir::Operation &Op : Spawn.getBody().front()) {
    if (llvm::isa<SuperstepOp>(Op))
      Steps.push_back(&Op);
    if (!llvm::isa<RequireOp>(Op))
      continue;
    bool Allocates = false;
    Op.walk([&](StreamAllocOp) { Allocates = true; });
    if (Allocates)
      for (mlir::Value Result : Op.getResults())
        StreamIndex.try_emplace(Result, StreamIndex.size());
  }
  NumStreams = StreamIndex.size();
  std::vector<std::pair<ValueKey, StreamSave>> Saves;
  // A value saved again (after fork or kill) is loaded from the streams of
  // its first save: it takes the key of that save.
  llvm::DenseMap<mlir::Value, ValueKey> KeyOfStream;
  Spawn.walk([&](SaveOp Save) {
    ValueKey Key = keyOf(Save.getValue());
    if (auto Load = Save.getValue().getDefiningOp<LoadOp>())
      if (!Load.getStreams().empty())
        if (auto It = KeyOfStream.find(Load.getStreams().front());
            It != KeyOfStream.end())
          Key = It->second;
    if (!Save.getStreams().empty())
      KeyOfStream.try_emplace(Save.getStreams().front(), Key);
    StreamSave S;
    if (auto Step = Save->getParentOfType<SuperstepOp>())
      S.Step = llvm::find(Steps, Step.getOperation()) - Steps.begin() + 1;
    for (mlir::Value Stream : Save.getStreams()) {
      auto It = StreamIndex.find(Stream);
      if (It != StreamIndex.end())
        S.Streams.push_back(It->second);
    }
    Saves.emplace_back(std::move(Key), std::move(S));
  });
  return Saves;
}

} // namespace

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
  Info.Saves.resize(Info.Tables.size());
  Info.NumStreams.assign(Info.Tables.size(), 0);
  for (auto [T, Table] : llvm::enumerate(Info.Tables))
    Info.Saves[T].resize(Table.values.size());

  // Where a stream pass fails, the rows keep no stream numbers.
  mlir::PassManager Streams(&Context);
  Streams.addPass(createBSGPSaveRestorePass());
  Streams.addPass(createBSGPAllocateStreamsPass());
  if (mlir::failed(Streams.run(*Module)))
    return Info;
  for (auto [T, Table] : llvm::enumerate(Info.Tables)) {
    SpawnOp Spawn = findSpawn(*Module, Table.function, Table.spawnIndex);
    if (!Spawn)
      continue;
    for (auto &[Key, Save] : collectSaves(Spawn, Info.NumStreams[T]))
      for (auto [R, Row] : llvm::enumerate(Table.values))
        if (Row.saved && Key == ValueKey{Row.name, Row.file, Row.line, Row.col})
          Info.Saves[T][R].push_back(Save);
  }
  return Info;
}
