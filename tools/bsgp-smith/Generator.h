//===- Generator.h - bsgp-smith's program model and generator ---*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// bsgp-smith writes random BSGP programs that are valid, terminate and are
// free of undefined behaviour by construction (in the spirit of Csmith and
// YARPGen): integer arithmetic that may overflow is done in unsigned types,
// division and remainder go through guarded helpers, shift counts are
// masked, list indices are in bounds, and floating-point values are small
// integers so that every sum, product and reduction order gives the same
// exact result. The program's `main` prints a checksum of everything it
// computed, so two correct implementations print the same text.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_SMITH_GENERATOR_H
#define BSGP_SMITH_GENERATOR_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace bsgp {
namespace smith {

/// The features a generated program may use; each can be switched off so
/// that a construct the compiler currently gets wrong can be excluded, or
/// switched on alone to target it.
enum class Feature : unsigned {
  HostLoops,     ///< host loops and branches over host scalars
  Int64,         ///< int64 / uint64 values
  Float,         ///< float values (small integers, exact)
  Double,        ///< double values (small integers, exact)
  Vectors,       ///< int4 / uint4 / float4 values and swizzles
  Math,          ///< exact math functions (fabs, floor, fmin, ...)
  Trunc,         ///< trunc among them
  PrivateArrays, ///< thread-local arrays (`int a[4]`) within a superstep
  ArrayBarrier,  ///< thread-local arrays live across a barrier
  Barrier,       ///< `barrier;` with values live across it
  Get,           ///< thread.get of a neighbour's value after a barrier
  GetExpr,       ///< thread.get(r, e) where e is not a bare variable
  GetAny,        ///< thread.get of any variable, even one holding a constant
  Put,           ///< thread.put along a permutation of the ranks
  Reduce,        ///< reduce with every operator and element type
  ReduceTwice,   ///< a second reduce in a spawn that has no scan
  Scan,          ///< scan, both with its total and as a statement
  Compact,       ///< compact into a require-allocated list
  Split,         ///< split into a require-allocated list
  SortIdx,       ///< sort_idx
  SortBy,        ///< thread.sortby
  ThreadSplit,   ///< thread.split
  Reassign,      ///< barrier(RANK_REASSIGNED) with thread.oldrank
  OldRank,       ///< reading thread.oldrank after a rank change
  Fork,          ///< thread.fork
  Kill,          ///< thread.kill
  Par,           ///< par blocks of independent collectives
  ParScan,       ///< scan inside a par block
  Require,       ///< require blocks with dtempnew/dnew allocations
  Group,         ///< work-group operations with local arrays
  Subgroup,      ///< subgroup operations
  Shuffle,       ///< subgroup shuffles (only where subgroups are full)
  Atomics,       ///< atomics with order-independent results
  UniformBranch, ///< collectives and barriers under uniform branches
  BigSpawn,      ///< spawns of 10^5 threads and more
  Generics,      ///< generic functions (templates) called in expressions
  DDelete,       ///< the input lists freed with ddelete after the spawn
  MinMax,        ///< the builtins min, max, clamp and abs
  Constants,     ///< global constant tables and initializer lists
  StructLists,   ///< an input list of structs read field by field
  DevicePrintf,  ///< printf from the thread of rank 0
  InlineRank,    ///< an inline function reading thread.rank and thread.size
  StructValues,  ///< struct locals, struct parameters and results, copies
  UniformLoop,   ///< barriers and collectives in loops with uniform bounds
  RankDiv,       ///< rank / gw and rank % gw by a host value (grid coordinates)
  ConstExprs,    ///< unsigned and 64-bit integer constant expressions
  // Control contexts and what crosses them (Flow.cpp).
  UniformElse,   ///< uniform if/else
  UniformWhile,  ///< uniform while loops
  UniformNested, ///< uniform branches and loops inside one another
  UniformDo,     ///< uniform do-while loops
  CollectiveFns, ///< inline collective functions called from spawn bodies
  UniformJumps,  ///< uniform break and continue in loops of supersteps
  RequirePrintf, ///< printf in require blocks, between device printfs
  TemplateFns,   ///< generic (template) collective functions
  TempLists,     ///< dtempnew lists allocated in a require and used later
  FlowGet,       ///< thread.get across pieces of a split spawn after a
                 ///< rank change
  FlowLists,     ///< dtempnew lists used in later pieces
  FlowPrintf,    ///< require printf in later pieces of a split spawn
  FnFlow,        ///< uniform branches and loops in collective functions
  UniformArgs,   ///< uniform values passed as is to collectives
  Libm,          ///< inexact C math functions (exp, sin, atan2, ...),
                 ///< rounded back to integers
  FnJumps,       ///< a function with a return and a break in a loop
  CNames,        ///< BSGP's C headers and C's spellings of its types
  AddrOf,        ///< &x of locals and struct fields, written through the
                 ///< pointer (and by helper calls in host code)
  StructInits,   ///< lists of arrays of structs, a constant table of
                 ///< structs, compound literals
  Globals,       ///< global variables (host memory) that host code updates
                 ///< and threads read
  ArrayLiterals, ///< `T a[] = {...}` and array compound literals
  ArrayFields,   ///< with StructValues: struct locals with an array field
  GridLoops,     ///< a loop of ring steps that bsgp-fuse-uniform-loops
                 ///< makes one kernel
  CForms,        ///< C's expression forms: scalar and vector compound
                 ///< literals, sizeof of an expression, and (host code,
                 ///< with c-names) <stdlib.h>'s div and lldiv, whose struct
                 ///< results cross C's calling convention
  Segmented,     ///< segreduce and segscan with every operator and type
  Domains,       ///< spawns of 2 and 3 dimensions; the rank spelled as
                 ///< thread.x + thread.nx * (thread.y + ...)
  NumFeatures
};

/// Feature names as the command line spells them, in enum order.
llvm::StringRef featureName(Feature F);
/// The feature called \p Name, or NumFeatures if there is none.
Feature featureByName(llvm::StringRef Name);
/// Whether a feature is on when no option names it.
bool featureOnByDefault(Feature F);

/// Where a barrier, collective or rank change is generated (Flow.cpp).
enum class Context : unsigned {
  Top,      ///< the spawn body before its first uniform branch or loop
  After,    ///< the spawn body after one (a later piece of a split spawn)
  If,       ///< the then-branch of a uniform if
  Else,     ///< the else-branch of a uniform if
  For,      ///< a uniform for loop
  While,    ///< a uniform while loop
  Do,       ///< a uniform do-while loop
  Nested,   ///< a uniform branch or loop inside another
  Break,    ///< a loop body with a uniform break
  Continue, ///< a loop body with a uniform continue
  Inline,   ///< the top level of an inline collective function
  Template, ///< the top level of a generic collective function
  NumContexts
};

/// Prints which feature is generated in which context, as the markdown
/// tables of docs/testing-generator.md (`bsgp-smith --list-contexts`).
void printContextTable(llvm::raw_ostream &OS);

struct Options {
  uint64_t Seed = 0;
  unsigned Size = 3; ///< 1 (tiny) .. 10 (large): spawns and statements
  bool Enabled[static_cast<unsigned>(Feature::NumFeatures)] = {};
  bool has(Feature F) const { return Enabled[static_cast<unsigned>(F)]; }
  /// One invalid construct in the first spawn (PlantedErrors.cpp).
  bool PlantError = false;
};

/// SplitMix64: the same sequence on every platform and standard library
/// (std::uniform_int_distribution is not portable across libraries).
class Rng {
public:
  explicit Rng(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9e3779b97f4a7c15ull);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
    return Z ^ (Z >> 31);
  }
  /// A value in [0, N); N > 0. The tiny modulo bias is irrelevant here.
  unsigned below(unsigned N) { return static_cast<unsigned>(next() % N); }
  /// A value in [Lo, Hi].
  int range(int Lo, int Hi) {
    return Lo + static_cast<int>(below(Hi - Lo + 1));
  }
  /// True with probability Pct percent.
  bool chance(unsigned Pct) { return below(100) < Pct; }
  template <typename T> const T &pick(const std::vector<T> &V) {
    return V[below(V.size())];
  }

private:
  uint64_t State;
};

