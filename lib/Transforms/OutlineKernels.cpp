//===- OutlineKernels.cpp - kernels and launches (§4.2 steps 3-4) --------===//
//
// Turns each spawn in stream form into host code. Require bodies are
// inlined in place (thread.size becomes the current thread count, set_size
// changes it), every superstep becomes a bsgp.kernel whose parameters are
// the host values and streams it uses (constants are cloned instead), and
// a bsgp.launch runs it. The lists of the spawn's dtempnew ops are freed
// with one bsgp.dtempfree at its end (Listing 4, __dtempfree).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "DevicePrintf.h"
#include "SourceNames.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPOUTLINEKERNELSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// "file:line:col-line:col" of a superstep, for the kernel-to-source log of
/// §4.4; the spawn's position when the superstep has no range.
std::string formatRange(SuperstepOp step, SpawnOp spawn) {
  auto begin = dyn_cast_or_null<FileLineColLoc>(step.getSourceBeginAttr());
  auto end = dyn_cast_or_null<FileLineColLoc>(step.getSourceEndAttr());
  if (!begin)
    begin = end = ssutil::findFileLineCol(spawn.getLoc());
  if (!begin)
    return "unknown:0:0-0:0";
  // A range must stay in one file; otherwise only its start is known.
  if (!end || end.getFilename() != begin.getFilename())
    end = begin;
  return (begin.getFilename().getValue() + ":" + Twine(begin.getLine()) + ":" +
          Twine(begin.getColumn()) + "-" + Twine(end.getLine()) + ":" +
          Twine(end.getColumn()))
      .str();
}

class SpawnOutliner {
public:
  SpawnOutliner(SymbolTable &symbols, Operation *func, StringRef funcName,
                unsigned spawnIndex)
      : symbols(symbols), func(func), funcName(funcName),
        spawnIndex(spawnIndex) {}

  LogicalResult run(SpawnOp spawn);

private:
  LogicalResult check(SpawnOp spawn);
  LogicalResult inlineRequire(RequireOp require, OpBuilder &b);
  void outlineSuperstep(SuperstepOp step, SpawnOp spawn, OpBuilder &b);

  SymbolTable &symbols;
  Operation *func;
  StringRef funcName;
  unsigned spawnIndex;
  Value count;
  SmallVector<Value> tempLists;
};

