//===- MLIRGen.cpp - the checked AST to the bsgp dialect ------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// SSA is built directly: a local variable is a map entry from its VarDecl to
// its current SSA value, and structured control flow carries the variables
// it assigns as results (scf.if) or loop-carried values (scf.while). The §4
// analyses then see every thread-local value as an SSA value, as the paper's
// compiler does (§4.4).
//
// C's early exits (return, break, continue) are kept structured with flags:
// an exit sets a flag variable, and the statements after a statement that
// may exit run under `if (!flag)`. Loops carry their flags and test them in
// their condition. Canonicalization removes what turns out to be constant.
//
//===----------------------------------------------------------------------===//

#include "bsgp/MLIRGen/MLIRGen.h"

#include "bsgp/AST/AST.h"
#include "bsgp/AST/ASTContext.h"
#include "bsgp/AST/MathFunctions.h"
#include "bsgp/Basic/SourceManager.h"
#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

void bsgp::registerBSGPDialects(DialectRegistry &registry) {
  registry.insert<BSGPDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, LLVM::LLVMDialect, math::MathDialect,
                  scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
  func::registerInlinerExtension(registry);
}

namespace {

/// Keys of the SSA environment: variables, and the flags of early exits.
using VarKey = const void *;

/// Where control goes on `break` and `continue`, and the flags that say a
/// loop was left or an iteration cut short.
struct LoopFlags {
  char breakKey = 0;
  char continueKey = 0;
};

/// Collects what a statement assigns, and which early exits it contains.
struct Effects {
  llvm::SetVector<VarKey> assigned;
  bool hasReturn = false;
  bool hasBreak = false;    ///< A break leaving the innermost loop around.
  bool hasContinue = false; ///< Likewise for continue.
};

class MLIRGen {
public:
  MLIRGen(MLIRContext &ctx, bsgp::ASTContext &ast, bsgp::SourceManager &sm)
      : ctx(ctx), ast(ast), sm(sm), b(&ctx) {}

  OwningOpRef<ModuleOp> run();

private:
  //===--- Types and locations --------------------------------------------===//
  Location loc(bsgp::SourceRange r);
  Location loc(bsgp::SourceLocation l) { return loc(bsgp::SourceRange(l)); }
  Type convertType(const bsgp::Type *t, bsgp::SourceRange where);
  bool isSigned(const bsgp::Type *t);
  LogicalResult unsupported(bsgp::SourceRange r, const Twine &what);

  //===--- Declarations ---------------------------------------------------===//
  void declareFunction(bsgp::FunctionDecl *fd, bool imported, bool library);
  void emitFunctionBody(bsgp::FunctionDecl *fd);

  //===--- Statements -----------------------------------------------------===//
  void emitStmt(bsgp::Stmt *s);
  void emitStmtList(ArrayRef<bsgp::Stmt *> stmts);
  void emitIf(bsgp::IfStmt *s);
  void emitLoop(bsgp::Stmt *s, bsgp::Expr *cond, bsgp::Stmt *body,
                bsgp::Expr *inc, bool condFirst);
  void emitSpawn(bsgp::SpawnStmt *s);
  void emitRequire(bsgp::RequireStmt *s);
  void emitPar(bsgp::ParStmt *s);
  void emitReturn(bsgp::ReturnStmt *s);
  void emitDecl(bsgp::VarDecl *vd);

  /// Emits `body` into a fresh region-builder context and yields the values
  /// of `keys` at its end with `yieldBuilder`.
  SmallVector<Value> currentValues(ArrayRef<VarKey> keys);
  void rebind(ArrayRef<VarKey> keys, ValueRange values);
  Effects effectsOf(bsgp::Stmt *s);
  void collectEffects(bsgp::Stmt *s, Effects &e, bool inLoop);
  /// Keys of `e.assigned` bound before the statement (live out of it), plus
  /// the flags its exits set.
  SmallVector<VarKey> carriedKeys(const Effects &e);
  /// The flags whose being set means "skip the rest of this block".
  Value anyExitFlag(Location l);

  //===--- Expressions ----------------------------------------------------===//
  Value emitExpr(bsgp::Expr *e);
  Value emitExprInner(bsgp::Expr *e);
  Value emitBinary(bsgp::BinaryOperator *e);
  Value emitArith(bsgp::BinaryOperator::Opcode op, Value l, Value r,
                  const bsgp::Type *operandType, Location l2);
  Value emitUnary(bsgp::UnaryOperator *e);
  Value emitCall(bsgp::CallExpr *e);
  Value emitBuiltin(bsgp::BuiltinCallExpr *e);
  Value emitThreadGet(bsgp::BuiltinCallExpr *e);
  Value emitGetOfVariable(bsgp::VarDecl *vd, Value v, Location l);
  Value emitGroup(bsgp::GroupExpr *e);
  void emitGroupLocalDecl(bsgp::VarDecl *vd);
  /// A call of a C math function as a math-dialect op, so that every target
  /// lowers it (device code included); null if the arguments do not fit.
  Value emitMathCall(bsgp::MathFunction f, ArrayRef<Value> args, Location l);
  Value emitMember(bsgp::MemberExpr *e);
  Value emitConstruct(bsgp::ConstructExpr *e);
  Value emitAtomic(bsgp::AtomicExpr *e);
  Value emitConversion(Value v, const bsgp::Type *from, const bsgp::Type *to,
                       Location l);
  Value emitToBool(Value v, Location l);
  Value emitAssign(bsgp::Expr *target, Value v, Location l);
  Value emitLValueLoad(bsgp::Expr *target);
  Value zeroOf(Type t, Location l);
  Value constInt(Type t, int64_t v, Location l) {
    return arith::ConstantOp::create(b, l, t, b.getIntegerAttr(t, v));
  }
  Value toI32(Value v, const bsgp::Type *from, Location l);
  Value emitSpawnCount(Value n, bsgp::Expr *count, Location l);
  Value toIndex(Value v, Location l);
  Value stringLiteral(StringRef s, Location l);
  uint64_t sizeOf(const bsgp::Type *t);
  bsgp::VarDecl *asVariable(bsgp::Expr *e);
  /// Gives the op defining `v` the variable's name (a NameLoc around its
  /// location), so that the paper's tables and diagnostics can say `v0`.
  void nameValue(Value v, StringRef name);

  MLIRContext &ctx;
  bsgp::ASTContext &ast;
  bsgp::SourceManager &sm;
  OpBuilder b;
  ModuleOp module;
  bool failed = false;
  /// The rank operand while the value of a thread.get is emitted: its
  /// thread-local variables are read from that thread (emitThreadGet).
  Value getRank;
  /// The expression of the statement being emitted, whose value is unused.
  bsgp::Expr *discarded = nullptr;

  llvm::DenseMap<VarKey, Value> env;
  llvm::DenseMap<bsgp::FunctionDecl *, Operation *> functions;
  /// Per function being emitted: flag mode for returns.
  bool useReturnFlag = false;
  char returnFlagKey = 0, returnValueKey = 0;
  bsgp::FunctionDecl *currentFunction = nullptr;
  SmallVector<LoopFlags *> loops;
  unsigned stringCount = 0;
};

} // namespace

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
  return emitError(loc(r)) << what << " is not supported by code generation yet";
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
      return b.getI8Type();
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

uint64_t MLIRGen::sizeOf(const bsgp::Type *t) {
  t = t->getUnqualified();
  if (auto *bt = dyn_cast<bsgp::BuiltinType>(t))
    return std::max(1u, bt->getBitWidth() / 8);
  // A vector takes its size rounded up to a power of two, as OpenCL's
  // vectors do: a float3 is 16 bytes, the stride with which lists, pointer
  // arithmetic and dnew step over it on every target (docs/language.md).
  if (auto *vt = dyn_cast<bsgp::VectorType>(t))
    return llvm::PowerOf2Ceil(vt->getNumElements() *
                              sizeOf(vt->getElementType()));
  if (isa<bsgp::PointerType, bsgp::NullType>(t))
    return 8;
  if (auto *at = dyn_cast<bsgp::ArrayType>(t))
    return at->getSize() * sizeOf(at->getElementType());
  return 0;
}

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
      } else if (auto *vd = dyn_cast<bsgp::VarDecl>(d))
        (void)unsupported(vd->getRange(), "a global variable");
  for (bsgp::TranslationUnit &tu : tus)
    for (bsgp::Decl *d : tu.Decls)
      if (auto *fd = dyn_cast<bsgp::FunctionDecl>(d))
        if (fd->isDefinition() && !fd->isUnchecked() &&
            isa_and_nonnull<func::FuncOp>(functions.lookup(fd)))
          emitFunctionBody(fd);

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
  for (const bsgp::Type *p : ft->getParams()) {
    Type t = convertType(p, fd->getRange());
    if (!t)
      return;
    params.push_back(t);
  }
  Type ret = convertType(ft->getReturnType(), fd->getRange());
  if (!ret)
    return;
  if (!isa<NoneType>(ret))
    results.push_back(ret);

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
  if (!fd->isDefinition())
    return;

  // Imported host functions are defined by their own object file; inline
  // and device functions, and the collective library's host functions
  // (it has no object file), are compiled into every user.
  // So are instantiations of generic functions (private to each user).
  bool instance = fd->getInstantiatedFrom() != nullptr;
  bool defineHere = !imported || library || fd->isInline() || instance ||
                    fd->getFunctionKind() != bsgp::FunctionDecl::FK_Host;
  if (!defineHere)
    return;
  if (!fn.isExternal())
    return;
  fn->setLoc(loc(fd->getLoc()));
  if (!imported && !fd->isInline() && !instance)
    fn.setPublic();
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
  loops.clear();
  currentFunction = fd;
  Block &entry = fn.getBody().front();
  b.setInsertionPointToStart(&entry);
  for (auto [param, arg] : llvm::zip(fd->getParams(), entry.getArguments())) {
    env[param] = arg;
    arg.setLoc(loc(param->getLoc()));
  }

  SmallVector<bsgp::ReturnStmt *> returns;
  collectReturns(fd->getBody(), returns);
  useReturnFlag = llvm::any_of(returns, [&](bsgp::ReturnStmt *r) {
    return !isTailReturn(r, fd->getBody());
  });
  Type retTy = fn.getNumResults() ? fn.getResultTypes()[0] : Type();
  Location endLoc = loc(fd->getBody()->getRange().End);
  if (useReturnFlag) {
    env[&returnFlagKey] = arith::ConstantIntOp::create(b, endLoc, 0, 1);
    if (retTy)
      env[&returnValueKey] = zeroOf(retTy, endLoc);
  }

  emitStmtList(fd->getBody()->body());
  if (failed)
    return;

  // Falling off the end: `return;`, or the flag mode's return value. The
  // tail return (when not in flag mode) already terminated the block.
  Block *cur = b.getInsertionBlock();
  if (!cur->empty() && cur->back().hasTrait<OpTrait::IsTerminator>())
    return;
  if (!retTy)
    func::ReturnOp::create(b, endLoc);
  else if (useReturnFlag)
    func::ReturnOp::create(b, endLoc, env[&returnValueKey]);
  else
    func::ReturnOp::create(b, endLoc, zeroOf(retTy, endLoc));
}

//===----------------------------------------------------------------------===//
// Effects of statements
//===----------------------------------------------------------------------===//

