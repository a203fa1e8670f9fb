//===- Flow.cpp - bsgp-smith's control contexts ---------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Barriers, collectives and rank changes in every control context a spawn
// body offers: uniform if/else, for, while and do loops, nested, with
// uniform break and continue, and inline and generic (template) collective
// functions called from any of them. One table says which feature is
// generated in which context; the generator consults it and
// `--list-contexts` prints it (docs/testing-generator.md holds the copy
// that test/Smith/contexts-doc.test compares). A combination the compiler
// cannot handle yet needs a feature that is off by default.
//
// bsgpc splits a spawn with uniform control flow into pieces, the device
// code between two branches or loops, which the host sequences
// (bsgp-split-uniform-flow): what a piece computes reaches later pieces
// through lists. The generator numbers the pieces as it writes them, so
// that it knows which values, lists and output cross from one piece to
// another: those crossings are where split spawns go wrong.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <algorithm>

using namespace bsgp::smith;

namespace {
struct ContextInfo {
  const char *Name;
  const char *Where;
  /// The feature that makes the generator write the context.
  const char *Needs;
};

/// In Context order.
const ContextInfo Contexts[] = {
    {"top", "the spawn body before its first uniform branch or loop", ""},
    {"after", "the spawn body after one: a later piece of the split spawn", ""},
    {"if", "the then-branch of a uniform `if`", "uniform-branch"},
    {"else", "the else-branch of a uniform `if`", "uniform-else"},
    {"for", "a `for` loop with a uniform trip count", "uniform-loop"},
    {"while", "a `while` loop with a uniform condition", "uniform-while"},
    {"do", "a `do ... while` loop with a uniform condition", "uniform-do"},
    {"nested", "a uniform branch or loop inside another", "uniform-nested"},
    {"break", "a loop body with a uniform `break`", "uniform-jumps"},
    {"continue", "a loop body with a uniform `continue`", "uniform-jumps"},
    {"inline",
     "the top level of an inline collective function called in any of the "
     "contexts above (with `fn-flow`, uniform branches and loops inside it, "
     "where those columns apply too)",
     "collective-fns"},
    {"template", "the same for a generic (template) collective function",
     "template-fns"},
};
static_assert(sizeof(Contexts) / sizeof(Contexts[0]) ==
                  static_cast<unsigned>(Context::NumContexts),
              "one entry per context");

/// How a feature combines with the contexts: one character per context, in
/// Context order: 'y' generated, '-' never (not valid BSGP, or not the same
/// on every backend), 'g' only with Gate on as well. What a combination
/// needs is the conjunction over the contexts around the point.
struct Row {
  Feature F;
  const char *Cells;
  Feature Gate = Feature::NumFeatures;
};

constexpr unsigned NumContexts = static_cast<unsigned>(Context::NumContexts);

const Row Rows[] = {
    // top after if else for while do nested break continue inline template
    {Feature::Barrier, "yyyyyyyyyyyy"},
    // thread.get after a barrier of values of the current piece, or of
    // earlier ones with no rank change since.
    {Feature::Get, "yyyyyyyyyyyy"},
    // thread.get of a value from an earlier piece after a rank change and a
    // barrier: compiled code read it in the old rank order.
    {Feature::FlowGet, "-yyyyyyyyyyy"},
    // thread.put only outside control flow (docs/language.md).
    {Feature::Put, "yy--------yy"},
    {Feature::Reduce, "yyyyyyyyyyyy"},
    {Feature::Scan, "yyyyyyyyyyyy"},
    {Feature::Segmented, "yyyyyyyyyyyy"},
    {Feature::Compact, "yyyyyyyyyyyy"},
    {Feature::Split, "yyyyyyyyyyyy"},
    {Feature::SortIdx, "yyyyyyyyyyyy"},
    {Feature::Par, "yy--------yy"},
    {Feature::SortBy, "yyyyyyyyyyyy"},
    {Feature::ThreadSplit, "yyyyyyyyyyyy"},
    {Feature::Reassign, "yyyyyyyyyyyy"},
    {Feature::Fork, "yyyyyyyyyyyy"},
    {Feature::Kill, "yyyyyyyyyyyy"},
    // Which rank change was last is known only at run time in a branch or
    // loop, where reading thread.oldrank is an error.
    {Feature::OldRank, "yy--------yy"},
    {Feature::Group, "yyyyyyyyyyyy"},
    {Feature::Subgroup, "yyyyyyyyyyyy"},
    {Feature::Require, "yyyyyyyyyyyy"},
    // Allocated in a require, written and read in the same piece.
    {Feature::TempLists, "yyyyyyyyyyyy"},
    // Used in a later piece than the one that allocated it: the list was
    // freed when the first piece ended.
    {Feature::FlowLists, "-yyyyyyyyyyy"},
    {Feature::DevicePrintf, "yyyyyyyyyyyy"},
    // A require's printf after a piece that printed on the device: the
    // device's lines came out after later pieces' require output.
    {Feature::RequirePrintf, "ygggggggggyy", Feature::FlowPrintf},
    // The condition of a branch or loop written here passed to a collective
    // first: Sema counted the value as per-thread from then on.
    {Feature::UniformArgs, "yyyyyyyyyyyy"},
    // A read of the global sm_gcount as a leaf: host memory, which an inline
    // or template function cannot name (an error).
    {Feature::Globals, "yyyyyyyyyy--"},
};

unsigned bit(Context C) { return 1u << static_cast<unsigned>(C); }

bool isFlow(Context C) {
  return C == Context::If || C == Context::Else || C == Context::For ||
         C == Context::While || C == Context::Do;
}

bool isLoop(Context C) {
  return C == Context::For || C == Context::While || C == Context::Do;
}

bool isRankChange(Feature F) {
  return F == Feature::SortBy || F == Feature::ThreadSplit ||
         F == Feature::Reassign || F == Feature::Fork || F == Feature::Kill;
}

const Row *rowOf(Feature F) {
  for (const Row &Rw : Rows)
    if (Rw.F == F)
      return &Rw;
  return nullptr;
}

/// A cell of the printed table: "no", or the features off by default that
/// the combination needs ("yes" when none).
std::string cellText(const Row &Rw, unsigned C) {
  char Ch = Rw.Cells[C];
  if (Ch == '-')
    return "no";
  std::string Needs;
  if (!featureOnByDefault(Rw.F))
    Needs = "`" + featureName(Rw.F).str() + "`";
  if (Ch == 'g' && !featureOnByDefault(Rw.Gate))
    Needs += (Needs.empty() ? "`" : ", `") + featureName(Rw.Gate).str() + "`";
  return Needs.empty() ? "yes" : Needs;
}
} // namespace