/// Scalar element types of generated values.
enum class Ty { Int, UInt, Int64, UInt64, Float, Double };

const char *tyName(Ty T);
bool isFloating(Ty T);
bool isSigned(Ty T);
bool is64(Ty T);
/// The unsigned integer type of the same width (Float -> UInt, Double ->
/// UInt64).
Ty unsignedOf(Ty T);

/// A scalar variable the generator may read. Floating variables always hold
/// integers of magnitude at most `floatLimit(T)`.
struct Var {
  std::string Name;
  Ty T;
  /// Host variables are read-only in device code, loop counters always.
  bool Writable = true;
  /// Non-zero for a thread-local (or host) array of that many elements.
  unsigned Len = 0;
  /// The piece of the split spawn the variable was declared in.
  unsigned Piece = 0;
  /// Its address may be taken (Feature::AddrOf): thread.get does not read
  /// it, as the compiler rejects thread.get of such a variable.
  bool Addressed = false;
};

/// Magnitude bound of the integer values a floating variable holds.
double floatLimit(Ty T);

/// The double C math functions the generator calls (Expr.cpp).
extern const unsigned NumLibmFns;
/// `floor(4.0 * f(x) + 0.25)` for function \p Index (modulo NumLibmFns) of
/// the double expression \p A, an integer of magnitude at most \p BA (\p B
/// is atan2's second argument); \p Bound gets the bound of the result.
std::string libmOf(unsigned Index, const std::string &A, double BA,
                   const std::string &B, double &Bound);

