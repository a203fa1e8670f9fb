//===- LocalArrays.cpp - local arrays as SPIR-V variables -----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// On the other targets a local array is a stack slot with an address, and
// MLIRGen gives it as a !bsgp.ptr to its first element. SPIR-V's Function
// variables have no address that can be computed with: an access must name
// the variable. So every pointer derived from a local array is traced back
// to its array through offsets, casts, selects and scf region arguments; the
// accesses through it then index the array's variable directly.
//
//===----------------------------------------------------------------------===//

#include "LocalArrays.h"
#include "Atomics.h"

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"
#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLOWERLOCALARRAYSTOSPIRVPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

/// A local array: its slot (an llvm.alloca and its cast to a !bsgp.ptr, or
/// a bsgp.group_local) and what it holds.
struct LocalArray {
  LLVM::AllocaOp alloca;
  UnrealizedConversionCastOp cast;
  bsgp::GroupLocalOp groupLocal;
  bsgp::PtrType ptrType;
  uint64_t count = 0;
  /// A slot of structs (its element an LLVM array of bytes) is a variable
  /// of `count` 32-bit words: a SPIR-V variable has one element type, and
  /// a struct's fields are read and written as their own types at their
  /// byte offsets.
  bool words = false;
  /// The array's spirv.Variable or spirv.mlir.addressof.
  Value variable;

  Value pointer() {
    return groupLocal ? groupLocal.getResult() : cast.getResult(0);
  }
  Operation *definition() {
    return groupLocal ? groupLocal.getOperation() : alloca.getOperation();
  }
};

/// The type an element of a local array has in a Function variable:
/// pointers are device addresses (i64); everything else keeps its type.
Type getLocalElementType(Type t) {
  if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex())
    return IntegerType::get(t.getContext(), 64);
  return t;
}

/// Byte size of an element, used to turn the byte offsets pointers carry
/// back into element indices. Any consistent size works, since no address
/// of a Function variable leaves the function; the natural one keeps the
/// offsets equal to those of the other targets.
std::optional<uint64_t> getElementSize(Type t) {
  if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex())
    return 8;
  if (isa<IntegerType, FloatType>(t))
    return llvm::PowerOf2Ceil(llvm::divideCeil(t.getIntOrFloatBitWidth(), 8));
  if (auto vt = dyn_cast<VectorType>(t)) {
    if (vt.getRank() != 1 || vt.isScalable())
      return std::nullopt;
    std::optional<uint64_t> e = getElementSize(vt.getElementType());
    if (!e)
      return std::nullopt;
    return llvm::PowerOf2Ceil(*e * vt.getNumElements());
  }
  return std::nullopt;
}

/// The values an operand flows into without changing its meaning: region
/// arguments and results of scf ops, and the results of the pointer ops that
/// keep the array (offset, cast, select).
SmallVector<Value> getFlowTargets(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned n = use.getOperandNumber();
  SmallVector<Value> targets;
  if (isa<bsgp::PtrOffsetOp, bsgp::PtrCastOp>(user) && n == 0) {
    targets.push_back(user->getResult(0));
  } else if (isa<arith::SelectOp>(user) && n > 0) {
    targets.push_back(user->getResult(0));
  } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
    Operation *parent = yield->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      targets.push_back(forOp.getRegionIterArgs()[n]);
      targets.push_back(forOp.getResult(n));
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      targets.push_back(whileOp.getBeforeArguments()[n]);
    } else if (isa<scf::IfOp, scf::ExecuteRegionOp, scf::IndexSwitchOp>(
                   parent)) {
      targets.push_back(parent->getResult(n));
    }
  } else if (auto cond = dyn_cast<scf::ConditionOp>(user)) {
    if (n > 0) {
      auto whileOp = cast<scf::WhileOp>(cond->getParentOp());
      targets.push_back(whileOp.getAfterArguments()[n - 1]);
      targets.push_back(whileOp.getResult(n - 1));
    }
  } else if (auto forOp = dyn_cast<scf::ForOp>(user)) {
    if (n >= forOp.getNumControlOperands()) {
      unsigned i = n - forOp.getNumControlOperands();
      targets.push_back(forOp.getRegionIterArgs()[i]);
      targets.push_back(forOp.getResult(i));
    }
  } else if (auto whileOp = dyn_cast<scf::WhileOp>(user)) {
    targets.push_back(whileOp.getBeforeArguments()[n]);
  }
  return targets;
}

