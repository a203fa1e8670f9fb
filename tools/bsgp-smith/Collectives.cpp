//===- Collectives.cpp - bsgp-smith's collectives, groups and atomics -----===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Collective operations whose results do not depend on how an
// implementation orders or groups the work:
// - reduce and scan over integers wrap (a commutative ring), over floating
//   values they see small integers whose sums stay exact, and products of
//   -1, 1 and 2 whose magnitude only grows (exact until it overflows to
//   infinity whatever the grouping);
// - sort_idx and thread.sortby are stable, so ties are ordered by rank;
// - work-group and subgroup results are combined again over all threads
//   with an operation that makes the grouping irrelevant (the sum of the
//   groups' sums, the max of their maxima), since the group and subgroup
//   sizes differ between targets;
// - atomics only accumulate (add, min, max, and, or, xor) and their old
//   values are not used.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

using namespace bsgp::smith;

static const char *const IntOps[] = {"+", "*", "min", "max", "&", "|", "^"};
static const char *const FloatOps[] = {"+", "*", "min", "max"};

std::string Generator::reduceOperand(Ty T, const std::string &Op) {
  if (!isFloating(T))
    return expr(T, 2);
  const bool F = T == Ty::Float;
  if (Op == "*")
    return std::string("sm_unit_") + (F ? "f32" : "f64") + "(" +
           expr(Ty::Int, 2) + ")";
  if (Op == "+") {
    // Every partial sum stays below 2^24 (2^53) whatever the grouping.
    uint64_t Exact = F ? (1u << 24) : (1ull << 40);
    uint64_t L = Exact / (MaxThreads + 1);
    L = std::min<uint64_t>(L, F ? 64 : 4096);
    if (L < 2)
      L = 2;
    return convert("(" + expr(Ty::Int, 2) + ") % " + std::to_string(L), Ty::Int,
                   T);
  }
  return expr(T, 2);
}

void Generator::noteReduce() {
  if (!Opts.has(Feature::ReduceTwice) && Reduces > 0 && Scans == 0) {
    // bsgpc rejects a second reduce in a spawn without a scan
    // ('bsgp.chunk_reduce' op must be in straight-line code).
    std::string Y = fresh("s");
    line("int " + Y + " = rk;");
    line("scan(+, " + Y + ");");
    S.add({Y, Ty::Int});
    ++Scans;
    // The scan ends a superstep in the middle of a segment.
    afterBarrier();
  }
  ++Reduces;
}

/// Picks an element type and an operator valid for it.
static void pickTyOp(Generator &G, Ty &T, std::string &Op) {
  T = G.randomTy();
  if (isFloating(T))
    Op = FloatOps[G.R.below(4)];
  else
    Op = IntOps[G.R.below(7)];
}

void Generator::reduceStmt(bool InPar) {
  Ty T;
  std::string Op;
  pickTyOp(*this, T, Op);
  std::string V = fresh("r");
  // The operand is a variable: a collective's argument is evaluated in
  // the caller's superstep like any other statement.
  std::string X = fresh("o");
  line(std::string(tyName(T)) + " " + X + " = " + reduceOperand(T, Op) + ";");
  if (InPar) {
    noteReduce();
    line(V + " = reduce(" + Op + ", " + X + ");");
    return;
  }
  noteReduce();
  line(std::string(tyName(T)) + " " + V + " = reduce(" + Op + ", " + X + ");");
  if (isFloating(T))
    line(V + " = sm_clamp_" + (T == Ty::Float ? "f32" : "f64") + "(" + V +
         ");");
  S.add({V, T});
}

