//===- Interp.h - the BSGP reference interpreter ----------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// bsgpi runs a checked AST directly (docs/testing.md). The threads of a
/// spawn run in lockstep: every expression is evaluated for a list of
/// lanes at once and yields a Column (one value per lane), and control flow
/// splits the lane list. Sema guarantees that barriers and collectives sit
/// under control flow that is uniform across the threads, so when the walk
/// reaches one, every live thread is there, at the same point of the same
/// expression; the collective then works on whole columns. fork, kill and
/// the rank-reassigning primitives rebuild every frame's per-lane storage
/// (lane i always holds the thread of rank i). Host code is the same walk
/// over a single lane. eval() and exec() run each expression and statement
/// by its compiled form (Compile.h), made the first time it is reached;
/// what that form does not cover runs by the tree walk (evalTree,
/// execTree).
///
/// Memory is host memory: pointers are real addresses, so C functions called
/// through libffi just work. Every allocation the interpreter makes or sees
/// made (dnew, dtempnew, variables, string literals, malloc) is in an
/// allocation table that bounds-checks accesses, tracks which bytes of a
/// list were written (uninitialized reads) and which rank wrote each byte
/// in the current superstep (races).
///
//===----------------------------------------------------------------------===//

#ifndef BSGPI_INTERP_H
#define BSGPI_INTERP_H

