//===- Structs.cpp - bsgp-smith's struct values ---------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Struct values (Feature::StructValues): locals of `struct SmVal` (a nested
// struct, a vector field with vectors on, a float field with floats on),
// declared from initializer lists (fields left out are zero), copies and
// calls of device functions that take and return structs; whole-struct
// assignments, copies of the nested struct and selections between two
// structs. Each scalar field of a struct local is a variable of the scope
// (`sv3.in.b`), so that the other statements read and write the fields,
// thread.get reads them, the checksum hashes them, and struct locals live
// across barriers and rank reassignments like any variable. At superstep
// ends a whole struct may also be put to another thread or got from one.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

using namespace bsgp::smith;

void Generator::structHelpers() {
  line("// Struct values: a nested struct, passed and returned by value.");
  open("struct SmIn");
  line("int a;");
  line("uint b;");
  close(";");
  open("struct SmVal");
  line("int i;");
  line("struct SmIn in;");
  line("uint u;");
  if (Opts.has(Feature::Float))
    line("float f;");
  if (Opts.has(Feature::Vectors))
    line("uint2 w;");
  close(";");
  // Integer updates in unsigned arithmetic (no overflow), the float field
  // clamped, early returns and a copy of the nested struct.
  open("struct SmVal sm_sstep(struct SmVal s, int k)");
  line("struct SmVal t = s;");
  line("t.i = (int)((uint)s.i * 3u + (uint)k);");
  line("t.in.a = s.in.a ^ k;");
  line("t.in.b = s.in.b + s.u;");
  line("t.u = s.u * 5u + 1u;");
  if (Opts.has(Feature::Float))
    line("t.f = sm_clamp_f32(s.f + (float)(k & 7));");
  if (Opts.has(Feature::Vectors))
    line("t.w = t.w.yx + uint2(s.u, (uint)k);");
  line("if ((k & 3) == 1)");
  line("  t.in = s.in;");
  line("if ((k & 3) == 2)");
  line("  return s;");
  line("return t;");
  close();
  open("struct SmVal sm_spick(bool c, struct SmVal a, struct SmVal b)");
  line("return c ? a : b;");
  close();
  if (Opts.has(Feature::StructInits))
    line("const struct SmIn SM_INS[4] = {{3, 5u}, {-7, 11u}, {13}};");
  if (Opts.has(Feature::ArrayFields)) {
    // An array field: its variables live in memory; an element indexed at
    // run time, by value through a parameter and a result.
    open("struct SmArr");
    line("int n;");
    line("uint a[3];");
    close(";");
    open("struct SmArr sm_astep(struct SmArr s, uint k)");
    line("struct SmArr t = s;");
    line("t.a[k % 3u] = s.a[(k + 1u) % 3u] * 3u + k;");
    line("t.n = s.n ^ (int)(k & 255u);");
    line("return t;");
    close();
  }
  line("");
}

void Generator::addArrayStructFields(const std::string &Name) {
  size_t First = S.Levels.back().size();
  S.add({Name + ".n", Ty::Int});
  for (unsigned K = 0; K < 3; ++K)
    S.add({Name + ".a[" + std::to_string(K) + "]", Ty::UInt});
  // In memory, as a variable whose address is taken: thread.get reads the
  // whole struct or a field only at the barrier that ended the superstep
  // (arrayStructGet, superstepBreak).
  for (size_t K = First; K < S.Levels.back().size(); ++K)
    S.Levels.back()[K].Addressed = true;
}