bsgp::VarDecl *MLIRGen::asVariable(bsgp::Expr *e) {
  if (!e)
    return nullptr;
  if (auto *p = dyn_cast<bsgp::ParenExpr>(e))
    return asVariable(p->getSubExpr());
  if (auto *d = dyn_cast<bsgp::DeclRefExpr>(e))
    return dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
  // v.x = ... and v[i] = ... on a vector variable rebind v.
  if (auto *m = dyn_cast<bsgp::MemberExpr>(e))
    if (!m->isArrow() && !m->getField())
      return asVariable(m->getBase());
  if (auto *ix = dyn_cast<bsgp::IndexExpr>(e))
    if (ix->getBase()->getType() &&
        ix->getBase()->getType()->getUnqualified()->isVector())
      return asVariable(ix->getBase());
  return nullptr;
}

void MLIRGen::collectEffects(bsgp::Stmt *s, Effects &e, bool inLoop) {
  if (!s)
    return;
  if (auto *ex = dyn_cast<bsgp::Expr>(s)) {
    // Walk expressions for assignments, increments and thread.put.
    SmallVector<bsgp::Expr *> work{ex};
    while (!work.empty()) {
      bsgp::Expr *x = work.pop_back_val();
      if (!x)
        continue;
      switch (x->getKind()) {
      case bsgp::Stmt::SK_Binary: {
        auto *bo = cast<bsgp::BinaryOperator>(x);
        if (bo->isAssignmentOp())
          if (bsgp::VarDecl *v = asVariable(bo->getLHS()))
            e.assigned.insert(v);
        work.push_back(bo->getLHS());
        work.push_back(bo->getRHS());
        break;
      }
      case bsgp::Stmt::SK_Unary: {
        auto *uo = cast<bsgp::UnaryOperator>(x);
        auto op = uo->getOpcode();
        if (op == bsgp::UnaryOperator::PreInc ||
            op == bsgp::UnaryOperator::PreDec ||
            op == bsgp::UnaryOperator::PostInc ||
            op == bsgp::UnaryOperator::PostDec)
          if (bsgp::VarDecl *v = asVariable(uo->getSubExpr()))
            e.assigned.insert(v);
        work.push_back(uo->getSubExpr());
        break;
      }
      case bsgp::Stmt::SK_Paren:
        work.push_back(cast<bsgp::ParenExpr>(x)->getSubExpr());
        break;
      case bsgp::Stmt::SK_ImplicitCast:
        work.push_back(cast<bsgp::ImplicitCastExpr>(x)->getSubExpr());
        break;
      case bsgp::Stmt::SK_Cast:
        work.push_back(cast<bsgp::CastExpr>(x)->getSubExpr());
        break;
      case bsgp::Stmt::SK_Conditional: {
        auto *c = cast<bsgp::ConditionalOperator>(x);
        work.append({c->getCond(), c->getTrueExpr(), c->getFalseExpr()});
        break;
      }
      case bsgp::Stmt::SK_Call:
        for (bsgp::Expr *a : cast<bsgp::CallExpr>(x)->args())
          work.push_back(a);
        break;
      case bsgp::Stmt::SK_BuiltinCall: {
        auto *bc = cast<bsgp::BuiltinCallExpr>(x);
        if (bc->getBuiltinKind() == bsgp::BuiltinCallExpr::ThreadPut &&
            bc->args().size() == 3)
          if (bsgp::VarDecl *v = asVariable(bc->args()[1]))
            e.assigned.insert(v);
        // scan(op, x) overwrites x with its exclusive scan: a par branch or
        // a uniform if around it must carry x out.
        if (bc->getBuiltinKind() == bsgp::BuiltinCallExpr::Scan &&
            !bc->args().empty())
          if (bsgp::VarDecl *v = asVariable(bc->args()[0]))
            e.assigned.insert(v);
        for (bsgp::Expr *a : bc->args())
          work.push_back(a);
        break;
      }
      case bsgp::Stmt::SK_Index:
        work.push_back(cast<bsgp::IndexExpr>(x)->getBase());
        work.push_back(cast<bsgp::IndexExpr>(x)->getIndex());
        break;
      case bsgp::Stmt::SK_Member:
        work.push_back(cast<bsgp::MemberExpr>(x)->getBase());
        break;
      case bsgp::Stmt::SK_Construct:
        for (bsgp::Expr *a : cast<bsgp::ConstructExpr>(x)->args())
          work.push_back(a);
        break;
      case bsgp::Stmt::SK_New:
        work.push_back(cast<bsgp::NewExpr>(x)->getCount());
        break;
      case bsgp::Stmt::SK_Atomic:
        for (bsgp::Expr *a : cast<bsgp::AtomicExpr>(x)->args())
          work.push_back(a);
        break;
      case bsgp::Stmt::SK_Group:
        for (bsgp::Expr *a : cast<bsgp::GroupExpr>(x)->args())
          work.push_back(a);
        break;
      default:
        break;
      }
    }
    return;
  }
  switch (s->getKind()) {
  case bsgp::Stmt::SK_Compound:
    for (bsgp::Stmt *c : cast<bsgp::CompoundStmt>(s)->body())
      collectEffects(c, e, inLoop);
    break;
  case bsgp::Stmt::SK_Decl:
    for (bsgp::VarDecl *v : cast<bsgp::DeclStmt>(s)->decls()) {
      e.assigned.insert(v);
      collectEffects(v->getInit(), e, inLoop);
    }
    break;
  case bsgp::Stmt::SK_Expr:
    collectEffects(cast<bsgp::ExprStmt>(s)->getExpr(), e, inLoop);
    break;
  case bsgp::Stmt::SK_If: {
    auto *i = cast<bsgp::IfStmt>(s);
    collectEffects(i->getCond(), e, inLoop);
    collectEffects(i->getThen(), e, inLoop);
    collectEffects(i->getElse(), e, inLoop);
    break;
  }
  case bsgp::Stmt::SK_For: {
    auto *f = cast<bsgp::ForStmt>(s);
    collectEffects(f->getInit(), e, inLoop);
    Effects inner;
    collectEffects(f->getCond(), inner, true);
    collectEffects(f->getBody(), inner, true);
    collectEffects(f->getInc(), inner, true);
    e.assigned.insert(inner.assigned.begin(), inner.assigned.end());
    e.hasReturn |= inner.hasReturn;
    break;
  }
  case bsgp::Stmt::SK_While:
  case bsgp::Stmt::SK_Do: {
    bsgp::Expr *cond = isa<bsgp::WhileStmt>(s)
                           ? cast<bsgp::WhileStmt>(s)->getCond()
                           : cast<bsgp::DoStmt>(s)->getCond();
    bsgp::Stmt *body = isa<bsgp::WhileStmt>(s)
                           ? cast<bsgp::WhileStmt>(s)->getBody()
                           : cast<bsgp::DoStmt>(s)->getBody();
    Effects inner;
    collectEffects(cond, inner, true);
    collectEffects(body, inner, true);
    e.assigned.insert(inner.assigned.begin(), inner.assigned.end());
    e.hasReturn |= inner.hasReturn;
    break;
  }
  case bsgp::Stmt::SK_Return:
    collectEffects(cast<bsgp::ReturnStmt>(s)->getValue(), e, inLoop);
    e.hasReturn = true;
    break;
  case bsgp::Stmt::SK_Break:
    e.hasBreak = true;
    break;
  case bsgp::Stmt::SK_Continue:
    e.hasContinue = true;
    break;
  case bsgp::Stmt::SK_Spawn: {
    // The spawn's require blocks may assign host variables of the code
    // around it (the spawn yields their new values), so a loop or a branch
    // around the spawn carries them. The other variables it assigns are its
    // threads' own, declared inside it, and carriedKeys drops them.
    auto *sp = cast<bsgp::SpawnStmt>(s);
    collectEffects(sp->getCount(), e, inLoop);
    Effects inner;
    collectEffects(sp->getBody(), inner, false);
    e.assigned.insert(inner.assigned.begin(), inner.assigned.end());
    break;
  }
  case bsgp::Stmt::SK_Require:
    collectEffects(cast<bsgp::RequireStmt>(s)->getBody(), e, inLoop);
    break;
  case bsgp::Stmt::SK_Par:
    collectEffects(cast<bsgp::ParStmt>(s)->getBody(), e, inLoop);
    break;
  default:
    break;
  }
}

Effects MLIRGen::effectsOf(bsgp::Stmt *s) {
  Effects e;
  collectEffects(s, e, false);
  return e;
}

SmallVector<VarKey> MLIRGen::carriedKeys(const Effects &e) {
  SmallVector<VarKey> keys;
  for (VarKey k : e.assigned)
    if (env.count(k))
      keys.push_back(k);
  auto addFlag = [&](VarKey k) {
    if (env.count(k) && !llvm::is_contained(keys, k))
      keys.push_back(k);
  };
  if (e.hasReturn && useReturnFlag) {
    addFlag(&returnFlagKey);
    addFlag(&returnValueKey);
  }
  if (!loops.empty()) {
    if (e.hasBreak)
      addFlag(&loops.back()->breakKey);
    if (e.hasContinue)
      addFlag(&loops.back()->continueKey);
  }
  return keys;
}

SmallVector<Value> MLIRGen::currentValues(ArrayRef<VarKey> keys) {
  SmallVector<Value> vals;
  for (VarKey k : keys)
    vals.push_back(env.lookup(k));
  return vals;
}

void MLIRGen::rebind(ArrayRef<VarKey> keys, ValueRange values) {
  for (auto [k, v] : llvm::zip(keys, values))
    env[k] = v;
}

