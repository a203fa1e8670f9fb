//===- Spawn.cpp - bsgp-smith's spawns, supersteps and rank changes -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Each spawn lives in its own host function `spawnK(h, n)`: it fills input
// lists on the host, launches the spawn, copies every thread's hash of its
// variables back and folds it into `h` in rank order. The body is a list of
// segments; between segments it ends a superstep (a barrier with get and
// put), calls a collective, or reassigns ranks (sortby, split, fork, kill,
// barrier(RANK_REASSIGNED)). The generator tracks bounds on the number of
// threads so that fork chains stay small and floating reductions exact.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <algorithm>

using namespace bsgp::smith;

uint64_t Generator::threadCap() const {
  return Opts.has(Feature::BigSpawn) ? 400000 : 20000;
}

void Generator::afterBarrier() {
  // Without array-barrier, arrays are not read once a superstep ended.
  if (!Opts.has(Feature::ArrayBarrier))
    for (size_t L = SpawnLevel; L < S.Levels.size(); ++L)
      S.dropArrays(L);
}

void Generator::superstepBreak() {
  std::string PutTarget;
  Ty PutTy = randomTy();
  // A put may not sit under control flow.
  bool Puts = allows(Feature::Put);
  if (Puts && R.chance(40)) {
    // Every thread puts to a different thread (a rotation of the ranks),
    // so every thread's p is defined after the barrier.
    PutTarget = fresh("p");
    line(std::string(tyName(PutTy)) + " " + PutTarget + " = " + expr(PutTy, 1) +
         ";");
    line("thread.put((thread.rank + " + std::to_string(R.range(0, 40)) +
         ") % thread.size, " + PutTarget + ", " + expr(PutTy, 2) + ");");
  }
  std::string StructPutTarget;
  if (Opts.has(Feature::StructValues) && Puts && R.chance(25))
    structPut(StructPutTarget);
  // Values of the superstep that ends here, for thread.get: of the spawn
  // body and the uniform branches and loops around. With flow-get, mostly
  // values of earlier pieces of the split spawn.
  std::vector<Var> Before, Carried;
  for (size_t L = SpawnLevel; L < S.Levels.size(); ++L)
    for (const Var &V : S.Levels[L])
      if (!V.Len && V.Writable) {
        Before.push_back(V);
        if (V.Piece != S.Piece)
          Carried.push_back(V);
      }
  if (!Carried.empty() && allows(Feature::FlowGet) && R.chance(70))
    Before = Carried;
  std::vector<std::pair<Var, std::string>> Gets; // source, rank
  if (Opts.has(Feature::Get) && !Before.empty() && R.chance(60)) {
    unsigned Count = R.range(1, 2);
    for (unsigned K = 0; K < Count; ++K) {
      Var V = R.pick(Before);
      // A value of an earlier piece with ranks changed since is read
      // through a copy made in this one unless flow-get is on.
      // A variable whose address is taken (or a field of a struct with an
      // array field) is read at the barrier below, every other one of
      // them directly (a counter, no random draw: seeds keep their
      // programs); an element of an array field is a memory access, which
      // thread.get does not take.
      bool Direct = !V.Addressed ||
                    (NameCounter % 2 && V.Name.find('[') == std::string::npos);
      if (!Opts.has(Feature::GetAny) || !gettable(V) || !Direct) {
        // A value that varies between threads, through a load and the rank:
        // the compiler does not yet take thread.get of a value it can prove
        // uniform (`x ^ rk` with x == rk folds to 0).
        Ty T = randomIntTy();
        std::string Src = fresh("gv");
        const Var &In = Inputs.front();
        // (v ^ load) + rk: neither v == load nor v == rk folds it away.
        std::string U = tyName(unsignedOf(T));
        line(std::string(tyName(T)) + " " + Src + " = (" + tyName(T) + ")((" +
             U + ")(" + convert(V.Name, V.T, T) + " ^ " +
             convert(In.Name + "[rk]", In.T, T) + ") + (" + U + ")rk);");
        V = {Src, T};
      }
      std::string Rank = R.chance(50) ? "(thread.rank + " +
                                            std::to_string(R.range(1, 300)) +
                                            ") % thread.size"
                                      : "thread.size - 1 - thread.rank";
      Gets.push_back({V, Rank});
    }
  }
  line("barrier;");
  afterBarrier();
  if (!PutTarget.empty()) {
    S.add({PutTarget, PutTy});
    PutTargets.push_back(PutTarget);
  }
  if (!StructPutTarget.empty()) {
    addStructFields(StructPutTarget);
    PutTargets.push_back(StructPutTarget);
  }
  // A whole struct of another thread (any of its fields may be uniform,
  // which only get-any allows).
  if (Opts.has(Feature::StructValues) && Opts.has(Feature::Get) &&
      Opts.has(Feature::GetAny) && R.chance(30))
    structGet(R.chance(50)
                  ? "(thread.rank + " + std::to_string(R.range(1, 300)) +
                        ") % thread.size"
                  : "thread.size - 1 - thread.rank");
  // A whole struct with an array field, which lives in memory, read at the
  // barrier above (every other chance: no random draw).
  if (Opts.has(Feature::ArrayFields) && Opts.has(Feature::Get) &&
      Opts.has(Feature::GetAny) && NameCounter % 3 == 0)
    arrayStructGet("thread.size - 1 - thread.rank");
  for (auto &[V, Rank] : Gets) {
    std::string G = fresh("g");
    std::string Src = V.Name;
    std::string Get = "thread.get";
    if (Opts.has(Feature::GetExpr) && !isFloating(V.T) && R.chance(30)) {
      Src = "(" + V.Name + " ^ " + convert("5", Ty::Int, V.T) + ")";
      // Every other such get goes through an inline function, whose
      // argument MLIRGen computes after the barrier: the compiler must
      // recompute it in the other thread (no random draw, so seeds keep
      // their programs).
      // Not of a variable in memory: the function's argument would be a
      // load after the barrier, which no other thread can give.
      if (NameCounter % 2 && !V.Addressed)
        Get = "sm_nb";
    }
    line(std::string(tyName(V.T)) + " " + G + " = " + Get + "(" + Rank + ", " +
         Src + ");");
    S.add({G, V.T});
  }
  // Its require runs before the superstep that begins here.
  if (R.chance(20) && PlainLoops == 0)
    requirePrintf();
  if (SpawnLevel > 0 && NameCounter % 4 == 1)
    listRoundTrip();
}