void Generator::scanStmt(bool InPar) {
  Ty T;
  std::string Op;
  pickTyOp(*this, T, Op);
  std::string Y = fresh("s");
  std::string TN = tyName(T);
  line(TN + " " + Y + " = " + reduceOperand(T, Op) + ";");
  ++Scans;
  std::string Tot;
  if (!InPar && R.chance(50)) {
    Tot = fresh("t");
    line(TN + " " + Tot + " = scan(" + Op + ", " + Y + ");");
  } else {
    line("scan(" + Op + ", " + Y + ");");
  }
  if (InPar)
    return;
  if (isFloating(T)) {
    std::string C = std::string("sm_clamp_") + (T == Ty::Float ? "f32" : "f64");
    line(Y + " = " + C + "(" + Y + ");");
    if (!Tot.empty())
      line(Tot + " = " + C + "(" + Tot + ");");
  }
  S.add({Y, T});
  if (!Tot.empty())
    S.add({Tot, T});
}

/// segreduce and segscan, each thread's head a random condition: the
/// values are those reduce and scan see, so the results do not depend on
/// how an implementation groups a segment.
void Generator::segmentedStmt() {
  Ty T;
  std::string Op;
  pickTyOp(*this, T, Op);
  std::string TN = tyName(T);
  std::string H = fresh("h");
  line("bool " + H + " = " + cond(2) + ";");
  std::string X = fresh("o");
  line(TN + " " + X + " = " + reduceOperand(T, Op) + ";");
  std::string C;
  if (isFloating(T))
    C = std::string("sm_clamp_") + (T == Ty::Float ? "f32" : "f64");
  if (R.chance(50)) {
    std::string V = fresh("r");
    line(TN + " " + V + " = segreduce(" + Op + ", " + X + ", " + H + ");");
    if (!C.empty())
      line(V + " = " + C + "(" + V + ");");
    S.add({V, T});
    return;
  }
  line("segscan(" + Op + ", " + X + ", " + H + ");");
  if (!C.empty())
    line(X + " = " + C + "(" + X + ");");
  S.add({X, T});
}

void Generator::compactStmt(bool IsSplit) {
  Ty T = randomTy();
  std::string TN = tyName(T);
  std::string L = fresh("cl");
  if (Opts.has(Feature::Require)) {
    line("require");
    line("  " + L + " = dtempnew[thread.size + 1]" + TN + ";");
  } else {
    PreLists.push_back({L, T, true, static_cast<unsigned>(MaxThreads + 1)});
  }
  std::string Keep = fresh("b");
  line("bool " + Keep + " = " + cond(2) + ";");
  std::string Src = fresh("o");
  line(TN + " " + Src + " = " + expr(T, 2) + ";");
  std::string W = fresh("e");
  if (IsSplit) {
    // Every thread's value lands somewhere in the list: false side first.
    line("split(" + L + ", " + Src + ", " + Keep + ", false);");
    line("barrier;");
    line(TN + " " + W + " = " + L + "[thread.rank];");
  } else {
    std::string Cnt = fresh("kc");
    std::string One = fresh("o");
    line("int " + One + " = " + Keep + " ? 1 : 0;");
    noteReduce();
    line("int " + Cnt + " = reduce(+, " + One + ");");
    line("compact(" + L + ", " + Src + ", " + Keep + ", false);");
    line("barrier;");
    line(TN + " " + W + " = " + convert("0", Ty::Int, T) + ";");
    line("if (thread.rank < " + Cnt + ")");
    line("  " + W + " = " + L + "[thread.rank];");
    S.add({Cnt, Ty::Int});
  }
  S.add({W, T});
}