Value MLIRGen::anyExitFlag(Location l) {
  Value any;
  auto add = [&](VarKey k) {
    auto it = env.find(k);
    if (it == env.end())
      return;
    any = any ? arith::OrIOp::create(b, l, any, it->second).getResult()
              : it->second;
  };
  if (useReturnFlag)
    add(&returnFlagKey);
  if (!loops.empty()) {
    add(&loops.back()->breakKey);
    add(&loops.back()->continueKey);
  }
  return any;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void MLIRGen::emitStmtList(ArrayRef<bsgp::Stmt *> stmts) {
  for (size_t i = 0; i < stmts.size() && !failed; ++i) {
    bsgp::Stmt *s = stmts[i];
    emitStmt(s);
    if (failed || i + 1 == stmts.size())
      return;
    // A return at the end of the function's own block ends it: nothing
    // after it runs.
    Block *cur = b.getInsertionBlock();
    if (!cur->empty() && cur->back().hasTrait<OpTrait::IsTerminator>())
      return;
    Effects e = effectsOf(s);
    bool mayExit = (e.hasReturn && useReturnFlag) ||
                   (!loops.empty() && (e.hasBreak || e.hasContinue));
    if (!mayExit)
      continue;
    // The rest of the block runs only if no exit was taken.
    ArrayRef<bsgp::Stmt *> rest = stmts.drop_front(i + 1);
    Location l = loc(rest.front()->getRange());
    Value any = anyExitFlag(l);
    if (!any)
      continue;
    Effects restEffects;
    for (bsgp::Stmt *r : rest)
      collectEffects(r, restEffects, false);
    SmallVector<VarKey> keys = carriedKeys(restEffects);
    SmallVector<Value> before = currentValues(keys);
    SmallVector<Type> types;
    for (Value v : before)
      types.push_back(v.getType());
    Value go = arith::XOrIOp::create(
        b, l, any, arith::ConstantIntOp::create(b, l, 1, 1));
    auto ifOp = scf::IfOp::create(b, l, types, go, true, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitStmtList(rest);
    if (failed)
      return;
    scf::YieldOp::create(b, l, currentValues(keys));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, l, before);
    b.setInsertionPointAfter(ifOp);
    rebind(keys, ifOp.getResults());
    return;
  }
}

void MLIRGen::emitStmt(bsgp::Stmt *s) {
  if (!s || failed)
    return;
  Location l = loc(s->getRange());
  switch (s->getKind()) {
  case bsgp::Stmt::SK_Compound:
    emitStmtList(cast<bsgp::CompoundStmt>(s)->body());
    return;
  case bsgp::Stmt::SK_Decl:
    for (bsgp::VarDecl *vd : cast<bsgp::DeclStmt>(s)->decls())
      emitDecl(vd);
    return;
  case bsgp::Stmt::SK_Expr: {
    // A collective whose result is dropped may skip work (the total of a
    // scan of 64-bit values).
    bsgp::Expr *expr = cast<bsgp::ExprStmt>(s)->getExpr();
    discarded = expr;
    emitExpr(expr);
    discarded = nullptr;
    return;
  }
  case bsgp::Stmt::SK_Null:
    return;
  case bsgp::Stmt::SK_If:
    emitIf(cast<bsgp::IfStmt>(s));
    return;
  case bsgp::Stmt::SK_For: {
    auto *f = cast<bsgp::ForStmt>(s);
    emitStmt(f->getInit());
    emitLoop(s, f->getCond(), f->getBody(), f->getInc(), true);
    return;
  }
  case bsgp::Stmt::SK_While: {
    auto *w = cast<bsgp::WhileStmt>(s);
    emitLoop(s, w->getCond(), w->getBody(), nullptr, true);
    return;
  }
  case bsgp::Stmt::SK_Do: {
    auto *d = cast<bsgp::DoStmt>(s);
    emitLoop(s, d->getCond(), d->getBody(), nullptr, false);
    return;
  }
  case bsgp::Stmt::SK_Break:
  case bsgp::Stmt::SK_Continue: {
    if (loops.empty()) {
      (void)unsupported(s->getRange(), "break or continue outside a loop");
      return;
    }
    VarKey k = s->getKind() == bsgp::Stmt::SK_Break
                   ? VarKey(&loops.back()->breakKey)
                   : VarKey(&loops.back()->continueKey);
    env[k] = arith::ConstantIntOp::create(b, l, 1, 1);
    return;
  }
  case bsgp::Stmt::SK_Return:
    emitReturn(cast<bsgp::ReturnStmt>(s));
    return;
  case bsgp::Stmt::SK_Spawn:
    emitSpawn(cast<bsgp::SpawnStmt>(s));
    return;
  case bsgp::Stmt::SK_Barrier: {
    auto op = bsgp::BarrierOp::create(b, l);
    if (cast<bsgp::BarrierStmt>(s)->isRankReassigned())
      op.setRankReassigned(true);
    return;
  }
  case bsgp::Stmt::SK_Require:
    emitRequire(cast<bsgp::RequireStmt>(s));
    return;
  case bsgp::Stmt::SK_Par:
    emitPar(cast<bsgp::ParStmt>(s));
    return;
  default:
    if (auto *e = dyn_cast<bsgp::Expr>(s)) {
      emitExpr(e);
      return;
    }
    (void)unsupported(s->getRange(), "this statement");
  }
}

void MLIRGen::nameValue(Value v, StringRef name) {
  Operation *def = v.getDefiningOp();
  if (!def || name.empty() || isa<NameLoc>(def->getLoc()) ||
      def->hasTrait<OpTrait::ConstantLike>())
    return;
  def->setLoc(NameLoc::get(b.getStringAttr(name), def->getLoc()));
}

/// The scalar element type of a (possibly multi-dimensional) array and its
/// total number of elements.
static std::pair<const bsgp::Type *, uint64_t>
flattenArray(const bsgp::Type *t) {
  uint64_t count = 1;
  while (auto *at = dyn_cast<bsgp::ArrayType>(t->getUnqualified())) {
    count *= at->getSize();
    t = at->getElementType();
  }
  return {t, count};
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
    Type et = convertType(elem, vd->getRange());
    if (!et)
      return;
    if (vd->getInit()) {
      (void)unsupported(vd->getRange(), "an initializer of a local array");
      return;
    }
    // Outside a spawn the slot goes to the function's entry block, where
    // LLVM treats it as a fixed stack slot even if declared in a loop.
    OpBuilder::InsertionGuard guard(b);
    Operation *parent = b.getInsertionBlock()->getParentOp();
    if (!parent->getParentOfType<bsgp::SpawnOp>() &&
        !isa<bsgp::SpawnOp>(parent)) {
      auto fn = isa<func::FuncOp>(parent) ? cast<func::FuncOp>(parent)
                                          : parent->getParentOfType<func::FuncOp>();
      b.setInsertionPointToStart(&fn.getBody().front());
    }
    Value n = LLVM::ConstantOp::create(b, l, b.getI64Type(),
                                       static_cast<int64_t>(count));
    Value slot = LLVM::AllocaOp::create(
        b, l, LLVM::LLVMPointerType::get(&ctx), isa<bsgp::PtrType>(et)
                                                    ? Type(LLVM::LLVMPointerType::get(&ctx))
                                                    : et,
        n, /*alignment=*/16);
    Value ptr = UnrealizedConversionCastOp::create(
                    b, l, bsgp::PtrType::get(&ctx, et), slot)
                    .getResult(0);
    nameValue(ptr, vd->getName());
    env[vd] = ptr;
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
  if (v) {
    nameValue(v, vd->getName());
    env[vd] = v;
  }
}

void MLIRGen::emitReturn(bsgp::ReturnStmt *s) {
  Location l = loc(s->getRange());
  Value v;
  if (s->getValue())
    v = emitExpr(s->getValue());
  if (failed)
    return;
  if (useReturnFlag) {
    env[&returnFlagKey] = arith::ConstantIntOp::create(b, l, 1, 1);
    if (v)
      env[&returnValueKey] = v;
    return;
  }
  if (v)
    func::ReturnOp::create(b, l, v);
  else
    func::ReturnOp::create(b, l);
}

void MLIRGen::emitIf(bsgp::IfStmt *s) {
  Location l = loc(s->getRange());
  Value cond = emitExpr(s->getCond());
  if (!cond)
    return;
  cond = emitToBool(cond, l);
  Effects e = effectsOf(s->getThen());
  if (s->getElse())
    collectEffects(s->getElse(), e, false);
  SmallVector<VarKey> keys = carriedKeys(e);
  SmallVector<Value> before = currentValues(keys);
  SmallVector<Type> types;
  for (Value v : before)
    types.push_back(v.getType());

  auto ifOp = scf::IfOp::create(b, l, types, cond, true, true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitStmt(s->getThen());
    if (failed)
      return;
    scf::YieldOp::create(b, l, currentValues(keys));
    rebind(keys, before);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    emitStmt(s->getElse());
    if (failed)
      return;
    scf::YieldOp::create(b, l, currentValues(keys));
  }
  rebind(keys, ifOp.getResults());
}

void MLIRGen::emitLoop(bsgp::Stmt *s, bsgp::Expr *condExpr, bsgp::Stmt *body,
                       bsgp::Expr *inc, bool condFirst) {
  Location l = loc(s->getRange());
  LoopFlags flags;
  Effects e = effectsOf(s);
  Effects bodyEffects;
  collectEffects(body, bodyEffects, false);

  // The loop's own flags, live only inside it.
  Value falseV = arith::ConstantIntOp::create(b, l, 0, 1);
  bool hasBreak = bodyEffects.hasBreak, hasContinue = bodyEffects.hasContinue;
  SmallVector<VarKey> keys = carriedKeys(e);
  if (hasBreak) {
    env[&flags.breakKey] = falseV;
    keys.push_back(&flags.breakKey);
  }
  if (hasContinue) {
    env[&flags.continueKey] = falseV;
    keys.push_back(&flags.continueKey);
  }
  SmallVector<Value> inits = currentValues(keys);
  SmallVector<Type> types;
  for (Value v : inits)
    types.push_back(v.getType());

  auto whileOp = scf::WhileOp::create(b, l, types, inits);
  // Every exit path below leaves the builder right after the loop.
  llvm::scope_exit restore([&] { b.setInsertionPointAfter(whileOp); });
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types,
                                SmallVector<Location>(types.size(), l));
  Block *after = b.createBlock(&whileOp.getAfter(), {}, types,
                               SmallVector<Location>(types.size(), l));
  loops.push_back(&flags);

  // "Keep going" = no return or break taken, and the condition holds. The
  // condition is evaluated only when no exit was taken (it may read memory
  // that an exit guarded).
  auto emitCondition = [&]() -> Value {
    Value stop;
    auto addStop = [&](VarKey k) {
      if (!llvm::is_contained(keys, k))
        return;
      Value f = env.lookup(k);
      stop = stop ? arith::OrIOp::create(b, l, stop, f).getResult() : f;
    };
    if (useReturnFlag)
      addStop(&returnFlagKey);
    addStop(&flags.breakKey);
    if (!condExpr) {
      Value t = arith::ConstantIntOp::create(b, l, 1, 1);
      return stop ? arith::XOrIOp::create(b, l, stop, t).getResult() : t;
    }
    if (!stop) {
      Value c = emitExpr(condExpr);
      return c ? emitToBool(c, l) : Value();
    }
    auto ifOp = scf::IfOp::create(b, l, TypeRange{b.getI1Type()}, stop, true,
                                  true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, l, ValueRange{arith::ConstantIntOp::create(
                                   b, l, 0, 1)});
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value c = emitExpr(condExpr);
    if (!c)
      return {};
    scf::YieldOp::create(b, l, ValueRange{emitToBool(c, l)});
    return ifOp.getResult(0);
  };
  auto emitBodyAndInc = [&]() {
    if (hasContinue)
      env[&flags.continueKey] = arith::ConstantIntOp::create(b, l, 0, 1);
    emitStmt(body);
    if (failed || !inc)
      return;
    // The increment runs after a continue, but not after a break/return.
    if (hasContinue)
      env[&flags.continueKey] = arith::ConstantIntOp::create(b, l, 0, 1);
    Value stop;
    if (useReturnFlag && llvm::is_contained(keys, VarKey(&returnFlagKey)))
      stop = env.lookup(&returnFlagKey);
    if (hasBreak)
      stop = stop ? arith::OrIOp::create(b, l, stop,
                                         env.lookup(&flags.breakKey))
                        .getResult()
                  : env.lookup(&flags.breakKey);
    if (!stop) {
      emitExpr(inc);
      return;
    }
    Effects incEffects = effectsOf(inc);
    SmallVector<VarKey> incKeys = carriedKeys(incEffects);
    SmallVector<Value> old = currentValues(incKeys);
    SmallVector<Type> incTypes;
    for (Value v : old)
      incTypes.push_back(v.getType());
    Value go = arith::XOrIOp::create(b, l, stop,
                                     arith::ConstantIntOp::create(b, l, 1, 1));
    auto ifOp = scf::IfOp::create(b, l, incTypes, go, true, true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitExpr(inc);
    scf::YieldOp::create(b, l, currentValues(incKeys));
    rebind(incKeys, old);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, l, old);
    b.setInsertionPointAfter(ifOp);
    rebind(incKeys, ifOp.getResults());
  };

  if (condFirst) {
    b.setInsertionPointToStart(before);
    rebind(keys, before->getArguments());
    Value c = emitCondition();
    if (!c || failed) {
      loops.pop_back();
      return;
    }
    scf::ConditionOp::create(b, l, c, currentValues(keys));
    b.setInsertionPointToStart(after);
    rebind(keys, after->getArguments());
    emitBodyAndInc();
    if (failed) {
      loops.pop_back();
      return;
    }
    scf::YieldOp::create(b, l, currentValues(keys));
  } else {
    // do { body } while (cond): the body is the "before" region.
    b.setInsertionPointToStart(before);
    rebind(keys, before->getArguments());
    emitBodyAndInc();
    if (failed) {
      loops.pop_back();
      return;
    }
    Value c = emitCondition();
    if (!c || failed) {
      loops.pop_back();
      return;
    }
    scf::ConditionOp::create(b, l, c, currentValues(keys));
    b.setInsertionPointToStart(after);
    scf::YieldOp::create(b, l, ValueRange(after->getArguments()));
  }
  loops.pop_back();
  rebind(keys, whileOp.getResults());
  env.erase(&flags.breakKey);
  env.erase(&flags.continueKey);
}

