//===- MLIRGen.cpp - the checked AST to the bsgp dialect ------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The entry points (emitMLIR, registerBSGPDialects), the module, and the
/// conversion of types and locations. MLIRGenImpl.h describes how SSA values
/// and early exits are built; the rest of the generator is in the files it
/// lists.
///
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "bsgp/AST/Layout.h"

using namespace mlir;
using namespace mlirgen;

void bsgp::registerBSGPDialects(DialectRegistry &registry) {
  registry.insert<BSGPDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, LLVM::LLVMDialect, math::MathDialect,
                  scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
  func::registerInlinerExtension(registry);
}

OwningOpRef<ModuleOp> bsgp::emitMLIR(MLIRContext &context, ASTContext &ast,
                                     SourceManager &sources) {
  context.loadDialect<BSGPDialect, arith::ArithDialect, cf::ControlFlowDialect,
                      func::FuncDialect, LLVM::LLVMDialect, math::MathDialect,
                      scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
  MLIRGen gen(context, ast, sources);
  return gen.run();
}

//===----------------------------------------------------------------------===//
// Types and locations
//===----------------------------------------------------------------------===//

Location MLIRGen::loc(bsgp::SourceRange r) {
  if (!r.isValid())
    return UnknownLoc::get(&ctx);
  return FileLineColLoc::get(&ctx, sm.getFileName(r.Begin.File), r.Begin.Line,
                             r.Begin.Col);
}

LogicalResult MLIRGen::unsupported(bsgp::SourceRange r, const Twine &what) {
  failed = true;
  return emitError(loc(r)) << what
                           << " is not supported by code generation yet";
}

bool MLIRGen::isSigned(const bsgp::Type *t) {
  t = t->getUnqualified();
  if (auto *v = dyn_cast<bsgp::VectorType>(t))
    t = v->getElementType();
  return t->isSignedInteger();
}

Type MLIRGen::convertType(const bsgp::Type *t, bsgp::SourceRange where) {
  t = t->getUnqualified();
  if (auto *bt = dyn_cast<bsgp::BuiltinType>(t)) {
    switch (bt->getBuiltinKind()) {
    case bsgp::BuiltinType::Void:
      return NoneType::get(&ctx);
    case bsgp::BuiltinType::Bool:
      return b.getI1Type();
    case bsgp::BuiltinType::Char:
    case bsgp::BuiltinType::UChar:
      return b.getI8Type();
    case bsgp::BuiltinType::Short:
    case bsgp::BuiltinType::UShort:
      return b.getI16Type();
    case bsgp::BuiltinType::Int:
    case bsgp::BuiltinType::UInt:
      return b.getI32Type();
    case bsgp::BuiltinType::Int64:
    case bsgp::BuiltinType::UInt64:
      return b.getI64Type();
    case bsgp::BuiltinType::Float:
      return b.getF32Type();
    case bsgp::BuiltinType::Double:
      return b.getF64Type();
    }
  }
  if (auto *vt = dyn_cast<bsgp::VectorType>(t))
    return mlir::VectorType::get({vt->getNumElements()},
                                 convertType(vt->getElementType(), where));
  if (auto *pt = dyn_cast<bsgp::PointerType>(t)) {
    const bsgp::Type *pointee = pt->getPointee()->getUnqualified();
    Type elt;
    if (pointee->isVoid() || isa<bsgp::FunctionType>(pointee))
      elt = b.getI8Type();
    else if (auto *st = dyn_cast<bsgp::StructType>(pointee))
      elt = structMemoryType(st, where);
    else
      elt = convertType(pointee, where);
    if (!elt || isa<NoneType>(elt))
      return {};
    return bsgp::PtrType::get(&ctx, elt);
  }
  if (isa<bsgp::NullType>(t))
    return bsgp::PtrType::get(&ctx, b.getI8Type());
  if (isa<bsgp::ArrayType>(t))
    (void)unsupported(where, "a local array");
  else if (isa<bsgp::StructType>(t))
    (void)unsupported(where, "a struct value");
  else
    (void)unsupported(where, "type '" + t->str() + "'");
  return {};
}

