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

/// A bsgp.save after bsgp-allocate-streams.
struct RawSave {
  ValueKey Key;
  StreamSave Save;
  /// Its first stream, and for a value saved again, the first stream it was
  /// loaded from: what ties the second save to the first.
  mlir::Value FirstStream, LoadedFrom;
};

/// The saves of `Spawn`, in program order; `NumStreams` receives the number
/// of streams the spawn allocates.
std::vector<RawSave> collectSaves(SpawnOp Spawn, unsigned &NumStreams) {
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
  std::vector<RawSave> Saves;
  Spawn.walk([&](SaveOp Save) {
    RawSave Raw;
    Raw.Key = keyOf(Save.getValue());
    if (auto Step = Save->getParentOfType<SuperstepOp>())
      Raw.Save.Step =
          llvm::find(Steps, Step.getOperation()) - Steps.begin() + 1;
    for (mlir::Value Stream : Save.getStreams()) {
      auto It = StreamIndex.find(Stream);
      if (It != StreamIndex.end())
        Raw.Save.Streams.push_back(It->second);
    }
    if (!Save.getStreams().empty())
      Raw.FirstStream = Save.getStreams().front();
    if (auto Load = Save.getValue().getDefiningOp<LoadOp>())
      if (!Load.getStreams().empty())
        Raw.LoadedFrom = Load.getStreams().front();
    Saves.push_back(std::move(Raw));
  });
  return Saves;
}

/// Gives each save of table `Table` to its row: a value saved again to the
/// row of the save it was loaded from; a first save to the first saved row
/// of its name and position that has none yet (values of one name and
/// position, the parts of a struct or the unnamed results of one call, are
/// saved in the order of their rows).
void assignSaves(const SpawnSuperstepTable &Table,
                 llvm::ArrayRef<RawSave> Saves,
                 std::vector<std::vector<StreamSave>> &Rows) {
  llvm::DenseMap<mlir::Value, unsigned> RowOfStream;
  for (const RawSave &Raw : Saves) {
    std::optional<unsigned> Row;
    if (Raw.LoadedFrom)
      if (auto It = RowOfStream.find(Raw.LoadedFrom); It != RowOfStream.end())
        Row = It->second;
    for (auto [R, Info] : llvm::enumerate(Table.values)) {
      if (Row)
        break;
      // The tables call a value without a source name "%<n>".
      llvm::StringRef Name = Info.name;
      if (Name.starts_with("%"))
        Name = "";
      if (Info.saved && Rows[R].empty() &&
          Raw.Key == ValueKey{Name.str(), Info.file, Info.line, Info.col})
        Row = R;
    }
    if (!Row)
      continue;
    Rows[*Row].push_back(Raw.Save);
    if (Raw.FirstStream)
      RowOfStream.try_emplace(Raw.FirstStream, *Row);
  }
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
    assignSaves(Table, collectSaves(Spawn, Info.NumStreams[T]), Info.Saves[T]);
  }
  return Info;
}
