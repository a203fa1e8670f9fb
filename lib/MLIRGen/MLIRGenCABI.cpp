//===- MLIRGenCABI.cpp - structs by value to and from C functions ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A call of an `extern "C"` function that takes or returns a struct by
/// value follows C's calling convention, the x86-64 System V ABI (the one
/// host the CPU target has), as clang lowers it: a struct of at most 16
/// bytes goes in one or two registers, one per eightbyte, each an SSE
/// register when only floats and doubles lie in it (`float`, `<2 x
/// float>`, `double`) and an integer register otherwise (`i64`, or the
/// last eightbyte's bytes, `i32`); a larger struct goes in memory, a copy
/// the callee owns (`byval`) or, for a result, a slot the caller passes
/// first (`sret`). BSGP's own functions keep passing a struct as its
/// leaves (MLIRGenStructValues.cpp); only calls into C change.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "bsgp/AST/Layout.h"

#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlirgen;

/// The scalar pieces of a leaf (a vector's lanes) with their offsets.
static void scalarPieces(Type t, uint64_t offset,
                         SmallVectorImpl<std::pair<Type, uint64_t>> &out) {
  if (auto vt = dyn_cast<VectorType>(t)) {
    Type lane = vt.getElementType();
    uint64_t size = llvm::divideCeil(lane.getIntOrFloatBitWidth(), 8);
    for (int64_t k = 0; k < vt.getNumElements(); ++k)
      out.push_back({lane, offset + k * size});
    return;
  }
  out.push_back({t, offset});
}

std::optional<CStructABI> MLIRGen::classifyForC(const bsgp::StructType *st,
                                                bsgp::SourceRange where) {
  SmallVector<StructLeaf> leaves;
  if (!structLeaves(st, leaves, where))
    return std::nullopt;
  uint64_t size = bsgp::typeSize(st);
  CStructABI abi;
  if (size > 16) {
    abi.inMemory = true;
    return abi;
  }
  SmallVector<std::pair<Type, uint64_t>> pieces;
  for (const StructLeaf &leaf : leaves) {
    Type t = convertType(leaf.type, where);
    if (!t)
      return std::nullopt;
    scalarPieces(t, leaf.offset, pieces);
  }
  for (uint64_t first = 0; first < size; first += 8) {
    uint64_t bytes = std::min<uint64_t>(8, size - first);
    SmallVector<Type> in;
    for (auto [t, offset] : pieces)
      if (offset >= first && offset < first + 8)
        in.push_back(t);
    bool sse = !in.empty() &&
               llvm::all_of(in, [](Type t) { return isa<FloatType>(t); });
    if (!sse) {
      abi.parts.push_back(b.getIntegerType(bytes * 8));
      continue;
    }
    if (in.size() == 1 && in[0].isF64())
      abi.parts.push_back(b.getF64Type());
    else if (bytes <= 4)
      abi.parts.push_back(b.getF32Type());
    else
      abi.parts.push_back(VectorType::get({2}, b.getF32Type()));
  }
  return abi;
}

/// Whether the host's calling convention is the one this file implements.
static bool hostIsSysV() {
  llvm::Triple host(llvm::sys::getProcessTriple());
  return host.getArch() == llvm::Triple::x86_64 && !host.isOSWindows();
}