void Generator::arrayFieldStmt() {
  std::vector<std::string> Locals;
  for (const Var &V : S.writable()) {
    llvm::StringRef N(V.Name);
    if (N.starts_with("sr") && N.ends_with(".n"))
      Locals.push_back(N.drop_back(2).str());
  }
  if (Locals.empty() || R.chance(35)) {
    std::string N = fresh("sr");
    std::string Init;
    if (Locals.empty() || R.chance(50)) {
      // C's rules: the elements and fields left out are zero.
      unsigned Given = R.range(0, 3);
      std::string Elems;
      for (unsigned K = 0; K < Given; ++K)
        Elems += (K ? ", " : "") + expr(Ty::UInt, 1);
      Init = "{" + expr(Ty::Int, 1) + ", {" + Elems + "}}";
    } else if (R.chance(50)) {
      Init = R.pick(Locals);
    } else {
      Init = "sm_astep(" + R.pick(Locals) + ", " + expr(Ty::UInt, 1) + ")";
    }
    line("struct SmArr " + N + " = " + Init + ";");
    addArrayStructFields(N);
    return;
  }
  std::string T = R.pick(Locals), A = R.pick(Locals);
  switch (R.below(4)) {
  case 0:
    line(T + ".a[(" + expr(Ty::UInt, 1) + ") % 3u] = " + expr(Ty::UInt, 1) +
         ";");
    break;
  case 1:
    line(T + " = sm_astep(" + A + ", " + expr(Ty::UInt, 1) + ");");
    break;
  case 2:
    line(T + " = " + A + ";");
    break;
  default: {
    // An element of a call's result, indexed in a temporary.
    std::string V = fresh("v");
    line("uint " + V + " = sm_astep(" + A + ", " + expr(Ty::UInt, 1) + ").a[(" +
         expr(Ty::UInt, 1) + ") % 3u];");
    S.add({V, Ty::UInt});
    break;
  }
  }
}

void Generator::addStructFields(const std::string &Name, bool Addressed) {
  size_t First = S.Levels.back().size();
  S.add({Name + ".i", Ty::Int});
  S.add({Name + ".in.a", Ty::Int});
  S.add({Name + ".in.b", Ty::UInt});
  S.add({Name + ".u", Ty::UInt});
  if (Opts.has(Feature::Float))
    S.add({Name + ".f", Ty::Float});
  if (Opts.has(Feature::Vectors)) {
    S.add({Name + ".w.x", Ty::UInt});
    S.add({Name + ".w.y", Ty::UInt});
  }
  // The address of one field puts the whole struct in memory.
  for (size_t K = First; K < S.Levels.back().size(); ++K)
    S.Levels.back()[K].Addressed = Addressed;
}

std::vector<std::string> Generator::structLocals(bool OnlySpawnLevel) const {
  std::vector<std::string> Names;
  for (size_t L = OnlySpawnLevel ? SpawnLevel : 0; L < S.Levels.size(); ++L) {
    for (const Var &V : S.Levels[L]) {
      // The first field of each struct local names it.
      llvm::StringRef N(V.Name);
      if (!V.Writable || !N.starts_with("sv") || !N.ends_with(".i"))
        continue;
      // For thread.get: not from an earlier piece after a rank change, nor
      // one whose address is taken.
      if (OnlySpawnLevel && (!gettable(V) || V.Addressed))
        continue;
      Names.push_back(N.drop_back(2).str());
    }
    if (OnlySpawnLevel)
      break;
  }
  return Names;
}

std::string Generator::structInitList() {
  std::vector<std::string> Fields = {
      expr(Ty::Int, 1),
      R.chance(50) ? "{" + expr(Ty::Int, 1) + ", " + expr(Ty::UInt, 1) + "}"
                   : "{" + expr(Ty::Int, 1) + "}",
      expr(Ty::UInt, 1)};
  if (Opts.has(Feature::Float))
    Fields.push_back(expr(Ty::Float, 1));
  if (Opts.has(Feature::Vectors))
    Fields.push_back("uint2(" + expr(Ty::UInt, 1) + ", " + expr(Ty::UInt, 1) +
                     ")");
  // C's rules: the fields left out are zero.
  unsigned Given = R.range(0, Fields.size());
  std::string List;
  for (unsigned K = 0; K < Given; ++K)
    List += (K ? ", " : "") + Fields[K];
  return "{" + List + "}";
}