/// Why a use of a local array's pointer cannot be compiled, or "" if it
/// can.
std::string describeEscape(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<bsgp::PtrLoadOp, bsgp::PtrCmpOp, bsgp::PtrDiffOp>(user))
    return "";
  if (auto store = dyn_cast<bsgp::PtrStoreOp>(user))
    return use.get() == store.getPtr() && use.getOperandNumber() != 0
               ? ""
               : "stores the address of a local array to memory";
  // Atomics on the element a pointer points to (whose array must be a
  // group's: checked where they are lowered).
  if (auto rmw = dyn_cast<bsgp::AtomicRMWOp>(user))
    return &use == &rmw.getPtrMutable()
               ? ""
               : "stores the address of a local array to memory";
  if (auto cas = dyn_cast<bsgp::AtomicCASOp>(user))
    return &use == &cas.getPtrMutable()
               ? ""
               : "stores the address of a local array to memory";
  if (!getFlowTargets(use).empty())
    return "";
  // A pointer is saved as its address (bsgp-split-saved-words).
  if (isa<bsgp::SaveOp, bsgp::PtrToIntOp>(user))
    return "keeps the address of a local array across a barrier";
  if (isa<func::CallOp>(user))
    return "passes the address of a local array or variable to a function";
  if (isa<func::ReturnOp>(user))
    return "returns the address of a local array";
  return "uses the address of a local array in '" +
         user->getName().getStringRef().str() + "'";
}

} // namespace

/// The local arrays of `fn`: its group arrays and its private arrays (an
/// llvm.alloca of constant size cast to a !bsgp.ptr). Reports any other.
static LogicalResult collectLocalArrays(func::FuncOp fn,
                                        SmallVectorImpl<LocalArray> &arrays) {
  WalkResult walk = fn.walk([&](Operation *op) {
    if (auto local = dyn_cast<bsgp::GroupLocalOp>(op)) {
      LocalArray a;
      a.groupLocal = local;
      a.count = local.getCount();
      a.ptrType = cast<bsgp::PtrType>(local.getType());
      if (!getElementSize(a.ptrType.getElementType())) {
        emitError(local.getLoc(),
                  "local arrays of this element type are not supported "
                  "by the SPIR-V target");
        return WalkResult::interrupt();
      }
      arrays.push_back(a);
      return WalkResult::advance();
    }
    auto alloca = dyn_cast<LLVM::AllocaOp>(op);
    if (!alloca)
      return WalkResult::advance();
    LocalArray a;
    a.alloca = alloca;
    APInt count;
    if (!matchPattern(alloca.getArraySize(), m_ConstantInt(&count)) ||
        !alloca->hasOneUse() ||
        !isa<UnrealizedConversionCastOp>(*alloca->user_begin())) {
      emitError(alloca.getLoc(),
                "this local array is not supported by the SPIR-V "
                "target (its size is not a constant)");
      return WalkResult::interrupt();
    }
    a.count = count.getZExtValue();
    a.cast = cast<UnrealizedConversionCastOp>(*alloca->user_begin());
    a.ptrType = dyn_cast<bsgp::PtrType>(a.cast.getResult(0).getType());
    if (auto bytes = a.ptrType ? dyn_cast<LLVM::LLVMArrayType>(
                                     a.ptrType.getElementType())
                               : nullptr) {
      a.words = true;
      a.count = llvm::divideCeil(a.count * bytes.getNumElements(), 4);
      arrays.push_back(a);
      return WalkResult::advance();
    }
    if (!a.ptrType || !getElementSize(a.ptrType.getElementType())) {
      emitError(alloca.getLoc(),
                "local arrays of this element type are not supported "
                "by the SPIR-V target");
      return WalkResult::interrupt();
    }
    arrays.push_back(a);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Which array each pointer value of `fn` points into (`origin`): a forward
/// walk from the slots along the flow of pointer values. Reports a pointer
/// that escapes or may point into more than one array or elsewhere.
static LogicalResult
traceArrayPointers(func::FuncOp fn, MutableArrayRef<LocalArray> arrays,
                   llvm::DenseMap<Value, unsigned> &origin) {
  SmallVector<Value> work;
  for (auto [i, a] : llvm::enumerate(arrays)) {
    origin[a.pointer()] = i;
    work.push_back(a.pointer());
  }
  while (!work.empty()) {
    Value v = work.pop_back_val();
    unsigned from = origin.lookup(v);
    for (OpOperand &use : v.getUses()) {
      std::string escape = describeEscape(use);
      if (!escape.empty())
        return emitError(use.getOwner()->getLoc(), "this ")
               << escape << ", which the SPIR-V target does not support "
               << "(local arrays are "
               << (arrays[from].groupLocal ? "Workgroup" : "Function")
               << " variables without an address)";
      for (Value t : getFlowTargets(use)) {
        auto [it, inserted] = origin.try_emplace(t, from);
        if (inserted)
          work.push_back(t);
        else if (it->second != from)
          return emitError(
              use.getOwner()->getLoc(),
              "this pointer may point into more than one local array, which "
              "the SPIR-V target does not support");
      }
    }
  }
  // A value fed by a local array's pointer on one path must be fed by that
  // array on every path (not by a global pointer or NULL).
  WalkResult mixed = fn.walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands())
      for (Value t : getFlowTargets(use)) {
        auto it = origin.find(t);
        if (it == origin.end())
          continue;
        auto src = origin.find(use.get());
        if (src == origin.end() || src->second != it->second) {
          emitError(op->getLoc(),
                    "this pointer may point into a local array or "
                    "elsewhere, which the SPIR-V target does not support");
          return WalkResult::interrupt();
        }
      }
    return WalkResult::advance();
  });
  return failure(mixed.wasInterrupted());
}

