//===- MLIRGenImpl.h - the AST-to-MLIR generator's class --------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The MLIRGen class, private to lib/MLIRGen and shared by its files, as
/// clang's CodeGenFunction.h: MLIRGen.cpp (the module, types, locations),
/// MLIRGenDecl.cpp (functions and variables), MLIRGenEffects.cpp (what a
/// statement assigns and how it exits), MLIRGenStmt.cpp, MLIRGenExpr.cpp and
/// MLIRGenBuiltin.cpp (builtins, math calls, atomics, groups).
///
/// SSA is built directly: a local variable is a map entry from its VarDecl to
/// its current SSA value, and structured control flow carries the variables
/// it assigns as results (scf.if) or loop-carried values (scf.while). The §4
/// analyses then see every thread-local value as an SSA value, as the paper's
/// compiler does (§4.4).
///
/// C's early exits (return, break, continue) are kept structured with flags:
/// an exit sets a flag variable, and the statements after a statement that
/// may exit run under `if (!flag)`. Loops carry their flags and test them in
/// their condition. Canonicalization removes what turns out to be constant.
///
/// The code is written against MLIR's names (`Type` is mlir::Type, `Value`
/// mlir::Value) and spells the AST's with `bsgp::`, so the class lives in a
/// namespace of its own outside bsgp, where mlir's names are visible.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_MLIRGEN_MLIRGENIMPL_H
#define BSGP_LIB_MLIRGEN_MLIRGENIMPL_H

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
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

#include <deque>

namespace mlirgen {

using namespace mlir;

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

/// A scalar, vector or pointer field of a struct value, nested structs
/// flattened: its type and its offset in the C layout.
struct StructLeaf {
  const bsgp::Type *type;
  uint64_t offset;
};

/// How a struct crosses a call of a C function (MLIRGenCABI.cpp): in
/// memory, or as the types of its eightbytes.
struct CStructABI {
  bool inMemory = false;
  SmallVector<Type, 2> parts;
};

/// The struct type of \p t (qualifiers dropped), or null.
const bsgp::StructType *asStructValue(const bsgp::Type *t);
/// The LLVM parameter attribute by which C's ABI extends an integer of
/// type \p t narrower than 32 bits (`llvm.signext`, `llvm.zeroext`), or
/// an empty string.
StringRef getCExtensionAttr(const bsgp::Type *t);
/// Whether \p st has an array field, directly or in a nested struct. Its
/// variables live in memory, where `s.a[i]` indexes.
bool hasArrayField(const bsgp::StructType *st);

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
  void extendNarrowIntegers(const bsgp::FunctionDecl *fd, func::FuncOp fn);
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

  //===--- Variables in memory (MLIRGenMemoryVars.cpp) --------------------===//
  /// Collects the local variables and parameters of \p body whose address
  /// is taken (`&x`, `&s.f`) into addressTaken.
  void findAddressTaken(bsgp::Stmt *body);
  /// A stack slot of \p count elements of \p et: a pointer to the first.
  /// Outside a spawn it goes to the function's entry block.
  Value stackSlot(Type et, uint64_t count, Location l);
  /// Binds \p vd to a fresh stack slot that holds \p v, or for a struct
  /// variable its \p leaves.
  void placeInMemory(bsgp::VarDecl *vd, Value v, ArrayRef<Value> leaves,
                     Location l);
  /// Moves parameter \p param, already bound, to a stack slot.
  void moveToMemory(bsgp::VarDecl *param);
  bool isInMemory(bsgp::VarDecl *vd) const { return inMemory.contains(vd); }
  /// Whether the code being emitted can use \p vd's slot: threads cannot
  /// reach the host's stack.
  bool slotReachable(bsgp::VarDecl *vd);
  /// Sets the insertion point where threads load host variable \p vd.
  bool hostSlotLoadPoint(bsgp::VarDecl *vd, bsgp::SourceRange where);
  /// Notes a write of in-memory \p vd by a require block (which may make
  /// threads' later reads of it an error).
  void noteRequireWrite(bsgp::VarDecl *vd);
  /// The value of in-memory scalar or vector variable \p vd.
  Value loadVariable(bsgp::VarDecl *vd, bsgp::SourceRange where);
  /// Inside the value of a thread.get: in-memory variable \p vd (its
  /// leaves, for a struct) as thread r had it, loaded at the barrier that
  /// ended the previous superstep; false after reporting where no one
  /// barrier is that place.
  bool loadForGet(bsgp::VarDecl *vd, SmallVectorImpl<Value> &leaves,
                  Location l);
  /// Inside a thread.get: the thread-local struct variable in memory whose
  /// field (of a field) \p e is, and that field's leaves; null otherwise.
  bsgp::VarDecl *gotMemoryStruct(bsgp::MemberExpr *e, unsigned &first,
                                 unsigned &count);
  /// Inside a thread.get: whether \p e is a scalar field of such a
  /// variable, and its value as thread r had it (null after an error).
  bool isGotMemoryField(bsgp::MemberExpr *e);
  Value emitGotMemoryField(bsgp::MemberExpr *e);
  /// The leaves [first, first + count) of in-memory struct variable \p vd.
  bool loadStructVariable(bsgp::VarDecl *vd, SmallVectorImpl<Value> &out,
                          Location l, unsigned first, unsigned count);