/// The spawn's count as the `int` the spawn op takes. An `int` (or a
/// narrower type) is taken as is: the launch sign-extends it, so the
/// runtime reports a negative count as such. A count of another type goes
/// through `bsgprt_spawn_count`, which reports one that is not a valid
/// `int` count at the spawn's line and yields 0 for it, rather than letting
/// it wrap around to a different number of threads.
Value MLIRGen::emitSpawnCount(Value n, bsgp::Expr *count, Location l) {
  const bsgp::Type *from = count->getType();
  unsigned width = n.getType().getIntOrFloatBitWidth();
  bool sgn = isSigned(from);
  if (width < 32 || (width == 32 && sgn))
    return toI32(n, from, l);
  Type i64 = b.getI64Type();
  if (width == 32)
    n = arith::ExtUIOp::create(b, l, i64, n);
  else if (!sgn) // above INT64_MAX: still far too many threads
    n = arith::MinUIOp::create(
        b, l, n, arith::ConstantIntOp::create(b, l, i64, INT64_MAX));
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>("bsgprt_spawn_count");
  Type llvmPtr = LLVM::LLVMPointerType::get(&ctx);
  if (!callee) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    callee = LLVM::LLVMFuncOp::create(
        mb, l, "bsgprt_spawn_count",
        LLVM::LLVMFunctionType::get(b.getI32Type(), {i64, llvmPtr}));
  }
  std::string where = "<unknown>";
  if (auto fl = dyn_cast<FileLineColLoc>(l))
    where = (fl.getFilename().getValue() + ":" + Twine(fl.getLine()) + ":" +
             Twine(fl.getColumn()))
                .str();
  Value str = UnrealizedConversionCastOp::create(b, l, llvmPtr,
                                                 stringLiteral(where, l))
                  .getResult(0);
  return LLVM::CallOp::create(b, l, callee, ValueRange{n, str}).getResult();
}

void MLIRGen::emitSpawn(bsgp::SpawnStmt *s) {
  Location l = loc(s->getRange());
  // Sema converts the count to int; a wider or unsigned count is checked
  // by emitSpawnCount before that conversion could wrap it around.
  bsgp::Expr *count = s->getCount();
  if (auto *c = dyn_cast<bsgp::ImplicitCastExpr>(count);
      c && c->getCastKind() == bsgp::ImplicitCastExpr::IntegralCast &&
      c->getSubExpr()->getType()->isInteger())
    count = c->getSubExpr();
  Value n = emitExpr(count);
  if (!n)
    return;
  n = emitSpawnCount(n, count, l);
  auto spawn = bsgp::SpawnOp::create(b, l, TypeRange{}, n);
  if (unsigned block = s->getBlockSize())
    spawn->setAttr(bsgp::kBlockSizeAttrName, b.getI32IntegerAttr(block));
  if (unsigned blocks = s->getMinBlocks())
    spawn->setAttr(bsgp::kMinBlocksAttrName, b.getI32IntegerAttr(blocks));
  Block *body = new Block();
  spawn.getBody().push_back(body);
  llvm::DenseMap<VarKey, Value> outer = env;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  // Device code cannot return from the host function; loops inside a spawn
  // start a fresh loop nest.
  bool savedFlag = useReturnFlag;
  SmallVector<LoopFlags *> savedLoops;
  std::swap(savedLoops, loops);
  useReturnFlag = false;
  emitStmtList(s->getBody()->body());
  useReturnFlag = savedFlag;
  std::swap(savedLoops, loops);
  if (failed)
    return;

  // Host variables from before the spawn that its require blocks assigned
  // keep their new values after it: the spawn yields them. Sema allows
  // such assignments only in requires at the top level of the body.
  SmallVector<VarKey> keys;
  SmallVector<Value> vals;
  SmallVector<Type> types;
  for (VarKey k : effectsOf(s->getBody()).assigned) {
    if (!outer.count(k))
      continue;
    Value v = env.lookup(k);
    if (v == outer.lookup(k))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !isa<bsgp::RequireOp>(def) || def->getBlock() != body)
      continue;
    keys.push_back(k);
    vals.push_back(v);
    types.push_back(v.getType());
  }
  bsgp::YieldOp::create(b, loc(s->getRange().End), vals);
  env = outer;
  if (keys.empty())
    return;
  b.setInsertionPoint(spawn);
  auto withResults = bsgp::SpawnOp::create(b, l, types, n);
  withResults.getBody().takeBody(spawn.getBody());
  spawn.erase();
  rebind(keys, withResults.getResults());
}

void MLIRGen::emitRequire(bsgp::RequireStmt *s) {
  Location l = loc(s->getRange());
  Effects e = effectsOf(s->getBody());
  llvm::DenseMap<VarKey, Value> before = env;
  auto req = bsgp::RequireOp::create(b, l, TypeRange{});
  Block *body = new Block();
  req.getBody().push_back(body);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(body);
    emitStmt(s->getBody());
    if (failed)
      return;
  }
  // require opens no scope: whatever it assigned or declared at its top
  // level is visible after it, so those values are its results. That
  // includes a variable given the value of another one from outside
  // (`a = b;`): the spawn yields require results only.
  SmallVector<VarKey> keys;
  SmallVector<Value> vals;
  SmallVector<Type> types;
  for (VarKey k : e.assigned) {
    auto it = env.find(k);
    if (it == env.end() || before.lookup(k) == it->second)
      continue;
    // Variables of blocks nested in the require end with them.
    Region *r = it->second.getParentRegion();
    if (r != &req.getBody() && req->isProperAncestor(r->getParentOp()))
      continue;
    keys.push_back(k);
    vals.push_back(it->second);
    types.push_back(it->second.getType());
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(body);
    bsgp::YieldOp::create(b, l, vals);
  }
  if (keys.empty())
    return;
  // Results cannot be added to an op; rebuild it with them.
  auto withResults = bsgp::RequireOp::create(b, l, types);
  withResults.getBody().takeBody(req.getBody());
  req.erase();
  rebind(keys, withResults.getResults());
}

void MLIRGen::emitPar(bsgp::ParStmt *s) {
  Location l = loc(s->getRange());
  ArrayRef<bsgp::Stmt *> stmts = s->getBody()->body();
  SmallVector<SmallVector<VarKey>> keysPer;
  SmallVector<Type> types;
  for (bsgp::Stmt *st : stmts) {
    Effects e = effectsOf(st);
    SmallVector<VarKey> k = carriedKeys(e);
    for (VarKey key : k)
      types.push_back(env.lookup(key).getType());
    keysPer.push_back(std::move(k));
  }
  OperationState state(l, bsgp::ParOp::getOperationName());
  state.addTypes(types);
  for (size_t i = 0; i < stmts.size(); ++i)
    state.addRegion();
  auto par = cast<bsgp::ParOp>(b.create(state));
  llvm::DenseMap<VarKey, Value> outer = env;
  for (auto [i, st] : llvm::enumerate(stmts)) {
    Block *blk = new Block();
    par->getRegion(i).push_back(blk);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(blk);
    env = outer;
    emitStmt(st);
    if (failed)
      return;
    bsgp::YieldOp::create(b, l, currentValues(keysPer[i]));
  }
  env = outer;
  unsigned r = 0;
  for (auto &keys : keysPer)
    for (VarKey k : keys)
      env[k] = par->getResult(r++);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value MLIRGen::emitExpr(bsgp::Expr *e) {
  if (!e || failed)
    return {};
  return emitExprInner(e);
}

Value MLIRGen::emitToBool(Value v, Location l) {
  Type t = v.getType();
  if (t.isInteger(1))
    return v;
  if (isa<FloatType>(t))
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v,
                                 zeroOf(t, l));
  if (auto pt = dyn_cast<bsgp::PtrType>(t))
    return bsgp::PtrCmpOp::create(b, l, b.getI1Type(), arith::CmpIPredicate::ne, v,
                                  bsgp::PtrNullOp::create(b, l, pt));
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v,
                               zeroOf(t, l));
}

Value MLIRGen::emitConversion(Value v, const bsgp::Type *from,
                              const bsgp::Type *to, Location l) {
  if (!v)
    return {};
  Type dst = convertType(to, {});
  if (!dst)
    return {};
  Type src = v.getType();
  if (src == dst)
    return v;
  const bsgp::Type *fromU = from ? from->getUnqualified() : nullptr;
  const bsgp::Type *toU = to->getUnqualified();
  if (isa<bsgp::PtrType>(dst)) {
    if (isa<bsgp::PtrType>(src))
      return bsgp::PtrCastOp::create(b, l, dst, v);
    if (fromU && isa<bsgp::NullType>(fromU))
      return bsgp::PtrNullOp::create(b, l, dst);
    return {};
  }
  // Scalar to vector: convert to the element type, then splat.
  if (auto dv = dyn_cast<mlir::VectorType>(dst)) {
    if (!isa<mlir::VectorType>(src)) {
      const bsgp::Type *eltTy = cast<bsgp::VectorType>(toU)->getElementType();
      Value s = emitConversion(v, from, eltTy, l);
      return vector::BroadcastOp::create(b, l, dv, s);
    }
  }
  Type srcElt = getElementTypeOrSelf(src), dstElt = getElementTypeOrSelf(dst);
  bool srcSigned = fromU && isSigned(fromU);
  bool dstSigned = isSigned(toU);
  if (dstElt.isInteger(1))
    return emitToBool(v, l);
  if (isa<IntegerType>(srcElt) && isa<IntegerType>(dstElt)) {
    unsigned sw = srcElt.getIntOrFloatBitWidth(),
             dw = dstElt.getIntOrFloatBitWidth();
    if (sw == dw)
      return v;
    if (sw > dw)
      return arith::TruncIOp::create(b, l, dst, v);
    if (srcSigned && sw > 1)
      return arith::ExtSIOp::create(b, l, dst, v);
    return arith::ExtUIOp::create(b, l, dst, v);
  }
  if (isa<IntegerType>(srcElt) && isa<FloatType>(dstElt)) {
    if (srcSigned && srcElt.getIntOrFloatBitWidth() > 1)
      return arith::SIToFPOp::create(b, l, dst, v);
    return arith::UIToFPOp::create(b, l, dst, v);
  }
  if (isa<FloatType>(srcElt) && isa<IntegerType>(dstElt)) {
    if (dstSigned)
      return arith::FPToSIOp::create(b, l, dst, v);
    return arith::FPToUIOp::create(b, l, dst, v);
  }
  if (isa<FloatType>(srcElt) && isa<FloatType>(dstElt)) {
    if (srcElt.getIntOrFloatBitWidth() < dstElt.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, l, dst, v);
    return arith::TruncFOp::create(b, l, dst, v);
  }
  (void)unsupported({}, "a conversion from '" + (from ? from->str() : "?") +
                            "' to '" + to->str() + "'");
  return {};
}

Value MLIRGen::stringLiteral(StringRef s, Location l) {
  std::string data = s.str();
  data.push_back('\0');
  std::string name = "__bsgp_strlit_" + std::to_string(stringCount++);
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  auto global = LLVM::GlobalOp::create(mb, l, type, true,
                                       LLVM::Linkage::Internal, name,
                                       mb.getStringAttr(data));
  Value addr = LLVM::AddressOfOp::create(b, l, global);
  return UnrealizedConversionCastOp::create(
             b, l, bsgp::PtrType::get(&ctx, b.getI8Type()), addr)
      .getResult(0);
}