void Generator::listRoundTrip() {
  // Between its own barriers, so that the supersteps hold nothing else (a
  // call or a private array's store would stop the passes below): a load
  // of an input list at the rank, used only after the next barrier, and a
  // value stored at the rank into a list from before the spawn, read back
  // after it. The load may be loaded again instead of saved where the host
  // finds the two lists apart (bsgp-rematerialize-loads). The value, with
  // inexact math, is a C math function of a thread-varying double.
  const Var &In = Inputs.front();
  if (MaxThreads > SpawnSizes.back())
    return;
  std::string X = fresh("vx"), L = fresh("vl"), E = fresh("e");
  Ty T = In.T;
  std::string Value = X;
  if (Opts.has(Feature::Math) && Opts.has(Feature::Libm) &&
      Opts.has(Feature::Double)) {
    double Bound;
    Value = libmOf(NameCounter, "((double)(thread.rank % 61) - 30.0)", 30,
                   "((double)(thread.rank % 7) + 1.0)", Bound);
    T = Ty::Double;
  }
  PreLists.push_back({L, T, true, static_cast<unsigned>(MaxThreads + 1)});
  line("barrier;");
  afterBarrier();
  line(std::string(tyName(In.T)) + " " + X + " = " + In.Name +
       "[thread.rank];");
  line(L + "[thread.rank] = " + Value + ";");
  line("barrier;");
  afterBarrier();
  line(std::string(tyName(T)) + " " + E + " = " + L + "[thread.rank];");
  std::string Bits = isFloating(In.T) ? "(uint64)(int64)" + X : "(uint64)" + X;
  line(Acc + " = " + Acc + " * 31ul + " + Bits + ";");
  line("barrier;");
  afterBarrier();
  S.add({E, T});
}