#include "bsgp/AST/ASTContext.h"
#include "bsgp/Basic/SourceManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace bsgp {
namespace interp {

/// A T read from, or written to, the interpreter's byte storage, which
/// has no alignment.
template <typename T> inline T ld(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}
template <typename T> inline void st(uint8_t *P, T V) {
  std::memcpy(P, &V, sizeof(T));
}

/// C's + - * on T (after the integer promotions): the two's complement
/// result, and \p Overflow set when T is signed (int, int64) and the exact
/// result does not fit. C leaves that undefined; bsgpc marks these
/// operations nsw, as clang does, and bsgpi reports them. Floating-point
/// operands compute as they are.
template <typename T>
inline T cArith(BinaryOperator::Opcode O, T A, T B, bool &Overflow) {
  using Op = BinaryOperator::Opcode;
  if constexpr (std::is_floating_point_v<T>) {
    return O == Op::Add ? A + B : O == Op::Sub ? A - B : A * B;
  } else if constexpr (std::is_signed_v<T> && sizeof(T) >= 4) {
    T R;
    Overflow |= O == Op::Add   ? __builtin_add_overflow(A, B, &R)
                : O == Op::Sub ? __builtin_sub_overflow(A, B, &R)
                               : __builtin_mul_overflow(A, B, &R);
    return R;
  } else {
    using U = std::make_unsigned_t<T>;
    return (T)(O == Op::Add   ? (U)A + (U)B
               : O == Op::Sub ? (U)A - (U)B
                              : (U)A * (U)B);
  }
}

/// Indices of the lanes an expression or statement runs for, ascending.
using Lanes = llvm::SmallVector<uint32_t, 4>;

//===----------------------------------------------------------------------===//
// Types and values
//===----------------------------------------------------------------------===//

/// Bytes of \p T in memory: C layout, vectors rounded up to a power of two
/// and aligned to their size (float3 is 16 bytes, the last word padding),
/// bool one byte, pointers 8; as the compiled code lays them out.
uint64_t sizeOfSlow(const Type *T);
inline uint64_t sizeOf(const Type *T) {
  // The common cases without a call: the walk asks for sizes constantly.
  if (auto *B = llvm::dyn_cast<BuiltinType>(T)) {
    static constexpr uint8_t Sizes[] = {1, 1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
    static_assert(std::size(Sizes) == BuiltinType::Double + 1,
                  "a size for every BuiltinKind");
    return Sizes[B->getBuiltinKind()];
  }
  if (llvm::isa<PointerType>(T))
    return 8;
  return sizeOfSlow(T);
}
uint64_t alignOf(const Type *T);
/// Offset of field \p Index of struct \p S.
uint64_t fieldOffset(const StructType *S, unsigned Index);
/// The scalar kind of a builtin or the element kind of a vector type.
BuiltinType::BuiltinKind scalarKind(const Type *T);
/// Number of scalars of a vector type, 1 otherwise.
unsigned numComponents(const Type *T);
/// Bytes of one component of a vector type (its stride within the vector),
/// of the whole value otherwise.
uint64_t componentSize(const Type *T);

/// One value per lane, Size bytes each.
struct Column {
  uint32_t Size = 0;
  uint32_t N = 0;
  llvm::SmallVector<uint8_t, 16> Bytes;

  Column() = default;
  Column(uint32_t Size, uint32_t N)
      : Size(Size), N(N), Bytes(Size * (size_t)N) {}
  uint8_t *at(size_t K) { return Bytes.data() + K * Size; }
  const uint8_t *at(size_t K) const { return Bytes.data() + K * Size; }
  template <typename T> T get(size_t K) const {
    T V;
    std::memcpy(&V, at(K), sizeof(T));
    return V;
  }
  template <typename T> void set(size_t K, T V) {
    std::memcpy(at(K), &V, sizeof(T));
  }
};

/// Calls \p F with a value of the C++ type that holds a scalar of kind
/// \p K (bool as uint8_t), so that one generic lambda handles every kind.
template <typename Fn>
inline void dispatchKind(BuiltinType::BuiltinKind K, Fn &&F) {
  using BK = BuiltinType::BuiltinKind;
  switch (K) {
  case BK::Bool:
    return F(uint8_t());
  case BK::Char:
    return F(int8_t());
  case BK::UChar:
    return F(uint8_t());
  case BK::Short:
    return F(int16_t());
  case BK::UShort:
    return F(uint16_t());
  case BK::Int:
    return F(int32_t());
  case BK::UInt:
    return F(uint32_t());
  case BK::Int64:
    return F(int64_t());
  case BK::UInt64:
    return F(uint64_t());
  case BK::Float:
    return F(float());
  case BK::Double:
    return F(double());
  case BK::Void:
    return;
  }
}

/// Converts one scalar between builtin kinds with C semantics.
void convertScalar(BuiltinType::BuiltinKind From, const uint8_t *Src,
                   BuiltinType::BuiltinKind To, uint8_t *Dst);
/// Reads a scalar of kind \p K as int64 (integers) or truncated double.
int64_t scalarToInt(BuiltinType::BuiltinKind K, const uint8_t *P);
/// True when the scalar (or pointer) at \p P is nonzero.
bool scalarTruth(const Type *T, const uint8_t *P);

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

enum class AllocKind {
  List,     ///< dnew, bsgprt_dnew.
  TempList, ///< dtempnew: freed when the spawn ends.
  Heap,     ///< malloc and friends, called through libffi.
  Variable, ///< The storage of variables (one slot of Stride bytes a lane).
  String,   ///< String literals and argv.
};

/// One superstep's records of the accesses to a list (Races.cpp): a fixed
/// number of records a unit of bytes, 0 where none.
struct RaceLog {
  std::vector<uint64_t> Rec;
  /// The superstep the records belong to.
  uint64_t Step = 0;
  /// Only units [Lo, Hi) may have records.
  uint64_t Lo = 0, Hi = 0;
};

struct Allocation {
  uint8_t *Base = nullptr;
  uint64_t Size = 0;
  AllocKind Kind = AllocKind::Heap;
  /// For variable storage: each lane's slot; an access may not cross one.
  uint64_t Stride = 0;
  /// Lists: one bit a byte, set once the byte was written.
  std::vector<uint8_t> Init;
  /// Lists: the plain stores and loads of device code in the current
  /// superstep (races, Races.cpp), a record per RaceUnit bytes (0: none
  /// made yet).
  RaceLog Writes, Reads;
  uint32_t RaceUnit = 0;
  bool Owned = false;
  /// A list freed (dtempnew after its spawn, bsgprt_dfree): kept in the
  /// table so that a later access is reported, not read from freed memory.
  bool Freed = false;
  std::string What;
};

class Memory {
public:
  ~Memory();
  /// Allocates \p Size zeroed bytes (aligned to 16) and registers them.
  uint8_t *allocate(uint64_t Size, AllocKind K, uint64_t Stride = 0,
                    llvm::StringRef What = "");
  /// Registers memory allocated elsewhere (malloc through libffi).
  void adopt(void *P, uint64_t Size, AllocKind K);
  /// Unregisters (and frees, if allocated here) the allocation at \p P.
  /// Returns false when \p P starts no allocation.
  bool release(void *P);
  /// Marks the list at \p P freed; returns false when \p P starts no live
  /// list.
  bool retire(void *P);
  /// The allocation containing \p P, or null.
  Allocation *find(const void *P);
  /// The allocation containing \p P or ending at it (one past the end).
  Allocation *findBase(const void *P);
  /// Changes whenever an allocation leaves the table, so that a pointer to
  /// an Allocation kept since (compiled code's caches) is known stale.
  uint64_t epoch() const { return Epoch; }

private:
  uint64_t Epoch = 1;
  std::map<uintptr_t, Allocation> Allocs;
  Allocation *Last = nullptr;
};

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

/// Calls deeper than this are reported (recursion gone wrong); the
/// interpreter's stack (bsgpi.cpp) is sized for it.
constexpr unsigned MaxCallDepth = 10000;

struct Options {
  /// The one target the program runs as (--target=).
  Target Tgt = Target::CPU;
  uint32_t GroupSize = 1;
  uint32_t SubgroupSize = 1;
  uint64_t MaxSteps = 0; ///< 0: no limit.
  bool CheckRaces = true;
  /// Report a thread.get of a rank outside the spawn (otherwise its value
  /// is zero).
  bool CheckGetRange = false;
};

/// A number no frame had before: a frame's Id changes whenever the storage
/// of one of its variables moves, so compiled code can cache addresses.
inline uint64_t newFrameId() {
  static uint64_t Next = 0;
  return ++Next;
}

/// The activation of a function, or of a spawn body.
struct Frame {
  uint64_t Id = newFrameId();
  const FunctionDecl *Fn = nullptr;
  /// Runs in a spawn (one lane a thread or a subset of them).
  bool Device = false;
  /// The spawn body itself: its host variables live in Host.
  bool SpawnBody = false;
  Frame *Host = nullptr;
  uint32_t NumLanes = 1;
  /// Device frames: the thread (rank) of each lane.
  std::vector<uint32_t> Thread;
  /// Variable storage: lane l of a device frame at Base + l * size. An
  /// entry that changes or goes gives the frame a new Id.
  llvm::DenseMap<const VarDecl *, uint8_t *> Vars;
  /// Return values, one per lane.
  Column Ret;
  /// The innermost loop's lanes that left it by break / continue.
  Lanes *Broken = nullptr, *Continued = nullptr;
  /// Function frames: the calling frame and call (null for main), so that
  /// thread.get of a parameter can recompute the caller's argument.
  Frame *Caller = nullptr;
  CallExpr *Site = nullptr;
  /// Superstep counter when the frame was made: a snapshot taken later
  /// holds this frame's variables.
  uint64_t EntryStep = 0;
};

/// A deferred thread.put: written at the end of the superstep.
struct PendingPut {
  uint8_t *Addr;
  llvm::SmallVector<uint8_t, 16> Value;
  uint32_t Rank;
  SourceRange Where;
};

/// The running spawn.
struct SpawnState {
  uint32_t N = 0;
  /// The extents of the spawn's domain (nx, ny, nz; 1 for a dimension the
  /// spawn does not have).
  std::array<uint32_t, 3> Dims = {1, 1, 1};
  unsigned NumDims = 1;
  std::vector<int32_t> OldRank;
  Frame *HostFrame = nullptr;
  std::vector<Frame *> DeviceFrames;
  /// Every lane list of a device frame that lives across a collective.
  std::vector<Lanes *> LiveLanes;
  /// Values of thread.get's variables at the last sync point (taken when
  /// the superstep counter became LastSync), one slot a lane of the frame.
  llvm::DenseMap<const VarDecl *, std::vector<uint8_t>> Snapshots;
  uint64_t LastSync = 0;
  /// Ranks were reassigned since the last barrier: thread.get would have to
  /// name threads by ranks they got in this superstep, which the compiled
  /// program cannot do (bsgp-save-restore rejects it), so it is an error.
  bool ReassignedSinceSync = false;
  std::vector<PendingPut> Puts;
  std::vector<void *> Temps;
  /// What the threads printed since the last sync point: the compiled
  /// program prints it after the superstep, after its require blocks.
  std::string Printed;
};

class Interpreter;
class VarReadBase;

/// The largest value runOne passes in a buffer (a vector of 4 doubles).
constexpr uint32_t MaxOne = 32;

/// A compiled expression (Compile.h): its value for the lanes \p L into
/// \p Out.
class CExpr {
public:
  virtual ~CExpr() = default;
  virtual void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) = 0;
  /// The same for the one lane \p Lane (host code is one lane), the value
  /// into \p Out; only for values of at most MaxOne bytes. Nodes that run
  /// often override it to do without columns and lane lists.
  virtual void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out);
  /// The same for a value of at most 8 bytes, returned in the low bytes
  /// (the others are not defined): a scalar passes in a register.
  virtual uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane);
  /// This node as a variable read, which a parent may do itself.
  virtual VarReadBase *asVarRead() { return nullptr; }
};