void Generator::sortIdxStmt(bool InPar) {
  Ty T = randomTy();
  std::string Key =
      isFloating(T) ? convert(expr(Ty::Int, 2), Ty::Int, T) : expr(T, 2);
  std::string K = fresh("k");
  line(std::string(tyName(T)) + " " + K + " = " + Key + ";");
  S.add({K, T});
  std::string I = fresh("q");
  if (InPar) {
    line(I + " = sort_idx(" + K + ");");
    return;
  }
  if (SpawnLevel > 0 && R.chance(30)) {
    // The old ranks straight to a list from before the spawn, in a
    // superstep of their own (bsgp-forward-sort-results).
    std::string L = fresh("sq");
    PreLists.push_back(
        {L, Ty::Int, true, static_cast<unsigned>(MaxThreads + 1)});
    line(L + "[thread.rank] = sort_idx(" + K + ");");
    line("barrier;");
    line("int " + I + " = " + L + "[thread.rank];");
    S.add({I, Ty::Int});
    return;
  }
  line("int " + I + " = sort_idx(" + K + ");");
  S.add({I, Ty::Int});
}

void Generator::collectiveStmt() {
  std::vector<Feature> Fs;
  for (Feature F : {Feature::Reduce, Feature::Scan, Feature::Compact,
                    Feature::Split, Feature::SortIdx, Feature::Segmented})
    if (Opts.has(F))
      Fs.push_back(F);
  // The newest primitives twice as often, so that a run of a few hundred
  // seeds combines them with the rest.
  if (Opts.has(Feature::Segmented))
    Fs.push_back(Feature::Segmented);
  if (Fs.empty())
    return;
  switch (R.pick(Fs)) {
  case Feature::Reduce:
    return reduceStmt(false);
  case Feature::Scan:
    return scanStmt(false);
  case Feature::Compact:
    return compactStmt(false);
  case Feature::Split:
    return compactStmt(true);
  case Feature::Segmented:
    return segmentedStmt();
  default:
    return sortIdxStmt(false);
  }
}

void Generator::parStmt() {
  // Independent collectives; their results are declared before the block
  // so that they outlive it.
  unsigned Count = R.range(2, 3);
  std::vector<std::string> Lines;
  std::vector<Var> Results;
  // Any scan noteReduce adds must come before the par block.
  noteReduce();
  noteReduce();
  std::string Saved;
  std::swap(Saved, Out);
  for (unsigned K = 0; K < Count; ++K) {
    unsigned Pick = R.below(3);
    if (Pick == 2 && !Opts.has(Feature::ParScan))
      Pick = R.below(2);
    if (Pick == 0) {
      Ty T = randomIntTy();
      std::string Op = IntOps[R.below(7)];
      std::string V = fresh("r");
      Lines.push_back(std::string(tyName(T)) + " " + V + " = " +
                      convert("0", Ty::Int, T) + ";");
      std::string O = fresh("o");
      Lines.push_back(std::string(tyName(T)) + " " + O + " = " +
                      reduceOperand(T, Op) + ";");
      line(V + " = reduce(" + Op + ", " + O + ");");
      Results.push_back({V, T});
    } else if (Pick == 1) {
      Ty T = randomIntTy();
      std::string K2 = fresh("k");
      std::string I = fresh("q");
      Lines.push_back(std::string(tyName(T)) + " " + K2 + " = " + expr(T, 2) +
                      ";");
      Lines.push_back("int " + I + " = 0;");
      line(I + " = sort_idx(" + K2 + ");");
      Results.push_back({K2, T});
      Results.push_back({I, Ty::Int});
    } else {
      Ty T = randomIntTy();
      std::string Op = IntOps[R.below(7)];
      std::string Y = fresh("s");
      Lines.push_back(std::string(tyName(T)) + " " + Y + " = " +
                      reduceOperand(T, Op) + ";");
      line("scan(" + Op + ", " + Y + ");");
      Results.push_back({Y, T});
    }
  }
  std::string Body;
  std::swap(Body, Out);
  std::swap(Saved, Out);
  for (const std::string &L : Lines)
    line(L);
  open("par");
  Out += Body;
  close();
  for (const Var &V : Results)
    S.add(V);
}