void bsgp::smith::printContextTable(llvm::raw_ostream &OS) {
  OS << "| context | where | generated with |\n|---|---|---|\n";
  for (const ContextInfo &C : Contexts)
    OS << "| `" << C.Name << "` | " << C.Where << " | "
       << (*C.Needs ? "`" + std::string(C.Needs) + "`" : std::string("always"))
       << " |\n";
  OS << "\n| feature |";
  for (const ContextInfo &C : Contexts)
    OS << " " << C.Name << " |";
  OS << "\n|---|";
  for (unsigned C = 0; C < NumContexts; ++C)
    OS << "---|";
  OS << "\n";
  for (const Row &Rw : Rows) {
    OS << "| `" << featureName(Rw.F) << "` |";
    for (unsigned C = 0; C < NumContexts; ++C)
      OS << " " << cellText(Rw, C) << " |";
    OS << "\n";
  }
}

unsigned Generator::contextMask() const {
  unsigned M = 0, Depth = 0;
  for (const FlowLevel &L : Flow) {
    M |= bit(L.C);
    Depth += isFlow(L.C);
  }
  if (Depth == 0)
    M |= bit(S.Piece == 0 ? Context::Top : Context::After);
  if (Depth >= 2)
    M |= bit(Context::Nested);
  return M;
}

bool Generator::allows(Feature F, unsigned Extra) const {
  if (!Opts.has(F))
    return false;
  if (isRankChange(F))
    for (const FlowLevel &L : Flow)
      if (!L.RankChanges)
        return false;
  const Row *Rw = rowOf(F);
  if (!Rw)
    return true;
  unsigned M = contextMask() | Extra;
  for (unsigned C = 0; C < NumContexts; ++C) {
    if (!(M & (1u << C)))
      continue;
    if (Rw->Cells[C] == '-' || (Rw->Cells[C] == 'g' && !Opts.has(Rw->Gate)))
      return false;
  }
  return true;
}