/// A compiled statement: runs for the lanes \p L (not empty) and leaves in
/// \p L the lanes that leave it normally (Interpreter::exec).
class CStmt {
public:
  virtual ~CStmt() = default;
  virtual void run(Interpreter &I, Frame &F, Lanes &L) = 0;
};

class Interpreter {
public:
  Interpreter(ASTContext &Ctx, SourceManager &SM, const Options &Opts)
      : Ctx(Ctx), SM(SM), Opts(Opts) {}
  /// Runs main with \p Args (argv[0] included); returns its exit status.
  int run(llvm::ArrayRef<std::string> Args);

  /// Reports a runtime error at \p R and exits with status 1.
  [[noreturn]] void fatal(SourceRange R, const llvm::Twine &Msg);
  /// The same, with a note at \p NoteAt.
  [[noreturn]] void fatal(SourceRange R, const llvm::Twine &Msg,
                          SourceRange NoteAt, const llvm::Twine &Note);

  /// Evaluates \p E for the lanes \p L: by its compiled form
  /// (Compile*.cpp), made on the first evaluation.
  Column eval(Frame &F, Expr *E, Lanes &L);
  Column evalThreadAttr(Frame &F, ThreadAttrExpr::Attr A, const Lanes &L);
  /// Runs \p S for the lanes \p L by its compiled form; returns the lanes
  /// that leave it normally.
  Lanes exec(Frame &F, Stmt *S, Lanes L);
  /// The compiled forms, made once per expression or statement.
  CExpr &compiled(Expr *E);
  CStmt &compiled(Stmt *S);

