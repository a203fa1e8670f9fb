//===- PlantedErrors.cpp - programs with one error bsgpc must report ------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// With --plant-error the generator writes the seed's program with one
// invalid construct at the end of its first spawn, on a line marked
// `bsgp-smith: error here`. The rest of the program is the valid program of
// the seed (the error is drawn from a generator of its own), so bsgpc must
// reject exactly that line with file:line:col and exit status 1, whatever
// the generated code around it; scripts/difftest.sh checks that. The errors
// are those the passes after MLIRGen find, which the differential runs of
// valid programs never reach.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

using namespace bsgp::smith;

namespace {
const char *const Marker = " // bsgp-smith: error here";
} // namespace

void Generator::plantError() {
  Rng P(Opts.Seed * 0x9e3779b97f4a7c15ull + 17);
  std::string E = fresh("e");
  line("int " + E + " = rk;");
  // Hashed with the spawn's other variables, so that the erroneous code is
  // not dead.
  S.add({E, Ty::Int});
  enum Kind {
    LocalAcross,
    OldRankAmbiguous,
    GetOfLoad,
    BigArray,
    BigArrayFlow
  };
  Kind K = static_cast<Kind>(P.below(5));
  // The load that thread.get cannot take from another thread needs the
  // inline helper and an input list.
  if (K == GetOfLoad && (!Opts.has(Feature::Get) ||
                         !Opts.has(Feature::GetExpr) || Inputs.empty()))
    K = BigArray;
  std::string A = fresh("pe");
  int Size = P.range(257, 400);
  switch (K) {
  case LocalAcross:
    // A work group's local array is gone after the barrier.
    line("local int " + A + "[4];");
    line(A + "[group.rank & 3] = " + E + ";");
    line("barrier;");
    line(E + " = " + E + " + " + A + "[" + std::to_string(P.below(4)) + "];" +
         Marker);
    break;
  case OldRankAmbiguous:
    if (P.chance(50)) {
      // Whether the ranks were reassigned depends on the branch.
      open("if (n > " + std::to_string(P.range(0, 9)) + ")");
      line("thread.sortby(" + E + ");");
      line("barrier;");
      close();
      line(E + " = " + E + " + thread.oldrank;" + Marker);
      break;
    }
    // The first iteration reads the rank, the next ones the previous
    // iteration's reassignment.
    open("for (int j = 0; j < " + std::to_string(P.range(2, 9)) + "; j++)");
    line(E + " = " + E + " + thread.oldrank;" + Marker);
    line("thread.sortby(" + E + ");");
    line("barrier;");
    close();
    break;
  case GetOfLoad:
    // The argument of the inlined get is a load after the barrier, which
    // no other thread can give.
    line("barrier;");
    line(E + " = " + E + " + sm_nb(" + std::to_string(P.below(3)) + ", (int)" +
         Inputs[P.below(Inputs.size())].Name + "[rk]);" + Marker);
    break;
  case BigArray:
  case BigArrayFlow:
    // More words than a thread may carry across a barrier.
    line("int " + A + "[" + std::to_string(Size) + "];" + Marker);
    open("for (int i = 0; i < " + std::to_string(Size) + "; i++)");
    line(A + "[i] = " + E + " + i;");
    close();
    if (K == BigArray) {
      line("barrier;");
      line(E + " = " + E + " + " + A + "[rk & 255];");
      break;
    }
    open("for (int j = 0; j < " + std::to_string(P.range(1, 4)) + "; j++)");
    line("barrier;");
    line(E + " = " + E + " + " + A + "[j & 255];");
    close();
    break;
  }
}
