//===- GroupOpsToNVVM.cpp - work-group and subgroup ops on CUDA -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A work group is a thread block of bsgp::kCUDAGroupSize threads and a
// subgroup a warp. The ops are rewritten in place, in the kernels of the
// CUDA device module, into NVVM ops and LLVM constants; their operands and
// the rest of the body keep their bsgp and arith types, which
// bsgp-convert-to-nvvm lowers afterwards.
//
//===----------------------------------------------------------------------===//

#include "CoarsenGroups.h"

#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"
#include "bsgp/Target/SymbolNames.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLOWERGROUPOPSTONVVMPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

/// Shuffles one 32-bit word (i32 or f32) across the warp. `clamp` is the
/// shfl.sync `c` operand CUDA uses for a whole warp: 0x1f, or 0 for `up`.
static Value shuffleWord(OpBuilder &b, Location loc, NVVM::ShflKind kind,
                         Value word, Value lane) {
  Type i32 = b.getI32Type();
  Value mask = LLVM::ConstantOp::create(b, loc, i32, -1);
  Value clamp = LLVM::ConstantOp::create(b, loc, i32,
                                         kind == NVVM::ShflKind::up ? 0 : 0x1f);
  return NVVM::ShflOp::create(b, loc, word.getType(), mask, word, lane, clamp,
                              kind, UnitAttr());
}

/// bsgp.subgroup_reduce over the warp's active lanes (activemask: the
/// threads past the thread count have exited): one redux.sync from sm_80;
/// before, a shuffle-down tree that combines only lanes in the mask, whose
/// result the lowest active lane broadcasts.
static Value lowerSubgroupReduce(OpBuilder &b, Location loc,
                                 bsgp::SubgroupReduceOp op, bool hasRedux) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  Value mask =
      LLVM::CallIntrinsicOp::create(
          b, loc, i32, b.getStringAttr("llvm.nvvm.activemask"), ValueRange{})
          .getResult(0);
  StringRef kind = op.getKind();
  if (hasRedux) {
    auto k = llvm::StringSwitch<NVVM::ReduxKind>(kind)
                 .Case("add", NVVM::ReduxKind::ADD)
                 .Case("and", NVVM::ReduxKind::AND)
                 .Case("or", NVVM::ReduxKind::OR)
                 .Case("xor", NVVM::ReduxKind::XOR)
                 .Case("mins", NVVM::ReduxKind::MIN)
                 .Case("minu", NVVM::ReduxKind::UMIN)
                 .Case("maxs", NVVM::ReduxKind::MAX)
                 .Default(NVVM::ReduxKind::UMAX);
    return NVVM::ReduxOp::create(b, loc, i32, op.getValue(),
                                 NVVM::ReduxKindAttr::get(ctx, k), mask);
  }
  Value lane = NVVM::LaneIdOp::create(b, loc, i32);
  Value one = LLVM::ConstantOp::create(b, loc, i32, 1);
  Value v = op.getValue();
  for (int d = 16; d >= 1; d /= 2) {
    Value delta = LLVM::ConstantOp::create(b, loc, i32, d);
    Value y = NVVM::ShflOp::create(b, loc, i32, mask, v, delta,
                                   LLVM::ConstantOp::create(b, loc, i32, 0x1f),
                                   NVVM::ShflKind::down, UnitAttr());
    // Lane + d holds a value if it is below 32 and in the mask.
    Value src = LLVM::AddOp::create(b, loc, lane, delta);
    Value inWarp =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, src,
                             LLVM::ConstantOp::create(b, loc, i32, 32));
    Value bit = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, mask, src), one);
    Value active = LLVM::AndOp::create(
        b, loc, inWarp,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bit, one));
    v = LLVM::SelectOp::create(b, loc, active,
                               bsgp::emitCombine(b, loc, kind, v, y), v);
  }
  // The lowest active lane holds the combination of all of them.
  Value lowest =
      LLVM::CallIntrinsicOp::create(
          b, loc, i32, b.getStringAttr("llvm.cttz.i32"),
          ValueRange{mask, LLVM::ConstantOp::create(b, loc, b.getI1Type(), 0)})
          .getResult(0);
  return NVVM::ShflOp::create(b, loc, i32, mask, v, lowest,
                              LLVM::ConstantOp::create(b, loc, i32, 0x1f),
                              NVVM::ShflKind::idx, UnitAttr());
}