Value MLIRGen::emitExprInner(bsgp::Expr *e) {
  Location l = loc(e->getRange());
  switch (e->getKind()) {
  case bsgp::Stmt::SK_IntegerLiteral: {
    Type t = convertType(e->getType(), e->getRange());
    if (!t)
      return {};
    return constInt(t, cast<bsgp::IntegerLiteral>(e)->getValue(), l);
  }
  case bsgp::Stmt::SK_FloatingLiteral: {
    Type t = convertType(e->getType(), e->getRange());
    if (!t)
      return {};
    return arith::ConstantOp::create(
        b, l, t,
        b.getFloatAttr(t, cast<bsgp::FloatingLiteral>(e)->getValue()));
  }
  case bsgp::Stmt::SK_BoolLiteral:
    return arith::ConstantIntOp::create(
        b, l, cast<bsgp::BoolLiteral>(e)->getValue() ? 1 : 0, 1);
  case bsgp::Stmt::SK_CharLiteral:
    return constInt(b.getI8Type(), cast<bsgp::CharLiteral>(e)->getValue(), l);
  case bsgp::Stmt::SK_StringLiteral:
    return stringLiteral(cast<bsgp::StringLiteral>(e)->getValue(), l);
  case bsgp::Stmt::SK_NullLiteral:
    return bsgp::PtrNullOp::create(b, l,
                                   bsgp::PtrType::get(&ctx, b.getI8Type()));
  case bsgp::Stmt::SK_DeclRef: {
    auto *d = cast<bsgp::DeclRefExpr>(e);
    auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
    if (!vd) {
      (void)unsupported(e->getRange(), "a function used as a value");
      return {};
    }
    Value v = env.lookup(vd);
    if (!v) {
      // Read before any assignment: C leaves it undefined; zero is as good.
      Type t = convertType(vd->getType(), vd->getRange());
      if (!t)
        return {};
      v = zeroOf(t, l);
    } else if (getRank && !vd->isHost()) {
      return emitGetOfVariable(vd, v, l);
    }
    return v;
  }
  case bsgp::Stmt::SK_Paren:
    return emitExpr(cast<bsgp::ParenExpr>(e)->getSubExpr());
  case bsgp::Stmt::SK_Unary:
    return emitUnary(cast<bsgp::UnaryOperator>(e));
  case bsgp::Stmt::SK_Binary:
    return emitBinary(cast<bsgp::BinaryOperator>(e));
  case bsgp::Stmt::SK_Conditional: {
    auto *c = cast<bsgp::ConditionalOperator>(e);
    Value cond = emitExpr(c->getCond());
    if (!cond)
      return {};
    cond = emitToBool(cond, l);
    Type t = convertType(e->getType(), e->getRange());
    if (!t)
      return {};
    Effects eff;
    collectEffects(c->getTrueExpr(), eff, false);
    collectEffects(c->getFalseExpr(), eff, false);
    SmallVector<VarKey> keys = carriedKeys(eff);
    SmallVector<Value> before = currentValues(keys);
    SmallVector<Type> types{t};
    for (Value v : before)
      types.push_back(v.getType());
    auto ifOp = scf::IfOp::create(b, l, types, cond, true, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value tv = emitExpr(c->getTrueExpr());
    if (!tv)
      return {};
    SmallVector<Value> yields{tv};
    llvm::append_range(yields, currentValues(keys));
    scf::YieldOp::create(b, l, yields);
    rebind(keys, before);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value fv = emitExpr(c->getFalseExpr());
    if (!fv)
      return {};
    yields.assign({fv});
    llvm::append_range(yields, currentValues(keys));
    scf::YieldOp::create(b, l, yields);
    b.setInsertionPointAfter(ifOp);
    rebind(keys, ifOp.getResults().drop_front());
    return ifOp.getResult(0);
  }
  case bsgp::Stmt::SK_Call:
    return emitCall(cast<bsgp::CallExpr>(e));
  case bsgp::Stmt::SK_BuiltinCall:
    return emitBuiltin(cast<bsgp::BuiltinCallExpr>(e));
  case bsgp::Stmt::SK_Group:
    return emitGroup(cast<bsgp::GroupExpr>(e));
  case bsgp::Stmt::SK_TargetQuery:
    return bsgp::TargetIsOp::create(
        b, l, b.getI1Type(),
        bsgp::TargetQueryExpr::getName(
            cast<bsgp::TargetQueryExpr>(e)->getTarget()));
  case bsgp::Stmt::SK_Atomic:
    return emitAtomic(cast<bsgp::AtomicExpr>(e));
  case bsgp::Stmt::SK_ThreadAttr:
    switch (cast<bsgp::ThreadAttrExpr>(e)->getAttr()) {
    case bsgp::ThreadAttrExpr::Rank:
      return bsgp::ThreadRankOp::create(b, l, b.getI32Type());
    case bsgp::ThreadAttrExpr::Size:
      return bsgp::ThreadSizeOp::create(b, l, b.getI32Type());
    case bsgp::ThreadAttrExpr::OldRank:
      (void)unsupported(e->getRange(), "reading 'thread.oldrank'");
      return {};
    }
    return {};
  case bsgp::Stmt::SK_Index: {
    auto *ix = cast<bsgp::IndexExpr>(e);
    Value base = emitExpr(ix->getBase());
    Value idx = emitExpr(ix->getIndex());
    if (!base || !idx)
      return {};
    // a[i] of `T a[N][M]` is the row a + i*M, still an array.
    if (auto *at = dyn_cast_or_null<bsgp::ArrayType>(
            ix->getType() ? ix->getType()->getUnqualified() : nullptr)) {
      uint64_t row = flattenArray(at).second;
      Value scaled = arith::MulIOp::create(
          b, l, idx, constInt(idx.getType(), static_cast<int64_t>(row), l));
      return bsgp::PtrOffsetOp::create(b, l, base.getType(), base, scaled);
    }
    if (isa<bsgp::PtrType>(base.getType()))
      return bsgp::PtrLoadOp::create(b, l, cast<bsgp::PtrType>(base.getType()).getElementType(), base, idx);
    if (isa<mlir::VectorType>(base.getType()))
      return vector::ExtractOp::create(
          b, l, base, ArrayRef<OpFoldResult>{OpFoldResult(toIndex(idx, l))});
    (void)unsupported(e->getRange(), "indexing this type");
    return {};
  }
  case bsgp::Stmt::SK_Member:
    return emitMember(cast<bsgp::MemberExpr>(e));
  case bsgp::Stmt::SK_Cast: {
    auto *c = cast<bsgp::CastExpr>(e);
    Value v = emitExpr(c->getSubExpr());
    return emitConversion(v, c->getSubExpr()->getType(), c->getWrittenType(),
                          l);
  }
  case bsgp::Stmt::SK_ImplicitCast: {
    auto *c = cast<bsgp::ImplicitCastExpr>(e);
    Value v = emitExpr(c->getSubExpr());
    if (!v)
      return {};
    switch (c->getCastKind()) {
    case bsgp::ImplicitCastExpr::ToBool:
      return emitToBool(v, l);
    case bsgp::ImplicitCastExpr::NullToPointer: {
      Type t = convertType(c->getType(), e->getRange());
      return t ? bsgp::PtrNullOp::create(b, l, t).getResult() : Value();
    }
    case bsgp::ImplicitCastExpr::ArrayToPointer: {
      // Arrays are already pointers to their first element.
      Type t = convertType(c->getType(), e->getRange());
      if (t && t != v.getType())
        return bsgp::PtrCastOp::create(b, l, t, v);
      return v;
    }
    default:
      return emitConversion(v, c->getSubExpr()->getType(), c->getType(), l);
    }
  }
  case bsgp::Stmt::SK_Construct:
    return emitConstruct(cast<bsgp::ConstructExpr>(e));
  case bsgp::Stmt::SK_Sizeof: {
    auto *s = cast<bsgp::SizeofExpr>(e);
    const bsgp::Type *t = s->getArgType() ? s->getArgType()
                                          : s->getArgExpr()->getType();
    Type rt = convertType(e->getType(), e->getRange());
    if (!rt)
      return {};
    // Struct values have no layout in code generation yet: a 0 would be a
    // silently wrong size.
    uint64_t size = sizeOf(t);
    if (!size) {
      (void)unsupported(e->getRange(), "sizeof of type '" + t->str() + "'");
      return {};
    }
    return constInt(rt, size, l);
  }
  case bsgp::Stmt::SK_New: {
    auto *n = cast<bsgp::NewExpr>(e);
    Value count = emitExpr(n->getCount());
    Type pt = convertType(e->getType(), e->getRange());
    if (!count || !pt)
      return {};
    // 64-bit, as C's size_t: a list of 2^31 elements or more is legal.
    count = emitConversion(count, n->getCount()->getType(),
                           ast.getBuiltinType(bsgp::BuiltinType::Int64), l);
    if (!count)
      return {};
    if (n->isTemporary())
      return bsgp::DTempNewOp::create(b, l, pt, count);
    return bsgp::DNewOp::create(b, l, pt, count);
  }
  default:
    (void)unsupported(e->getRange(), "this expression");
    return {};
  }
}

Value MLIRGen::emitArith(bsgp::BinaryOperator::Opcode op, Value lhs, Value rhs,
                         const bsgp::Type *operandType, Location l) {
  using BO = bsgp::BinaryOperator;
  Type t = getElementTypeOrSelf(lhs.getType());
  bool isFloat = isa<FloatType>(t);
  bool sgn = operandType && isSigned(operandType);
  if (isa<bsgp::PtrType>(lhs.getType())) {
    switch (op) {
    case BO::Add:
      return bsgp::PtrOffsetOp::create(b, l, lhs.getType(), lhs, rhs);
    case BO::Sub:
      if (isa<bsgp::PtrType>(rhs.getType()))
        return bsgp::PtrDiffOp::create(b, l, b.getI64Type(), lhs, rhs);
      return bsgp::PtrOffsetOp::create(b, l, lhs.getType(), lhs,
          arith::SubIOp::create(b, l, zeroOf(rhs.getType(), l), rhs));
    case BO::EQ:
    case BO::NE:
    case BO::LT:
    case BO::GT:
    case BO::LE:
    case BO::GE: {
      arith::CmpIPredicate p =
          op == BO::EQ   ? arith::CmpIPredicate::eq
          : op == BO::NE ? arith::CmpIPredicate::ne
          : op == BO::LT ? arith::CmpIPredicate::ult
          : op == BO::GT ? arith::CmpIPredicate::ugt
          : op == BO::LE ? arith::CmpIPredicate::ule
                         : arith::CmpIPredicate::uge;
      if (rhs.getType() != lhs.getType())
        rhs = bsgp::PtrCastOp::create(b, l, lhs.getType(), rhs);
      return bsgp::PtrCmpOp::create(b, l, b.getI1Type(), p, lhs, rhs);
    }
    default:
      break;
    }
  }
  if (isa<bsgp::PtrType>(rhs.getType()) && op == BO::Add)
    return bsgp::PtrOffsetOp::create(b, l, rhs.getType(), rhs, lhs);
  switch (op) {
  case BO::Add:
    return isFloat ? (Value)arith::AddFOp::create(b, l, lhs, rhs)
                   : (Value)arith::AddIOp::create(b, l, lhs, rhs);
  case BO::Sub:
    return isFloat ? (Value)arith::SubFOp::create(b, l, lhs, rhs)
                   : (Value)arith::SubIOp::create(b, l, lhs, rhs);
  case BO::Mul:
    return isFloat ? (Value)arith::MulFOp::create(b, l, lhs, rhs)
                   : (Value)arith::MulIOp::create(b, l, lhs, rhs);
  case BO::Div:
    if (isFloat)
      return arith::DivFOp::create(b, l, lhs, rhs);
    return sgn ? (Value)arith::DivSIOp::create(b, l, lhs, rhs)
               : (Value)arith::DivUIOp::create(b, l, lhs, rhs);
  case BO::Rem:
    if (isFloat)
      return arith::RemFOp::create(b, l, lhs, rhs);
    return sgn ? (Value)arith::RemSIOp::create(b, l, lhs, rhs)
               : (Value)arith::RemUIOp::create(b, l, lhs, rhs);
  case BO::Shl:
    if (rhs.getType() != lhs.getType())
      rhs = emitConversion(rhs, nullptr, operandType, l);
    return arith::ShLIOp::create(b, l, lhs, rhs);
  case BO::Shr:
    if (rhs.getType() != lhs.getType())
      rhs = emitConversion(rhs, nullptr, operandType, l);
    return sgn ? (Value)arith::ShRSIOp::create(b, l, lhs, rhs)
               : (Value)arith::ShRUIOp::create(b, l, lhs, rhs);
  case BO::And:
    return arith::AndIOp::create(b, l, lhs, rhs);
  case BO::Or:
    return arith::OrIOp::create(b, l, lhs, rhs);
  case BO::Xor:
    return arith::XOrIOp::create(b, l, lhs, rhs);
  case BO::EQ:
  case BO::NE:
  case BO::LT:
  case BO::GT:
  case BO::LE:
  case BO::GE: {
    if (isFloat) {
      arith::CmpFPredicate p = op == BO::EQ   ? arith::CmpFPredicate::OEQ
                               : op == BO::NE ? arith::CmpFPredicate::UNE
                               : op == BO::LT ? arith::CmpFPredicate::OLT
                               : op == BO::GT ? arith::CmpFPredicate::OGT
                               : op == BO::LE ? arith::CmpFPredicate::OLE
                                              : arith::CmpFPredicate::OGE;
      return arith::CmpFOp::create(b, l, p, lhs, rhs);
    }
    arith::CmpIPredicate p =
        op == BO::EQ   ? arith::CmpIPredicate::eq
        : op == BO::NE ? arith::CmpIPredicate::ne
        : op == BO::LT ? (sgn ? arith::CmpIPredicate::slt
                              : arith::CmpIPredicate::ult)
        : op == BO::GT ? (sgn ? arith::CmpIPredicate::sgt
                              : arith::CmpIPredicate::ugt)
        : op == BO::LE ? (sgn ? arith::CmpIPredicate::sle
                              : arith::CmpIPredicate::ule)
                       : (sgn ? arith::CmpIPredicate::sge
                              : arith::CmpIPredicate::uge);
    return arith::CmpIOp::create(b, l, p, lhs, rhs);
  }
  default:
    (void)unsupported({}, "this operator");
    return {};
  }
}

Value MLIRGen::emitBinary(bsgp::BinaryOperator *e) {
  using BO = bsgp::BinaryOperator;
  Location l = loc(e->getRange());
  BO::Opcode op = e->getOpcode();
  if (op == BO::Comma) {
    emitExpr(e->getLHS());
    return emitExpr(e->getRHS());
  }
  if (op == BO::LAnd || op == BO::LOr) {
    // Short-circuit: the right side may read memory the left side guards.
    Value lhs = emitExpr(e->getLHS());
    if (!lhs)
      return {};
    lhs = emitToBool(lhs, l);
    Effects eff = effectsOf(e->getRHS());
    SmallVector<VarKey> keys = carriedKeys(eff);
    SmallVector<Value> before = currentValues(keys);
    SmallVector<Type> types{b.getI1Type()};
    for (Value v : before)
      types.push_back(v.getType());
    auto ifOp = scf::IfOp::create(b, l, types, lhs, true, true);
    OpBuilder::InsertionGuard guard(b);
    // && evaluates the right side when the left is true; || when false.
    Region &evalRegion =
        op == BO::LAnd ? ifOp.getThenRegion() : ifOp.getElseRegion();
    Region &constRegion =
        op == BO::LAnd ? ifOp.getElseRegion() : ifOp.getThenRegion();
    b.setInsertionPointToStart(&evalRegion.front());
    Value rhs = emitExpr(e->getRHS());
    if (!rhs)
      return {};
    SmallVector<Value> yields{emitToBool(rhs, l)};
    llvm::append_range(yields, currentValues(keys));
    scf::YieldOp::create(b, l, yields);
    rebind(keys, before);
    b.setInsertionPointToStart(&constRegion.front());
    yields.assign({arith::ConstantIntOp::create(b, l, op == BO::LOr, 1)});
    llvm::append_range(yields, before);
    scf::YieldOp::create(b, l, yields);
    b.setInsertionPointAfter(ifOp);
    rebind(keys, ifOp.getResults().drop_front());
    return ifOp.getResult(0);
  }
  if (op == BO::Assign) {
    Value v = emitExpr(e->getRHS());
    if (!v)
      return {};
    return emitAssign(e->getLHS(), v, l);
  }
  if (e->isCompoundAssignmentOp()) {
    const bsgp::Type *compTy = e->getComputationType()
                                   ? e->getComputationType()
                                   : e->getLHS()->getType();
    Value rhs = emitExpr(e->getRHS());
    Value cur = emitLValueLoad(e->getLHS());
    if (!rhs || !cur)
      return {};
    Value curC = isa<bsgp::PtrType>(cur.getType())
                     ? cur
                     : emitConversion(cur, e->getLHS()->getType(), compTy, l);
    if (!curC)
      return {};
    if (!isa<bsgp::PtrType>(cur.getType()) && rhs.getType() != curC.getType())
      rhs = emitConversion(rhs, e->getRHS()->getType(), compTy, l);
    Value res = emitArith(BO::getBaseOp(op), curC, rhs, compTy, l);
    if (!res)
      return {};
    if (!isa<bsgp::PtrType>(res.getType()))
      res = emitConversion(res, compTy, e->getLHS()->getType(), l);
    return emitAssign(e->getLHS(), res, l);
  }
  Value lhs = emitExpr(e->getLHS());
  Value rhs = emitExpr(e->getRHS());
  if (!lhs || !rhs)
    return {};
  return emitArith(op, lhs, rhs, e->getLHS()->getType(), l);
}

Value MLIRGen::emitLValueLoad(bsgp::Expr *target) { return emitExpr(target); }

Value MLIRGen::emitAssign(bsgp::Expr *target, Value v, Location l) {
  target = target->ignoreParenImpCasts();
  if (auto *d = dyn_cast<bsgp::DeclRefExpr>(target)) {
    auto *vd = dyn_cast_or_null<bsgp::VarDecl>(d->getDecl());
    if (!vd) {
      (void)unsupported(target->getRange(), "assigning this");
      return {};
    }
    nameValue(v, vd->getName());
    env[vd] = v;
    return v;
  }
  if (auto *ix = dyn_cast<bsgp::IndexExpr>(target)) {
    Value base = emitExpr(ix->getBase());
    Value idx = emitExpr(ix->getIndex());
    if (!base || !idx)
      return {};
    if (isa<bsgp::PtrType>(base.getType())) {
      bsgp::PtrStoreOp::create(b, l, v, base, idx);
      return v;
    }
    if (isa<mlir::VectorType>(base.getType())) {
      Value nv = vector::InsertOp::create(
          b, l, v, base, ArrayRef<OpFoldResult>{OpFoldResult(toIndex(idx, l))});
      emitAssign(ix->getBase(), nv, l);
      return v;
    }
  }
  if (auto *u = dyn_cast<bsgp::UnaryOperator>(target)) {
    if (u->getOpcode() == bsgp::UnaryOperator::Deref) {
      Value p = emitExpr(u->getSubExpr());
      if (!p)
        return {};
      bsgp::PtrStoreOp::create(b, l, v, p, constInt(b.getI32Type(), 0, l));
      return v;
    }
  }
  if (auto *m = dyn_cast<bsgp::MemberExpr>(target)) {
    if (!m->getField() && !m->isArrow()) {
      Value base = emitExpr(m->getBase());
      if (!base)
        return {};
      ArrayRef<unsigned> comps = m->getComponents();
      Value nv = base;
      if (comps.size() == 1) {
        nv = vector::InsertOp::create(b, l, v, nv, int64_t(comps[0]));
      } else {
        for (auto [i, c] : llvm::enumerate(comps)) {
          Value elt = vector::ExtractOp::create(b, l, v, int64_t(i));
          nv = vector::InsertOp::create(b, l, elt, nv, int64_t(c));
        }
      }
      emitAssign(m->getBase(), nv, l);
      return v;
    }
  }
  if (auto *t = dyn_cast<bsgp::ThreadAttrExpr>(target)) {
    // Collective functions implement rank reassignment and fork/kill by
    // assigning the thread attributes (Listing 3, §5).
    Value i32 = toI32(v, nullptr, l);
    if (t->getAttr() == bsgp::ThreadAttrExpr::OldRank) {
      bsgp::SetOldRankOp::create(b, l, i32);
      return v;
    }
    if (t->getAttr() == bsgp::ThreadAttrExpr::Size) {
      bsgp::SetSizeOp::create(b, l, i32);
      return v;
    }
  }
  (void)unsupported(target->getRange(), "assigning to this expression");
  return {};
}

Value MLIRGen::emitUnary(bsgp::UnaryOperator *e) {
  using UO = bsgp::UnaryOperator;
  Location l = loc(e->getRange());
  switch (e->getOpcode()) {
  case UO::Plus:
    return emitExpr(e->getSubExpr());
  case UO::Minus: {
    Value v = emitExpr(e->getSubExpr());
    if (!v)
      return {};
    if (isa<FloatType>(getElementTypeOrSelf(v.getType())))
      return arith::NegFOp::create(b, l, v);
    return arith::SubIOp::create(b, l, zeroOf(v.getType(), l), v);
  }
  case UO::Not: {
    Value v = emitExpr(e->getSubExpr());
    if (!v)
      return {};
    v = emitToBool(v, l);
    return arith::XOrIOp::create(b, l, v,
                                 arith::ConstantIntOp::create(b, l, 1, 1));
  }
  case UO::BitNot: {
    Value v = emitExpr(e->getSubExpr());
    if (!v)
      return {};
    Type t = v.getType();
    Value ones = isa<mlir::VectorType>(t)
                     ? (Value)arith::ConstantOp::create(
                           b, l, t,
                           DenseElementsAttr::get(
                               cast<ShapedType>(t),
                               b.getIntegerAttr(getElementTypeOrSelf(t), -1)))
                     : constInt(t, -1, l);
    return arith::XOrIOp::create(b, l, v, ones);
  }
  case UO::Deref: {
    Value p = emitExpr(e->getSubExpr());
    if (!p)
      return {};
    return bsgp::PtrLoadOp::create(b, l, cast<bsgp::PtrType>(p.getType()).getElementType(), p, constInt(b.getI32Type(), 0, l));
  }
  case UO::AddrOf: {
    // &p[i] is p + i; taking the address of a variable has no meaning for
    // SSA values.
    bsgp::Expr *sub = e->getSubExpr()->ignoreParenImpCasts();
    if (auto *ix = dyn_cast<bsgp::IndexExpr>(sub)) {
      Value base = emitExpr(ix->getBase());
      Value idx = emitExpr(ix->getIndex());
      if (base && idx && isa<bsgp::PtrType>(base.getType()))
        return bsgp::PtrOffsetOp::create(b, l, base.getType(), base, idx);
    }
    if (auto *u = dyn_cast<bsgp::UnaryOperator>(sub))
      if (u->getOpcode() == UO::Deref)
        return emitExpr(u->getSubExpr());
    (void)unsupported(e->getRange(), "taking the address of a variable");
    return {};
  }
  case UO::PreInc:
  case UO::PreDec:
  case UO::PostInc:
  case UO::PostDec: {
    Value old = emitLValueLoad(e->getSubExpr());
    if (!old)
      return {};
    bool inc = e->getOpcode() == UO::PreInc || e->getOpcode() == UO::PostInc;
    Value nv;
    Type t = old.getType();
    if (isa<bsgp::PtrType>(t)) {
      nv = bsgp::PtrOffsetOp::create(b, l, old.getType(), old,
                                     constInt(b.getI32Type(), inc ? 1 : -1, l));
    } else if (isa<FloatType>(t)) {
      Value one = arith::ConstantOp::create(b, l, t, b.getFloatAttr(t, 1.0));
      nv = inc ? (Value)arith::AddFOp::create(b, l, old, one)
               : (Value)arith::SubFOp::create(b, l, old, one);
    } else {
      Value one = constInt(t, 1, l);
      nv = inc ? (Value)arith::AddIOp::create(b, l, old, one)
               : (Value)arith::SubIOp::create(b, l, old, one);
    }
    emitAssign(e->getSubExpr(), nv, l);
    bool pre = e->getOpcode() == UO::PreInc || e->getOpcode() == UO::PreDec;
    return pre ? nv : old;
  }
  }
  return {};
}

Value MLIRGen::emitMember(bsgp::MemberExpr *e) {
  Location l = loc(e->getRange());
  if (e->getField() || e->isArrow()) {
    (void)unsupported(e->getRange(), "a struct member");
    return {};
  }
  Value base = emitExpr(e->getBase());
  if (!base)
    return {};
  ArrayRef<unsigned> comps = e->getComponents();
  if (comps.size() == 1)
    return vector::ExtractOp::create(b, l, base, int64_t(comps[0]));
  SmallVector<int64_t> mask(comps.begin(), comps.end());
  return vector::ShuffleOp::create(b, l, base, base, mask);
}

Value MLIRGen::emitConstruct(bsgp::ConstructExpr *e) {
  Location l = loc(e->getRange());
  const bsgp::Type *t = e->getConstructedType()->getUnqualified();
  auto *vt = dyn_cast<bsgp::VectorType>(t);
  if (!vt) {
    // A functional cast `int(x)`.
    if (e->args().size() != 1) {
      (void)unsupported(e->getRange(), "this construction");
      return {};
    }
    Value v = emitExpr(e->args()[0]);
    return emitConversion(v, e->args()[0]->getType(), t, l);
  }
  Type vecTy = convertType(vt, e->getRange());
  if (!vecTy)
    return {};
  SmallVector<Value> elts;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    if (auto av = dyn_cast<mlir::VectorType>(v.getType())) {
      for (int64_t i = 0; i < av.getNumElements(); ++i)
        elts.push_back(emitConversion(
            vector::ExtractOp::create(b, l, v, i),
            cast<bsgp::VectorType>(a->getType()->getUnqualified())
                ->getElementType(),
            vt->getElementType(), l));
      continue;
    }
    elts.push_back(emitConversion(v, a->getType(), vt->getElementType(), l));
  }
  if (elts.size() == 1)
    return vector::BroadcastOp::create(b, l, vecTy, elts[0]);
  if (elts.size() != vt->getNumElements()) {
    (void)unsupported(e->getRange(), "a vector constructor with this many "
                                     "components");
    return {};
  }
  return vector::FromElementsOp::create(b, l, cast<mlir::VectorType>(vecTy),
                                        elts);
}

