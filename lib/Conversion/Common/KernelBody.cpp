//===- KernelBody.cpp - a kernel's body inside a target's entry -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/Common/KernelBody.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

Operation *bsgp::cloneKernelBody(KernelOp kernel, OpBuilder &b,
                                 IRMapping &mapping, Value rank, Value size,
                                 Block *entry) {
  Location loc = kernel.getLoc();
  auto region = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
  b.cloneRegionBefore(kernel.getBody(), region.getRegion(),
                      region.getRegion().end(), mapping);

  SmallVector<Operation *> toReplace;
  region.getRegion().walk([&](Operation *op) {
    if (isa<ThreadRankOp, ThreadSizeOp, ReturnOp>(op))
      toReplace.push_back(op);
  });
  for (Operation *op : toReplace) {
    OpBuilder rb(op);
    if (isa<ReturnOp>(op)) {
      scf::YieldOp::create(rb, op->getLoc());
      op->erase();
      continue;
    }
    Value v = isa<ThreadRankOp>(op) ? rank : size;
    if (v.getType() != op->getResult(0).getType())
      v = arith::IndexCastOp::create(rb, op->getLoc(),
                                     op->getResult(0).getType(), v);
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
  hoistConstantAllocas(region, entry);
  return region;
}

void bsgp::hoistConstantAllocas(Operation *root, Block *entry) {
  SmallVector<LLVM::AllocaOp> allocas;
  root->walk([&](LLVM::AllocaOp alloca) {
    if (matchPattern(alloca.getArraySize(), m_Constant()))
      allocas.push_back(alloca);
  });
  for (LLVM::AllocaOp alloca : allocas) {
    // The size may be shared with other ops: clone it next to the slot.
    OpBuilder eb(entry, entry->begin());
    Operation *count = eb.clone(*alloca.getArraySize().getDefiningOp());
    alloca.getArraySizeMutable().assign(count->getResult(0));
    alloca->moveAfter(count);
  }
}

LogicalResult bsgp::rejectGroupLookbacks(Operation *root, StringRef target) {
  WalkResult r = root->walk([&](GroupLookbackOp op) {
    op->emitOpError("looks back at the work groups before it, which only the "
                    "CUDA target lowers; it cannot be lowered for the ")
        << target << " target (use it under `if (target.cuda)`)";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

LogicalResult bsgp::rejectChunkOps(Operation *root, StringRef target) {
  WalkResult r = root->walk([&](Operation *op) {
    if (!isa<ChunkReduceOp, ChunkScanOp>(op))
      return WalkResult::advance();
    op->emitOpError("accumulates over a chunk of ranks, which only the CPU "
                    "target has; it cannot be lowered for the ")
        << target << " target (use it under `if (target.cpu)`)";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

void bsgp::expandSubgroupMatches(Operation *root) {
  SmallVector<SubgroupMatchOp> matches;
  root->walk([&](SubgroupMatchOp op) { matches.push_back(op); });
  for (SubgroupMatchOp op : matches) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value x = op.getValue();
    Type t = x.getType(), i1 = b.getI1Type(), i64 = b.getI64Type();
    auto ballot = [&](Value p) -> Value {
      return SubgroupVoteOp::create(b, loc, i64, b.getStringAttr("ballot"), p);
    };
    Value allOnes = arith::ConstantIntOp::create(b, loc, i64, -1);
    Value peers = ballot(arith::ConstantIntOp::create(b, loc, i1, 1));
    for (unsigned bit = 0, e = t.getIntOrFloatBitWidth(); bit < e; ++bit) {
      Value shifted = arith::ShRUIOp::create(
          b, loc, x, arith::ConstantIntOp::create(b, loc, t, bit));
      Value set = arith::TruncIOp::create(b, loc, i1, shifted);
      Value votes = ballot(set);
      Value others = arith::XOrIOp::create(b, loc, votes, allOnes);
      peers = arith::AndIOp::create(
          b, loc, peers, arith::SelectOp::create(b, loc, set, votes, others));
    }
    op.replaceAllUsesWith(peers);
    op.erase();
  }
}

void bsgp::stripBSGPAttributes(Operation *root) {
  root->walk([](Operation *op) {
    SmallVector<StringAttr> names;
    for (NamedAttribute a : op->getDiscardableAttrs())
      if (a.getName().getValue().starts_with("bsgp."))
        names.push_back(a.getName());
    for (StringAttr n : names)
      op->removeDiscardableAttr(n);
  });
}

LogicalResult
bsgp::collectDeviceFunctions(ModuleOp host, ArrayRef<KernelOp> kernels,
                             SmallVectorImpl<func::FuncOp> &functions) {
  SymbolTable symbols(host);
  llvm::SetVector<Operation *> seen;
  SmallVector<Operation *> work(kernels.begin(), kernels.end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    WalkResult r = op->walk([&](func::CallOp call) {
      auto fn =
          dyn_cast_or_null<func::FuncOp>(symbols.lookup(call.getCallee()));
      if (!fn || fn.isExternal()) {
        call.emitError("device code calls '")
            << call.getCallee() << "', which has no BSGP definition";
        return WalkResult::interrupt();
      }
      if (seen.insert(fn))
        work.push_back(fn);
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return failure();
    if (op->walk([](LLVM::CallOp) {
            return WalkResult::interrupt();
          }).wasInterrupted())
      return op->emitError(
          "device code cannot call host (extern \"C\") functions");
  }
  for (Operation *op : seen)
    functions.push_back(cast<func::FuncOp>(op));
  return success();
}

bool bsgp::usesGroupOps(Operation *kernel) {
  return kernel
      ->walk([](Operation *op) {
        if (isGroupOp(op))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

void bsgp::getKernelsForTarget(ModuleOp module, Target target,
                               SmallVectorImpl<KernelOp> &kernels) {
  for (KernelOp k : module.getOps<KernelOp>()) {
    auto only = k->getAttrOfType<StringAttr>(BSGPDialect::getTargetAttrName());
    if (!only || only.getValue() == getTargetName(target))
      kernels.push_back(k);
  }
}

Value bsgp::getCombineIdentity(OpBuilder &b, Location loc, StringRef kind,
                               Type type) {
  return arith::ConstantOp::create(b, loc, getCombineIdentityAttr(type, kind));
}

Value bsgp::emitCombine(OpBuilder &b, Location loc, StringRef kind, Value acc,
                        Value x) {
  bool isFloat = isa<FloatType>(acc.getType());
  if (kind == "add")
    return isFloat ? arith::AddFOp::create(b, loc, acc, x).getResult()
                   : arith::AddIOp::create(b, loc, acc, x).getResult();
  if (kind == "mul")
    return isFloat ? arith::MulFOp::create(b, loc, acc, x).getResult()
                   : arith::MulIOp::create(b, loc, acc, x).getResult();
  if (kind == "and")
    return arith::AndIOp::create(b, loc, acc, x);
  if (kind == "or")
    return arith::OrIOp::create(b, loc, acc, x);
  if (kind == "xor")
    return arith::XOrIOp::create(b, loc, acc, x);
  if (kind == "mins")
    return arith::MinSIOp::create(b, loc, acc, x);
  if (kind == "minu")
    return arith::MinUIOp::create(b, loc, acc, x);
  if (kind == "maxs")
    return arith::MaxSIOp::create(b, loc, acc, x);
  if (kind == "maxu")
    return arith::MaxUIOp::create(b, loc, acc, x);
  bool isMin = kind == "minf";
  Value lhs = isMin ? x : acc, rhs = isMin ? acc : x;
  Value less =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, lhs, rhs);
  return arith::SelectOp::create(b, loc, less, x, acc);
}