/// A work group is a thread block of bsgp::kCUDAGroupSize threads (the
/// runtime launches kernels using these ops with that block size), a
/// subgroup is a warp. `local` arrays become one shared-memory global per
/// array and kernel. Threads past the thread count have already left
/// (the rank check), which bar.sync and the .sync warp operations allow:
/// they wait only for threads that have not exited.
static void lowerGroupOpsForNVVM(LLVM::LLVMFuncOp fn, OpBuilder &moduleBuilder,
                                 bool hasRedux) {
  SmallVector<Operation *> ops;
  fn.walk([&](Operation *op) {
    if (bsgp::isGroupOp(op))
      ops.push_back(op);
  });
  MLIRContext *ctx = fn.getContext();
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  unsigned numLocals = 0;
  // group.id as i32 or i64, numbered as on one device: the blocks of the
  // slices before this one come first.
  auto groupId = [&](OpBuilder &b, Location loc, Type type) -> Value {
    Value block = NVVM::BlockIdXOp::create(b, loc, i32);
    Value before = bsgp::emitFirstBlock(b, loc, bsgp::kCUDAGroupSize);
    if (type == i64)
      return LLVM::AddOp::create(
          b, loc, LLVM::ZExtOp::create(b, loc, i64, block), before);
    return LLVM::AddOp::create(b, loc, block,
                               LLVM::TruncOp::create(b, loc, i32, before));
  };
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value v;
    if (isa<bsgp::GroupRankOp>(op)) {
      v = NVVM::ThreadIdXOp::create(b, loc, i32);
    } else if (isa<bsgp::GroupSizeOp>(op)) {
      // A constant rather than %ntid.x: the block size is fixed for these
      // kernels, and loops strided by group.size then get constant trip
      // counts that LLVM unrolls, which puts their loads in flight together.
      v = LLVM::ConstantOp::create(b, loc, i32, bsgp::kCUDAGroupSize);
    } else if (isa<bsgp::GroupIdOp>(op)) {
      v = groupId(b, loc, i32);
    } else if (isa<bsgp::GroupCountOp>(op)) {
      // The spawn's work groups, not the slice's grid.
      Value size = fn.getArgument(1);
      v = LLVM::TruncOp::create(
          b, loc, i32,
          LLVM::UDivOp::create(
              b, loc,
              LLVM::AddOp::create(b, loc, size,
                                  LLVM::ConstantOp::create(
                                      b, loc, i64, bsgp::kCUDAGroupSize - 1)),
              LLVM::ConstantOp::create(b, loc, i64, bsgp::kCUDAGroupSize)));
    } else if (isa<bsgp::GroupThreadsOp>(op)) {
      v = bsgp::emitGroupThreads(b, loc, fn.getArgument(1),
                                 groupId(b, loc, i64));
    } else if (isa<bsgp::SubgroupRankOp>(op)) {
      v = NVVM::LaneIdOp::create(b, loc, i32);
    } else if (isa<bsgp::SubgroupSizeOp>(op)) {
      v = LLVM::ConstantOp::create(b, loc, i32, 32);
    } else if (isa<bsgp::GroupBarrierOp>(op)) {
      NVVM::Barrier0Op::create(b, loc);
    } else if (auto shuffle = dyn_cast<bsgp::SubgroupShuffleOp>(op)) {
      auto kind = llvm::StringSwitch<NVVM::ShflKind>(shuffle.getMode())
                      .Case("xor", NVVM::ShflKind::bfly)
                      .Case("up", NVVM::ShflKind::up)
                      .Case("down", NVVM::ShflKind::down)
                      .Default(NVVM::ShflKind::idx);
      Value x = shuffle.getValue(), lane = shuffle.getLane();
      Type t = x.getType();
      if (t.getIntOrFloatBitWidth() == 32) {
        v = shuffleWord(b, loc, kind, x, lane);
      } else {
        // Two 32-bit shuffles from the same lane, low word first.
        Value bits = t.isF64() ? LLVM::BitcastOp::create(b, loc, i64, x) : x;
        Value lo = LLVM::TruncOp::create(b, loc, i32, bits);
        Value hi = LLVM::TruncOp::create(
            b, loc, i32,
            LLVM::LShrOp::create(b, loc, bits,
                                 LLVM::ConstantOp::create(b, loc, i64, 32)));
        lo = LLVM::ZExtOp::create(b, loc, i64,
                                  shuffleWord(b, loc, kind, lo, lane));
        hi = LLVM::ZExtOp::create(b, loc, i64,
                                  shuffleWord(b, loc, kind, hi, lane));
        v = LLVM::OrOp::create(
            b, loc,
            LLVM::ShlOp::create(b, loc, hi,
                                LLVM::ConstantOp::create(b, loc, i64, 32)),
            lo);
        if (t.isF64())
          v = LLVM::BitcastOp::create(b, loc, t, v);
      }
    } else if (auto reduce = dyn_cast<bsgp::SubgroupReduceOp>(op)) {
      v = lowerSubgroupReduce(b, loc, reduce, hasRedux);
    } else if (auto match = dyn_cast<bsgp::SubgroupMatchOp>(op)) {
      // Over the active lanes, as redux.sync: past the thread count the
      // lanes have exited. (Before sm_70 the matches were expanded.)
      Value active = LLVM::CallIntrinsicOp::create(
                         b, loc, i32, b.getStringAttr("llvm.nvvm.activemask"),
                         ValueRange{})
                         .getResult(0);
      v = NVVM::MatchSyncOp::create(b, loc, i32, active, match.getValue(),
                                    NVVM::MatchSyncKind::any);
      v = LLVM::ZExtOp::create(b, loc, i64, v);
    } else if (auto vote = dyn_cast<bsgp::SubgroupVoteOp>(op)) {
      Value mask = LLVM::ConstantOp::create(b, loc, i32, -1);
      if (vote.getMode() == "ballot") {
        v = NVVM::VoteSyncOp::create(b, loc, i32, mask, vote.getPredicate(),
                                     NVVM::VoteSyncKind::ballot);
        v = LLVM::ZExtOp::create(b, loc, i64, v);
      } else {
        v = NVVM::VoteSyncOp::create(
            b, loc, b.getI1Type(), mask, vote.getPredicate(),
            vote.getMode() == "any" ? NVVM::VoteSyncKind::any
                                    : NVVM::VoteSyncKind::all);
      }
    } else if (auto local = dyn_cast<bsgp::GroupLocalOp>(op)) {
      Type elem = cast<bsgp::PtrType>(local.getType()).getElementType();
      if (isa<bsgp::PtrType>(elem))
        elem = LLVM::LLVMPointerType::get(ctx);
      auto arrayTy = LLVM::LLVMArrayType::get(elem, local.getCount());
      std::string name = (bsgp::kLocalArraySymbolPrefix + fn.getSymName() +
                          "_" + Twine(numLocals++))
                             .str();
      auto global = LLVM::GlobalOp::create(
          moduleBuilder, loc, arrayTy, /*isConstant=*/false,
          LLVM::Linkage::Internal, name, Attribute(), /*alignment=*/16,
          bsgp::kNVVMSharedAddressSpace);
      Value addr = LLVM::AddressOfOp::create(b, loc, global);
      addr = LLVM::AddrSpaceCastOp::create(
          b, loc,
          LLVM::LLVMPointerType::get(ctx, bsgp::kNVVMGenericAddressSpace),
          addr);
      v = UnrealizedConversionCastOp::create(b, loc, local.getType(), addr)
              .getResult(0);
    }
    if (op->getNumResults() == 1)
      op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
}