  // The tree walk (Expr.cpp, Operators.cpp, Stmt.cpp), which compiled code
  // falls back to for what it does not compile itself.
  Column evalTree(Frame &F, Expr *E, Lanes &L);
  /// Addresses (uint64 column) of an lvalue.
  Column address(Frame &F, Expr *E, Lanes &L);
  /// Stores \p V into unnamed object \p D (a compound literal or a
  /// temporary) and gives its addresses.
  Column storeTemporary(Frame &F, VarDecl *D, const Column &V, Lanes &L);
  /// Checked loads and stores; \p Untracked for those the race check
  /// leaves out (atomics, the stores of collectives).
  Column load(Frame &F, const Column &Addr, const Type *T, Lanes &L,
              SourceRange R, bool Untracked = false);
  void store(Frame &F, const Column &Addr, const Column &V, const Type *T,
             Lanes &L, SourceRange R, bool Untracked = false);
  /// One lane's load or store, with every check; \p Track: record it for
  /// the race check, \p Site its place's number (0: not known yet).
  void loadOne(Frame &F, uint8_t *P, uint32_t Size, uint32_t Lane,
               SourceRange R, bool Track, uint32_t &Site, uint8_t *Dst);
  void storeOne(Frame &F, uint8_t *P, const uint8_t *Src, uint32_t Size,
                uint32_t Lane, SourceRange R, bool Track, uint32_t &Site);
  /// Checks that element \p Index of the object \p Ptr points into lies in
  /// it: the allocation (for lists), the lane's slot (for variables) or the
  /// fixed array \p ArrayLen (when known).
  void checkIndex(Frame &F, uint64_t Ptr, int64_t Index, uint64_t ElemSize,
                  uint64_t ArrayLen, uint32_t Lane, SourceRange R);