/// One Function variable per array at the top of the entry block, or one
/// Workgroup variable per group array in the module; the array's pointer
/// becomes byte offset 0 (a null pointer), recorded in `origin`.
static LogicalResult createVariables(func::FuncOp fn,
                                     MutableArrayRef<LocalArray> arrays,
                                     llvm::DenseMap<Value, unsigned> &origin) {
  Block &entry = fn.getBody().front();
  OpBuilder b(fn.getContext());
  unsigned numGroupArrays = 0;
  for (LocalArray &a : arrays) {
    b.setInsertionPointToStart(&entry);
    Type elem = a.words ? b.getI32Type()
                        : getLocalElementType(a.ptrType.getElementType());
    auto arrayType = spirv::ArrayType::get(elem, a.count);
    Location loc = a.definition()->getLoc();
    if (a.groupLocal) {
      auto module = fn->getParentOfType<ModuleOp>();
      if (!module)
        return emitError(loc, "a local array outside a device module");
      OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
      auto global = spirv::GlobalVariableOp::create(
          mb, loc,
          spirv::PointerType::get(arrayType, spirv::StorageClass::Workgroup),
          ("bsgp_local_" + fn.getSymName() + "_" + Twine(numGroupArrays++))
              .str(),
          /*initializer=*/nullptr);
      a.variable = spirv::AddressOfOp::create(b, loc, global);
    } else {
      a.variable = spirv::VariableOp::create(
          b, loc,
          spirv::PointerType::get(arrayType, spirv::StorageClass::Function),
          spirv::StorageClass::Function, /*initializer=*/nullptr);
    }
    b.setInsertionPoint(a.groupLocal ? a.groupLocal.getOperation()
                                     : a.cast.getOperation());
    Value base = bsgp::PtrNullOp::create(b, loc, a.ptrType);
    a.pointer().replaceAllUsesWith(base);
    origin[base] = &a - arrays.data();
  }
  return success();
}

/// The byte size of a value of type `t` in a struct (C's layout: a vector
/// rounded up to a power of two), or nothing for a type no struct field has.
static std::optional<uint64_t> getFieldSize(Type t) {
  if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex())
    return 8;
  if (isa<IntegerType, FloatType>(t))
    return llvm::divideCeil(t.getIntOrFloatBitWidth(), 8);
  return getElementSize(t);
}

namespace {

/// Loads and stores of a value at a byte position of a word array.
struct WordAccess {
  OpBuilder &b;
  Location loc;
  Value variable;