void Generator::rankChangeStmt() {
  std::vector<Feature> Fs;
  for (Feature F : {Feature::SortBy, Feature::ThreadSplit, Feature::Reassign,
                    Feature::Fork, Feature::Kill})
    if (allows(F))
      Fs.push_back(F);
  if (Fs.empty())
    return superstepBreak();
  switch (R.pick(Fs)) {
  case Feature::SortBy: {
    // Integer-valued keys; float keys come from integers, so no -0 or NaN
    // whose order could depend on how a backend computed it.
    Ty T = randomTy();
    std::string K = fresh("k");
    std::string E =
        isFloating(T) ? convert(expr(Ty::Int, 2), Ty::Int, T) : expr(T, 2);
    // Every other sort of the spawn body whose key type an input list has
    // takes its keys from that list at the rank (no random draw; the list
    // holds a launch's worth of elements): bsgp-forward-sort-keys makes the
    // sort read the list itself.
    if (SpawnLevel > 0 && NameCounter % 2 == 0 &&
        MaxThreads <= SpawnSizes.back())
      for (const Var &In : Inputs)
        if (In.T == T) {
          // In a superstep of its own: the pass needs every write of the
          // superstep to go to memory the spawn allocated.
          line("barrier;");
          afterBarrier();
          E = In.Name + "[thread.rank]";
          break;
        }
    line(std::string(tyName(T)) + " " + K + " = " + E + ";");
    line("thread.sortby(" + K + ");");
    S.add({K, T});
    // Sometimes the sorted keys and old ranks go straight to lists from
    // before the spawn, in a superstep of their own: the form
    // bsgp-forward-sort-results makes the sort write them.
    if (SpawnLevel > 0 && R.chance(30)) {
      std::string L = fresh("sk");
      PreLists.push_back({L, T, true, static_cast<unsigned>(MaxThreads + 1)});
      line(L + "[thread.rank] = " + K + ";");
      std::string O;
      if (!InUniformFlow && allows(Feature::OldRank) && R.chance(50)) {
        O = fresh("so");
        PreLists.push_back(
            {O, Ty::Int, true, static_cast<unsigned>(MaxThreads + 1)});
        line(O + "[thread.rank] = thread.oldrank;");
      }
      line("barrier;");
      std::string V = fresh("e");
      line(std::string(tyName(T)) + " " + V + " = " + L + "[thread.rank];");
      S.add({V, T});
      if (!O.empty()) {
        V = fresh("e");
        line("int " + V + " = " + O + "[thread.rank];");
        S.add({V, Ty::Int});
      }
    }
    break;
  }
  case Feature::ThreadSplit:
    line("thread.split(" + cond(2) + ");");
    break;
  case Feature::Reassign:
    line("barrier(RANK_REASSIGNED);");
    if (R.chance(50))
      line("thread.oldrank = thread.size - 1 - thread.rank;");
    else
      line("thread.oldrank = (thread.rank + " +
           std::to_string(R.range(1, 100)) + ") % thread.size;");
    break;
  case Feature::Fork: {
    std::string C = fresh("c");
    std::string Count;
    if (InLoops == 0) {
      unsigned Mask = MaxThreads * 3 <= threadCap() ? 3 : 1;
      Count =
          "(int)(" + expr(Ty::UInt, 2) + " & " + std::to_string(Mask) + "u)";
      MaxThreads *= Mask;
      ThreadsMayDie = true;
    } else if (ForkDoubles > 0) {
      // One or two children; the loop made room for every iteration's
      // doubling when it began.
      --ForkDoubles;
      Count = "1 + (int)(" + expr(Ty::UInt, 2) + " & 1u)";
    } else {
      // In a loop, at most one child: the thread count does not grow.
      Count = "(int)(" + expr(Ty::UInt, 2) + " & 1u)";
      ThreadsMayDie = true;
    }
    // Every fourth fork with kill on follows a kill, its count computed
    // before (no random draw: seeds keep their programs): the form
    // bsgp-merge-kill-fork folds into one fork. In a loop the count is the
    // one drawn (0 or 1 child, or 1 or 2 where the loop made room), so
    // that the thread count stays bounded.
    if (allows(Feature::Kill) && NameCounter % 4 == 0) {
      std::string K = fresh("kc");
      line("int " + K + " = " + Count + ";");
      line("thread.kill(" + cond(2) + ");");
      Count = InLoops == 0 ? "(" + K + " ^ 1) & " + K : K;
      ThreadsMayDie = true;
    }
    line("int " + C + " = thread.fork(" + Count + ");");
    MinThreads = 0;
    S.add({C, Ty::Int});
    break;
  }
  default:
    line("thread.kill(" + cond(2) + ");");
    MinThreads = 0;
    ThreadsMayDie = true;
    break;
  }
  RanksChanged = true;
  LastRankChangePiece = std::max<int>(LastRankChangePiece, S.Piece);
  // A rank change in a uniform branch or loop may or may not have run. Set
  // only now: the statement's own expressions (a sort key) are read before
  // the ranks change.
  OldRankAmbiguous = InUniformFlow;
  afterBarrier();
}