bool Generator::gettable(const Var &V) const {
  if (V.Piece == S.Piece)
    return true;
  // The ranks changed in a later piece than V's, or may change later in a
  // loop entered since (and so before the next iteration's get).
  bool Moved = LastRankChangePiece > static_cast<int>(V.Piece);
  for (const FlowLevel &L : Flow)
    Moved |= isLoop(L.C) && L.RankChanges && L.Entry > V.Piece;
  return !Moved || allows(Feature::FlowGet);
}

void Generator::newPiece() { S.Piece = NextPiece++; }

bool Generator::inCollectiveFunction() const {
  for (const FlowLevel &L : Flow)
    if (L.C == Context::Inline || L.C == Context::Template)
      return true;
  return false;
}

/// Whether the point is inside a collective function.
static bool inFunction(const Generator &G) { return G.inCollectiveFunction(); }

/// Forgets the variables that thread.put wrote: one used after the next
/// uniform branch or loop is an error (docs/language.md).
static void forgetPutTargets(Generator &G) {
  for (const std::string &P : G.PutTargets)
    for (auto &L : G.S.Levels)
      L.erase(std::remove_if(L.begin(), L.end(),
                             [&](const Var &V) {
                               return V.Name == P ||
                                      llvm::StringRef(V.Name).starts_with(P +
                                                                          ".");
                             }),
              L.end());
  G.PutTargets.clear();
}

bool Generator::flowConstruct() {
  bool InFn = inFunction(*this);
  unsigned Depth = 0;
  for (const FlowLevel &L : Flow)
    Depth += isFlow(L.C);
  std::vector<Context> Kinds;
  if ((!InFn || Opts.has(Feature::FnFlow)) && Depth < 2 &&
      (Depth == 0 || Opts.has(Feature::UniformNested))) {
    if (Opts.has(Feature::UniformBranch))
      Kinds.push_back(Context::If);
    if (Opts.has(Feature::UniformLoop))
      Kinds.push_back(Context::For);
    if (Opts.has(Feature::UniformWhile))
      Kinds.push_back(Context::While);
    if (Opts.has(Feature::UniformDo))
      Kinds.push_back(Context::Do);
  }
  if (!InFn && Opts.has(Feature::CollectiveFns))
    Kinds.push_back(Context::Inline);
  if (!InFn && Opts.has(Feature::TemplateFns))
    Kinds.push_back(Context::Template);
  if (Kinds.empty())
    return false;
  Context K = R.pick(Kinds);
  if (K == Context::Inline || K == Context::Template) {
    collectiveCall(K == Context::Template);
    return true;
  }
  // Thread-private arrays live through the branch or loop as they do across
  // a barrier: with array-barrier, and element by element.
  afterBarrier();
  forgetPutTargets(*this);
  if (K == Context::If)
    uniformBranch();
  else
    uniformLoop(K);
  return true;
}

/// The end of a segment in a branch or loop: another branch or loop
/// (uniform-nested), or a barrier, collective or rank change.
static void flowSegment(Generator &G) {
  if (G.R.chance(30) && G.flowConstruct())
    return;
  G.segmentEnd();
}

std::string Generator::uniformValue(Context Kind, unsigned Limit) {
  // n is a host value of the spawn; in a function it is a parameter, which
  // is per-thread, and thread.size is uniform.
  std::string Host = inFunction(*this) ? "thread.size" : "n";
  if (!Opts.has(Feature::Reduce) || R.chance(60)) {
    if (Kind == Context::If)
      return Host + (R.chance(50) ? " > " : " < ") +
             std::to_string(R.range(0, 300));
    return R.chance(50) ? std::to_string(Limit)
                        : "(" + Host + " % " + std::to_string(Limit + 1) + ")";
  }
  // A reduce result: the same in every thread.
  std::string U = fresh("u");
  noteReduce();
  if (Kind == Context::If)
    line("int " + U + " = reduce(+, (int)(" + expr(Ty::Int, 1) + " & 7));");
  else
    line("int " + U + " = reduce(max, (int)(" + expr(Ty::UInt, 1) + " % " +
         std::to_string(Limit + 1) + "u));");
  afterBarrier();
  S.add({U, Ty::Int, /*Writable=*/false});
  if (allows(Feature::UniformArgs, bit(Kind)) && R.chance(60)) {
    // The uniform value passed as is to a collective, which does not
    // write it: it stays uniform.
    std::string W = fresh("w");
    switch (R.below(3)) {
    case 0:
      noteReduce();
      line("int " + W + " = reduce(" + (R.chance(50) ? "max" : "+") + ", " + U +
           ");");
      break;
    case 1:
      line("int " + W + " = sort_idx(" + U + ");");
      break;
    default:
      line("barrier;");
      line("int " + W + " = thread.get((thread.rank + 1) % thread.size, " + U +
           ");");
      break;
    }
    afterBarrier();
    S.add({W, Ty::Int});
  }
  if (Kind == Context::If)
    return U + (R.chance(50) ? " > " : " < ") + std::to_string(R.range(0, 500));
  return U;
}