  Value constant(uint64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value slot(Value pos) {
    Value word = arith::ShRUIOp::create(b, loc, pos, constant(2));
    return spirv::AccessChainOp::create(b, loc, variable, ValueRange{word});
  }
  Value loadWord(Value pos) { return spirv::LoadOp::create(b, loc, slot(pos)); }
  /// The shift of the byte at `pos` in its word (little-endian, as every
  /// target's memory).
  Value byteShift(Value pos) {
    Value inWord = arith::AndIOp::create(b, loc, pos, constant(3));
    Value bits = arith::MulIOp::create(b, loc, inWord, constant(8));
    return arith::TruncIOp::create(b, loc, b.getI32Type(), bits);
  }

  Value load(Type t, Value pos) {
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    if (auto vt = dyn_cast<VectorType>(t)) {
      Type lane = vt.getElementType();
      uint64_t size = *getFieldSize(lane);
      SmallVector<Value> lanes;
      for (int64_t k = 0; k < vt.getNumElements(); ++k)
        lanes.push_back(
            load(lane, arith::AddIOp::create(b, loc, pos, constant(k * size))));
      return vector::FromElementsOp::create(b, loc, vt, lanes);
    }
    if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex()) {
      Value v = load(i64, pos);
      return UnrealizedConversionCastOp::create(b, loc, t, v).getResult(0);
    }
    unsigned width = t.getIntOrFloatBitWidth();
    if (width == 64) {
      Value lo = arith::ExtUIOp::create(b, loc, i64, loadWord(pos));
      Value hi = arith::ExtUIOp::create(
          b, loc, i64,
          loadWord(arith::AddIOp::create(b, loc, pos, constant(4))));
      Value v = arith::OrIOp::create(
          b, loc, lo, arith::ShLIOp::create(b, loc, hi, constant(32)));
      return t == i64 ? v : arith::BitcastOp::create(b, loc, t, v).getResult();
    }
    Value word = loadWord(pos);
    if (width == 32)
      return t == i32 ? word
                      : arith::BitcastOp::create(b, loc, t, word).getResult();
    Value v = arith::ShRUIOp::create(b, loc, word, byteShift(pos));
    if (width == 1)
      return arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(b, loc, v,
                                arith::ConstantIntOp::create(b, loc, i32, 255)),
          arith::ConstantIntOp::create(b, loc, i32, 0));
    return arith::TruncIOp::create(b, loc, t, v);
  }

  void store(Value v, Value pos) {
    Type t = v.getType(), i32 = b.getI32Type(), i64 = b.getI64Type();
    if (auto vt = dyn_cast<VectorType>(t)) {
      uint64_t size = *getFieldSize(vt.getElementType());
      for (int64_t k = 0; k < vt.getNumElements(); ++k)
        store(vector::ExtractOp::create(b, loc, v, k),
              arith::AddIOp::create(b, loc, pos, constant(k * size)));
      return;
    }
    if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex())
      return store(
          UnrealizedConversionCastOp::create(b, loc, i64, v).getResult(0), pos);
    unsigned width = t.getIntOrFloatBitWidth();
    if (width == 64) {
      Value bits = t == i64 ? v : arith::BitcastOp::create(b, loc, i64, v);
      spirv::StoreOp::create(b, loc, slot(pos),
                             arith::TruncIOp::create(b, loc, i32, bits));
      Value hi = arith::ShRUIOp::create(b, loc, bits, constant(32));
      spirv::StoreOp::create(
          b, loc, slot(arith::AddIOp::create(b, loc, pos, constant(4))),
          arith::TruncIOp::create(b, loc, i32, hi));
      return;
    }
    if (width == 32) {
      Value bits = t == i32 ? v : arith::BitcastOp::create(b, loc, i32, v);
      spirv::StoreOp::create(b, loc, slot(pos), bits);
      return;
    }
    // A byte: the other three bytes of its word are kept.
    Value shift = byteShift(pos);
    Value byte = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i32, v), shift);
    Value mask = arith::ShLIOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, i32, 255), shift);
    Value keep = arith::AndIOp::create(
        b, loc, loadWord(pos),
        arith::XOrIOp::create(b, loc, mask,
                              arith::ConstantIntOp::create(b, loc, i32, -1)));
    spirv::StoreOp::create(b, loc, slot(pos),
                           arith::OrIOp::create(b, loc, keep, byte));
  }
};

} // namespace

