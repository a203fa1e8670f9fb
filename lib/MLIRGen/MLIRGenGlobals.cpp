//===- MLIRGenGlobals.cpp - global constants
//-------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Global constants (docs/language.md, "Constants"). A scalar constant has
/// no storage: each use is its initializer, a constant. An array constant
/// is an LLVM global of the host module, which host code (and require
/// blocks) read in place. The threads read it from a device list: before a
/// spawn whose body uses it, the host asks the runtime for the list holding
/// its contents (bsgprt_const_list, uploaded once per program run), and the
/// kernels receive that pointer as they receive any host pointer. A device
/// or inline function, which has no spawn to ask, builds the array in
/// private memory at its entry.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "bsgp/AST/ConstantEval.h"
#include "bsgp/AST/Layout.h"

using namespace mlir;
using namespace mlirgen;

/// The value of a global constant's initializer element \p e, converted
/// to \p t. Sema allowed only literals and integer constant expressions.
static Attribute constantAttr(bsgp::Expr *e, Type t) {
  if (!e)
    return Builder(t.getContext()).getZeroAttr(t);
  if (auto ft = dyn_cast<FloatType>(t)) {
    // An integer constant expression, converted as C converts (of its own
    // type: `-5u` is 4294967291).
    if (auto *c = dyn_cast<bsgp::ImplicitCastExpr>(e);
        c && c->getCastKind() == bsgp::ImplicitCastExpr::IntegralToFloating)
      if (std::optional<bsgp::IntConstant> i =
              bsgp::evaluateCheckedIntConstant(c->getSubExpr()))
        return FloatAttr::get(ft, i->toDouble());
    // A floating literal, possibly negated, under Sema's conversions.
    const bsgp::Expr *x = e;
    bool negate = false;
    for (;;) {
      if (auto *c = dyn_cast<bsgp::ImplicitCastExpr>(x))
        x = c->getSubExpr();
      else if (auto *p = dyn_cast<bsgp::ParenExpr>(x))
        x = p->getSubExpr();
      else if (auto *u = dyn_cast<bsgp::UnaryOperator>(x);
               u && (u->getOpcode() == bsgp::UnaryOperator::Minus ||
                     u->getOpcode() == bsgp::UnaryOperator::Plus)) {
        negate ^= u->getOpcode() == bsgp::UnaryOperator::Minus;
        x = u->getSubExpr();
      } else
        break;
    }
    double v;
    if (auto *f = dyn_cast<bsgp::FloatingLiteral>(x))
      v = f->getValue();
    else if (std::optional<bsgp::IntConstant> i =
                 bsgp::evaluateCheckedIntConstant(x))
      v = i->toDouble();
    else
      return {};
    return FloatAttr::get(ft, negate ? -v : v);
  }
  if (auto it = dyn_cast<IntegerType>(t))
    if (std::optional<bsgp::IntConstant> i =
            bsgp::evaluateCheckedIntConstant(e))
      return IntegerAttr::get(it, APInt(it.getWidth(), i->getBits(),
                                        /*isSigned=*/false,
                                        /*implicitTrunc=*/true));
  return {};
}

static bool structLeafInits(bsgp::InitListExpr *il, const bsgp::StructType *st,
                            SmallVectorImpl<bsgp::Expr *> &out);

/// Appends the initializers of the leaves of a field of type \p t that
/// \p init gives (null: zero); false where a struct is not given by a list.
static bool fieldLeafInits(const bsgp::Type *t, bsgp::Expr *init,
                           SmallVectorImpl<bsgp::Expr *> &out) {
  t = t->getUnqualified();
  if (isa<bsgp::ArrayType>(t)) {
    // Sema flattened an array field's list to one element per scalar or
    // struct, as it does an array variable's.
    auto [elem, count] = flattenArray(t);
    auto *list = dyn_cast_or_null<bsgp::InitListExpr>(init);
    ArrayRef<bsgp::Expr *> flat =
        list ? list->getFlat() : ArrayRef<bsgp::Expr *>();
    for (uint64_t k = 0; k < count; ++k)
      if (!fieldLeafInits(elem, k < flat.size() ? flat[k] : nullptr, out))
        return false;
    return true;
  }
  if (auto *sub = dyn_cast<bsgp::StructType>(t)) {
    auto *subList = dyn_cast_or_null<bsgp::InitListExpr>(init);
    return (!init || subList) && structLeafInits(subList, sub, out);
  }
  out.push_back(init);
  return true;
}

/// Appends the initializers of \p st's leaves (in structLeaves' order)
/// that list \p il gives, null for those it leaves out (zero); false where
/// a struct field is not given by a nested list.
static bool structLeafInits(bsgp::InitListExpr *il, const bsgp::StructType *st,
                            SmallVectorImpl<bsgp::Expr *> &out) {
  auto inits = il ? il->inits() : llvm::MutableArrayRef<bsgp::Expr *>();
  for (auto [i, f] : llvm::enumerate(st->getDecl()->getFields()))
    if (!fieldLeafInits(f->getType(), i < inits.size() ? inits[i] : nullptr,
                        out))
      return false;
  return true;
}