void Generator::flowBody(FlowLevel L, llvm::function_ref<void()> Body) {
  S.push();
  newPiece();
  L.Entry = S.Piece;
  Flow.push_back(L);
  uint64_t Max = MaxThreads;
  bool Changed = RanksChanged, SavedIn = InUniformFlow;
  InUniformFlow = true;
  if (R.chance(15))
    tempListAlloc();
  Body();
  // What the body computed reaches the checksum.
  for (const Var &V : S.Levels.back())
    if (!V.Len)
      line(Acc + " = sm_mix(" + Acc + ", " + convert(V.Name, V.T, Ty::UInt64) +
           ");");
  Flow.pop_back();
  InUniformFlow = SavedIn;
  size_t Level = S.Levels.size() - 1;
  TempLists.erase(
      std::remove_if(TempLists.begin(), TempLists.end(),
                     [&](const TempList &T) { return T.Level >= Level; }),
      TempLists.end());
  S.pop();
  // The body may have run or not, or more than once.
  MaxThreads = std::max(Max, MaxThreads);
  MinThreads = 0;
  RanksChanged = Changed || RanksChanged;
}

/// A writable scalar of the spawn body or of the branches and loops
/// around (not the current level), or "" if there is none.
static Var outerVar(Generator &G) {
  std::vector<Var> Vars;
  for (size_t L = G.SpawnLevel; L + 1 < G.S.Levels.size(); ++L)
    for (const Var &V : G.S.Levels[L])
      if (!V.Len && V.Writable)
        Vars.push_back(V);
  return Vars.empty() ? Var{"", Ty::Int} : G.R.pick(Vars);
}

/// A condition on a host variable (or a reduce result) is uniform: barriers
/// and collectives may sit under it. A variable of the spawn body written in
/// the then-branch is read in the else-branch (the other branch, in an
/// earlier iteration of a loop around) and after the construct.
void Generator::uniformBranch() {
  std::string Cond = uniformValue(Context::If, 0);
  bool Else = Opts.has(Feature::UniformElse) && R.chance(50);
  open("if (" + Cond + ")");
  Var Shared;
  flowBody({Context::If}, [&] {
    flowSegment(*this);
    stmtList(1, 1);
    Shared = outerVar(*this);
    if (!Shared.Name.empty())
      line(Shared.Name + " = " + expr(Shared.T, 2) + ";");
  });
  if (Else) {
    close(" else {");
    ++Indent;
    flowBody({Context::Else}, [&] {
      if (!Shared.Name.empty()) {
        std::string Y = fresh("y");
        line(std::string(tyName(Shared.T)) + " " + Y + " = " + Shared.Name +
             ";");
        S.add({Y, Shared.T});
      }
      stmtList(1, 1);
      flowSegment(*this);
      stmtList(1, 1);
    });
  }
  close();
  // The code after the branch is a piece of its own.
  newPiece();
}