/// Rewrites the load or store `op` through a pointer into a word array (a
/// slot of structs): the value at byte `offset + index * size`.
static LogicalResult rewriteWordAccess(Operation *op, LocalArray &a, Value ptr,
                                       Value index) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type i64 = b.getI64Type();
  bool isLoad = isa<bsgp::PtrLoadOp>(op);
  Type elem = cast<bsgp::PtrType>(ptr.getType()).getElementType();
  std::optional<uint64_t> size = getFieldSize(elem);
  if (!size)
    return emitError(loc, "this access reads a struct in a local variable as ")
           << elem << ", which the SPIR-V target does not support";
  Value pos = UnrealizedConversionCastOp::create(b, loc, i64, ptr).getResult(0);
  if (index) {
    Value idx = index;
    if (idx.getType().isIndex())
      idx = arith::IndexCastOp::create(b, loc, i64, idx);
    else if (idx.getType().getIntOrFloatBitWidth() < 64)
      idx = arith::ExtSIOp::create(b, loc, i64, idx);
    pos = arith::AddIOp::create(
        b, loc, pos,
        arith::MulIOp::create(
            b, loc, idx, arith::ConstantIntOp::create(b, loc, i64, *size)));
  }
  WordAccess words{b, loc, a.variable};
  if (isLoad)
    op->getResult(0).replaceAllUsesWith(words.load(elem, pos));
  else
    words.store(cast<bsgp::PtrStoreOp>(op).getValue(), pos);
  op->erase();
  return success();
}

/// Rewrites the load, store or atomic `op` through a local array's pointer
/// into an access to the array's variable, at element
/// `byte offset / size + index`, as C indexes.
static LogicalResult
rewriteAccess(Operation *op, MutableArrayRef<LocalArray> arrays,
              const llvm::DenseMap<Value, unsigned> &origin) {
  OpBuilder b(op);
  Type i64 = b.getI64Type();
  bool isLoad = isa<bsgp::PtrLoadOp>(op);
  bool isAtomic = isa<bsgp::AtomicRMWOp, bsgp::AtomicCASOp>(op);
  Value ptr, index;
  if (auto rmw = dyn_cast<bsgp::AtomicRMWOp>(op))
    ptr = rmw.getPtr();
  else if (auto cas = dyn_cast<bsgp::AtomicCASOp>(op))
    ptr = cas.getPtr();
  else if (isLoad)
    ptr = cast<bsgp::PtrLoadOp>(op).getPtr(),
    index = cast<bsgp::PtrLoadOp>(op).getIndex();
  else
    ptr = cast<bsgp::PtrStoreOp>(op).getPtr(),
    index = cast<bsgp::PtrStoreOp>(op).getIndex();
  LocalArray &a = arrays[origin.lookup(ptr)];
  if (a.words && !isAtomic)
    return rewriteWordAccess(op, a, ptr, index);
  if (isAtomic && !a.groupLocal)
    return emitError(op->getLoc(),
                     "this atomic acts on a thread's own local array, which "
                     "the SPIR-V target does not support (Vulkan has "
                     "atomics on memory shared by threads only)");
  Type elem = cast<bsgp::PtrType>(ptr.getType()).getElementType();
  if (elem != a.ptrType.getElementType())
    return emitError(op->getLoc(), "this access reads a local array of ")
           << a.ptrType.getElementType() << " as " << elem
           << ", which the SPIR-V target does not support";
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  // element = byte offset / size + index, as C indexes.
  uint64_t size = *getElementSize(elem);
  Value offset =
      UnrealizedConversionCastOp::create(b, loc, i64, ptr).getResult(0);
  Value first = arith::DivSIOp::create(
      b, loc, offset, arith::ConstantIntOp::create(b, loc, i64, size));
  Value idx =
      index ? index : arith::ConstantIntOp::create(b, loc, i64, 0).getResult();
  if (idx.getType().isIndex())
    idx = arith::IndexCastOp::create(b, loc, i64, idx);
  else if (idx.getType().getIntOrFloatBitWidth() < 64)
    idx = arith::ExtSIOp::create(b, loc, i64, idx);
  else if (idx.getType().getIntOrFloatBitWidth() > 64)
    idx = arith::TruncIOp::create(b, loc, i64, idx);
  Value element = arith::AddIOp::create(b, loc, first, idx);
  Value slot =
      spirv::AccessChainOp::create(b, loc, a.variable, ValueRange{element});
  Type memTy = getLocalElementType(elem);
  if (isAtomic) {
    // The array's element of the atomic's integer type: a float array's
    // variable holds floats, so its atomics work on a bitcast pointer.
    Type intTy = bsgp::getSPIRVAtomicIntType(elem);
    if (intTy != elem)
      return emitError(op->getLoc(),
                       "this atomic acts on a local array of floats, which "
                       "the SPIR-V target does not support yet");
    Value old;
    if (auto rmw = dyn_cast<bsgp::AtomicRMWOp>(op))
      old = bsgp::emitSPIRVAtomicRMW(b, loc, rmw.getKind(), elem, slot,
                                     rmw.getValue(), spirv::Scope::Workgroup);
    else
      old = bsgp::emitSPIRVAtomicCAS(
          b, loc, elem, slot, cast<bsgp::AtomicCASOp>(op).getExpected(),
          cast<bsgp::AtomicCASOp>(op).getDesired(), spirv::Scope::Workgroup);
    if (!old)
      return emitError(op->getLoc(),
                       "this atomic has no SPIR-V form on a local array");
    op->getResult(0).replaceAllUsesWith(old);
    op->erase();
    return success();
  }
  if (isLoad) {
    Value v = spirv::LoadOp::create(b, loc, slot);
    if (v.getType() != elem)
      v = UnrealizedConversionCastOp::create(b, loc, elem, v).getResult(0);
    op->getResult(0).replaceAllUsesWith(v);
  } else {
    Value v = cast<bsgp::PtrStoreOp>(op).getValue();
    if (v.getType() != memTy)
      v = UnrealizedConversionCastOp::create(b, loc, memTy, v).getResult(0);
    spirv::StoreOp::create(b, loc, slot, v);
  }
  op->erase();
  return success();
}

