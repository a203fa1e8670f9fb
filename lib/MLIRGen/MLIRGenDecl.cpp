//===- MLIRGenDecl.cpp - functions and variables to MLIR ------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Function declarations and bodies (with the return flag of early returns),
/// local variable declarations, private arrays and work-group local arrays.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

using namespace mlir;
using namespace mlirgen;

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

void MLIRGen::declareFunction(bsgp::FunctionDecl *fd, bool imported,
                              bool library) {
  // One symbol per name: a prototype and its definition share it.
  if (fd->isExternC()) {
    // Host library functions keep C's calling convention, varargs included,
    // so they are LLVM functions; arguments are converted at the call.
    return;
  }
  StringRef name = fd->getName();
  Operation *existing = module.lookupSymbol(name);
  const bsgp::FunctionType *ft = fd->getFunctionType();
  if (!ft) {
    (void)unsupported(fd->getRange(), "a function without a type");
    return;
  }
  SmallVector<Type> params, results;
  // A struct parameter or result is one per leaf.
  for (const bsgp::Type *p : ft->getParams()) {
    if (auto *st = asStructValue(p)) {
      if (!structLeafTypes(st, params, fd->getRange()))
        return;
      continue;
    }
    Type t = convertType(p, fd->getRange());
    if (!t)
      return;
    params.push_back(t);
  }
  Type ret;
  if (auto *st = asStructValue(ft->getReturnType())) {
    if (!structLeafTypes(st, results, fd->getRange()))
      return;
    ret = NoneType::get(&ctx);
  } else {
    ret = convertType(ft->getReturnType(), fd->getRange());
  }
  if (!ret)
    return;
  if (!isa<NoneType>(ret))
    results.push_back(ret);
  else if (name == "main")
    // `void main()` (as in the paper) exits with 0, as C's int main does
    // when it falls off its end: the C runtime reads an exit status.
    results.push_back(b.getI32Type());

  func::FuncOp fn;
  if (existing) {
    fn = dyn_cast<func::FuncOp>(existing);
  } else {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    fn = func::FuncOp::create(mb, loc(fd->getLoc()), name,
                              b.getFunctionType(params, results));
    fn.setPrivate();
  }
  if (!fn)
    return;
  functions[fd] = fn;
  // The contract with the collective library (BSGPAttrs.td): each of its
  // functions says that it is one, and what `[[library(kind)]]` makes it.
  if (library) {
    auto helper = bsgp::BSGPDialect::LibraryAttrHelper(b.getContext());
    if (!fd->getLibraryKind().empty()) {
      std::optional<bsgp::LibraryKind> kind =
          bsgp::symbolizeLibraryKind(fd->getLibraryKind());
      if (!kind) {
        (void)unsupported(fd->getRange(),
                          "the library kind '" + fd->getLibraryKind() + "'");
        return;
      }
      helper.setAttr(fn, bsgp::LibraryKindAttr::get(b.getContext(), *kind));
    } else if (!helper.isAttrPresent(fn)) {
      helper.setAttr(fn, bsgp::LibraryKindAttr::get(
                             b.getContext(), bsgp::LibraryKind::Function));
    }
  }
  if (!fd->isDefinition()) {
    // A prototype: defined by another file, perhaps in C.
    extendNarrowIntegers(fd, fn);
    return;
  }

  // Every function of an imported file is compiled into each importer,
  // private to it (as inline functions and instantiations of generic ones
  // are): a program that imports a file is complete without that file's own
  // object, as bsgpi runs it, and linking that object too defines nothing
  // twice.
  bool instance = fd->getInstantiatedFrom() != nullptr;
  if (!fn.isExternal())
    return;
  fn->setLoc(loc(fd->getLoc()));
  // A function that takes or returns a struct by value passes it as its
  // fields among BSGP functions; its external symbol is a wrapper with C's
  // convention (MLIRGenCABI.cpp), made once the bodies are.
  bool structByValue = hasStructByValue(fd);
  if (!imported && !fd->isInline() && !instance) {
    if (structByValue) {
      cabiExports.push_back(fd);
    } else {
      fn.setPublic();
      extendNarrowIntegers(fd, fn);
    }
  }
  switch (fd->getFunctionKind()) {
  case bsgp::FunctionDecl::FK_Collective:
    fn->setAttr(bsgp::BSGPDialect::getCollectiveAttrName(), b.getUnitAttr());
    break;
  case bsgp::FunctionDecl::FK_Device:
    fn->setAttr(bsgp::BSGPDialect::getDeviceAttrName(), b.getUnitAttr());
    break;
  case bsgp::FunctionDecl::FK_Host:
    break;
  }
  // Mark it as to be defined: an entry block makes it non-external.
  fn.addEntryBlock();
}