/// A loop with a uniform trip count (a constant, `n % k`, a reduce result)
/// whose body ends supersteps, with uniform breaks and continues now and
/// then. The body's statements update the spawn's variables each iteration,
/// and the next iteration reads them.
void Generator::uniformLoop(Context Kind) {
  // Every fourth loop (by the name counter: no draw decides it) is plain:
  // a bound the host knows, no rank changes and barriers as its segments'
  // ends, the form bsgp-fuse-uniform-loops runs as one CUDA kernel.
  bool Plain = Opts.has(Feature::Barrier) && NameCounter % 4 == 3;
  unsigned Trips = R.range(Kind == Context::Do ? 1 : 0, 3);
  std::string Host = inFunction(*this) ? "thread.size" : "n";
  std::string Bound =
      !Plain ? uniformValue(Kind, Trips)
      : NameCounter % 8 < 4
          ? std::to_string(Trips)
          : "(" + Host + " % " + std::to_string(Trips + 1) + ")";
  std::string I = fresh("it");
  FlowLevel L{Kind, 0, /*RankChanges=*/!Plain && R.chance(70)};
  // A fork in the loop may double the threads each iteration: room for it
  // is made now, in a loop not nested in another.
  unsigned SavedDoubles = ForkDoubles;
  ForkDoubles = 0;
  if (InLoops == 0 && L.RankChanges && Trips > 0 &&
      allows(Feature::Fork, bit(Kind)) &&
      (MaxThreads << Trips) <= threadCap() && R.chance(50)) {
    ForkDoubles = 1;
    MaxThreads <<= Trips;
  }
  // Kill and fork in one iteration change the next one's thread count.
  if (L.RankChanges)
    MinThreads = 0;
  // A plain loop has no jumps: they make its condition a flag the body
  // sets, which the host keeps.
  bool Break = !Plain && Opts.has(Feature::UniformJumps) && R.chance(30);
  bool Continue = !Plain && Opts.has(Feature::UniformJumps) && R.chance(30);
  unsigned BreakAt = R.below(3), ContinueAt = R.below(3);
  std::string BreakIt = std::to_string(R.range(0, 3));
  std::string ContinueIt = std::to_string(R.range(0, 3));
  if (Kind == Context::For) {
    open("for (int " + I + " = 0; " + I + " < " + Bound + "; ++" + I + ")");
  } else {
    // The counter is bumped first, so that continue cannot skip it.
    line("int " + I + " = 0;");
    S.add({I, Ty::Int, /*Writable=*/false});
    open(Kind == Context::While ? "while (" + I + " < " + Bound + ")" : "do");
  }
  if (Break)
    Flow.push_back({Context::Break});
  if (Continue)
    Flow.push_back({Context::Continue});
  ++InLoops;
  PlainLoops += Plain;
  flowBody(L, [&] {
    if (Kind == Context::For)
      S.add({I, Ty::Int, /*Writable=*/false});
    else
      line(I + " = " + I + " + 1;");
    auto Jumps = [&](unsigned At) {
      if (Continue && ContinueAt == At)
        line("if (" + I + " == " + ContinueIt + ") continue;");
      if (Break && BreakAt == At)
        line("if (" + I + " == " + BreakIt + ") break;");
    };
    auto Segment = [&] {
      if (!Plain)
        return flowSegment(*this);
      superstepBreak();
      afterBarrier();
    };
    Jumps(0);
    stmtList(1, 1);
    Segment();
    Jumps(1);
    stmtList(1, 1);
    if (R.chance(50))
      Segment();
    // A value the next iteration reads.
    Var Carried = outerVar(*this);
    if (!Carried.Name.empty())
      line(Carried.Name + " = " + expr(Carried.T, 2) + ";");
    Jumps(2);
  });
  --InLoops;
  PlainLoops -= Plain;
  if (Continue)
    Flow.pop_back();
  if (Break)
    Flow.pop_back();
  ForkDoubles = SavedDoubles;
  close(Kind == Context::Do ? " while (" + I + " < " + Bound + ");" : "");
  newPiece();
}