/// Where code is being generated: decides what expressions may read.
enum class Ctx { Host, Device };

/// A lexical scope of readable variables.
struct Scope {
  std::vector<std::vector<Var>> Levels;
  /// The current piece of a split spawn, given to the variables added.
  unsigned Piece = 0;
  void push() { Levels.emplace_back(); }
  void pop() { Levels.pop_back(); }
  void add(Var V) {
    V.Piece = Piece;
    Levels.back().push_back(std::move(V));
  }
  /// The scalars of type \p T, of any type, the writable ones, the arrays.
  std::vector<Var> all(Ty T) const;
  std::vector<Var> all() const;
  std::vector<Var> writable() const;
  std::vector<Var> arrays() const;
  /// Forgets the arrays of the outermost \p Level (after a barrier).
  void dropArrays(size_t Level);
};

/// Writes one program. The generator emits text directly; the structure it
/// needs (variables in scope, types, magnitude bounds of floating values,
/// the number of threads) is tracked while it goes.
class Generator {
public:
  explicit Generator(const Options &Opts)
      : Opts(Opts), R(Opts.Seed), DomR(Opts.Seed ^ 0xd0a1d0a1d0a1ull) {}
  void run(llvm::raw_ostream &OS);

  // Output helpers.
  void line(const std::string &S);
  void open(const std::string &S) {
    line(S + " {");
    ++Indent;
  }
  void close(const std::string &Tail = "") {
    --Indent;
    line("}" + Tail);
  }
  std::string fresh(const char *Prefix);
  /// How a declaration spells \p T: its BSGP name, or with c-names one of
  /// C's spellings of it, chosen by \p Which.
  std::string declTyName(Ty T, unsigned Which) const;

  // Expressions (Expr.cpp).
  /// An expression of type \p T of nesting at most \p Depth; floating
  /// results are within floatLimit(T).
  std::string expr(Ty T, int Depth);
  std::string intExpr(Ty T, int Depth);
  std::string cForm(Ty T, int Depth);
  std::string floatExpr(Ty T, int Depth, double &Bound);
  std::string libmCall(Ty T, int Depth, double &Bound);
  std::string leaf(Ty T, double &Bound);
  std::string literal(Ty T);
  /// \p E (of type \p From) converted to \p To without undefined behaviour.
  std::string convert(const std::string &E, Ty From, Ty To);
  /// A boolean condition.
  std::string cond(int Depth);
  Ty randomTy();
  Ty randomIntTy();

  // Statements (Stmt.cpp).
  void assignStmt();
  void declStmt();
  void stmtList(int Count, int Depth);
  void stmt(int Depth);
  void ifStmt(int Depth);
  void loopStmt(int Depth);
  void privateArrayStmt();
  void vectorStmt();
  /// A write through the address of a variable declared addressable;
  /// false if there is none in scope.
  bool addrStmt();
  void hashVars(const std::string &Acc);