void Generator::groupStmt() {
  // A work group's sum (atomically, in a local word) and maximum; over all
  // groups, the sum of the sums and the max of the maxima are those of all
  // threads, whatever the group size.
  std::string L = fresh("lg");
  std::string X = fresh("x");
  std::string Sum = fresh("gs"), Max = fresh("gm");
  // Any scan noteReduce adds must come before the local array's superstep.
  noteReduce();
  noteReduce();
  line("int " + X + " = " + expr(Ty::Int, 2) + ";");
  line("local int " + L + "[2];");
  // Every other group statement also has a local array of vectors, which
  // the SPIR-V target lays out by element size. No random draw of its own
  // (the parity of the name counter picks it), but the two variables it
  // adds change what later statements pick. The leader stores a uniform
  // value.
  std::string LV = NameCounter % 2 ? fresh("lv") : "";
  if (!LV.empty())
    line("local uint2 " + LV + "[2];");
  open("if (group.rank == 0)");
  line(L + "[0] = 0;");
  line(L + "[1] = -2147483647 - 1;");
  if (!LV.empty())
    line(LV + "[1] = uint2((uint)n, 7u);");
  close();
  line("group.barrier();");
  line("atomicAdd(&" + L + "[0], " + X + ");");
  line("atomicMax(&" + L + "[1], " + X + ");");
  line("group.barrier();");
  // Read the local array before the reductions' barriers end its life.
  std::string LS = fresh("o"), LM = fresh("o");
  line("int " + LS + " = group.rank == 0 ? " + L + "[0] : 0;");
  line("int " + LM + " = " + L + "[1];");
  if (!LV.empty()) {
    std::string V = fresh("o");
    line("uint " + V + " = " + LV + "[1].x ^ " + LV + "[1].y;");
    S.add({V, Ty::UInt});
    // The groups cover the threads, whatever the group size, and each
    // has group.size threads but the last.
    std::string C = fresh("o");
    line("int " + C +
         " = (int)(group.count * group.size >= thread.size && "
         "group.id < group.count && group.threads == (group.id + 1 < "
         "group.count ? group.size : thread.size - group.id * "
         "group.size));");
    S.add({C, Ty::Int});
  }
  line("int " + Sum + " = reduce(+, " + LS + ");");
  line("int " + Max + " = reduce(max, " + LM + ");");
  S.add({X, Ty::Int});
  S.add({Sum, Ty::Int});
  S.add({Max, Ty::Int});
}