/// One segment's closing step: a barrier, a collective or a rank change,
/// each chosen only when its feature is on.
void Generator::segmentEnd() {
  std::vector<int> Kinds;
  if (Opts.has(Feature::Barrier))
    Kinds.push_back(0);
  if (Opts.has(Feature::Reduce) || Opts.has(Feature::Scan) ||
      Opts.has(Feature::Compact) || Opts.has(Feature::Split) ||
      Opts.has(Feature::SortIdx) || Opts.has(Feature::Segmented))
    Kinds.insert(Kinds.end(), {1, 1});
  if (allows(Feature::SortBy) || allows(Feature::ThreadSplit) ||
      allows(Feature::Reassign) || allows(Feature::Fork) ||
      allows(Feature::Kill))
    Kinds.insert(Kinds.end(), {2, 2});
  // A par may not sit under control flow.
  if (allows(Feature::Par))
    Kinds.push_back(3);
  if (Opts.has(Feature::Group))
    Kinds.push_back(4);
  if (Opts.has(Feature::Subgroup))
    Kinds.insert(Kinds.end(), {5, 5});
  if (Kinds.empty())
    return;
  switch (R.pick(Kinds)) {
  case 0:
    superstepBreak();
    break;
  case 1:
    collectiveStmt();
    break;
  case 2:
    // Chains: fork then kill, sort then split, ...
    rankChangeStmt();
    while (R.chance(30))
      rankChangeStmt();
    // A barrier after the new ranks, with thread.get of earlier values.
    if (Opts.has(Feature::Barrier) && R.chance(40))
      superstepBreak();
    break;
  case 3:
    parStmt();
    break;
  case 4:
    groupStmt();
    break;
  default:
    subgroupStmt();
    break;
  }
  // Each of them ends a superstep (collectives contain barriers).
  afterBarrier();
}

void Generator::spawnBody(unsigned K) {
  SpawnLevel = S.Levels.size();
  S.push();
  line("rk = thread.rank;");
  S.add({"rk", Ty::Int, /*Writable=*/false});
  for (const Var &In : Inputs) {
    std::string X = fresh("x");
    line(std::string(tyName(In.T)) + " " + X + " = " + In.Name + "[rk];");
    S.add({X, In.T});
  }
  // What the uniform branches and loops compute is folded into Acc.
  Acc = fresh("ac");
  line("uint64 " + Acc + " = 0ul;");
  S.add({Acc, Ty::UInt64});
  unsigned Segments = R.range(1, 2 + Opts.Size / 2);
  for (unsigned Seg = 0; Seg < Segments; ++Seg) {
    stmtList(R.range(1, 2 + Opts.Size / 3), 2);
    if (R.chance(15))
      tempListAlloc();
    if (R.chance(35) && flowConstruct())
      continue;
    segmentEnd();
  }
  if (Opts.has(Feature::GridLoops) && Opts.has(Feature::Barrier) &&
      Opts.has(Feature::Get) && NameCounter % 3 != 0)
    gridLoop();
  stmtList(R.range(1, 3), 2);
  if (Opts.PlantError && K == 0)
    plantError();
  // Every thread's hash of what it holds, in the order of its final rank.
  if (Opts.has(Feature::Require)) {
    open("require");
    line("cnt = thread.size;");
    line("res = dnew[thread.size + 1]uint64;");
    close();
  } else {
    line("if (thread.rank == 0)");
    line("  szl[0] = thread.size;");
  }
  std::string Hv = fresh("hv");
  line("uint64 " + Hv + " = 1469598103934665603ul;");
  hashVars(Hv);
  // The global as it was when the spawn began.
  if (Opts.has(Feature::Globals))
    line(Hv + " = sm_mix(" + Hv + ", (uint64)sm_gcount);");
  line("res[thread.rank] = " + Hv + ";");
  S.pop();
}

void Generator::hostRecords() {
  // The records, filled field by field on the host.
  line("struct SmRec *hrec = (struct SmRec *)malloc((uint64)n * "
       "sizeof(struct SmRec) + 64);");
  open("for (int i = 0; i < n; i++)");
  std::string V = "((uint64)i * " + std::to_string(R.next() | 1) + "ul + " +
                  std::to_string(R.next() >> 1) + "ul)";
  line("hrec[i].c = (char)i;");
  line("hrec[i].i = (int)(" + V + " >> 3);");
  line("hrec[i].v = float3((float)(i & 7), 1.0f, -2.0f);");
  line("hrec[i].u = (uint)(" + V + " >> 17);");
  line("hrec[i].l = (int64)(" + V + " >> 5);");
  line("hrec[i].f = (float)(int)((" + V + " >> 9) % 8193ul) - 4096.0f;");
  line("hrec[i].c2 = (char)(i * 3);");
  line("hrec[i].q = " + V + ";");
  line("hrec[i].d = (double)(int64)((" + V +
       " >> 11) % 2097153ul) - 1048576.0;");
  // The narrow fields keep the low bits of what an int holds.
  line("hrec[i].s = (short)(" + V + " >> 7);");
  line("hrec[i].b = (uchar)(" + V + " >> 13);");
  line("hrec[i].w = (ushort)(" + V + " >> 19);");
  close();
  line("struct SmRec *drec = dnew[n + 1]struct SmRec;");
  line("bsgprt_memcpy_htod(drec, hrec, (uint64)n * sizeof(struct SmRec));");
  line("free(hrec);");
}