LogicalResult SpawnOutliner::check(SpawnOp spawn) {
  for (Operation &op : spawn.getBody().front().without_terminator()) {
    if (isa<RequireOp>(op))
      continue;
    auto step = dyn_cast<SuperstepOp>(op);
    if (!step)
      return op.emitError("spawn is not in superstep form (run "
                          "bsgp-split-supersteps)");
    if (step->getNumResults() != 0)
      return step.emitError("superstep still has saved values as results "
                            "(run bsgp-save-restore)");
    WalkResult walk = step.getBody().walk([&](Operation *nested) {
      if (isa<BarrierOp, RequireOp, ParOp, GetOp, PutOp, SetOldRankOp, SpawnOp>(
              nested)) {
        nested->emitError("'")
            << nested->getName()
            << "' cannot be outlined into a kernel; run the bsgp pipeline "
               "up to bsgp-allocate-streams first";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  return success();
}

LogicalResult SpawnOutliner::inlineRequire(RequireOp require, OpBuilder &b) {
  Block &body = require.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    SmallVector<ThreadSizeOp> sizes;
    WalkResult walk = op.walk([&](Operation *nested) {
      if (auto size = dyn_cast<ThreadSizeOp>(nested))
        sizes.push_back(size);
      if (isa<SetSizeOp>(nested) && nested != &op) {
        nested->emitError("set_size inside control flow of a require is not "
                          "supported; the thread count must be known at the "
                          "top level of the require");
        return WalkResult::interrupt();
      }
      // (bsgp-split-uniform-flow frees the lists it marked where the
      // spawn it cut into this segment and others ends.)
      if (auto list = dyn_cast<DTempNewOp>(nested);
          list &&
          !list->hasAttr(BSGPDialect::FreedByFlowAttrHelper::getNameStr()))
        tempLists.push_back(list);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    bool erased = false;
    for (ThreadSizeOp size : sizes) {
      erased |= size == &op;
      size.replaceAllUsesWith(count);
      size->erase();
    }
    if (erased)
      continue;
    if (auto setSize = dyn_cast<SetSizeOp>(op)) {
      count = setSize.getSize();
      setSize->erase();
      continue;
    }
    op.moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  require.replaceAllUsesWith(yield.getValues());
  require->erase();
  return success();
}

void SpawnOutliner::outlineSuperstep(SuperstepOp step, SpawnOp spawn,
                                     OpBuilder &b) {
  Region &body = step.getBody();
  llvm::SetVector<Value> captured;
  llvm::SetVector<Operation *> constants;
  body.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (body.isAncestor(operand.getParentRegion()))
        continue;
      Operation *def = operand.getDefiningOp();
      // A target query is cloned like a constant: CSE may have merged the
      // kernel's query with one of the host code around the spawn, but
      // each target's kernel lowering must see its own query to fold it.
      if (def && def->getNumResults() == 1 &&
          (def->hasTrait<OpTrait::ConstantLike>() || isa<TargetIsOp>(def)))
        constants.insert(def);
      else
        captured.insert(operand);
    }
  });

  MLIRContext *ctx = step.getContext();
  SmallVector<Type> argTypes;
  for (Value v : captured)
    argTypes.push_back(v.getType());
  std::string name =
      (funcName + "_spawn" + Twine(spawnIndex) + "_ss" + Twine(step.getIndex()))
          .str();
  OpBuilder kb(ctx);
  auto kernel =
      KernelOp::create(kb, step.getLoc(), StringAttr::get(ctx, name),
                       TypeAttr::get(FunctionType::get(ctx, argTypes, {})),
                       nullptr, nullptr, nullptr);
  kernel->setAttr(BSGPDialect::getSourceLocAttrName(),
                  StringAttr::get(ctx, formatRange(step, spawn)));
  // A kernel of a function specialized for one target is only that
  // target's to compile.
  if (Attribute only = func->getAttr(BSGPDialect::getTargetAttrName()))
    kernel->setAttr(BSGPDialect::getTargetAttrName(), only);
  if (Attribute block = spawn->getAttr(kBlockSizeAttrName))
    kernel->setAttr(kBlockSizeAttrName, block);
  if (Attribute blocks = spawn->getAttr(kMinBlocksAttrName))
    kernel->setAttr(kMinBlocksAttrName, blocks);
  Block *entry = new Block;
  kernel.getBody().push_back(entry);
  IRMapping mapping;
  for (Value v : captured)
    mapping.map(v, entry->addArgument(v.getType(), v.getLoc()));
  kb.setInsertionPointToStart(entry);
  for (Operation *c : constants)
    mapping.map(c->getResult(0), kb.clone(*c)->getResult(0));
  for (Operation &op : body.front().without_terminator())
    kb.clone(op, mapping);
  ReturnOp::create(kb, step.getLoc());
  symbols.insert(kernel, Block::iterator(func));

  LaunchOp::create(b, step.getLoc(), kernel.getSymName(), count,
                   captured.getArrayRef());
  // A kernel given the print buffer may have printed: its lines come out
  // now, before what the host prints next, and the buffer needs room for
  // one superstep's records only (docs/language.md, "Device printf").
  for (Value v : captured)
    if (Value buffer = getPrintBuffer(v))
      buildPrintfFlush(b, step.getLoc(), buffer);
  step->erase();
}

LogicalResult SpawnOutliner::run(SpawnOp spawn) {
  if (failed(check(spawn)))
    return failure();
  count = spawn.getThreadCount();
  OpBuilder b(spawn);
  Block &body = spawn.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    if (auto require = dyn_cast<RequireOp>(op)) {
      if (failed(inlineRequire(require, b)))
        return failure();
      continue;
    }
    auto step = cast<SuperstepOp>(op);
    // Dead code first: a superstep whose store bsgp-forward-sort-keys
    // removed keeps the load that fed it.
    Block &stepBody = step.getBody().front();
    SmallVector<Operation *> bodyOps;
    for (Operation &inner : stepBody.without_terminator())
      bodyOps.push_back(&inner);
    for (Operation *inner : llvm::reverse(bodyOps))
      if (isOpTriviallyDead(inner))
        inner->erase();
    // A superstep left without code (everything rematerialized or dead)
    // would launch an empty kernel; the launch boundary alone has no effect.
    if (stepBody.without_terminator().empty()) {
      step->erase();
      continue;
    }
    outlineSuperstep(step, spawn, b);
  }
  if (!tempLists.empty())
    DTempFreeOp::create(b, spawn.getLoc(), tempLists);
  // The host values the spawn yields are in host code now (its requires
  // were inlined above).
  spawn->replaceAllUsesWith(body.getTerminator()->getOperands());
  spawn->erase();
  return success();
}

struct OutlineKernelsPass
    : public bsgp::impl::BSGPOutlineKernelsPassBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<FunctionOpInterface> funcs;
    for (Operation &op : module.getBody()->getOperations())
      if (auto func = dyn_cast<FunctionOpInterface>(op))
        if (!isa<KernelOp>(op))
          funcs.push_back(func);
    for (FunctionOpInterface func : funcs) {
      SmallVector<SpawnOp> spawns;
      func->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
      for (auto [i, spawn] : llvm::enumerate(spawns)) {
        SpawnOutliner outliner(symbols, func, func.getName(), i);
        if (failed(outliner.run(spawn)))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
