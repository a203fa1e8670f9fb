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
/// leaves (MLIRGenStructValues.cpp); calls into C change, and so does the
/// symbol C code calls: a BSGP function that takes or returns a struct by
/// value is exported as a wrapper with C's convention around its own form
/// (emitCABIWrappers), and a BSGP file that only declares such a function
/// calls it as C would.
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

/// The address \p offset bytes into \p slot (a struct's slot, a
/// `!bsgp.ptr`), as the plain pointer C's parts are loaded and stored at.
static Value bytePointer(OpBuilder &b, Location l, Value slot,
                         uint64_t offset) {
  Type llvmPtr = LLVM::LLVMPointerType::get(b.getContext());
  Value raw =
      UnrealizedConversionCastOp::create(b, l, llvmPtr, slot).getResult(0);
  if (!offset)
    return raw;
  return LLVM::GEPOp::create(b, l, llvmPtr, b.getI8Type(), raw,
                             ArrayRef<LLVM::GEPArg>{(int32_t)offset});
}

/// A BSGP prototype of a function another file defines with a struct by
/// value: its BSGP form's declaration gives way to the C one (and, unused,
/// is dropped).
static void retireBSGPDeclaration(ModuleOp module, StringRef name) {
  if (auto decl = module.lookupSymbol<func::FuncOp>(name);
      decl && decl.isExternal())
    decl.setSymName(("__bsgp_cabi_decl_" + name).str());
}

/// Whether the host's calling convention is the one this file implements.
static bool hostIsSysV() {
  llvm::Triple host(llvm::sys::getProcessTriple());
  return host.getArch() == llvm::Triple::x86_64 && !host.isOSWindows();
}

bool MLIRGen::hasStructByValue(const bsgp::FunctionDecl *fd) {
  const bsgp::FunctionType *ft = fd->getFunctionType();
  return ft && (asStructValue(ft->getReturnType()) ||
                llvm::any_of(ft->getParams(), [](const bsgp::Type *p) {
                  return asStructValue(p) != nullptr;
                }));
}

bool MLIRGen::callsThroughCABI(bsgp::FunctionDecl *fd) {
  if (fd->isExternC())
    return true;
  // Declared here, defined in another file, whose symbol is the wrapper.
  auto fn = dyn_cast_or_null<func::FuncOp>(functions.lookup(fd));
  return fn && fn.isExternal() && hasStructByValue(fd) && hostIsSysV();
}

void MLIRGen::emitCABIWrappers(ArrayRef<bsgp::FunctionDecl *> exported) {
  if (!hostIsSysV())
    return;
  for (bsgp::FunctionDecl *fd : exported) {
    auto fn = dyn_cast_or_null<func::FuncOp>(functions.lookup(fd));
    if (!fn || fn.isExternal())
      continue;
    // The BSGP form keeps its body under another name.
    std::string inner = ("__bsgp_leaves_" + fd->getName()).str();
    if (mlir::failed(SymbolTable::replaceAllSymbolUses(
            fn, StringAttr::get(&ctx, inner), module)))
      continue;
    fn.setSymName(inner);
    fn.setPrivate();
    emitCABIWrapper(fd, fn);
  }
}

/// A struct result's C form (its parts, or nothing where it went to the
/// `sret` slot) from the slot holding it.
static SmallVector<Value> cResultParts(OpBuilder &b, Location l,
                                       const CStructABI &abi, Value slot,
                                       Type resultType) {
  if (abi.inMemory)
    return {};
  SmallVector<Value> parts;
  for (auto [k, part] : llvm::enumerate(abi.parts))
    parts.push_back(
        LLVM::LoadOp::create(b, l, part, bytePointer(b, l, slot, 8 * k)));
  if (parts.size() == 1)
    return parts;
  Value agg = LLVM::UndefOp::create(b, l, resultType);
  for (auto [k, v] : llvm::enumerate(parts))
    agg = LLVM::InsertValueOp::create(b, l, agg, v, (int64_t)k);
  return {agg};
}