Value MLIRGen::emitCall(bsgp::CallExpr *e) {
  Location l = loc(e->getRange());
  bsgp::FunctionDecl *fd = e->getDirectCallee();
  if (!fd) {
    (void)unsupported(e->getRange(), "an indirect call");
    return {};
  }
  SmallVector<Value> args;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    args.push_back(v);
  }
  Type ret = convertType(e->getType(), e->getRange());
  if (!ret)
    return {};

  if (fd->isExternC() && args.size() >= 1 &&
      isa<FloatType>(args[0].getType())) {
    if (Value v = emitMathCall(bsgp::getMathFunction(fd->getName()), args, l))
      return v;
  }
  if (fd->isExternC()) {
    // C calling convention: pointers are plain LLVM pointers, and variadic
    // arguments get C's default promotions.
    Type llvmPtr = LLVM::LLVMPointerType::get(&ctx);
    auto toC = [&](Type t) -> Type {
      return isa<bsgp::PtrType>(t) ? llvmPtr : t;
    };
    size_t fixed = fd->getParams().size();
    SmallVector<Type> paramTypes;
    for (size_t i = 0; i < fixed && i < args.size(); ++i)
      paramTypes.push_back(toC(args[i].getType()));
    for (auto [i, a] : llvm::enumerate(args)) {
      if (isa<bsgp::PtrType>(a.getType()))
        a = UnrealizedConversionCastOp::create(b, l, llvmPtr, a).getResult(0);
      if (i >= fixed) {
        if (a.getType().isF32())
          a = arith::ExtFOp::create(b, l, b.getF64Type(), a);
        else if (a.getType().isInteger(1) || a.getType().isInteger(8))
          a = arith::ExtUIOp::create(b, l, b.getI32Type(), a);
      }
    }
    Type cRet = isa<NoneType>(ret) ? LLVM::LLVMVoidType::get(&ctx) : toC(ret);
    auto fnTy = LLVM::LLVMFunctionType::get(cRet, paramTypes, fd->isVarargs());
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(fd->getName());
    if (!callee) {
      OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
      callee = LLVM::LLVMFuncOp::create(mb, loc(fd->getLoc()), fd->getName(),
                                        fnTy);
    }
    auto call = LLVM::CallOp::create(b, l, callee, args);
    if (isa<NoneType>(ret))
      return arith::ConstantIntOp::create(b, l, 0, 1); // no value; unused
    Value r = call.getResult();
    if (isa<bsgp::PtrType>(ret))
      r = UnrealizedConversionCastOp::create(b, l, ret, r).getResult(0);
    return r;
  }

  auto fn = dyn_cast_or_null<func::FuncOp>(functions.lookup(fd));
  if (!fn) {
    (void)unsupported(e->getRange(), "a call to '" + fd->getName() + "'");
    return {};
  }
  for (auto [i, a] : llvm::enumerate(args))
    if (i < fn.getNumArguments() && a.getType() != fn.getArgumentTypes()[i] &&
        isa<bsgp::PtrType>(a.getType()))
      args[i] = bsgp::PtrCastOp::create(b, l, fn.getArgumentTypes()[i], a);
  auto call = func::CallOp::create(b, l, fn, args);
  if (call.getNumResults() == 0)
    return arith::ConstantIntOp::create(b, l, 0, 1);
  return call.getResult(0);
}