std::string Generator::structInitsValue() {
  unsigned Kinds = Where == Ctx::Host ? 4 : 3;
  switch (R.below(Kinds)) {
  case 0:
    return "(struct SmVal)" + structInitList();
  case 1:
    return "sm_sstep((struct SmVal)" + structInitList() + ", " +
           expr(Ty::Int, 1) + ")";
  case 2:
    return "{" + expr(Ty::Int, 1) + ", SM_INS[(" + expr(Ty::UInt, 1) +
           ") % 4u], " + expr(Ty::UInt, 1) + "}";
  default: {
    // Host code: an array of structs from a list (elements left out are
    // zero), one of its elements taken.
    std::string A = fresh("sa");
    unsigned Given = R.range(0, 3);
    std::string List;
    for (unsigned K = 0; K < Given; ++K)
      List += (K ? ", " : "") + structInitList();
    line("struct SmVal " + A + "[3] = {" + List + "};");
    return A + "[(" + expr(Ty::UInt, 1) + ") % 3u]";
  }
  }
}

void Generator::structStmt() {
  if (Opts.has(Feature::ArrayFields) && R.chance(30))
    return arrayFieldStmt();
  std::vector<std::string> Locals = structLocals(false);
  auto Any = [&] { return R.pick(Locals); };
  if (Locals.empty() || R.chance(35)) {
    std::string N = fresh("sv");
    std::string Init;
    unsigned Choice = Locals.empty() ? 0 : R.below(4);
    if (Opts.has(Feature::StructInits) && R.chance(40))
      Init = structInitsValue();
    else if (Choice == 0)
      Init = structInitList();
    else if (Choice == 1)
      Init = Any();
    else if (Choice == 2)
      Init = "sm_sstep(" + Any() + ", " + expr(Ty::Int, 1) + ")";
    else
      Init = "sm_spick(" + cond(1) + ", " + Any() + ", " + Any() + ")";
    line("struct SmVal " + N + " = " + Init + ";");
    addStructFields(N, Opts.has(Feature::AddrOf) && R.chance(20));
    return;
  }
  std::string T = Any(), A = Any();
  switch (R.below(5)) {
  case 0:
    line(T + " = " + A + ";");
    break;
  case 1:
    line(T + " = sm_sstep(" + A + ", " + expr(Ty::Int, 1) + ");");
    break;
  case 2:
    line(T + ".in = " + A + ".in;");
    break;
  case 3:
    line(T + " = " + cond(1) + " ? " + A + " : " + T + ";");
    break;
  default:
    line(T + " = sm_spick(" + cond(1) + ", sm_sstep(" + A + ", " +
         expr(Ty::Int, 1) + "), " + T + ");");
    break;
  }
}

void Generator::structPut(std::string &Target) {
  std::vector<std::string> Locals = structLocals(false);
  Target = fresh("sv");
  line("struct SmVal " + Target + " = " + structInitList() + ";");
  std::string Src = Locals.empty() ? Target : R.pick(Locals);
  // A rotation of the ranks, so that every thread's target is written.
  line("thread.put((thread.rank + " + std::to_string(R.range(0, 40)) +
       ") % thread.size, " + Target + ", sm_sstep(" + Src + ", " +
       expr(Ty::Int, 1) + "));");
}

void Generator::getStructLocal(
    const std::vector<std::string> &Locals, const std::string &Type,
    const char *Prefix, const std::string &Rank,
    llvm::function_ref<void(const std::string &)> AddFields) {
  if (Locals.empty())
    return;
  std::string N = fresh(Prefix);
  line("struct " + Type + " " + N + " = thread.get(" + Rank + ", " +
       R.pick(Locals) + ");");
  AddFields(N);
}

void Generator::arrayStructGet(const std::string &Rank) {
  // The struct locals with an array field of the spawn body (their `.n`
  // field names them) that thread.get may read.
  std::vector<std::string> Locals;
  if (SpawnLevel < S.Levels.size())
    for (const Var &V : S.Levels[SpawnLevel]) {
      llvm::StringRef N(V.Name);
      if (V.Writable && N.starts_with("sr") && N.ends_with(".n") && gettable(V))
        Locals.push_back(N.drop_back(2).str());
    }
  getStructLocal(Locals, "SmArr", "sr", Rank,
                 [&](const std::string &N) { addArrayStructFields(N); });
}

void Generator::structGet(const std::string &Rank) {
  getStructLocal(structLocals(true), "SmVal", "sv", Rank,
                 [&](const std::string &N) { addStructFields(N); });
}
