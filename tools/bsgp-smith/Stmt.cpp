//===- Stmt.cpp - bsgp-smith's statements, shared by host and device ------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Statements that are valid both in host code and in a spawn body:
// assignments, declarations (explicit and inferred), branches, bounded loops,
// fixed-size arrays and vectors. None of them contains a barrier or a
// collective, so they may sit under thread-dependent control flow.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <iterator>

using namespace bsgp::smith;

void Generator::line(const std::string &Text) {
  Out.append(static_cast<size_t>(Indent) * 2, ' ');
  Out += Text;
  Out += '\n';
}

std::string Generator::fresh(const char *Prefix) {
  return Prefix + std::to_string(NameCounter++);
}

void Generator::declStmt() {
  Ty T = randomTy();
  std::string Name = fresh("v");
  std::string Init = expr(T, R.range(1, 3));
  // Inferred locals take the type of their right-hand side, which expr()
  // makes exactly T.
  if (R.chance(40))
    line(Name + " = " + Init + ";");
  else
    line(declTyName(T, NameCounter) + " " + Name + " = " + Init + ";");
  S.add({Name, T});
  if (Opts.has(Feature::AddrOf) && R.chance(30))
    S.Levels.back().back().Addressed = true;
}

bool Generator::addrStmt() {
  std::vector<Var> Targets;
  // Vector lanes (`sv.w.x`) have no address.
  for (const Var &V : S.writable())
    if (V.Addressed && !llvm::StringRef(V.Name).contains(".w."))
      Targets.push_back(V);
  if (Targets.empty())
    return false;
  Var V = R.pick(Targets);
  std::string E = expr(V.T, 1);
  // The spirv target passes no address of a thread's variable to a
  // function: calls only in host code.
  if (Where == Ctx::Host && R.chance(50)) {
    line(std::string("sm_set_") + tyName(V.T) + "(&" + V.Name + ", " + E +
         ");");
    return true;
  }
  std::string P = fresh("p");
  line(std::string(tyName(V.T)) + " *" + P + " = &" + V.Name + ";");
  line("*" + P + " = " + E + ";");
  return true;
}

std::string Generator::declTyName(Ty T, unsigned Which) const {
  // C's spellings of the integer types (docs/language.md, "Types and
  // conversions"), taken in turn by the counter, so that the choice draws
  // nothing from the random stream and the programs of other features do
  // not change.
  static const char *const Int[] = {"int", "signed", "int32_t", "signed int"};
  static const char *const UInt[] = {"uint", "unsigned", "uint32_t",
                                     "unsigned int"};
  static const char *const Int64[] = {"int64", "long", "int64_t", "long long",
                                      "ptrdiff_t"};
  static const char *const UInt64[] = {"uint64", "unsigned long", "uint64_t",
                                       "size_t", "unsigned long long"};
  if (!Opts.has(Feature::CNames))
    return tyName(T);
  switch (T) {
  case Ty::Int:
    return Int[Which % std::size(Int)];
  case Ty::UInt:
    return UInt[Which % std::size(UInt)];
  case Ty::Int64:
    return Int64[Which % std::size(Int64)];
  case Ty::UInt64:
    return UInt64[Which % std::size(UInt64)];
  default:
    return tyName(T);
  }
}

void Generator::assignStmt() {
  std::vector<Var> Vars = S.writable();
  if (Vars.empty())
    return declStmt();
  const Var &V = R.pick(Vars);
  std::string E = expr(V.T, R.range(1, 3));
  if (!isFloating(V.T) && !isSigned(V.T) && R.chance(30)) {
    const char *Op =
        R.pick(std::vector<const char *>{"+=", "-=", "*=", "^=", "|=", "&="});
    line(V.Name + " " + Op + " " + E + ";");
    return;
  }
  line(V.Name + " = " + E + ";");
}

void Generator::ifStmt(int Depth) {
  open("if (" + cond(2) + ")");
  S.push();
  stmtList(R.range(1, 3), Depth - 1);
  S.pop();
  if (R.chance(50)) {
    close(" else {");
    ++Indent;
    S.push();
    stmtList(R.range(1, 3), Depth - 1);
    S.pop();
  }
  close();
}

void Generator::loopStmt(int Depth) {
  std::string I = fresh("i");
  int Trip = R.range(0, 4);
  if (R.chance(70)) {
    open("for (int " + I + " = 0; " + I + " < " + std::to_string(Trip) + "; " +
         I + "++)");
    S.push();
    S.add({I, Ty::Int, /*Writable=*/false});
  } else {
    // A while loop whose counter is bumped first, so `continue` is safe.
    line("int " + I + " = 0;");
    open("while (" + I + " < " + std::to_string(Trip) + ")");
    line(I + "++;");
    S.push();
    S.add({I, Ty::Int, /*Writable=*/false});
  }
  stmtList(R.range(1, 3), Depth - 1);
  if (R.chance(25))
    line("if (" + cond(1) + ") " + (R.chance(50) ? "break;" : "continue;"));
  S.pop();
  close();
}