void MLIRGen::emitCABIWrapper(bsgp::FunctionDecl *fd, func::FuncOp fn) {
  Type llvmPtr = LLVM::LLVMPointerType::get(&ctx);
  const bsgp::FunctionType *ft = fd->getFunctionType();
  bsgp::SourceRange where = fd->getRange();
  Location l = loc(fd->getLoc());

  // The wrapper's C signature.
  SmallVector<Type> params;
  SmallVector<std::pair<unsigned, Type>> byval;
  const bsgp::StructType *retStruct = asStructValue(ft->getReturnType());
  std::optional<CStructABI> retABI;
  if (retStruct) {
    retABI = classifyForC(retStruct, where);
    if (!retABI)
      return;
    if (retABI->inMemory)
      params.push_back(llvmPtr);
  }
  SmallVector<std::optional<CStructABI>> abis;
  SmallVector<std::pair<unsigned, StringRef>> extended;
  for (const bsgp::Type *p : ft->getParams()) {
    const bsgp::StructType *st = asStructValue(p);
    if (!st) {
      Type t = convertType(p, where);
      if (!t)
        return;
      if (StringRef attr = getCExtensionAttr(p); !attr.empty())
        extended.push_back({(unsigned)params.size(), attr});
      params.push_back(isa<bsgp::PtrType>(t) ? llvmPtr : t);
      abis.push_back(std::nullopt);
      continue;
    }
    abis.push_back(classifyForC(st, where));
    if (!abis.back())
      return;
    if (abis.back()->inMemory) {
      byval.push_back({(unsigned)params.size(), structMemoryType(st, where)});
      params.push_back(llvmPtr);
      continue;
    }
    params.append(abis.back()->parts);
  }
  SmallVector<Type> results;
  if (retStruct && !retABI->inMemory)
    results.push_back(
        retABI->parts.size() == 1
            ? retABI->parts[0]
            : LLVM::LLVMStructType::getLiteral(&ctx, retABI->parts));
  else if (!retStruct)
    llvm::append_range(results, fn.getResultTypes());
  for (Type &t : results)
    if (isa<bsgp::PtrType>(t))
      t = llvmPtr;

  OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
  auto wrapper = func::FuncOp::create(mb, l, fd->getName(),
                                      b.getFunctionType(params, results));
  if (retStruct && retABI->inMemory)
    wrapper.setArgAttr(0, "llvm.sret",
                       TypeAttr::get(structMemoryType(retStruct, where)));
  for (auto [pos, t] : byval)
    wrapper.setArgAttr(pos, "llvm.byval", TypeAttr::get(t));
  for (auto [pos, attr] : extended)
    wrapper.setArgAttr(pos, attr, b.getUnitAttr());
  if (!retStruct && !results.empty())
    if (StringRef attr = getCExtensionAttr(ft->getReturnType()); !attr.empty())
      wrapper.setResultAttr(0, attr, b.getUnitAttr());
  Block *entry = wrapper.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  auto asBSGP = [&](Value raw, Type t) {
    return UnrealizedConversionCastOp::create(b, l, t, raw).getResult(0);
  };

  // The BSGP form's arguments: each struct's leaves, read from memory.
  SmallVector<Value> args;
  unsigned pos = retStruct && retABI->inMemory ? 1 : 0;
  for (auto [p, abi] : llvm::zip(ft->getParams(), abis)) {
    const bsgp::StructType *st = asStructValue(p);
    if (!st) {
      Value v = entry->getArgument(pos++);
      Type t = convertType(p, where);
      args.push_back(isa<bsgp::PtrType>(t) ? asBSGP(v, t) : v);
      continue;
    }
    Type mt = structMemoryType(st, where);
    Value slot;
    if (abi->inMemory) {
      slot = asBSGP(entry->getArgument(pos++), bsgp::PtrType::get(&ctx, mt));
    } else {
      slot = stackSlot(mt, 1, l);
      for (auto [k, part] : llvm::enumerate(abi->parts))
        LLVM::StoreOp::create(b, l, entry->getArgument(pos++),
                              bytePointer(b, l, slot, 8 * k));
    }
    if (!loadStruct(slot, st, args, l, where))
      return;
  }
  auto call = func::CallOp::create(b, l, fn, args);

  SmallVector<Value> rets;
  if (!retStruct) {
    for (auto [v, t] : llvm::zip(call.getResults(), results))
      rets.push_back(
          v.getType() == t
              ? v
              : UnrealizedConversionCastOp::create(b, l, t, v).getResult(0));
  } else {
    Type mt = structMemoryType(retStruct, where);
    Value slot = retABI->inMemory ? asBSGP(entry->getArgument(0),
                                           bsgp::PtrType::get(&ctx, mt))
                                  : stackSlot(mt, 1, l);
    if (!storeStruct(slot, retStruct, SmallVector<Value>(call.getResults()), l,
                     where))
      return;
    rets = cResultParts(b, l, *retABI, slot,
                        results.empty() ? Type() : results[0]);
  }
  func::ReturnOp::create(b, l, rets);
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
  // Argument positions of integers C extends to 32 bits.
  SmallVector<std::pair<unsigned, StringRef>> extended;
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
            LLVM::LoadOp::create(b, l, part, bytePointer(b, l, slot, 8 * k))
                .getResult());
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
      if (StringRef attr = getCExtensionAttr(fd->getParams()[i]->getType());
          !attr.empty())
        extended.push_back({(unsigned)args.size(), attr});
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
  retireBSGPDeclaration(module, fd->getName());
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
    for (auto [pos, attr] : extended)
      callee.setArgAttr(pos, attr, b.getUnitAttr());
    if (!retStruct && !isa<LLVM::LLVMVoidType>(cRet))
      if (StringRef attr = getCExtensionAttr(e->getType()); !attr.empty())
        callee.setResultAttr(0, attr, b.getUnitAttr());
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
      LLVM::StoreOp::create(b, l, v, bytePointer(b, l, slot, 8 * k));
    }
  }
  return leaves && loadStruct(slot, retStruct, *leaves, l, e->getRange());
}