  /// The current values of `keys` in the SSA environment, and their
  /// rebinding to `values` (the results of the op that carried them).
  SmallVector<Value> currentValues(ArrayRef<VarKey> keys);
  void rebind(ArrayRef<VarKey> keys, ValueRange values);
  Effects effectsOf(bsgp::Stmt *s);
  void collectEffects(bsgp::Stmt *s, Effects &e, bool inLoop);
  void collectExprEffects(bsgp::Expr *ex, Effects &e);
  /// Keys of `e.assigned` bound before the statement (live out of it), plus
  /// the flags its exits set.
  SmallVector<VarKey> carriedKeys(const Effects &e);
  /// The flags whose being set means "skip the rest of this block".
  Value anyExitFlag(Location l);

  //===--- Expressions ----------------------------------------------------===//
  Value emitExpr(bsgp::Expr *e);
  Value emitExprInner(bsgp::Expr *e);
  Value emitDeclRef(bsgp::DeclRefExpr *d);
  Value emitConditional(bsgp::ConditionalOperator *c);
  Value emitIndex(bsgp::IndexExpr *ix);
  Value emitImplicitCast(bsgp::ImplicitCastExpr *c);
  Value emitSizeof(bsgp::SizeofExpr *s);
  Value emitNew(bsgp::NewExpr *n);
  Value emitBinary(bsgp::BinaryOperator *e);
  /// `l op r`; signed integer + - * are marked nsw (C: their overflow is
  /// undefined) unless \p wraps.
  Value emitArith(bsgp::BinaryOperator::Opcode op, Value l, Value r,
                  const bsgp::Type *operandType, Location l2,
                  bool wraps = false);
  /// nsw for arithmetic in a signed integer type of int's width or wider
  /// (narrower ones are promoted to int first, and their increments wrap
  /// when converted back).
  arith::IntegerOverflowFlags signedOverflowFlags(const bsgp::Type *t,
                                                  Type valueType);
  Value emitUnary(bsgp::UnaryOperator *e);
  Value emitCall(bsgp::CallExpr *e);
  /// A call of extern "C" function \p fd with C's calling convention
  /// (MLIRGenCABI.cpp): a scalar result in \p result, a struct result's
  /// leaves appended to \p leaves. False after reporting.
  bool emitExternCCall(bsgp::CallExpr *e, bsgp::FunctionDecl *fd, Value &result,
                       SmallVectorImpl<Value> *leaves);
  std::optional<CStructABI> classifyForC(const bsgp::StructType *st,
                                         bsgp::SourceRange where);
  /// Whether \p fd takes or returns a struct by value.
  static bool hasStructByValue(const bsgp::FunctionDecl *fd);
  /// Whether a call of \p fd follows C's convention: an extern "C"
  /// function, or one with a struct by value defined in another file.
  bool callsThroughCABI(bsgp::FunctionDecl *fd);
  /// Exports each of \p exported (definitions with a struct by value) as a
  /// function with C's convention, around its BSGP form renamed.
  void emitCABIWrappers(ArrayRef<bsgp::FunctionDecl *> exported);
  /// The wrapper of \p fd around \p fn, its BSGP form.
  void emitCABIWrapper(bsgp::FunctionDecl *fd, func::FuncOp fn);
  /// The definitions emitCABIWrappers exports.
  SmallVector<bsgp::FunctionDecl *> cabiExports;
  Value emitBuiltin(bsgp::BuiltinCallExpr *e);
  Value emitChunkOp(bsgp::BuiltinCallExpr *e, ArrayRef<Value> args);
  Value emitNativeListOp(bsgp::BuiltinCallExpr *e, ArrayRef<Value> args);
  Value emitScan(bsgp::BuiltinCallExpr *e, ArrayRef<Value> args);
  func::FuncOp lookupLibraryCallee(bsgp::FunctionDecl *fd, ArrayRef<Value> args,
                                   unsigned results);
  Value emitBoundCollective(bsgp::BuiltinCallExpr *e, ArrayRef<Value> args);
  Value emitThreadGet(bsgp::BuiltinCallExpr *e);
  /// The rank of thread.get \p e, checked: whether it names a thread of the
  /// spawn, and the rank to read (0 when it does not).
  bool emitGetRank(bsgp::BuiltinCallExpr *e, Value &valid, Value &rank);
  /// \p v where \p valid, the zero of its type elsewhere.
  Value zeroUnless(Value valid, Value v, Location l);
  Value emitGetOfVariable(bsgp::VarDecl *vd, Value v, Location l);
  Value emitGroup(bsgp::GroupExpr *e);
  void emitGroupLocalDecl(bsgp::VarDecl *vd);
  /// A call of a C math function as a math-dialect op, so that every target
  /// lowers it (device code included); null if the arguments do not fit.
  Value emitMathCall(bsgp::MathFunction f, ArrayRef<Value> args, Location l);
  Value emitAtan2(Value y, Value x, Location l);
  Value emitMember(bsgp::MemberExpr *e);
  Value emitConstruct(bsgp::ConstructExpr *e);
  Value emitAtomic(bsgp::AtomicExpr *e);
  Value emitMathBuiltin(bsgp::MathBuiltinExpr *e);
  void storeInitList(bsgp::InitListExpr *il, Value ptr, Type et, Location l);
  // Lists of structs (MLIRGenStructs.cpp).
  Type structMemoryType(const bsgp::StructType *st, bsgp::SourceRange where);
  /// The type of \p t's values in memory: a struct's memory type
  /// (structMemoryType), any other type converted.
  Type memoryType(const bsgp::Type *t, bsgp::SourceRange where);
  Value structAddress(bsgp::Expr *e);
  Value fieldAddress(bsgp::MemberExpr *m);
  Value emitFieldLoad(bsgp::MemberExpr *m);
  Value emitFieldStore(bsgp::MemberExpr *m, Value v, Location l);
  // Struct values, scalarized into their leaves (MLIRGenStructValues.cpp).
  bool structLeaves(const bsgp::StructType *st,
                    SmallVectorImpl<StructLeaf> &out, bsgp::SourceRange where,
                    uint64_t base = 0);
  /// The leaves of a field of type \p t at \p offset: itself, a nested
  /// struct's, or each element's of an array.
  bool arrayLeaves(const bsgp::Type *t, SmallVectorImpl<StructLeaf> &out,
                   bsgp::SourceRange where, uint64_t offset);
  bool structLeafTypes(const bsgp::StructType *st, SmallVectorImpl<Type> &out,
                       bsgp::SourceRange where);
  /// The environment key of leaf \p i of struct variable (or key) \p base.
  VarKey leafKey(VarKey base, unsigned i);
  /// Appends \p k to \p keys if bound, or for a struct variable its bound
  /// leaf keys.
  void appendKeys(VarKey k, SmallVectorImpl<VarKey> &keys);
  void bindStruct(VarKey k, const bsgp::StructType *st, ArrayRef<Value> leaves,
                  StringRef name);
  bool structVarValues(bsgp::VarDecl *vd, SmallVectorImpl<Value> &out,
                       Location l, unsigned first = 0, unsigned count = ~0u);
  bsgp::VarDecl *varLeafRange(bsgp::Expr *e, unsigned &first, unsigned &count);
  bool isStructInMemory(bsgp::Expr *e);
  Value leafPointer(Value addr, uint64_t offset, Type t, Location l);
  bool loadStruct(Value addr, const bsgp::StructType *st,
                  SmallVectorImpl<Value> &out, Location l,
                  bsgp::SourceRange where);
  bool storeStruct(Value addr, const bsgp::StructType *st,
                   ArrayRef<Value> values, Location l, bsgp::SourceRange where);
  bool emitStructInitList(bsgp::InitListExpr *il, const bsgp::StructType *st,
                          SmallVectorImpl<Value> &out);
  bool emitFieldInit(const bsgp::Type *t, bsgp::Expr *init,
                     bsgp::SourceRange where, SmallVectorImpl<Value> &out);
  /// Appends the leaves of struct-typed \p e to \p out; false on failure.
  bool emitStructValue(bsgp::Expr *e, SmallVectorImpl<Value> &out);
  bool assignStruct(bsgp::Expr *target, ArrayRef<Value> values, Location l);
  Value emitValueFieldLoad(bsgp::MemberExpr *m);
  Value emitValueFieldStore(bsgp::MemberExpr *m, Value v, Location l);
  bool emitStructConditional(bsgp::ConditionalOperator *c,
                             SmallVectorImpl<Value> &out);
  bool emitCallArgs(bsgp::CallExpr *e, SmallVectorImpl<Value> &args);
  bool emitStructCall(bsgp::CallExpr *e, SmallVectorImpl<Value> &out);
  bool emitStructPut(bsgp::BuiltinCallExpr *e);
  void notePut(bsgp::PutOp put, bsgp::Expr *target);
  bool checkPuts();
  // Global constants (MLIRGenGlobals.cpp).
  Value emitGlobalRef(bsgp::VarDecl *vd, Location l);
  Value emitConstArrayRef(bsgp::VarDecl *vd, Location l);
  LLVM::GlobalOp constArrayGlobal(bsgp::VarDecl *vd, Location l,
                                  bool isConstant = true);
  LLVM::GlobalOp constStructArrayGlobal(bsgp::VarDecl *vd,
                                        const bsgp::StructType *st,
                                        uint64_t count, StringRef name,
                                        Location l, bool isConstant = true);
  // Global variables that are not const: host memory (MLIRGenGlobals.cpp).
  LLVM::GlobalOp mutableGlobal(bsgp::VarDecl *vd, Location l);
  void bindMutableGlobals(bsgp::Stmt *body);
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
  Value emitSpawnCount(Value n, bsgp::Expr *count, Location l,
                       bool alwaysCheck = false);
  Value emitCountCheck(Value n64, Location l);
  Value emitThreadAttr(bsgp::ThreadAttrExpr *e);
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
  /// Gets of loop variables whose separation from the assignment is
  /// checked once the spawn's loops are complete (emitGetOfVariable).
  SmallVector<std::pair<bsgp::GetOp, std::string>> pendingGets;
  /// The domain of the spawn being emitted: its extents as i32 host values
  /// (x first), then, for 3 dimensions, nx * ny. thread.x .. thread.nz are
  /// computed from them and the rank (docs/language.md, "Spawn domains").
  SmallVector<Value, 4> spawnDomain;
  /// Gets of variables in memory, loaded at `barrier` (loadForGet), checked
  /// once the spawn's loops are complete: no loop around the get but
  /// inside the barrier's block may hold a barrier (checkMemoryGets).
  struct MemoryGet {
    bsgp::GetOp get;
    Operation *barrier;
    std::string name;
  };
  SmallVector<MemoryGet> pendingMemoryGets;
  bool checkMemoryGets();
  void reportMemoryGet(Location l, StringRef name);
  /// The puts of the spawn or function being emitted, with the name of the
  /// variable put, checked at its end (checkPuts).
  SmallVector<std::pair<bsgp::PutOp, std::string>> pendingPuts;
  /// The expression of the statement being emitted, whose value is unused.
  bsgp::Expr *discarded = nullptr;