/// The bytes of \p count structs \p st, the elements of array constant
/// \p vd, as the C layout places them: an LLVM global of i8.
LLVM::GlobalOp MLIRGen::constStructArrayGlobal(bsgp::VarDecl *vd,
                                               const bsgp::StructType *st,
                                               uint64_t count, StringRef name,
                                               Location l, bool isConstant) {
  auto *il = dyn_cast_or_null<bsgp::InitListExpr>(vd->getInit());
  SmallVector<StructLeaf> leaves;
  if (!structLeaves(st, leaves, vd->getRange()))
    return {};
  uint64_t size = bsgp::typeSize(st);
  std::vector<uint8_t> bytes(count * size, 0);
  // A struct variable's list is its fields; an array's, its elements.
  bool single = !isa<bsgp::ArrayType>(vd->getType()->getUnqualified());
  for (uint64_t i = 0; i < count; ++i) {
    bsgp::Expr *e = single                           ? il
                    : il && i < il->getFlat().size() ? il->getFlat()[i]
                                                     : nullptr;
    SmallVector<bsgp::Expr *> inits;
    auto *list = dyn_cast_or_null<bsgp::InitListExpr>(e);
    if ((e && !list) || !structLeafInits(list, st, inits)) {
      (void)unsupported(e->getRange(), "this constant struct initializer "
                                       "(give each struct as a list)");
      return {};
    }
    for (auto [leaf, init] : llvm::zip(leaves, inits)) {
      Type t = convertType(leaf.type, vd->getRange());
      if (!t || !t.isIntOrFloat()) {
        (void)unsupported(vd->getRange(), "a global constant struct with a '" +
                                              leaf.type->str() + "' field");
        return {};
      }
      if (!init)
        continue;
      Attribute a = constantAttr(init, t);
      if (!a) {
        (void)unsupported(init->getRange(), "this constant initializer");
        return {};
      }
      APInt bits = isa<FloatAttr>(a)
                       ? cast<FloatAttr>(a).getValue().bitcastToAPInt()
                       : cast<IntegerAttr>(a).getValue();
      // Little-endian, as every target is; bool is one byte.
      unsigned n = std::max(1u, bits.getBitWidth() / 8);
      for (unsigned k = 0; k < n; ++k)
        bytes[i * size + leaf.offset + k] = bits.extractBitsAsZExtValue(
            std::min(8u, bits.getBitWidth()), 8 * k);
    }
  }
  SmallVector<Attribute> values;
  for (uint8_t v : bytes)
    values.push_back(b.getI8IntegerAttr(static_cast<int8_t>(v)));
  auto tensor = RankedTensorType::get({(int64_t)bytes.size()}, b.getI8Type());
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::GlobalOp::create(
      mb, l, LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size()), isConstant,
      LLVM::Linkage::Internal, name, DenseElementsAttr::get(tensor, values),
      /*alignment=*/16);
}

/// The LLVM global holding array constant \p vd, made on first use.
LLVM::GlobalOp MLIRGen::constArrayGlobal(bsgp::VarDecl *vd, Location l,
                                         bool isConstant) {
  std::string name =
      ((isConstant ? "__bsgp_const_" : "__bsgp_global_") + vd->getName()).str();
  if (auto g = module.lookupSymbol<LLVM::GlobalOp>(name))
    return g;
  auto *il = dyn_cast_or_null<bsgp::InitListExpr>(vd->getInit());
  auto [elem, count] = flattenArray(vd->getType());
  if (auto *st = asStructValue(elem))
    return constStructArrayGlobal(vd, st, count, name, l, isConstant);
  Type et = convertType(elem, vd->getRange());
  if (!et)
    return {};
  if (!et.isIntOrFloat()) {
    (void)unsupported(vd->getRange(), "a global constant array of '" +
                                          elem->str() + "' elements");
    return {};
  }
  SmallVector<Attribute> values;
  for (uint64_t i = 0; i < count; ++i) {
    bsgp::Expr *e = il && i < il->getFlat().size() ? il->getFlat()[i] : nullptr;
    Attribute a = constantAttr(e, et);
    if (!a) {
      (void)unsupported(e ? e->getRange() : vd->getRange(),
                        "this constant initializer");
      return {};
    }
    values.push_back(a);
  }
  // bool is i1 in registers and a byte in memory.
  Type storeType = et.isInteger(1) ? Type(b.getI8Type()) : et;
  if (storeType != et)
    for (Attribute &a : values)
      a = b.getI8IntegerAttr(cast<IntegerAttr>(a).getValue().getZExtValue());
  auto tensor = RankedTensorType::get({(int64_t)count}, storeType);
  auto type = LLVM::LLVMArrayType::get(storeType, count);
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  auto g =
      LLVM::GlobalOp::create(mb, l, type, isConstant, LLVM::Linkage::Internal,
                             name, DenseElementsAttr::get(tensor, values),
                             /*alignment=*/16);
  return g;
}