void Generator::privateArrayStmt() {
  Ty T = R.chance(70) ? Ty::Int : Ty::UInt;
  unsigned Len = 1u << R.range(1, 3);
  std::string A = fresh("a");
  std::string I = fresh("i");
  if (Opts.has(Feature::Constants) && R.chance(40)) {
    // An initializer list, sized by a constant expression, that may leave
    // the last elements to zero.
    unsigned Given = R.range(1, Len);
    std::string List;
    for (unsigned K = 0; K < Given; ++K)
      List += (K ? ", " : "") + expr(T, 1);
    // A list that gives every element sizes the array itself (no draw).
    bool Unsized = Given == Len && Opts.has(Feature::ArrayLiterals);
    line(std::string(tyName(T)) + " " + A +
         (Unsized ? std::string("[]")
                  : "[SM_N * 0 + " + std::to_string(Len) + "]") +
         " = {" + List + "};");
  } else {
    line(std::string(tyName(T)) + " " + A + "[" + std::to_string(Len) + "];");
    // Initialize every element before any read.
    open("for (int " + I + " = 0; " + I + " < " + std::to_string(Len) + "; " +
         I + "++)");
    S.push();
    S.add({I, Ty::Int, false});
    line(A + "[" + I + "] = " + expr(T, 1) + ";");
    S.pop();
    close();
  }
  S.add({A, T, true, Len});
  // A scattered update at an index the program computes.
  line(A + "[" + indexLeaf() + " & " + std::to_string(Len - 1) +
       "] = " + expr(T, 1) + ";");
  // An array compound literal of two of its elements, indexed in place:
  // the first element gets the last one's value (no draw).
  if (Opts.has(Feature::ArrayLiterals))
    line(A + "[0] = (" + std::string(tyName(T)) + "[]){" + A + "[" +
         std::to_string(Len - 1) + "], " + A + "[0]}[0];");
}

void Generator::vectorStmt() {
  unsigned N = R.range(2, 4);
  static const char *Lanes = "xyzw";
  std::string Swz;
  for (unsigned K = 0; K < N; ++K)
    Swz += Lanes[R.below(N)];
  std::string V = fresh("w");
  std::string Sc = fresh("v");
  std::string NS = std::to_string(N);
  std::string Fold;
  bool IsFloat = Opts.has(Feature::Float) && R.chance(30);
  Ty Elem = IsFloat ? Ty::Float : (R.chance(50) ? Ty::UInt : Ty::Int);
  std::string VT = std::string(IsFloat ? "float" : tyName(Elem)) + NS;
  std::string Args;
  for (unsigned K = 0; K < N; ++K)
    Args += (K ? ", " : "") + expr(Elem, 1);
  line(VT + " " + V + " = " + VT + "(" + Args + ");");
  if (IsFloat) {
    // Lanes stay within 4 * 4096 + 4096 before the fold clamps them.
    line(V + " = " + V + " + " + V + "." + Swz + " * 2.0f;");
    std::string Sum;
    for (unsigned K = 0; K < N; ++K)
      Sum += (K ? " - " : "") + V + "." + Lanes[K];
    line("float " + Sc + " = sm_clamp_f32(" + Sum + ");");
    S.add({Sc, Ty::Float});
    return;
  }
  if (Elem == Ty::UInt)
    line(V + " = " + V + " * " + VT + "(" + Args + ") + " + V + "." + Swz +
         ";");
  else
    line(V + " = (" + V + " ^ " + V + "." + Swz + ") & " + VT + "(" + Args +
         ");");
  std::string Sum;
  for (unsigned K = 0; K < N; ++K)
    Sum += std::string(K ? " ^ " : "") + "(uint)" + V + "." + Lanes[K];
  line("uint " + Sc + " = " + Sum + ";");
  S.add({Sc, Ty::UInt});
}

void Generator::stmt(int Depth) {
  unsigned Choice = R.below(Depth > 0 ? 10 : 6);
  switch (Choice) {
  case 0:
  case 1:
  case 2:
    return assignStmt();
  case 3:
  case 4:
    if (Opts.has(Feature::StructValues) && R.chance(25))
      return structStmt();
    return declStmt();
  case 5:
    if (Where == Ctx::Device && Opts.has(Feature::DevicePrintf) && R.chance(20))
      return printfStmt();
    if (Where == Ctx::Device && !TempLists.empty() && R.chance(40))
      return tempListStmt();
    if (Opts.has(Feature::StructValues) && R.chance(35))
      return structStmt();
    if (Opts.has(Feature::AddrOf) && R.chance(50) && addrStmt())
      return;
    if (Where == Ctx::Device && Opts.has(Feature::Atomics) && R.chance(50))
      return atomicStmt();
    if (Opts.has(Feature::Vectors) && R.chance(50))
      return vectorStmt();
    return assignStmt();
  case 6:
  case 7:
    return ifStmt(Depth);
  case 8:
    if (Where == Ctx::Device || Opts.has(Feature::HostLoops))
      return loopStmt(Depth);
    return ifStmt(Depth);
  default:
    if (Opts.has(Feature::PrivateArrays))
      return privateArrayStmt();
    return declStmt();
  }
}

/// printf in a thread: only the thread of rank 0 prints, so the order of
/// the lines is defined (a superstep's records come after the last
/// superstep's, in the order one thread stored them) and the same in
/// bsgpi and on every backend. Values print as exact bits.
void Generator::printfStmt() {
  std::vector<Var> Vars = S.all();
  if (Vars.empty())
    return declStmt();
  const Var &V = R.pick(Vars);
  open("if (thread.rank == 0)");
  line("printf(\"" + fresh("p") + " %016llx\\n\", " +
       convert(V.Name, V.T, Ty::UInt64) + ");");
  close();
}

void Generator::stmtList(int Count, int Depth) {
  for (int K = 0; K < Count; ++K)
    stmt(Depth);
}

void Generator::hashVars(const std::string &Acc) {
  for (const Var &V : S.all())
    line(Acc + " = sm_mix(" + Acc + ", " + convert(V.Name, V.T, Ty::UInt64) +
         ");");
  for (const Var &A : S.arrays())
    for (unsigned K = 0; K < A.Len; ++K)
      line(Acc + " = sm_mix(" + Acc + ", (uint64)" + A.Name + "[" +
           std::to_string(K) + "]);");
}