Value MLIRGen::emitMathCall(bsgp::MathFunction f, ArrayRef<Value> a,
                            Location l) {
  using MF = bsgp::MathFunction;
  auto unary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return a.size() == 1 ? Value(Op::create(b, l, a[0])) : Value();
  };
  auto binary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return a.size() == 2 && a[0].getType() == a[1].getType()
               ? Value(Op::create(b, l, a[0], a[1]))
               : Value();
  };
  switch (f) {
  case MF::None:
    return {};
  case MF::Sin: return unary(math::SinOp());
  case MF::Cos: return unary(math::CosOp());
  case MF::Tan: return unary(math::TanOp());
  case MF::Asin: return unary(math::AsinOp());
  case MF::Acos: return unary(math::AcosOp());
  case MF::Atan: return unary(math::AtanOp());
  case MF::Atan2: return binary(math::Atan2Op());
  case MF::Sinh: return unary(math::SinhOp());
  case MF::Cosh: return unary(math::CoshOp());
  case MF::Tanh: return unary(math::TanhOp());
  case MF::Exp: return unary(math::ExpOp());
  case MF::Exp2: return unary(math::Exp2Op());
  case MF::Log: return unary(math::LogOp());
  case MF::Log2: return unary(math::Log2Op());
  case MF::Log10: return unary(math::Log10Op());
  case MF::Sqrt: return unary(math::SqrtOp());
  case MF::Pow: return binary(math::PowFOp());
  case MF::Fabs: return unary(math::AbsFOp());
  case MF::Floor: return unary(math::FloorOp());
  case MF::Ceil: return unary(math::CeilOp());
  case MF::Round: return unary(math::RoundOp());
  case MF::Trunc: return unary(math::TruncOp());
  // C's fmin/fmax return the other operand when one is NaN.
  case MF::Fmin: return binary(arith::MinNumFOp());
  case MF::Fmax: return binary(arith::MaxNumFOp());
  case MF::Fmod: return binary(arith::RemFOp());
  case MF::Copysign: return binary(math::CopySignOp());
  }
  return {};
}

/// `thread.get(r, e)`: e as thread r had it at the end of the previous
/// superstep. Sema admits only variables, constants and operators in e, so
/// e is recomputed here from its thread-local variables as thread r had
/// them (one bsgp.get each, see emitGetOfVariable); host variables and
/// constants are the same in every thread.
Value MLIRGen::emitThreadGet(bsgp::BuiltinCallExpr *e) {
  Location l = loc(e->getRange());
  Value rank = emitExpr(e->args()[0]);
  if (!rank)
    return {};
  rank = toI32(rank, e->args()[0]->getType(), l);
  Value outer = getRank;
  getRank = rank;
  Value v = emitExpr(e->args()[1]);
  getRank = outer;
  return v;
}

/// The read of thread-local variable `vd` (current value `v`) inside the
/// value of a thread.get: the value of the previous superstep, so a barrier
/// must separate the get from the variable's last assignment. A parameter
/// of an inline function is the caller's value, checked where the function
/// is inlined.
Value MLIRGen::emitGetOfVariable(bsgp::VarDecl *vd, Value v, Location l) {
  auto get = bsgp::GetOp::create(b, l, v.getType(), getRank, v);
  if (!bsgp::isFunctionParameter(v) && !bsgp::isSeparatedByBarrier(v, get)) {
    failed = true;
    emitError(l) << "'thread.get' reads '" << vd->getName()
                 << "' as another thread had it at the end of the previous "
                    "superstep, but no barrier separates this get from the "
                    "assignment of '"
                 << vd->getName() << "'";
    return {};
  }
  return get;
}