/// The layout every target shares (bsgp/AST/Layout.h): a float3 takes 16
/// bytes, a struct is laid out as C does.
uint64_t MLIRGen::sizeOf(const bsgp::Type *t) { return bsgp::typeSize(t); }

Value MLIRGen::zeroOf(Type t, Location l) {
  if (auto pt = dyn_cast<bsgp::PtrType>(t))
    return bsgp::PtrNullOp::create(b, l, pt);
  if (auto vt = dyn_cast<mlir::VectorType>(t))
    return vector::BroadcastOp::create(b, l, vt,
                                       zeroOf(vt.getElementType(), l));
  return arith::ConstantOp::create(b, l, t, b.getZeroAttr(t));
}

Value MLIRGen::toI32(Value v, const bsgp::Type *from, Location l) {
  Type i32 = b.getI32Type();
  unsigned w = v.getType().getIntOrFloatBitWidth();
  if (isa<FloatType>(v.getType()))
    return arith::FPToSIOp::create(b, l, i32, v);
  if (w == 32)
    return v;
  if (w > 32)
    return arith::TruncIOp::create(b, l, i32, v);
  if (from && isSigned(from))
    return arith::ExtSIOp::create(b, l, i32, v);
  return arith::ExtUIOp::create(b, l, i32, v);
}

Value MLIRGen::toIndex(Value v, Location l) {
  return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
}

//===----------------------------------------------------------------------===//
// Module and functions
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> MLIRGen::run() {
  auto &tus = ast.getTranslationUnits();
  Location moduleLoc = UnknownLoc::get(&ctx);
  // Everything but the main file is imported (its imports, the collective
  // library). Without a recorded main file, the first unit is it.
  uint32_t mainFile = ast.getMainFileId();
  if (!mainFile && !tus.empty())
    mainFile = tus.front().FileId;
  if (mainFile)
    moduleLoc = FileLineColLoc::get(&ctx, sm.getFileName(mainFile), 0, 0);
  OwningOpRef<ModuleOp> owned = ModuleOp::create(moduleLoc);
  module = *owned;

  // Declare every function first: calls may precede definitions, and a
  // function may be declared in one file and defined in another.
  for (bsgp::TranslationUnit &tu : tus)
    for (bsgp::Decl *d : tu.Decls)
      if (auto *fd = dyn_cast<bsgp::FunctionDecl>(d)) {
        // Library functions the program does not reach are left out.
        if (!fd->isUnchecked())
          declareFunction(fd, /*imported=*/tu.FileId != mainFile,
                          /*library=*/ast.isLibraryFile(tu.FileId));
      }
  for (bsgp::TranslationUnit &tu : tus)
    for (bsgp::Decl *d : tu.Decls)
      if (auto *fd = dyn_cast<bsgp::FunctionDecl>(d))
        if (fd->isDefinition() && !fd->isUnchecked() &&
            isa_and_nonnull<func::FuncOp>(functions.lookup(fd)))
          emitFunctionBody(fd);
  emitCABIWrappers(cabiExports);

  if (failed)
    return nullptr;
  // Private functions nothing calls (most of the collective library, inline
  // functions of imports) are dropped, so that a module holds only what the
  // program uses.
  // Reachability from the public functions, not use counts: a recursive
  // function (the library's scan) uses itself.
  llvm::SmallPtrSet<Operation *, 32> live;
  SmallVector<func::FuncOp> work;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isPrivate() && live.insert(fn).second)
      work.push_back(fn);
  while (!work.empty()) {
    func::FuncOp fn = work.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(fn);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto callee = dyn_cast_or_null<func::FuncOp>(
          SymbolTable::lookupSymbolIn(module, use.getSymbolRef()));
      if (callee && live.insert(callee).second)
        work.push_back(callee);
    }
  }
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (fn.isPrivate() && !live.contains(fn))
      fn.erase();
  if (mlir::failed(verify(module)))
    return nullptr;
  return owned;
}