/// With domains, the \p N threads as a domain of 2 or 3 dimensions: extents
/// that divide N, the last one N divided by the others.
void Generator::chooseDomain(uint64_t N) {
  SpawnDims = 1;
  DomX = DomY = 1;
  if (!Opts.has(Feature::Domains) || !DomR.chance(40))
    return;
  auto divisor = [&](uint64_t M) -> uint64_t {
    static const uint64_t Cands[] = {1, 2, 3, 4, 5, 8, 16, 32};
    std::vector<uint64_t> Ds;
    for (uint64_t C : Cands)
      if (M % C == 0)
        Ds.push_back(C);
    return Ds[DomR.below(Ds.size())];
  };
  SpawnDims = DomR.chance(50) ? 2 : 3;
  DomX = divisor(N);
  if (SpawnDims == 3)
    DomY = divisor(N / DomX);
}

/// `spawn (n)`, or the domain SpawnDims, DomX and DomY describe, whose
/// extents are of assorted integer types.
std::string Generator::spawnHead() {
  if (SpawnDims == 1)
    return "spawn (n)";
  auto extent = [&](uint64_t V) {
    static const char *Casts[] = {"", "(uint64)", "(uint)", "(char)"};
    return std::string(Casts[DomR.below(4)]) + std::to_string(V);
  };
  if (SpawnDims == 2)
    return "spawn (" + extent(DomX) + ", n / " + std::to_string(DomX) + ")";
  return "spawn (" + extent(DomX) + ", " + extent(DomY) + ", n / " +
         std::to_string(DomX * DomY) + ")";
}