  // Races (Races.cpp).
  /// Records a plain load (\p New null) or store of \p Size bytes at \p P
  /// of list \p A by \p Rank and reports a race with an earlier access.
  void checkRace(Allocation &A, uint8_t *P, const uint8_t *New, uint32_t Size,
                 uint32_t Rank, uint32_t Site, SourceRange R);
  /// The number of the place \p R in race records.
  uint32_t raceSite(SourceRange R);
  /// checkRace for a load in the common case (whole words, records already
  /// in use this superstep, no store yet); false when checkRace must run.
  bool checkReadRaceFast(Allocation &A, uint8_t *P, uint32_t Size,
                         uint32_t Rank, uint32_t Site);
  [[noreturn]] void raceReport(SourceRange R, const llvm::Twine &Msg,
                               uint64_t Rec, const char *Verb);
  /// A group.barrier(): later accesses are ordered after the work group's
  /// earlier ones.
  void groupBarrierPhase();
  Column convert(const Column &C, const Type *From, const Type *To);
  Column splat(const uint8_t *V, uint32_t Size, uint32_t N);
  Column evalBinary(Frame &F, BinaryOperator *B, Lanes &L);
  Column evalUnary(Frame &F, UnaryOperator *U, Lanes &L);
  /// `A Op B` for the lanes \p L; \p Wraps: signed overflow wraps (an
  /// operator parameter's application) instead of being reported.
  Column arith(BinaryOperator::Opcode Op, const Column &A, const Column &B,
               const Type *T, const Type *BT, const Type *ResT, SourceRange R,
               Frame &F, Lanes &L, bool Wraps = false);
  Column evalAtomic(Frame &F, AtomicExpr *A, Lanes &L);
  Column evalMathBuiltin(Frame &F, MathBuiltinExpr *M, Lanes &L);

  // Statements and calls (Stmt.cpp).
  Lanes execTree(Frame &F, Stmt *S, Lanes L);
  void execBlock(Frame &F, CompoundStmt *S, Lanes &L);
  Lanes execLoop(Frame &F, Stmt *S, Expr *Cond, Expr *Inc, Stmt *Body,
                 bool CondFirst, Lanes L);
  Column call(Frame &F, CallExpr *C, Lanes &L);
  Column callFunction(Frame &F, const FunctionDecl *Fn,
                      llvm::ArrayRef<Column> Args, Lanes &L, SourceRange R,
                      CallExpr *Site = nullptr);
  uint8_t *varBase(Frame &F, const VarDecl *D, bool &PerLane);
  uint32_t rankOf(Frame &F, uint32_t Lane) {
    return F.Device ? F.Thread[Lane] : 0;
  }
  /// Reports `What` (`A op B`, or the negation of A) overflowing the signed
  /// type \p Ty in lane \p Lane, as UBSan words it.
  [[noreturn]] void signedOverflow(SourceRange R, const std::string &What,
                                   const Type *Ty, Frame &F, uint32_t Lane) {
    fatal(R, "signed integer overflow: " + What +
                 " cannot be represented in type '" + Ty->str() + "'" +
                 (F.Device ? " by rank " + std::to_string(rankOf(F, Lane))
                           : std::string()));
  }
  template <typename T>
  [[noreturn]] void signedOverflow(SourceRange R, BinaryOperator::Opcode O, T A,
                                   T B, const Type *Ty, Frame &F,
                                   uint32_t Lane) {
    signedOverflow(R,
                   std::to_string(A) + " " + BinaryOperator::getSpelling(O) +
                       " " + std::to_string(B),
                   Ty, F, Lane);
  }
  template <typename T>
  [[noreturn]] void signedNegationOverflow(SourceRange R, T A, const Type *Ty,
                                           Frame &F, uint32_t Lane) {
    signedOverflow(R, "negation of " + std::to_string(A), Ty, F, Lane);
  }
  /// Counts a loop iteration or call against --max-steps.
  void step(SourceRange R) {
    ++Steps;
    if (Opts.MaxSteps && Steps > Opts.MaxSteps)
      tooManySteps(R);
  }
  [[noreturn]] void tooManySteps(SourceRange R);
  bool mayRemap(Stmt *S);
  /// Whether \p S may end a superstep (a barrier, a collective, a par):
  /// the require blocks after it belong to the next superstep.
  bool endsSuperstep(Stmt *S);
  /// Whether \p S is a branch or loop that holds a sync (a require
  /// included): the compiled program cuts the spawn around it.
  bool cutsSpawn(Stmt *S);
  /// Writes what the threads printed since the last flush.
  void flushPrinted();
  llvm::SmallVector<const VarDecl *, 2> deviceReads(Stmt *S);

