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

using namespace bsgp::smith;

/// The most threads a spawn may reach through fork.
static uint64_t threadCap(const Options &Opts) {
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
  bool Puts = Opts.has(Feature::Put) && !InUniformFlow;
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
  // Values of the superstep that ends here, for thread.get.
  std::vector<Var> Before;
  for (const Var &V : S.Levels[SpawnLevel])
    if (!V.Len && V.Writable)
      Before.push_back(V);
  std::vector<std::pair<Var, std::string>> Gets; // source, rank
  if (Opts.has(Feature::Get) && !Before.empty() && R.chance(60)) {
    unsigned Count = R.range(1, 2);
    for (unsigned K = 0; K < Count; ++K) {
      Var V = R.pick(Before);
      if (!Opts.has(Feature::GetAny)) {
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
  if (!PutTarget.empty())
    S.add({PutTarget, PutTy});
  if (!StructPutTarget.empty())
    addStructFields(StructPutTarget);
  // A whole struct of another thread (any of its fields may be uniform,
  // which only get-any allows).
  if (Opts.has(Feature::StructValues) && Opts.has(Feature::Get) &&
      Opts.has(Feature::GetAny) && R.chance(30))
    structGet(R.chance(50)
                  ? "(thread.rank + " + std::to_string(R.range(1, 300)) +
                        ") % thread.size"
                  : "thread.size - 1 - thread.rank");
  for (auto &[V, Rank] : Gets) {
    std::string G = fresh("g");
    std::string Src = V.Name;
    if (Opts.has(Feature::GetExpr) && !isFloating(V.T) && R.chance(30))
      Src = "(" + V.Name + " ^ " + convert("5", Ty::Int, V.T) + ")";
    line(std::string(tyName(V.T)) + " " + G + " = thread.get(" + Rank + ", " +
         Src + ");");
    S.add({G, V.T});
  }
}

void Generator::rankChangeStmt() {
  std::vector<Feature> Fs;
  for (Feature F : {Feature::SortBy, Feature::ThreadSplit, Feature::Reassign,
                    Feature::Fork, Feature::Kill})
    if (Opts.has(F) && !(F == Feature::Fork && InUniformFlow))
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
    line(std::string(tyName(T)) + " " + K + " = " + E + ";");
    line("thread.sortby(" + K + ");");
    S.add({K, T});
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
    unsigned Mask = MaxThreads * 3 <= threadCap(Opts) ? 3 : 1;
    line("int " + C + " = thread.fork((int)(" + expr(Ty::UInt, 2) + " & " +
         std::to_string(Mask) + "u));");
    MaxThreads *= Mask;
    MinThreads = 0;
    S.add({C, Ty::Int});
    break;
  }
  default:
    line("thread.kill(" + cond(2) + ");");
    MinThreads = 0;
    break;
  }
  RanksChanged = true;
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
      Opts.has(Feature::SortIdx))
    Kinds.insert(Kinds.end(), {1, 1});
  if (Opts.has(Feature::SortBy) || Opts.has(Feature::ThreadSplit) ||
      Opts.has(Feature::Reassign) || Opts.has(Feature::Fork) ||
      Opts.has(Feature::Kill))
    Kinds.insert(Kinds.end(), {2, 2});
  // A par may not sit under control flow.
  if (Opts.has(Feature::Par) && !InUniformFlow)
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

/// A condition on a host variable (or a reduce result) is uniform:
/// barriers and collectives may sit under it.
void Generator::uniformBranch() {
  std::string Cond = "n " + std::string(R.chance(50) ? ">" : "<") + " " +
                     std::to_string(R.range(0, 300));
  if (Opts.has(Feature::Reduce) && R.chance(40)) {
    std::string U = fresh("u");
    line("int " + U + " = reduce(+, (int)(" + expr(Ty::Int, 1) + " & 7));");
    afterBarrier();
    S.add({U, Ty::Int, /*Writable=*/false});
    Cond = U + " " + std::string(R.chance(50) ? ">" : "<") + " " +
           std::to_string(R.range(0, 500));
  }
  open("if (" + Cond + ")");
  uniformBody([&] {
    segmentEnd();
    stmtList(1, 1);
  });
}

void Generator::uniformBody(llvm::function_ref<void()> Body) {
  S.push();
  uint64_t Max = MaxThreads;
  bool Changed = RanksChanged, Saved = InUniformFlow;
  InUniformFlow = true;
  Body();
  InUniformFlow = Saved;
  S.pop();
  close();
  // The body may have run or not, or more than once.
  MaxThreads = std::max(Max, MaxThreads);
  MinThreads = 0;
  RanksChanged = Changed || RanksChanged;
}

/// A loop with a uniform trip count (a host variable's, a constant's) whose
/// body ends supersteps, with a uniform break now and then. The body's
/// statements update the spawn's variables each iteration.
void Generator::uniformLoop() {
  std::string I = fresh("it");
  unsigned Trips = R.range(0, 3);
  std::string Bound = R.chance(50) ? std::to_string(Trips)
                                   : "(n % " + std::to_string(Trips + 1) + ")";
  open("for (int " + I + " = 0; " + I + " < " + Bound + "; ++" + I + ")");
  uniformBody([&] {
    S.add({I, Ty::Int, /*Writable=*/false});
    stmtList(1, 1);
    segmentEnd();
    if (R.chance(30)) {
      line("if (" + I + " == " + std::to_string(R.range(0, 2)) + ")");
      line("  break;");
    }
    stmtList(1, 1);
    if (R.chance(50))
      segmentEnd();
  });
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
  unsigned Segments = R.range(1, 2 + Opts.Size / 2);
  for (unsigned Seg = 0; Seg < Segments; ++Seg) {
    stmtList(R.range(1, 2 + Opts.Size / 3), 2);
    bool Branch = Opts.has(Feature::UniformBranch) && R.chance(20);
    bool Loop = !Branch && Opts.has(Feature::UniformLoop) && R.chance(20);
    if (Branch || Loop) {
      // Thread-private arrays live through the branch or loop as they do
      // across a barrier: with array-barrier, and element by element.
      afterBarrier();
      if (Branch)
        uniformBranch();
      else
        uniformLoop();
      continue;
    }
    segmentEnd();
  }
  stmtList(R.range(1, 3), 2);
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
  line("res[thread.rank] = " + Hv + ";");
  S.pop();
  (void)K;
}

void Generator::spawnFunction(unsigned K) {
  static const uint64_t Small[] = {0,   1,   2,   3,   31,  32,   33,   64,
                                   100, 128, 255, 256, 257, 1000, 1024, 4096};
  static const uint64_t Big[] = {100000, 131072, 300000};
  uint64_t N = Small[R.below(sizeof(Small) / sizeof(Small[0]))];
  if (Opts.has(Feature::BigSpawn) && R.chance(15))
    N = Big[R.below(3)];
  MaxThreads = MinThreads = N;
  RanksChanged = false;
  HasAtomics = false;
  Reduces = Scans = 0;
  Inputs.clear();
  std::string Fn = "spawn" + std::to_string(K);
  SpawnSizes.push_back(N);

  // The host function's scope: n is readable (uniform) in the spawn.
  S = Scope();
  S.push();
  S.add({"n", Ty::Int, /*Writable=*/false});
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

  open("uint64 " + Fn + "(uint64 h, int n)");
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
  if (HasRec) {
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
    close();
    line("struct SmRec *drec = dnew[n + 1]struct SmRec;");
    line("bsgprt_memcpy_htod(drec, hrec, (uint64)n * sizeof(struct SmRec));");
    line("free(hrec);");
  }
  if (HasAtomics) {
    line("uint *acc = dnew[8]uint;");
    line("uint accInit[8];");
    line("accInit[0] = 0u; accInit[1] = 4294967295u; accInit[2] = 0u;");
    line("accInit[3] = 4294967295u; accInit[4] = 0u; accInit[5] = 0u;");
    line("accInit[6] = 2147483647u; accInit[7] = 2147483648u;");
    line("bsgprt_memcpy_htod(acc, accInit, 32);");
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
  open("spawn (n)");
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
    line("uint accOut[8];");
    line("bsgprt_memcpy_dtoh(accOut, acc, 32);");
    line("for (int i = 0; i < 8; i++)");
    line("  h = sm_mix(h, (uint64)accOut[i]);");
  }
  if (Opts.has(Feature::DDelete))
    for (const Var &V : Inputs)
      line("ddelete " + V.Name + ";");
  line("return h;");
  close();
  line("");
}