/// A use of array constant \p vd: a pointer to its first element where
/// the code runs (see the file comment).
Value MLIRGen::emitConstArrayRef(bsgp::VarDecl *vd, Location l) {
  LLVM::GlobalOp g = constArrayGlobal(vd, l);
  if (!g)
    return {};
  Type llvmPtr = LLVM::LLVMPointerType::get(&ctx);
  Type et = cast<LLVM::LLVMArrayType>(g.getType()).getElementType();
  const bsgp::Type *elem = flattenArray(vd->getType()).first;
  if (et.isInteger(8) && elem->isBool())
    et = b.getI1Type();
  if (auto *st = asStructValue(elem))
    et = structMemoryType(st, vd->getRange());
  Type ptrTy = bsgp::PtrType::get(&ctx, et);
  auto hostPtr = [&]() {
    Value addr = LLVM::AddressOfOp::create(b, l, g);
    return UnrealizedConversionCastOp::create(b, l, ptrTy, addr).getResult(0);
  };
  // Host code and require blocks read the global in place.
  Operation *where = b.getInsertionBlock()->getParentOp();
  bsgp::SpawnOp spawn;
  for (Operation *op = where; op; op = op->getParentOp()) {
    if (isa<bsgp::RequireOp>(op))
      return hostPtr();
    if ((spawn = dyn_cast<bsgp::SpawnOp>(op)))
      break;
  }
  if (!spawn) {
    if (!currentFunction ||
        currentFunction->getFunctionKind() == bsgp::FunctionDecl::FK_Host)
      return hostPtr();
    // A device or inline function: its own copy, built at its entry.
    auto fn = where->getParentOfType<func::FuncOp>();
    if (!fn && isa<func::FuncOp>(where))
      fn = cast<func::FuncOp>(where);
    Value &cached = constArrays[{fn.getOperation(), vd}];
    if (cached)
      return cached;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&fn.getBody().front());
    uint64_t count = flattenArray(vd->getType()).second;
    Value n = LLVM::ConstantOp::create(b, l, b.getI64Type(), (int64_t)count);
    Value slot = LLVM::AllocaOp::create(b, l, llvmPtr, et, n, 16);
    cached = UnrealizedConversionCastOp::create(b, l, ptrTy, slot).getResult(0);
    auto *il = dyn_cast_or_null<bsgp::InitListExpr>(vd->getInit());
    if (il)
      storeInitList(il, cached, et, l);
    return cached;
  }
  // Spawn bodies: the device list, asked for before the spawn.
  Value &cached = constArrays[{spawn.getOperation(), vd}];
  if (cached)
    return cached;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(spawn);
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>("bsgprt_const_list");
  Type i64 = b.getI64Type();
  if (!callee) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    callee = LLVM::LLVMFuncOp::create(
        mb, l, "bsgprt_const_list",
        LLVM::LLVMFunctionType::get(llvmPtr, {llvmPtr, i64}));
  }
  uint64_t bytes = sizeOf(vd->getType());
  Value addr = LLVM::AddressOfOp::create(b, l, g);
  Value size = LLVM::ConstantOp::create(b, l, i64, (int64_t)bytes);
  Value list =
      LLVM::CallOp::create(b, l, callee, ValueRange{addr, size}).getResult();
  cached = UnrealizedConversionCastOp::create(b, l, ptrTy, list).getResult(0);
  nameValue(cached, vd->getName());
  return cached;
}

/// A use of global \p vd: a scalar constant's value, an array constant's
/// first element.
bool mlirgen::isGlobalConstant(bsgp::VarDecl *vd) {
  const bsgp::Type *t = vd->getType();
  while (auto *at = dyn_cast<bsgp::ArrayType>(t->getUnqualified()))
    t = at->getElementType();
  return t->isConst();
}