/// C's ABI on x86-64 as clang implements it: a caller extends an integer
/// narrower than 32 bits to 32 (by its signedness), and so does a callee
/// its result. Functions with an external symbol say so (`signext`,
/// `zeroext`), as clang's do, so that C code calling them and C functions
/// they call agree on `short`, `char` and `bool`.
void MLIRGen::extendNarrowIntegers(const bsgp::FunctionDecl *fd,
                                   func::FuncOp fn) {
  const bsgp::FunctionType *ft = fd->getFunctionType();
  // A struct by value passes several values per parameter
  // (MLIRGenCABI.cpp): positions would not match.
  auto isStruct = [](const bsgp::Type *t) { return asStructValue(t); };
  if (isStruct(ft->getReturnType()) || llvm::any_of(ft->getParams(), isStruct))
    return;
  for (auto [i, p] : llvm::enumerate(ft->getParams()))
    if (StringRef attr = getCExtensionAttr(p); !attr.empty())
      fn.setArgAttr(i, attr, b.getUnitAttr());
  if (fn.getNumResults() == 1)
    if (StringRef attr = getCExtensionAttr(ft->getReturnType()); !attr.empty())
      fn.setResultAttr(0, attr, b.getUnitAttr());
}

StringRef mlirgen::getCExtensionAttr(const bsgp::Type *t) {
  auto *bt = dyn_cast<bsgp::BuiltinType>(t->getUnqualified());
  if (!bt || !bt->isInteger() || bt->getBitWidth() >= 32)
    return {};
  return bt->isSignedInteger() ? "llvm.signext" : "llvm.zeroext";
}

/// True if `s` is the last statement of `body`, possibly nested in the last
/// statement of compound statements.
static bool isTailReturn(bsgp::Stmt *s, bsgp::CompoundStmt *body) {
  if (!body || body->body().empty())
    return false;
  bsgp::Stmt *last = body->body().back();
  if (last == s)
    return true;
  if (auto *c = dyn_cast<bsgp::CompoundStmt>(last))
    return isTailReturn(s, c);
  return false;
}

static void collectReturns(bsgp::Stmt *s,
                           SmallVectorImpl<bsgp::ReturnStmt *> &out) {
  if (!s)
    return;
  if (auto *r = dyn_cast<bsgp::ReturnStmt>(s)) {
    out.push_back(r);
    return;
  }
  if (isa<bsgp::Expr>(s))
    return;
  switch (s->getKind()) {
  case bsgp::Stmt::SK_Compound:
    for (bsgp::Stmt *c : cast<bsgp::CompoundStmt>(s)->body())
      collectReturns(c, out);
    break;
  case bsgp::Stmt::SK_If:
    collectReturns(cast<bsgp::IfStmt>(s)->getThen(), out);
    collectReturns(cast<bsgp::IfStmt>(s)->getElse(), out);
    break;
  case bsgp::Stmt::SK_For:
    collectReturns(cast<bsgp::ForStmt>(s)->getBody(), out);
    break;
  case bsgp::Stmt::SK_While:
    collectReturns(cast<bsgp::WhileStmt>(s)->getBody(), out);
    break;
  case bsgp::Stmt::SK_Do:
    collectReturns(cast<bsgp::DoStmt>(s)->getBody(), out);
    break;
  case bsgp::Stmt::SK_Spawn:
    collectReturns(cast<bsgp::SpawnStmt>(s)->getBody(), out);
    break;
  case bsgp::Stmt::SK_Require:
    collectReturns(cast<bsgp::RequireStmt>(s)->getBody(), out);
    break;
  case bsgp::Stmt::SK_Par:
    collectReturns(cast<bsgp::ParStmt>(s)->getBody(), out);
    break;
  default:
    break;
  }
}