void Generator::spawnFunction(unsigned K) {
  static const uint64_t Small[] = {0,   1,   2,   3,   31,  32,   33,   64,
                                   100, 128, 255, 256, 257, 1000, 1024, 4096};
  static const uint64_t Big[] = {100000, 131072, 300000};
  uint64_t N = Small[R.below(sizeof(Small) / sizeof(Small[0]))];
  if (Opts.has(Feature::BigSpawn) && R.chance(15))
    N = Big[R.below(3)];
  MaxThreads = MinThreads = N;
  chooseDomain(N);
  RanksChanged = false;
  OldRankAmbiguous = ThreadsMayDie = false;
  NextPiece = 1;
  LastRankChangePiece = -1;
  TempLists.clear();
  PutTargets.clear();
  FnDefs.clear();
  HasAtomics = false;
  Reduces = Scans = 0;
  Inputs.clear();
  std::string Fn = "spawn" + std::to_string(K);
  SpawnSizes.push_back(N);

  // The host function's scope: n is readable (uniform) in the spawn.
  S = Scope();
  S.push();
  S.add({"n", Ty::Int, /*Writable=*/false});
  // With struct-inits, a struct parameter of the host function (passed by
  // value as its fields), read by host code and threads.
  bool StructParam =
      Opts.has(Feature::StructValues) && Opts.has(Feature::StructInits);
  if (StructParam) {
    size_t First = S.Levels.back().size();
    addStructFields("sp");
    for (size_t I = First; I < S.Levels.back().size(); ++I)
      S.Levels.back()[I].Writable = false;
  }
  unsigned NumInputs = R.range(1, 3);
  for (unsigned I = 0; I < NumInputs; ++I) {
    Ty T = randomTy();
    Inputs.push_back({"din" + std::to_string(I), T});
  }

  // The body first, so that the host code knows what to allocate.
  std::string Saved;
  std::swap(Saved, Out);
  int SavedIndent = Indent;
  Indent = 2;
  Where = Ctx::Device;
  PreLists.clear();
  HasRec = Opts.has(Feature::StructLists) && R.chance(50);
  spawnBody(K);
  Where = Ctx::Host;
  std::string Body;
  std::swap(Body, Out);
  std::swap(Saved, Out);
  Indent = SavedIndent;

  Out += FnDefs;
  open("uint64 " + Fn + "(uint64 h, int n" +
       (StructParam ? ", struct SmVal sp" : "") + ")");
  for (unsigned I = 0; I < Inputs.size(); ++I) {
    const Var &In = Inputs[I];
    std::string T = tyName(In.T);
    std::string Sz = is64(In.T) ? "8" : "4";
    std::string H = "hin" + std::to_string(I);
    line(T + " *" + H + " = (" + T + " *)malloc((uint64)n * " + Sz + " + 8);");
    std::string Mul = std::to_string(R.next() | 1) + "ul";
    std::string Add = std::to_string(R.next() >> 1) + "ul";
    // A hash of the index, reduced to what the type's variables may hold.
    std::string V = "((uint64)i * " + Mul + " + " + Add + ") >> " +
                    std::to_string(R.range(0, 40));
    std::string E;
    if (In.T == Ty::Float)
      E = "(float)(int)((" + V + ") % 8193ul) - 4096.0f";
    else if (In.T == Ty::Double)
      E = "(double)(int64)((" + V + ") % 2097153ul) - 1048576.0";
    else
      E = "(" + T + ")(" + V + ")";
    line("for (int i = 0; i < n; i++)");
    line("  " + H + "[i] = " + E + ";");
    line(T + " *" + In.Name + " = dnew[n + 1]" + T + ";");
    line("bsgprt_memcpy_htod(" + In.Name + ", " + H + ", (uint64)n * " + Sz +
         ");");
    line("free(" + H + ");");
  }
  if (HasRec)
    hostRecords();
  if (HasAtomics) {
    line("uint *acc = dnew[10]uint;");
    line("uint accInit[10];");
    line("accInit[0] = 0u; accInit[1] = 4294967295u; accInit[2] = 0u;");
    line("accInit[3] = 4294967295u; accInit[4] = 0u; accInit[5] = 0u;");
    line("accInit[6] = 2147483647u; accInit[7] = 2147483648u;");
    line("accInit[8] = 0u; accInit[9] = 0u;");
    line("bsgprt_memcpy_htod(acc, accInit, 40);");
  }
  for (const Var &L : PreLists)
    line(std::string(tyName(L.T)) + " *" + L.Name + " = dnew[" +
         std::to_string(L.Len) + "]" + tyName(L.T) + ";");
  if (Opts.has(Feature::Require)) {
    line("int cnt = 0;");
    line("uint64 *res = NULL;");
  } else {
    line("int *szl = dnew[1]int;");
    line("bsgprt_memset_d(szl, 0, 4);");
    line("uint64 *res = dnew[" + std::to_string(MaxThreads + 1) + "]uint64;");
  }
  if (Opts.has(Feature::RankDiv))
    // A row length the host computes (a kernel parameter, not a constant):
    // grid coordinates of the rank, `rank / gw` and `rank % gw`, with rows
    // shorter and longer than the CPU's split rank loop takes.
    line("int gw = (n & 15) + " +
         std::to_string(R.chance(50) ? R.range(1, 15) : R.range(16, 40)) + ";");
  if (Opts.has(Feature::Globals))
    line("sm_gcount += n;");
  open(spawnHead());
  Out += Body;
  close();
  if (!Opts.has(Feature::Require)) {
    line("int cnt = 0;");
    line("bsgprt_memcpy_dtoh(&cnt, szl, 4);");
  }
  line("h = sm_mix(h, (uint64)cnt);");
  open("if (cnt > 0)");
  line("uint64 *hres = (uint64 *)malloc((uint64)cnt * 8);");
  line("bsgprt_memcpy_dtoh(hres, res, (uint64)cnt * 8);");
  line("for (int i = 0; i < cnt; i++)");
  line("  h = sm_mix(h, hres[i]);");
  line("free(hres);");
  close();
  if (HasAtomics) {
    line("uint accOut[10];");
    line("bsgprt_memcpy_dtoh(accOut, acc, 40);");
    line("for (int i = 0; i < 10; i++)");
    line("  h = sm_mix(h, (uint64)accOut[i]);");
  }
  if (Opts.has(Feature::DDelete))
    for (const Var &V : Inputs)
      line("ddelete " + V.Name + ";");
  if (Opts.has(Feature::Globals))
    line("sm_note(h);");
  line("return h;");
  close();
  line("");
}