Value MLIRGen::emitBuiltin(bsgp::BuiltinCallExpr *e) {
  using BK = bsgp::BuiltinCallExpr;
  Location l = loc(e->getRange());
  if (e->getBuiltinKind() == BK::ThreadGet)
    return emitThreadGet(e);
  SmallVector<Value> args;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    args.push_back(v);
  }
  switch (e->getBuiltinKind()) {
  case BK::ThreadPut: {
    // put is an assignment to p in the thread it targets (§5): p is
    // rebound to the op's result.
    Value v = args[2];
    if (v.getType() != args[1].getType())
      v = emitConversion(v, e->args()[2]->getType(), e->args()[1]->getType(),
                         l);
    Value r = bsgp::PutOp::create(
        b, l, v.getType(), toI32(args[0], e->args()[0]->getType(), l), v);
    emitAssign(e->args()[1], r, l);
    return arith::ConstantIntOp::create(b, l, 0, 1);
  }
  case BK::ThreadRebind:
    bsgp::RebindOp::create(b, l, args[0], args[1]);
    return arith::ConstantIntOp::create(b, l, 0, 1);
  case BK::ChunkReduce:
  case BK::ChunkScan: {
    // The collective library's accumulation over a CPU chunk: the operator
    // as the op spells it, with the signedness of min and max from the
    // BSGP type (the MLIR integer types are signless).
    const bsgp::Type *t = e->args()[0]->getType()->getUnqualified();
    bool isFloat = t->isFloating(), isSigned = t->isSignedInteger();
    StringRef kind;
    switch (e->getReduceOp()) {
    case BK::OpAdd: kind = "add"; break;
    case BK::OpMul: kind = "mul"; break;
    case BK::OpMin: kind = isFloat ? "minf" : isSigned ? "mins" : "minu"; break;
    case BK::OpMax: kind = isFloat ? "maxf" : isSigned ? "maxs" : "maxu"; break;
    case BK::OpAnd: kind = "and"; break;
    case BK::OpOr: kind = "or"; break;
    case BK::OpXor: kind = "xor"; break;
    case BK::None: break;
    }
    if (e->getBuiltinKind() == BK::ChunkScan)
      return bsgp::ChunkScanOp::create(b, l, args[0].getType(),
                                       b.getStringAttr(kind), args[0],
                                       args[1]);
    bsgp::ChunkReduceOp::create(b, l, b.getStringAttr(kind), args[0],
                                args[1]);
    return arith::ConstantIntOp::create(b, l, 0, 1);
  }
  case BK::GroupLookback:
    return bsgp::GroupLookbackOp::create(
        b, l, b.getI32Type(), args[0], args[1],
        b.getI32IntegerAttr(int32_t(
            cast<bsgp::IntegerLiteral>(e->args()[2])->getValue())));
  case BK::SinglePass:
    return bsgp::SinglePassOp::create(b, l, b.getI1Type());
  default:
    break;
  }
  // Everything else is a function of the collective library
  // (lib/Collectives, imported into every program by the driver), written
  // in BSGP and inlined by bsgp-inline-collectives. The name mangles the
  // primitive, the operator and the argument types as BSGP spells them:
  // reduce(+, x) with int x -> __bsgp_reduce_add_int(int). See
  // docs/collectives.md.
  std::string name = "__bsgp_";
  name += bsgp::BuiltinCallExpr::getName(e->getBuiltinKind());
  if (e->getReduceOp() != BK::None) {
    name += "_";
    StringRef spelled = bsgp::BuiltinCallExpr::getOpSpelling(e->getReduceOp());
    name += spelled == "+"   ? "add"
            : spelled == "*" ? "mul"
            : spelled == "&" ? "and"
            : spelled == "|" ? "or"
            : spelled == "^" ? "xor"
                             : spelled.str();
  }
  // The call as the user wrote it, for diagnostics (never the mangled name).
  std::string spelledCall =
      "'" + std::string(bsgp::BuiltinCallExpr::getName(e->getBuiltinKind())) +
      "'";
  if (e->getReduceOp() != BK::None)
    spelledCall += " with '" +
                   std::string(bsgp::BuiltinCallExpr::getOpSpelling(e->getReduceOp())) +
                   "'";
  std::string spelledTypes;
  for (bsgp::Expr *ex : e->args()) {
    spelledTypes += spelledTypes.empty() ? "" : ", ";
    spelledTypes += ex->getType()->getUnqualified()->str();
    name += "_" + ex->getType()->getUnqualified()->str();
  }
  for (char &c : name)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_')
      c = '_';
  Type ret = convertType(e->getType(), e->getRange());
  if (!ret)
    return {};
  // `scan(op, x);` as a statement drops the total, which for 64-bit types
  // would cost a reduce of its own.
  bool totalUnused = e->getBuiltinKind() == BK::Scan && e == discarded;
  // Without its total a scan may run in one pass (the library's
  // __bsgp_scan_only_*, for the types and operators that have one).
  if (totalUnused) {
    std::string only =
        "__bsgp_scan_only_" + name.substr(strlen("__bsgp_scan_"));
    auto onlyFn = module.lookupSymbol<func::FuncOp>(only);
    if (onlyFn && !onlyFn.isExternal() && onlyFn.getNumArguments() == 1 &&
        onlyFn.getArgumentTypes()[0] == args[0].getType()) {
      Value scanned = func::CallOp::create(b, l, onlyFn, args).getResult(0);
      emitAssign(e->args()[0], scanned, l);
      return arith::ConstantOp::create(b, l, ret, b.getZeroAttr(ret));
    }
  }
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn || fn.isExternal() || fn.getNumArguments() != args.size()) {
    failed = true;
    emitError(l) << spelledCall << " on (" << spelledTypes
                 << ") is not provided by the collective library";
    return {};
  }
  for (auto [a, t] : llvm::zip(args, fn.getArgumentTypes()))
    if (a.getType() != t) {
      failed = true;
      emitError(l) << spelledCall << " on (" << spelledTypes
                   << ") does not match the collective library's version";
      return {};
    }
  auto call = func::CallOp::create(b, l, fn, args);
  if (call.getNumResults() == 0)
    return arith::ConstantIntOp::create(b, l, 0, 1);
  Value result = call.getResult(0);
  if (e->getBuiltinKind() != BK::Scan)
    return result;
  // scan overwrites its argument with the exclusive scan and returns the
  // total. For 32-bit types the library returns both as a 2-vector
  // (scanned, total); where BSGP has no such vector (64-bit types) it
  // returns the scanned value and the total is a reduce of the same op.
  if (auto vt = dyn_cast<mlir::VectorType>(result.getType());
      vt && !isa<mlir::VectorType>(ret)) {
    Value scanned = vector::ExtractOp::create(b, l, result, int64_t(0));
    Value total = vector::ExtractOp::create(b, l, result, int64_t(1));
    emitAssign(e->args()[0], scanned, l);
    return total;
  }
  if (totalUnused) {
    emitAssign(e->args()[0], result, l);
    return arith::ConstantOp::create(b, l, ret, b.getZeroAttr(ret));
  }
  std::string reduceName = "__bsgp_reduce_" + name.substr(strlen("__bsgp_scan_"));
  auto reduceFn = module.lookupSymbol<func::FuncOp>(reduceName);
  if (!reduceFn || reduceFn.isExternal()) {
    failed = true;
    emitError(l) << "the total of " << spelledCall << " on ("
                 << spelledTypes
                 << ") is not provided by the collective library; call the "
                    "scan as a statement to drop it";
    return {};
  }
  Value total = func::CallOp::create(b, l, reduceFn, args).getResult(0);
  emitAssign(e->args()[0], result, l);
  return total;
}

OwningOpRef<ModuleOp> bsgp::emitMLIR(MLIRContext &context, ASTContext &ast,
                                     SourceManager &sources) {
  context.loadDialect<BSGPDialect, arith::ArithDialect, cf::ControlFlowDialect,
                      func::FuncDialect, LLVM::LLVMDialect, math::MathDialect,
                      scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
  MLIRGen gen(context, ast, sources);
  return gen.run();
}

/// atomicSub(p, v) is an atomic add of -v (the old value is the same); min
/// and max take their signedness from the pointee type.
Value MLIRGen::emitAtomic(bsgp::AtomicExpr *e) {
  using AO = bsgp::AtomicExpr;
  using K = arith::AtomicRMWKind;
  Location l = loc(e->getRange());
  SmallVector<Value, 3> args;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    args.push_back(v);
  }
  if (e->getOp() == AO::CAS)
    return bsgp::AtomicCASOp::create(b, l, args[1].getType(), args[0],
                                     args[1], args[2]);
  if (e->getOp() == AO::Load)
    return bsgp::AtomicLoadOp::create(
        b, l, cast<bsgp::PtrType>(args[0].getType()).getElementType(),
        args[0]);
  Value v = args[1];
  bool isFloat = isa<FloatType>(v.getType());
  bool isSigned = e->getType()->isSignedInteger();
  K kind = K::addi;
  switch (e->getOp()) {
  case AO::Add:
    kind = isFloat ? K::addf : K::addi;
    break;
  case AO::Sub:
    v = arith::SubIOp::create(b, l, zeroOf(v.getType(), l), v);
    break;
  case AO::Min:
    kind = isSigned ? K::mins : K::minu;
    break;
  case AO::Max:
    kind = isSigned ? K::maxs : K::maxu;
    break;
  case AO::And:
    kind = K::andi;
    break;
  case AO::Or:
    kind = K::ori;
    break;
  case AO::Xor:
    kind = K::xori;
    break;
  case AO::Exch:
    kind = K::assign;
    break;
  case AO::CAS:
  case AO::Load:
    break;
  }
  return bsgp::AtomicRMWOp::create(b, l, v.getType(), kind, v, args[0]);
}

//===----------------------------------------------------------------------===//
// Work groups and subgroups
//===----------------------------------------------------------------------===//

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

Value MLIRGen::emitGroup(bsgp::GroupExpr *e) {
  using GE = bsgp::GroupExpr;
  Location l = loc(e->getRange());
  Type i32 = b.getI32Type();
  SmallVector<Value, 2> args;
  for (bsgp::Expr *a : e->args()) {
    Value v = emitExpr(a);
    if (!v)
      return {};
    args.push_back(v);
  }
  auto shuffle = [&](StringRef mode) -> Value {
    return bsgp::SubgroupShuffleOp::create(
        b, l, args[0].getType(), b.getStringAttr(mode), args[0], args[1]);
  };
  auto vote = [&](StringRef mode, Type t) -> Value {
    return bsgp::SubgroupVoteOp::create(b, l, t, b.getStringAttr(mode),
                                        args[0]);
  };
  switch (e->getGroupOp()) {
  case GE::GroupRank:
    return bsgp::GroupRankOp::create(b, l, i32);
  case GE::GroupSize:
    return bsgp::GroupSizeOp::create(b, l, i32);
  case GE::GroupId:
    return bsgp::GroupIdOp::create(b, l, i32);
  case GE::GroupCount:
    return bsgp::GroupCountOp::create(b, l, i32);
  case GE::SubgroupRank:
    return bsgp::SubgroupRankOp::create(b, l, i32);
  case GE::SubgroupSize:
    return bsgp::SubgroupSizeOp::create(b, l, i32);
  case GE::GroupBarrier:
    bsgp::GroupBarrierOp::create(b, l);
    return {};
  case GE::Shuffle:
    return shuffle("idx");
  case GE::ShuffleXor:
    return shuffle("xor");
  case GE::ShuffleUp:
    return shuffle("up");
  case GE::ShuffleDown:
    return shuffle("down");
  case GE::Any:
    return vote("any", b.getI1Type());
  case GE::All:
    return vote("all", b.getI1Type());
  case GE::Ballot:
    return vote("ballot", b.getI64Type());
  case GE::SubgroupMatch:
    return bsgp::SubgroupMatchOp::create(b, l, b.getI64Type(), args[0]);
  case GE::SubgroupAdd:
  case GE::SubgroupMin:
  case GE::SubgroupMax:
  case GE::SubgroupAnd:
  case GE::SubgroupOr:
  case GE::SubgroupXor: {
    bool isSigned = e->getType()->isSignedInteger();
    StringRef kind;
    switch (e->getGroupOp()) {
    case GE::SubgroupAdd:
      kind = "add";
      break;
    case GE::SubgroupMin:
      kind = isSigned ? "mins" : "minu";
      break;
    case GE::SubgroupMax:
      kind = isSigned ? "maxs" : "maxu";
      break;
    case GE::SubgroupAnd:
      kind = "and";
      break;
    case GE::SubgroupOr:
      kind = "or";
      break;
    default:
      kind = "xor";
      break;
    }
    return bsgp::SubgroupReduceOp::create(b, l, args[0].getType(),
                                          b.getStringAttr(kind), args[0]);
  }
  }
  return {};
}