LogicalResult bsgp::lowerLocalArraysToSPIRV(func::FuncOp fn) {
  SmallVector<LocalArray> arrays;
  if (failed(collectLocalArrays(fn, arrays)))
    return failure();
  if (arrays.empty())
    return success();
  llvm::DenseMap<Value, unsigned> origin;
  if (failed(traceArrayPointers(fn, arrays, origin)) ||
      failed(createVariables(fn, arrays, origin)))
    return failure();

  // Loads and stores through the arrays' pointers.
  SmallVector<Operation *> accesses;
  fn.walk([&](Operation *op) {
    if (auto load = dyn_cast<bsgp::PtrLoadOp>(op);
        load && origin.count(load.getPtr()))
      accesses.push_back(op);
    if (auto store = dyn_cast<bsgp::PtrStoreOp>(op);
        store && origin.count(store.getPtr()))
      accesses.push_back(op);
    if (isa<bsgp::AtomicRMWOp, bsgp::AtomicCASOp>(op) &&
        origin.count(op->getOperand(isa<bsgp::AtomicRMWOp>(op) ? 1 : 0)))
      accesses.push_back(op);
  });
  for (Operation *op : accesses)
    if (failed(rewriteAccess(op, arrays, origin)))
      return failure();

  for (LocalArray &a : arrays) {
    if (a.groupLocal) {
      a.groupLocal.erase();
      continue;
    }
    Operation *count = a.alloca.getArraySize().getDefiningOp();
    a.cast.erase();
    a.alloca.erase();
    if (count && count->use_empty())
      count->erase();
  }
  return success();
}

namespace {

struct LowerLocalArraysToSPIRVPass
    : public bsgp::impl::BSGPLowerLocalArraysToSPIRVPassBase<
          LowerLocalArraysToSPIRVPass> {
  void runOnOperation() override;
};

} // namespace

void LowerLocalArraysToSPIRVPass::runOnOperation() {
  for (ModuleOp device : bsgp::getSPIRVDeviceModules(getOperation()))
    for (func::FuncOp fn : device.getOps<func::FuncOp>())
      if (failed(bsgp::lowerLocalArraysToSPIRV(fn)))
        return signalPassFailure();
}