LLVM::GlobalOp MLIRGen::mutableGlobal(bsgp::VarDecl *vd, Location l) {
  const bsgp::Type *t = vd->getType()->getUnqualified();
  if (isa<bsgp::ArrayType>(t))
    return constArrayGlobal(vd, l, /*isConstant=*/false);
  std::string name = ("__bsgp_global_" + vd->getName()).str();
  if (auto g = module.lookupSymbol<LLVM::GlobalOp>(name))
    return g;
  if (auto *st = asStructValue(t))
    return constStructArrayGlobal(vd, st, 1, name, l, /*isConstant=*/false);
  Type et = convertType(t, vd->getRange());
  if (!et)
    return {};
  // A pointer is an LLVM pointer in memory, as in a stack slot.
  Type storeType =
      isa<bsgp::PtrType>(et) ? LLVM::LLVMPointerType::get(&ctx) : et;
  Attribute init;
  if (et.isIntOrFloat()) {
    init = constantAttr(vd->getInit(), et);
    if (!init) {
      (void)unsupported(vd->getInit()->getRange(), "this initializer");
      return {};
    }
  } else if (vd->getInit() &&
             !isa<bsgp::NullLiteral>(vd->getInit()->ignoreParenImpCasts())) {
    (void)unsupported(vd->getInit()->getRange(),
                      "an initializer of a global '" + t->str() + "'");
    return {};
  }
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  auto g = LLVM::GlobalOp::create(mb, l, storeType, /*isConstant=*/false,
                                  LLVM::Linkage::Internal, name, init,
                                  /*alignment=*/16);
  if (!init) {
    // Pointers and vectors start at zero (a null pointer).
    Block *body = new Block();
    g.getInitializerRegion().push_back(body);
    OpBuilder ib = OpBuilder::atBlockEnd(body);
    LLVM::ReturnOp::create(ib, l, LLVM::ZeroOp::create(ib, l, storeType));
  }
  return g;
}

/// Global variables that are not const live in host memory: each that
/// \p body names is a variable in memory of the function (as one whose
/// address is taken, MLIRGenMemoryVars.cpp), its slot the global, so host
/// code loads and stores it there and threads read it as loaded before
/// their spawn. Arrays are pointers to their first element (emitGlobalRef).
void MLIRGen::bindMutableGlobals(bsgp::Stmt *body) {
  SmallVector<bsgp::Stmt *> work{body};
  while (!work.empty()) {
    bsgp::Stmt *s = work.pop_back_val();
    bsgp::forEachChild(s, [&](bsgp::Stmt *c) { work.push_back(c); });
    auto *d = dyn_cast<bsgp::DeclRefExpr>(s);
    auto *vd = d ? dyn_cast_or_null<bsgp::VarDecl>(d->getDecl()) : nullptr;
    if (!vd || vd->getStorage() != bsgp::VarDecl::Global ||
        isGlobalConstant(vd) || inMemory.contains(vd))
      continue;
    // Sema made every function that names one a host function but inline
    // ones, which threads may run.
    if (currentFunction->getFunctionKind() != bsgp::FunctionDecl::FK_Host) {
      failed = true;
      emitError(loc(d->getRange()))
          << "inline function '" << currentFunction->getName()
          << "' uses global variable '" << vd->getName()
          << "', which is not const and lives in host memory: only host "
             "functions can (make the function not inline)";
      continue;
    }
    if (isa<bsgp::ArrayType>(vd->getType()->getUnqualified()))
      continue;
    Location l = loc(vd->getLoc());
    LLVM::GlobalOp g = mutableGlobal(vd, l);
    if (!g)
      continue;
    Type et = memoryType(vd->getType(), vd->getRange());
    if (!et)
      continue;
    Value addr = LLVM::AddressOfOp::create(b, l, g);
    Value slot = UnrealizedConversionCastOp::create(
                     b, l, bsgp::PtrType::get(&ctx, et), addr)
                     .getResult(0);
    nameValue(slot, vd->getName());
    env[vd] = slot;
    inMemory.insert(vd);
  }
}

Value MLIRGen::emitGlobalRef(bsgp::VarDecl *vd, Location l) {
  if (!isGlobalConstant(vd)) {
    // An array (bindMutableGlobals made the others variables in memory):
    // host code uses it in place; threads cannot reach it.
    if (!isa<bsgp::ArrayType>(vd->getType()->getUnqualified()) ||
        !slotReachable(vd)) {
      failed = true;
      emitError(l) << "threads use global array '" << vd->getName()
                   << "', which is not const and lives in host memory (copy "
                      "it to a list with dnew and bsgprt_memcpy_htod first, "
                      "or make it const)";
      return {};
    }
    LLVM::GlobalOp g = mutableGlobal(vd, l);
    if (!g)
      return {};
    Type et = memoryType(flattenArray(vd->getType()).first, vd->getRange());
    if (!et)
      return {};
    Value addr = LLVM::AddressOfOp::create(b, l, g);
    return UnrealizedConversionCastOp::create(
               b, l, bsgp::PtrType::get(&ctx, et), addr)
        .getResult(0);
  }
  if (isa<bsgp::ArrayType>(vd->getType()->getUnqualified()))
    return emitConstArrayRef(vd, l);
  if (!vd->getInit()) {
    Type t = convertType(vd->getType(), vd->getRange());
    return t ? zeroOf(t, l) : Value();
  }
  return emitExpr(vd->getInit());
}