/// A loop over a bound the host knows whose iterations are steps of a
/// ring: every thread reads another's value of the step before
/// (thread.get), updates its own and ends the superstep. Nothing in it
/// keeps the loop on the host (no collective, read-back, list or print),
/// so bsgp-fuse-uniform-loops makes it one kernel, which runs as a grid
/// loop on CUDA, Vulkan and the CPU (docs/cuda.md). The plain loops of
/// uniformLoop are meant for that too, but their statements seldom allow
/// it.
void Generator::gridLoop() {
  line("barrier;");
  afterBarrier();
  forgetPutTargets(*this);
  std::vector<Var> Vars;
  for (const Var &V : S.all())
    if (V.Writable && !V.Len && !V.Addressed && !isFloating(V.T) &&
        V.Name.find('.') == std::string::npos && gettable(V))
      Vars.push_back(V);
  if (Vars.empty())
    return;
  Var V = R.pick(Vars);
  // The bound and the neighbour by the name counter: no draw decides them.
  unsigned Trips = NameCounter % 4;
  std::string Bound = NameCounter % 2
                          ? std::to_string(Trips)
                          : "(n % " + std::to_string(Trips + 2) + ")";
  std::string Step = std::to_string(1 + NameCounter % 5);
  std::string I = fresh("gl"), G = fresh("gg");
  Ty U = unsignedOf(V.T);
  open("for (int " + I + " = 0; " + I + " < " + Bound + "; ++" + I + ")");
  line(std::string(tyName(V.T)) + " " + G + " = thread.get((thread.rank + " +
       Step + ") % thread.size, " + V.Name + ");");
  line(V.Name + " = " +
       convert("((" + convert(V.Name, V.T, U) + " ^ " + convert(G, V.T, U) +
                   ") + " + convert(I, Ty::Int, U) + ")",
               U, V.T) +
       ";");
  line("barrier;");
  close();
  // The code after the loop is a piece of its own.
  newPiece();
}

/// A call of an inline (or generic) collective function written for it: its
/// body is a spawn body of its own (segments ending in barriers,
/// collectives, rank changes and puts), reading the caller's variables
/// through parameters and the spawn's lists through the same names; it
/// returns a hash of everything it computed.
void Generator::collectiveCall(bool Generic) {
  // The caller's variables it takes; an argument made of anything but
  // variables could not be read by thread.get in the function.
  auto Candidates = [&] {
    std::vector<Var> Vars;
    for (const Var &V : S.all())
      if (V.Name.find('.') == std::string::npos && V.Name != "n" &&
          V.Name != "rk")
        Vars.push_back(V);
    return Vars;
  };
  std::vector<Var> Vars = Candidates();
  if (Vars.empty()) {
    declStmt();
    Vars = Candidates();
  }
  Ty T = R.pick(Vars).T;
  if (Generic)
    Vars.erase(std::remove_if(Vars.begin(), Vars.end(),
                              [&](const Var &V) { return V.T != T; }),
               Vars.end());
  std::vector<Var> Args;
  for (unsigned K = 0, E = R.range(1, 3); K < E; ++K)
    Args.push_back(R.pick(Vars));

  std::string Name = fresh(Generic ? "sm_tf" : "sm_cf");
  std::string Params = "int n, int rk", Call = "n, rk";
  for (const Var &In : Inputs) {
    Params += ", " + std::string(tyName(In.T)) + " *" + In.Name;
    Call += ", " + In.Name;
  }
  if (HasRec) {
    Params += ", struct SmRec *drec";
    Call += ", drec";
  }
  if (Opts.has(Feature::RankDiv)) {
    Params += ", int gw";
    Call += ", gw";
  }
  if (Opts.has(Feature::Atomics)) {
    Params += ", uint *acc";
    Call += ", acc";
    HasAtomics = true;
  }

  // The function's own scope: the parameters, which carry the pieces of
  // the caller's arguments.
  Scope Caller = std::move(S);
  S = Scope();
  S.Piece = Caller.Piece;
  S.push();
  size_t SavedLevel = SpawnLevel;
  SpawnLevel = 0;
  std::string SavedAcc = Acc;
  std::vector<TempList> SavedLists = std::move(TempLists);
  std::vector<std::string> SavedPuts = std::move(PutTargets);
  TempLists.clear();
  PutTargets.clear();
  std::string Text;
  std::swap(Text, Out);
  int SavedIndent = Indent;
  Indent = 1;
  Flow.push_back({Generic ? Context::Template : Context::Inline, S.Piece});
  S.add({"n", Ty::Int, /*Writable=*/false});
  S.add({"rk", Ty::Int, /*Writable=*/false});
  for (const Var &A : Args) {
    std::string P = fresh("a");
    Params += ", " + (Generic ? std::string("T") : tyName(A.T)) + " " + P;
    Call += ", " + A.Name;
    S.add({P, A.T});
    S.Levels.back().back().Piece = A.Piece;
  }
  if (Generic) {
    std::string Tv = fresh("t");
    line("T " + Tv + " = " + S.Levels.back().back().Name + ";");
    S.add({Tv, T});
  }
  Acc = fresh("ac");
  line("uint64 " + Acc + " = 0ul;");
  S.add({Acc, Ty::UInt64});
  for (unsigned Seg = 0, E = R.range(1, 2); Seg < E; ++Seg) {
    stmtList(R.range(1, 2), 2);
    if (R.chance(15))
      tempListAlloc();
    // The first segment ends with a barrier, so that the function is a
    // collective one whatever else it holds (an inline function with a
    // require but no barrier or collective stops bsgpc with an internal
    // error).
    if (Seg == 0 && Opts.has(Feature::Barrier))
      superstepBreak();
    else if (!(R.chance(30) && flowConstruct()))
      segmentEnd();
  }
  stmtList(1, 1);
  std::string Hv = fresh("hv");
  line("uint64 " + Hv + " = 1469598103934665603ul;");
  hashVars(Hv);
  line("return " + Hv + ";");
  Flow.pop_back();
  std::swap(Text, Out);
  Indent = SavedIndent;
  FnDefs += std::string(Generic ? "template <typename T> " : "") +
            "inline uint64 " + Name + "(" + Params + ") {\n" + Text + "}\n\n";

  unsigned EndPiece = S.Piece;
  S = std::move(Caller);
  SpawnLevel = SavedLevel;
  Acc = SavedAcc;
  TempLists = std::move(SavedLists);
  PutTargets = std::move(SavedPuts);
  if (EndPiece != S.Piece) {
    // The function had uniform branches or loops (fn-flow).
    S.Piece = EndPiece;
    forgetPutTargets(*this);
  }
  std::string Res = fresh("fr");
  std::string TArg =
      Generic && R.chance(50) ? "<" + std::string(tyName(T)) + ">" : "";
  line("uint64 " + Res + " = " + Name + TArg + "(" + Call + ");");
  S.add({Res, Ty::UInt64});
  // Its barriers end the caller's superstep.
  afterBarrier();
}