  // Struct values (Structs.cpp).
  void structHelpers();
  /// Declares the scalar fields of struct local \p Name as variables.
  void addStructFields(const std::string &Name, bool Addressed = false);
  /// The writable struct locals in scope (of the spawn body's top level
  /// only, if \p OnlySpawnLevel).
  std::vector<std::string> structLocals(bool OnlySpawnLevel) const;
  std::string structInitList();
  /// A struct value of Feature::StructInits: a compound literal, a table
  /// element, an element of a host array of structs from a list.
  std::string structInitsValue();
  void structStmt();
  /// A statement on `struct SmArr` locals (Feature::ArrayFields).
  void arrayFieldStmt();
  void addArrayStructFields(const std::string &Name);
  /// Before a barrier: a new struct local \p Target that another thread
  /// puts a struct value into.
  void structPut(std::string &Target);
  /// `struct Type p_N = thread.get(Rank, l)` of one of \p Locals, its
  /// fields then added by \p AddFields; nothing without locals.
  void getStructLocal(const std::vector<std::string> &Locals,
                      const std::string &Type, const char *Prefix,
                      const std::string &Rank,
                      llvm::function_ref<void(const std::string &)> AddFields);
  /// After a barrier: a struct local got from thread \p Rank.
  void structGet(const std::string &Rank);
  /// `struct SmArr s = thread.get(rank, sr)` of a struct local with an
  /// array field, right after a barrier.
  void arrayStructGet(const std::string &Rank);

  // Spawns (Spawn.cpp and Collectives.cpp).
  void spawnFunction(unsigned K);
  /// The host side of the input list of structs (Feature::StructLists).
  void hostRecords();
  void spawnBody(unsigned K);
  void plantError();
  void superstepBreak();
  /// Every fourth barrier: a value through a list from before the spawn.
  void listRoundTrip();
  /// Forgets the arrays in scope when they may not cross a barrier.
  void afterBarrier();
  void segmentEnd();

  // Control contexts (Flow.cpp): uniform branches and loops, collective
  // functions, and what crosses the pieces of a split spawn.
  struct FlowLevel {
    Context C;
    /// The piece the construct's body began in.
    unsigned Entry = 0;
    /// Whether rank changes may be generated inside (a loop's body).
    bool RankChanges = true;
  };
  /// The constructs around the current point, innermost last; a loop with
  /// a uniform break or continue adds that context too.
  std::vector<FlowLevel> Flow;
  unsigned contextMask() const;
  /// Whether \p F may be generated here: it is on, and the feature x
  /// context table allows it in every context around (and in \p Extra).
  bool allows(Feature F, unsigned Extra = 0) const;
  /// Whether thread.get may read \p V here (it may come from an earlier
  /// piece, with ranks changed since).
  bool gettable(const Var &V) const;
  /// Opens a uniform branch or loop, or calls a collective function, if
  /// one is enabled here; false when none is.
  bool flowConstruct();
  void uniformBranch();
  void uniformLoop(Context Kind);
  /// A loop of supersteps that only get, compute and end supersteps
  /// (Feature::GridLoops), at the top level of a spawn body.
  void gridLoop();
  void flowBody(FlowLevel L, llvm::function_ref<void()> Body);
  std::string uniformValue(Context Kind, unsigned Limit);
  void collectiveCall(bool Generic);
  void newPiece();
  void tempListAlloc();
  void tempListStmt();
  void requirePrintf();
  struct TempList {
    std::string Name, Cap;
    Ty T;
    unsigned Piece;
    size_t Level;
  };
  std::vector<TempList> TempLists;
  /// Put targets, forgotten at the next uniform branch or loop.
  std::vector<std::string> PutTargets;
  /// The collective functions the spawn being generated calls.
  std::string FnDefs;
  /// The spawn's (or function's) accumulator of the values computed in
  /// uniform branches and loops.
  std::string Acc;
  unsigned NextPiece = 1, InLoops = 0, ForkDoubles = 0;
  /// Plain uniform loops open (uniformLoop): their supersteps print nothing
  /// from a require, which would make the host loop call printf.
  unsigned PlainLoops = 0;
  int LastRankChangePiece = -1;
  /// A kill or fork may have ended every thread: bsgpi then runs no later
  /// require of the spawn, so none prints.
  bool ThreadsMayDie = false;
  void collectiveStmt();
  void reduceStmt(bool InPar);
  void scanStmt(bool InPar);
  void compactStmt(bool IsSplit);
  void sortIdxStmt(bool InPar);
  void rankChangeStmt();
  void parStmt();
  void groupStmt();
  void subgroupStmt();
  void atomicStmt();
  void printfStmt();
  std::string reduceOperand(Ty T, const std::string &Op);
  /// A call of the generic helper \p Name on \p Args of type \p T: the
  /// template argument given explicitly or deduced from casts to T.
  /// The global constant table of element type T (Feature::Constants).
  static std::string tableName(Ty T) {
    return std::string("sm_table_") + tyName(T);
  }
  struct Table {
    Ty T;
    double Bound; ///< the largest magnitude of a floating table
  };
  std::vector<Table> Tables;
  std::string minMaxCall(const std::string &A, const std::string &B,
                         llvm::function_ref<std::string()> Third);
  std::string genericCall(const char *Name, Ty T,
                          const std::vector<std::string> &Args);
  /// Called before each reduce: without reduce-twice, a spawn's second
  /// reduce gets a scan first.
  void noteReduce();
  void segmentedStmt();
  unsigned Reduces = 0, Scans = 0;