  llvm::DenseMap<VarKey, Value> env;
  llvm::DenseMap<bsgp::FunctionDecl *, Operation *> functions;
  /// Per function being emitted: flag mode for returns.
  bool useReturnFlag = false;
  char returnFlagKey = 0, returnValueKey = 0;
  bsgp::FunctionDecl *currentFunction = nullptr;
  /// The pointer of each array constant, per spawn (the device list asked
  /// for before it) or device function (its private copy).
  llvm::DenseMap<std::pair<Operation *, bsgp::VarDecl *>, Value> constArrays;
  SmallVector<LoopFlags *> loops;
  /// Keys of the leaves of struct variables: stable addresses, one per
  /// (variable, leaf).
  std::deque<char> keyPool;
  llvm::DenseMap<std::pair<VarKey, unsigned>, VarKey> leafKeys;
  /// The struct variables (and the struct return value) and their types.
  llvm::DenseMap<VarKey, const bsgp::StructType *> structVars;
  /// Per function: the variables whose address it takes, and those of them
  /// living in their stack slot so far (env binds them to the slot's
  /// pointer). As clang's allocas before mem2reg, every other variable is
  /// an SSA value.
  llvm::DenseSet<bsgp::VarDecl *> addressTaken, inMemory;
  /// Per spawn: the host variables in memory its require blocks wrote.
  llvm::DenseSet<bsgp::VarDecl *> assignedInRequire;
  unsigned stringCount = 0;
};

/// The scalar element type of a (possibly multi-dimensional) array and its
/// total number of elements.
std::pair<const bsgp::Type *, uint64_t> flattenArray(const bsgp::Type *t);
/// A global declared const (a const scalar, or an array of const elements).
bool isGlobalConstant(bsgp::VarDecl *vd);

} // namespace mlirgen

#endif // BSGP_LIB_MLIRGEN_MLIRGENIMPL_H