void Generator::tempListAlloc() {
  if (Where != Ctx::Device || !allows(Feature::TempLists) ||
      !allows(Feature::Require))
    return;
  Ty T = randomIntTy();
  std::string L = fresh("tl"), Cap = fresh("tn");
  // Zeroed, so that every element is defined; each thread uses the element
  // of its rank, so no two threads touch one element in a superstep. The
  // list is rounded up to whole work groups by the host's group.size (a
  // size that differs between targets), but the threads see Cap elements.
  open("require");
  line(Cap + " = thread.size + 1;");
  std::string Alloc =
      "(" + Cap + " + group.size - 1) / group.size * group.size";
  line(L + " = dtempnew[" + Alloc + "]" + tyName(T) + ";");
  line("bsgprt_memset_d(" + L + ", 0, (uint64)(" + Alloc + ") * " +
       (is64(T) ? "8" : "4") + ");");
  close();
  TempLists.push_back({L, Cap, T, S.Piece, S.Levels.size() - 1});
  line("if (thread.rank < " + Cap + ")");
  line("  " + L + "[thread.rank] = " + expr(T, 2) + ";");
}

void Generator::tempListStmt() {
  std::vector<TempList> Usable;
  for (const TempList &L : TempLists)
    if (L.Level < S.Levels.size() &&
        (L.Piece == S.Piece || allows(Feature::FlowLists)))
      Usable.push_back(L);
  if (Usable.empty())
    return assignStmt();
  const TempList &L = R.pick(Usable);
  std::string Guard = "thread.rank < " + L.Cap;
  if (R.chance(50)) {
    line("if (" + Guard + ")");
    line("  " + L.Name + "[thread.rank] = " + expr(L.T, 2) + ";");
    return;
  }
  std::string X = fresh("x");
  line(std::string(tyName(L.T)) + " " + X + " = " + Guard + " ? " + L.Name +
       "[thread.rank] : " + convert("0", Ty::Int, L.T) + ";");
  S.add({X, L.T});
}

void Generator::requirePrintf() {
  // After a kill or fork, bsgpi may have ended the spawn with its last
  // thread and would run no later require (docs/language.md).
  if (Where != Ctx::Device || ThreadsMayDie ||
      !allows(Feature::RequirePrintf) || !allows(Feature::Require))
    return;
  std::string Args = inFunction(*this) ? "thread.size" : "thread.size, n";
  std::string Fmt = inFunction(*this) ? " %d" : " %d %d";
  open("require");
  line("printf(\"" + fresh("q") + Fmt + "\\n\", " + Args + ");");
  close();
}