  // Integer constant expressions (ConstExprs.cpp): the function sm_consts.
  void constExprs();

  // Host code (Program.cpp).
  void preamble();
  void helpers();
  void constantTables();
  /// Feature::Globals: the global variables and the host helper that
  /// writes one.
  void globalVariables();
  void hostFunction(unsigned K);
  void mainFunction();

  const Options &Opts;
  Rng R;
  /// The domains feature's own stream: spawn shapes and coordinates
  /// change no other choice, so a seed gives the program it gave before
  /// with only those spelled differently.
  Rng DomR;
  /// The current spawn's domain: its dimensions (1 to 3) and its extents
  /// x and y (the last extent is n divided by the others).
  unsigned SpawnDims = 1;
  uint64_t DomX = 1, DomY = 1;
  std::string domainRank();
  void chooseDomain(uint64_t N);
  std::string spawnHead();
  Scope S;
  Ctx Where = Ctx::Host;
  /// Inside a spawn: the largest and smallest number of threads it may have
  /// at this point (fork and kill change it), and whether the ranks are
  /// still those of the launch.
  uint64_t MaxThreads = 0, MinThreads = 0;
  bool RanksChanged = false;
  /// Whether the point is inside a collective function (Flow.cpp).
  bool inCollectiveFunction() const;
  /// The most threads a spawn may reach through fork.
  uint64_t threadCap() const;
  /// Inside a uniform branch or loop: no thread.oldrank reads (which
  /// reassignment was last is known only at run time).
  bool InUniformFlow = false;
  /// A uniform branch or loop reassigned ranks: thread.oldrank is
  /// ambiguous until the next reassignment at the top level.
  bool OldRankAmbiguous = false;
  /// The scope level of the spawn body's top-level variables.
  size_t SpawnLevel = 0;
  /// Lists the host allocates before the spawn (when require is off).
  std::vector<Var> PreLists;
  /// The launch size of each spawn, for main.
  std::vector<uint64_t> SpawnSizes;
  /// The spawn's read-only input lists (indexed modulo `n`).
  std::vector<Var> Inputs;
  /// Whether the spawn being generated has the struct list `drec`.
  bool HasRec = false;
  /// A simple index expression (no arrays, no lists) for array subscripts.
  std::string indexLeaf();
  /// The counter of fresh names.
  unsigned NameCounter = 0;
  /// Whether the spawn uses the `acc` list of atomic accumulators.
  bool HasAtomics = false;
  int Indent = 0;
  std::string Out;
};

} // namespace smith
} // namespace bsgp

#endif // BSGP_SMITH_GENERATOR_H