namespace {

struct LowerGroupOpsToNVVMPass
    : public bsgp::impl::BSGPLowerGroupOpsToNVVMPassBase<
          LowerGroupOpsToNVVMPass> {
  using BSGPLowerGroupOpsToNVVMPassBase::BSGPLowerGroupOpsToNVVMPassBase;
  void runOnOperation() override;
};

} // namespace

void LowerGroupOpsToNVVMPass::runOnOperation() {
  StringRef arch(chip);
  unsigned sm = 0;
  bool known = arch.consume_front("sm_") &&
               !arch.take_while(llvm::isDigit).getAsInteger(10, sm);
  for (ModuleOp device : bsgp::getCUDADeviceModules(getOperation())) {
    // The kernels, not the device functions they call: group operations
    // are defined for a kernel's thread block only.
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto fn : device.getOps<LLVM::LLVMFuncOp>())
      if (fn->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        kernels.push_back(fn);
    for (LLVM::LLVMFuncOp fn : kernels) {
      // match.any.sync is an sm_70 instruction.
      if (!known || sm < 70)
        bsgp::expandSubgroupMatches(fn);
      OpBuilder globals(fn);
      // redux.sync is an sm_80 instruction.
      lowerGroupOpsForNVVM(fn, globals, known && sm >= 80);
    }
  }
}