bool MLIRGen::emitExternCCall(bsgp::CallExpr *e, bsgp::FunctionDecl *fd,
                              Value &result, SmallVectorImpl<Value> *leaves) {
  Location l = loc(e->getRange());
  Type llvmPtr = LLVM::LLVMPointerType::get(&ctx);
  auto rawPointer = [&](Value p) {
    return UnrealizedConversionCastOp::create(b, l, llvmPtr, p).getResult(0);
  };
  // The bytes of a struct value in a slot of the caller's.
  auto slotOf = [&](const bsgp::StructType *st) -> Value {
    Type mt = structMemoryType(st, e->getRange());
    return mt ? stackSlot(mt, 1, l) : Value();
  };
  auto partAt = [&](Value slot, uint64_t offset) -> Value {
    Value raw = rawPointer(slot);
    if (!offset)
      return raw;
    return LLVM::GEPOp::create(b, l, llvmPtr, b.getI8Type(), raw,
                               ArrayRef<LLVM::GEPArg>{(int32_t)offset});
  };
  bool hasStruct = asStructValue(e->getType()) != nullptr;
  for (bsgp::Expr *a : e->args())
    hasStruct |= asStructValue(a->getType()) != nullptr;
  if (hasStruct && !hostIsSysV()) {
    (void)unsupported(e->getRange(),
                      "a struct passed by value to a C function on this "
                      "host (its calling convention is x86-64 System V's "
                      "only)");
    return false;
  }

  SmallVector<Value> args;
  SmallVector<Type> params;
  // Argument positions that carry a struct in memory: byval of its type.
  SmallVector<std::pair<unsigned, Type>> byval;
  // A struct result in memory: its slot, passed first.
  Value sret;
  std::optional<CStructABI> retABI;
  const bsgp::StructType *retStruct = asStructValue(e->getType());
  if (retStruct) {
    retABI = classifyForC(retStruct, e->getRange());
    if (!retABI)
      return false;
    if (retABI->inMemory) {
      sret = slotOf(retStruct);
      if (!sret)
        return false;
      args.push_back(rawPointer(sret));
      params.push_back(llvmPtr);
    }
  }

  size_t fixed = fd->getParams().size();
  for (auto [i, a] : llvm::enumerate(e->args())) {
    if (auto *st = asStructValue(a->getType())) {
      SmallVector<Value> values;
      std::optional<CStructABI> abi = classifyForC(st, a->getRange());
      if (!abi || !emitStructValue(a, values))
        return false;
      Value slot = slotOf(st);
      if (!slot || !storeStruct(slot, st, values, l, a->getRange()))
        return false;
      if (abi->inMemory) {
        byval.push_back(
            {(unsigned)args.size(), structMemoryType(st, a->getRange())});
        args.push_back(rawPointer(slot));
        params.push_back(llvmPtr);
        continue;
      }
      for (auto [k, part] : llvm::enumerate(abi->parts)) {
        args.push_back(
            LLVM::LoadOp::create(b, l, part, partAt(slot, 8 * k)).getResult());
        params.push_back(part);
      }
      continue;
    }
    Value v = emitExpr(a);
    if (!v)
      return false;
    // C calling convention: pointers are plain LLVM pointers, and variadic
    // arguments get C's default promotions.
    if (isa<bsgp::PtrType>(v.getType()))
      v = rawPointer(v);
    if (i >= fixed) {
      if (v.getType().isF32())
        v = arith::ExtFOp::create(b, l, b.getF64Type(), v);
      else if (v.getType().isInteger(1) || v.getType().isInteger(8))
        v = arith::ExtUIOp::create(b, l, b.getI32Type(), v);
    } else {
      params.push_back(v.getType());
    }
    args.push_back(v);
  }

  Type cRet;
  if (retStruct && !retABI->inMemory)
    cRet = retABI->parts.size() == 1
               ? retABI->parts[0]
               : LLVM::LLVMStructType::getLiteral(&ctx, retABI->parts);
  else if (retStruct || e->getType()->isVoid())
    cRet = LLVM::LLVMVoidType::get(&ctx);
  else if (Type t = convertType(e->getType(), e->getRange()))
    cRet = isa<bsgp::PtrType>(t) ? llvmPtr : t;
  else
    return false;
  auto fnTy = LLVM::LLVMFunctionType::get(cRet, params, fd->isVarargs());
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(fd->getName());
  if (!callee) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    callee =
        LLVM::LLVMFuncOp::create(mb, loc(fd->getLoc()), fd->getName(), fnTy);
    if (sret)
      callee.setArgAttr(0, "llvm.sret",
                        TypeAttr::get(structMemoryType(retStruct, {})));
    for (auto [pos, t] : byval)
      callee.setArgAttr(pos, "llvm.byval", TypeAttr::get(t));
  }
  auto call = LLVM::CallOp::create(b, l, callee, args);

  if (!retStruct) {
    if (isa<LLVM::LLVMVoidType>(cRet)) {
      result = arith::ConstantIntOp::create(b, l, 0, 1); // no value; unused
      return true;
    }
    result = call.getResult();
    if (Type t = convertType(e->getType(), e->getRange());
        t && isa<bsgp::PtrType>(t))
      result = UnrealizedConversionCastOp::create(b, l, t, result).getResult(0);
    return true;
  }
  Value slot = sret;
  if (!slot) {
    slot = slotOf(retStruct);
    if (!slot)
      return false;
    Value r = call.getResult();
    for (auto [k, part] : llvm::enumerate(retABI->parts)) {
      Value v =
          retABI->parts.size() == 1
              ? r
              : LLVM::ExtractValueOp::create(b, l, r, (int64_t)k).getResult();
      LLVM::StoreOp::create(b, l, v, partAt(slot, 8 * k));
    }
  }
  return leaves && loadStruct(slot, retStruct, *leaves, l, e->getRange());
}