void Generator::subgroupStmt() {
  std::string X = fresh("x");
  Ty T = R.chance(50) ? Ty::Int : Ty::UInt;
  std::string TN = tyName(T);
  line(TN + " " + X + " = " + expr(T, 2) + ";");
  S.add({X, T});
  std::string V = fresh("u");
  // Subgroups are full only when the thread count is a multiple of the
  // largest subgroup size (64) and no fork or kill changed it.
  bool Full = MinThreads == MaxThreads && MaxThreads % 64 == 0;
  unsigned Pick = R.below(Full && Opts.has(Feature::Shuffle) ? 7 : 5);
  switch (Pick) {
  case 0: {
    // Leaders bring their subgroup's sum, xor; every lane its min, max,
    // and, or (idempotent operators).
    static const char *const Ops[][2] = {{"add", "+"},   {"xor", "^"},
                                         {"min", "min"}, {"max", "max"},
                                         {"and", "&"},   {"or", "|"}};
    unsigned K = R.below(6);
    // Every lane calls the subgroup operation (not under the ?:).
    std::string Sub = fresh("sg");
    // Its value depends on the subgroup size: only the reduce is kept.
    line(TN + " " + Sub + " = subgroup." + Ops[K][0] + "(" + X + ");");
    if (K < 2) {
      std::string Lead = fresh("o");
      line(TN + " " + Lead + " = subgroup.rank == 0 ? " + Sub + " : " +
           convert("0", Ty::Int, T) + ";");
      Sub = Lead;
    }
    noteReduce();
    line(TN + " " + V + " = reduce(" + Ops[K][1] + ", " + Sub + ");");
    S.add({V, T});
    return;
  }
  case 1: {
    std::string C = fresh("b"), B = fresh("m"), P = fresh("pc");
    line("bool " + C + " = " + cond(1) + ";");
    line("uint64 " + B + " = subgroup.ballot(" + C + ");");
    line("int " + P + " = 0;");
    line("for (int i = 0; i < 64; i++)");
    line("  " + P + " = " + P + " + (int)((" + B + " >> i) & 1ul);");
    line(P + " = subgroup.rank == 0 ? " + P + " : 0;");
    noteReduce();
    line("int " + V + " = reduce(+, " + P + ");");
    S.add({V, Ty::Int});
    return;
  }
  case 2: {
    std::string C = fresh("b"), O = fresh("o");
    line("bool " + C + " = " + cond(1) + ";");
    bool Any = R.chance(50);
    line("int " + O + " = subgroup." + (Any ? "any" : "all") + "(" + C +
         ") ? 1 : 0;");
    noteReduce();
    line("int " + V + " = reduce(" + (Any ? "|" : "&") + ", " + O + ");");
    S.add({V, Ty::Int});
    return;
  }
  case 3:
  case 4:
    // The caller's own bit is always set in its match mask.
    line("int " + V + " = (int)((subgroup.match(" + X +
         ") >> subgroup.rank) & 1ul);");
    S.add({V, Ty::Int});
    return;
  case 5:
    // A butterfly exchange permutes the lanes of a full subgroup, or is the
    // identity past its size: the sum over all threads is unchanged.
    {
      std::string O = fresh("o");
      line(TN + " " + O + " = subgroup.shuffle_xor(" + X + ", " +
           std::to_string(R.range(1, 63)) + ");");
      noteReduce();
      line(TN + " " + V + " = reduce(+, " + O + ");");
      S.add({V, T});
      return;
    }
  default: {
    std::string O = fresh("o");
    line(TN + " " + O + " = subgroup.shuffle(" + X + ", (subgroup.rank + " +
         std::to_string(R.range(1, 9)) + ") % subgroup.size);");
    noteReduce();
    line(TN + " " + V + " = reduce(+, " + O + ");");
    S.add({V, T});
    return;
  }
  }
}

void Generator::atomicStmt() {
  HasAtomics = true;
  // acc[0] add, [1] min, [2] max, [3] and, [4] or, [5] xor (unsigned),
  // [6] signed min, [7] signed max; floats: [8] add of integers below 16
  // (every sum exact, so the order of the additions does not matter), [9]
  // exchange and compare-and-swap that only ever store 2.0f.
  if (Opts.has(Feature::Float) && R.chance(20)) {
    std::string F9 = "(float *)&acc[9]";
    switch (R.below(3)) {
    case 0:
      line("atomicAdd((float *)&acc[8], (float)(" + expr(Ty::Int, 2) +
           " & 15));");
      return;
    case 1:
      line("atomicExch(" + F9 + ", 2.0f);");
      return;
    default:
      line("atomicCAS(" + F9 + ", 0.0f, 2.0f);");
      return;
    }
  }
  unsigned K = R.below(8);
  static const char *const Fn[] = {"atomicAdd", "atomicMin", "atomicMax",
                                   "atomicAnd", "atomicOr",  "atomicXor",
                                   "atomicMin", "atomicMax"};
  // A fence before the counter's add, as the last-block pattern writes it
  // (it changes no result). Drawn from K, so that the random stream, and
  // with it every seed's program, stays as it was.
  if (K == 0)
    line("__threadfence();");
  if (K >= 6) {
    line(std::string(Fn[K]) + "((int *)&acc[" + std::to_string(K) + "], " +
         expr(Ty::Int, 2) + ");");
    return;
  }
  line(std::string(Fn[K]) + "(&acc[" + std::to_string(K) + "], " +
       expr(Ty::UInt, 2) + ");");
}