void MLIRGen::emitFunctionBody(bsgp::FunctionDecl *fd) {
  auto fn = cast<func::FuncOp>(functions.lookup(fd));
  if (fn.getBody().empty() || !fn.getBody().front().empty())
    return;
  env.clear();
  // The return value's key is every function's: whether it is a struct is
  // this function's.
  structVars.clear();
  loops.clear();
  pendingPuts.clear();
  currentFunction = fd;
  findAddressTaken(fd->getBody());
  Block &entry = fn.getBody().front();
  b.setInsertionPointToStart(&entry);
  bindMutableGlobals(fd->getBody());
  unsigned argNo = 0;
  for (bsgp::VarDecl *param : fd->getParams()) {
    if (auto *st = asStructValue(param->getType())) {
      SmallVector<Type> types;
      if (!structLeafTypes(st, types, param->getRange()))
        return;
      auto args = entry.getArguments().slice(argNo, types.size());
      for (BlockArgument arg : args)
        arg.setLoc(loc(param->getLoc()));
      bindStruct(param, st, SmallVector<Value>(args.begin(), args.end()), "");
      argNo += types.size();
      continue;
    }
    BlockArgument arg = entry.getArgument(argNo++);
    env[param] = arg;
    arg.setLoc(loc(param->getLoc()));
  }
  for (bsgp::VarDecl *param : fd->getParams()) {
    if (hasArrayField(asStructValue(param->getType())))
      addressTaken.insert(param);
    if (addressTaken.contains(param))
      moveToMemory(param);
  }

  SmallVector<bsgp::ReturnStmt *> returns;
  collectReturns(fd->getBody(), returns);
  useReturnFlag = llvm::any_of(returns, [&](bsgp::ReturnStmt *r) {
    return !isTailReturn(r, fd->getBody());
  });
  Type retTy = fn.getNumResults() ? fn.getResultTypes()[0] : Type();
  const bsgp::StructType *retStruct = asStructValue(fd->getReturnType());
  Location endLoc = loc(fd->getBody()->getRange().End);
  // A struct result: its leaves, zero until a return sets them.
  SmallVector<Value> zeroResults;
  for (Type t : fn.getResultTypes())
    if (retStruct)
      zeroResults.push_back(zeroOf(t, endLoc));
  if (useReturnFlag) {
    env[&returnFlagKey] = arith::ConstantIntOp::create(b, endLoc, 0, 1);
    if (retStruct)
      bindStruct(&returnValueKey, retStruct, zeroResults, "");
    else if (retTy)
      env[&returnValueKey] = zeroOf(retTy, endLoc);
  }

  emitStmtList(fd->getBody()->body());
  if (failed || !checkPuts())
    return;

  // Falling off the end: `return;`, or the flag mode's return value. The
  // tail return (when not in flag mode) already terminated the block.
  Block *cur = b.getInsertionBlock();
  if (!cur->empty() && cur->back().hasTrait<OpTrait::IsTerminator>())
    return;
  if (retStruct && useReturnFlag) {
    SmallVector<Value> leaves;
    for (unsigned i = 0; i < zeroResults.size(); ++i)
      leaves.push_back(env.lookup(leafKey(&returnValueKey, i)));
    func::ReturnOp::create(b, endLoc, leaves);
  } else if (retStruct)
    func::ReturnOp::create(b, endLoc, zeroResults);
  else if (!retTy)
    func::ReturnOp::create(b, endLoc);
  else if (useReturnFlag)
    func::ReturnOp::create(b, endLoc, env[&returnValueKey]);
  else
    func::ReturnOp::create(b, endLoc, zeroOf(retTy, endLoc));
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

void MLIRGen::nameValue(Value v, StringRef name) {
  Operation *def = v.getDefiningOp();
  if (!def || name.empty() || isa<NameLoc>(def->getLoc()) ||
      def->hasTrait<OpTrait::ConstantLike>())
    return;
  def->setLoc(NameLoc::get(b.getStringAttr(name), def->getLoc()));
}

/// The scalar element type of a (possibly multi-dimensional) array and its
/// total number of elements.
std::pair<const bsgp::Type *, uint64_t>
mlirgen::flattenArray(const bsgp::Type *t) {
  uint64_t count = 1;
  while (auto *at = dyn_cast<bsgp::ArrayType>(t->getUnqualified())) {
    count *= at->getSize();
    t = at->getElementType();
  }
  return {t, count};
}

Type MLIRGen::memoryType(const bsgp::Type *t, bsgp::SourceRange where) {
  if (auto *st = dyn_cast<bsgp::StructType>(t->getUnqualified()))
    return structMemoryType(st, where);
  return convertType(t, where);
}

void MLIRGen::emitDecl(bsgp::VarDecl *vd) {
  if (vd->isGroupLocal())
    return emitGroupLocalDecl(vd);
  Location l = loc(vd->getLoc());
  if (isa<bsgp::ArrayType>(vd->getType()->getUnqualified())) {
    // A local array is private memory of the thread (or of the host
    // function) on the stack; the variable is a pointer to its first
    // element. It does not outlive its superstep: the CPU target hoists the
    // slot out of the rank loop, and each kernel has its own.
    auto [elem, count] = flattenArray(vd->getType());
    Type et = memoryType(elem, vd->getRange());
    if (!et)
      return;
    Value ptr = stackSlot(et, count, l);
    nameValue(ptr, vd->getName());
    env[vd] = ptr;
    if (auto *il = dyn_cast_or_null<bsgp::InitListExpr>(vd->getInit()))
      storeInitList(il, ptr, et, l);
    return;
  }
  if (auto *st = asStructValue(vd->getType())) {
    SmallVector<Value> leaves;
    if (bsgp::Expr *init = vd->getInit()) {
      if (!emitStructValue(init, leaves))
        return;
    } else {
      SmallVector<Type> types;
      if (!structLeafTypes(st, types, vd->getRange()))
        return;
      for (Type t : types)
        leaves.push_back(zeroOf(t, l));
    }
    if (addressTaken.contains(vd))
      return placeInMemory(vd, Value(), leaves, l);
    bindStruct(vd, st, leaves, vd->getName());
    return;
  }
  Type t = convertType(vd->getType(), vd->getRange());
  if (!t)
    return;
  Value v;
  if (bsgp::Expr *init = vd->getInit())
    v = emitExpr(init);
  else
    v = zeroOf(t, l);
  if (!v)
    return;
  // Zero without an initializer too, as for the SSA value: C leaves it
  // indeterminate.
  if (addressTaken.contains(vd))
    return placeInMemory(vd, v, {}, l);
  nameValue(v, vd->getName());
  env[vd] = v;
}

/// Stores every element of an array's initializer list at \p ptr (the
/// array's first scalar element, of type \p et), zero where the list
/// leaves one out. The stores come where the declaration is, so that an
/// array declared in a loop starts over in each iteration, as in C.
void MLIRGen::storeInitList(bsgp::InitListExpr *il, Value ptr, Type et,
                            Location l) {
  // An array of structs: each element a struct value (a list of its
  // fields), stored leaf by leaf; zero where the list leaves it out.
  if (auto *st = asStructValue(flattenArray(il->getType()).first)) {
    SmallVector<Type> types;
    if (!structLeafTypes(st, types, il->getRange()))
      return;
    for (auto [i, e] : llvm::enumerate(il->getFlat())) {
      SmallVector<Value> leaves;
      if (!e)
        for (Type t : types)
          leaves.push_back(zeroOf(t, l));
      else if (!emitStructValue(e, leaves))
        return;
      Value at = bsgp::PtrOffsetOp::create(
          b, l, ptr.getType(), ptr, constInt(b.getI64Type(), (int64_t)i, l));
      if (!storeStruct(at, st, leaves, l, il->getRange()))
        return;
    }
    return;
  }
  for (auto [i, e] : llvm::enumerate(il->getFlat())) {
    Value v = e ? emitExpr(e) : zeroOf(et, l);
    if (!v)
      return;
    bsgp::PtrStoreOp::create(b, l, v, ptr,
                             constInt(b.getI64Type(), (int64_t)i, l));
  }
}

void MLIRGen::emitGroupLocalDecl(bsgp::VarDecl *vd) {
  Location l = loc(vd->getLoc());
  auto [elem, count] = flattenArray(vd->getType());
  Type et = convertType(elem, vd->getRange());
  if (!et)
    return;
  // One array per work group and kernel; the variable is a pointer to its
  // first element, like a private local array's.
  Value ptr = bsgp::GroupLocalOp::create(b, l, bsgp::PtrType::get(&ctx, et),
                                         static_cast<int64_t>(count));
  nameValue(ptr, vd->getName());
  env[vd] = ptr;
}