  // Spawns and collectives (Spawn.cpp, Collectives.cpp, Groups.cpp).
  void execSpawn(Frame &F, SpawnStmt *S);
  void syncPoint(Frame &F, Lanes &L, SourceRange R, const char *What);
  Column evalSegmented(Frame &F, BuiltinCallExpr *B, Lanes &L);
  Column evalBuiltin(Frame &F, BuiltinCallExpr *B, Lanes &L);
  Column evalGroup(Frame &F, GroupExpr *G, Lanes &L);
  /// thread.get and thread.put (Spawn.cpp).
  Column evalGetPut(Frame &F, BuiltinCallExpr *B, Lanes &L);
  /// The value of thread.get: \p E as thread \p Ranks[K] had it at the end
  /// of the previous superstep, for each K (ThreadGet.cpp).
  Column evalInThreads(Frame &F, Expr *E, Lanes &Ranks);
  /// Fills GetVars from the program (ThreadGet.cpp).
  void findGetVars();
  /// Rebuilds the spawn so that new rank j is old rank Src[j].
  void remap(llvm::ArrayRef<uint32_t> Src);
  void setOldRank(llvm::ArrayRef<int32_t> Old) {
    Spawn->OldRank.assign(Old.begin(), Old.end());
  }

  // Host calls (FFI.cpp).
  /// printf in a thread (docs/language.md, "Device printf"): each lane's
  /// text joins the spawn's output of the superstep.
  void devicePrintf(llvm::ArrayRef<Column> Args,
                    llvm::ArrayRef<const Type *> ArgTypes, Lanes &L,
                    SourceRange R);
  Column callExternal(Frame &F, const FunctionDecl *Fn,
                      llvm::ArrayRef<Column> Args,
                      llvm::ArrayRef<const Type *> ArgTypes, Lanes &L,
                      SourceRange R);

  /// Registers a live lane list of a device frame for remapping.
  struct LiveLanesGuard {
    Interpreter &I;
    bool Active;
    LiveLanesGuard(Interpreter &I, Frame &F, Lanes *L) : I(I) {
      Active = L && F.Device && I.Spawn;
      if (Active)
        I.Spawn->LiveLanes.push_back(L);
    }
    ~LiveLanesGuard() {
      if (Active)
        I.Spawn->LiveLanes.pop_back();
    }
  };

  ASTContext &Ctx;
  /// The objects of struct values indexed through an array field, one per
  /// expression (Interpreter::address).
  llvm::DenseMap<const Expr *, VarDecl *> Temporaries;
  SourceManager &SM;
  Options Opts;
  Memory Mem;
  SpawnState *Spawn = nullptr;
  /// Superstep counter: plain stores in device code record it (races).
  uint64_t Superstep = 1;
  /// group.barrier() calls since the superstep started (races).
  uint32_t GroupPhase = 0;
  std::vector<SourceRange> RaceSites;
  /// The places in race records: (file << 32 | line, column) to number.
  llvm::DenseMap<std::pair<uint64_t, uint32_t>, uint32_t> RaceSiteIds;
  uint64_t Steps = 0;
  unsigned Depth = 0;
  Frame Globals;
  llvm::DenseMap<const StringLiteral *, uint8_t *> Strings;
  /// Variables read by thread.get: snapshotted at every sync point.
  llvm::DenseSet<const VarDecl *> GetVars;
  llvm::DenseMap<const Stmt *, bool> RemapCache;
  llvm::DenseMap<const Stmt *, bool> SyncCache, CutCache;
  std::map<std::string, const FunctionDecl *> Functions;
  llvm::DenseMap<const Expr *, std::unique_ptr<CExpr>> CompiledExprs;
  llvm::DenseMap<const Stmt *, std::unique_ptr<CStmt>> CompiledStmts;
};

/// A readable list of ranks for reports: "3" or "3 and 7".
std::string rankList(llvm::ArrayRef<uint32_t> Ranks);

} // namespace interp
} // namespace bsgp

#endif // BSGPI_INTERP_H
