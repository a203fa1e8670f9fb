//===- Program.cpp - bsgp-smith's program skeleton and host code ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A generated program is: declarations of the C and runtime functions it
// calls, the sm_* helpers (hash step, guarded division, clamps), one host
// function per spawn, a few host-only functions, and a main that threads a
// 64-bit FNV-style hash through all of them, printing it after each step
// (which localizes a mismatch) and at the end.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

using namespace bsgp::smith;

namespace {
struct FeatureInfo {
  const char *Name;
  bool Default;
};
} // namespace

/// In Feature order. Those off by default need compiler fixes
/// (docs/testing-generator.md).
static const FeatureInfo Features[] = {
    {"host-loops", true},
    {"int64", true},
    {"float", true},
    {"double", true},
    {"vectors", true},
    {"math", true},
    {"trunc", true},
    {"private-arrays", true},
    {"array-barrier", true},
    {"barrier", true},
    {"get", true},
    {"get-expr", true},
    {"get-any", true},
    {"put", true},
    {"reduce", true},
    {"reduce-twice", true},
    {"scan", true},
    {"compact", true},
    {"split", true},
    {"sort-idx", true},
    {"sortby", true},
    {"thread-split", true},
    {"reassign", true},
    {"oldrank", true},
    {"fork", true},
    {"kill", true},
    {"par", true},
    {"par-scan", true},
    {"require", true},
    {"group", true},
    {"subgroup", true},
    {"shuffle", true},
    {"atomics", true},
    {"uniform-branch", true},
    {"big-spawn", true},
    {"generics", true},
    {"ddelete", true},
    {"min-max", true},
    {"constants", true},
    {"struct-lists", true},
    {"device-printf", true},
    {"inline-rank", true},
    {"struct-values", true},
    {"uniform-loop", true},
    {"rank-div", true},
    {"const-exprs", true},
    {"uniform-else", true},
    {"uniform-while", true},
    {"uniform-nested", true},
    {"uniform-do", true},
    {"collective-fns", true},
    {"uniform-jumps", true},
    {"require-printf", true},
    {"template-fns", true},
    {"temp-lists", true},
    {"flow-get", true},
    {"flow-lists", true},
    {"flow-printf", true},
    {"fn-flow", true},
    {"uniform-args", true},
    {"libm", true},
    {"fn-jumps", true},
    {"c-names", true},
    {"addr-of", true},
    {"struct-inits", true},
    {"globals", true},
    {"array-literals", true},
    {"array-fields", true},
    {"grid-loops", true},
    {"c-forms", true},
    {"segmented", true},
    {"domains", true},
};
static_assert(sizeof(Features) / sizeof(Features[0]) ==
                  static_cast<unsigned>(Feature::NumFeatures),
              "one entry per feature");

llvm::StringRef bsgp::smith::featureName(Feature F) {
  return Features[static_cast<unsigned>(F)].Name;
}

Feature bsgp::smith::featureByName(llvm::StringRef Name) {
  for (unsigned K = 0; K < static_cast<unsigned>(Feature::NumFeatures); ++K)
    if (Name == Features[K].Name)
      return static_cast<Feature>(K);
  return Feature::NumFeatures;
}

bool bsgp::smith::featureOnByDefault(Feature F) {
  return Features[static_cast<unsigned>(F)].Default;
}

void Generator::preamble() {
  // BSGP's own C headers (resource headers of bsgpc, found by bsgpi too)
  // declare what the extern "C" lines below declare again, with the same
  // types.
  if (Opts.has(Feature::CNames)) {
    line("#include <bsgp.h>");
    line("#include <stdio.h>");
    line("#include <stdlib.h>");
    if (Opts.has(Feature::Math))
      line("#include <math.h>");
  }
  line("extern \"C\" int printf(const char *fmt, ...);");
  line("extern \"C\" void *malloc(uint64 bytes);");
  line("extern \"C\" void free(void *p);");
  line("extern \"C\" void bsgprt_memcpy_htod(void *dst, const void *src, "
       "uint64 bytes);");
  line("extern \"C\" void bsgprt_memcpy_dtoh(void *dst, const void *src, "
       "uint64 bytes);");
  line("extern \"C\" void bsgprt_memset_d(void *dst, int value, uint64 "
       "bytes);");
  if (Opts.has(Feature::Math)) {
    for (const char *F : {"fabs", "floor", "ceil", "trunc", "sqrt"}) {
      if (F == llvm::StringRef("trunc") && !Opts.has(Feature::Trunc))
        continue;
      line(std::string("extern \"C\" float ") + F + "f(float x);");
      line(std::string("extern \"C\" double ") + F + "(double x);");
    }
    for (const char *F : {"fmin", "fmax"}) {
      line(std::string("extern \"C\" float ") + F + "f(float x, float y);");
      line(std::string("extern \"C\" double ") + F + "(double x, double y);");
    }
  }
  if (Opts.has(Feature::Math) && Opts.has(Feature::Libm)) {
    for (const char *F :
         {"exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "asin",
          "acos", "atan", "sinh", "cosh", "tanh"})
      line(std::string("extern \"C\" double ") + F + "(double x);");
    line("extern \"C\" double pow(double x, double y);");
    line("extern \"C\" double atan2(double y, double x);");
    line("extern \"C\" float exp2f(float x);");
    line("extern \"C\" float atan2f(float y, float x);");
  }
  line("");
}

void Generator::globalVariables() {
  if (!Opts.has(Feature::Globals))
    return;
  // No random draw: the rest of the program is the same with it off.
  line("// Global variables (host memory): each spawn function adds its "
       "size to");
  line("// sm_gcount before its spawn, whose threads read it, and notes its");
  line("// hash in sm_gstate through a host helper; main mixes both in.");
  line("int sm_gcount = 3;");
  line("uint64 sm_gstate;");
  open("void sm_note(uint64 v)");
  line("sm_gstate = (sm_gstate ^ v) * 1099511628211ul;");
  close();
  line("");
}

/// Global constant tables of 8 elements, read by every kind of code.
void Generator::constantTables() {
  if (!Opts.has(Feature::Constants))
    return;
  line("// Global constants.");
  line("const int SM_N = " + std::to_string(R.range(2, 9)) + ";");
  for (Ty T : {Ty::Int, Ty::UInt, Ty::Int64, Ty::Float, Ty::Double}) {
    if ((T == Ty::Int64 && !Opts.has(Feature::Int64)) ||
        (T == Ty::Float && !Opts.has(Feature::Float)) ||
        (T == Ty::Double && !Opts.has(Feature::Double)))
      continue;
    std::string List;
    double Bound = 0;
    for (unsigned K = 0; K < 8; ++K) {
      std::string L = literal(T);
      if (isFloating(T))
        Bound = std::max(Bound, std::abs(std::stod(L)));
      List += (K ? ", " : "") + L;
    }
    Tables.push_back({T, Bound});
    line("const " + std::string(tyName(T)) + " " + tableName(T) +
         "[SM_N - SM_N + 8] = {" + List + "};");
  }
  line("");
}

void Generator::helpers() {
  if (Opts.has(Feature::StructLists)) {
    // Fields of every size and alignment, so that the layout matters.
    line("// The record of the input lists of structs.");
    open("struct SmRec");
    for (const char *F : {"char c;", "int i;", "float3 v;", "uint u;",
                          "int64 l;", "float f;", "char c2;", "uint64 q;",
                          "double d;", "short s;", "uchar b;", "ushort w;"})
      line(F);
    close(";");
    line("");
  }
  constantTables();
  globalVariables();
  if (Opts.has(Feature::Generics)) {
    line("// Generic helpers, instantiated for the types the program uses.");
    line("template <typename T> T sm_gmax(T a, T b) { return a < b ? b : a; }");
    line(
        "// Its explicit specialization for int: the maximum with its low bit");
    line("// flipped, so that a call that got the template's instantiation");
    line("// instead gives another answer.");
    line("template <> int sm_gmax<int>(int a, int b) { return (a < b ? b : a) "
         "^ 1; }");
    open("template <typename T> T sm_gsel(bool c, T a, T b)");
    line("if (c)");
    line("  return a;");
    line("return b;");
    close();
    line("");
  }
  if (Opts.has(Feature::FnJumps)) {
    // Early exits from a loop in a function that device code calls.
    line("// A return and a break inside a loop.");
    open("int sm_find(int v, int k)");
    open("for (int i = 0; i < 4; i++)");
    line("if ((v & 7) == (int)(((uint)k + (uint)i) & 7u))");
    line("  return i;");
    line("if (v < 0 && k < 100)");
    line("  break;");
    close();
    line("return -1;");
    close();
    line("");
  }
  if (Opts.has(Feature::InlineRank)) {
    line("// The calling thread's rank and the spawn's size, through an "
         "inline function.");
    line("inline int sm_rk(int k) { return thread.rank * k + thread.size; }");
    line("");
  }
  if (Opts.has(Feature::Get) && Opts.has(Feature::GetExpr)) {
    line("// thread.get through an inline function: its argument is an "
         "expression");
    line("// the caller computes after the barrier.");
    line("template <typename T> inline T sm_nb(int r, T v) { return "
         "thread.get(r, v); }");
    line("");
  }
  line("// One step of a 64-bit FNV-1 style hash.");
  line("uint64 sm_mix(uint64 h, uint64 v) { return (h ^ v) * "
       "1099511628211ul; }");
  line("");
  line("// Division and remainder defined for every operand: a zero divisor "
       "and");
  line("// MIN / -1 give the dividend (remainder 0).");
  struct IntTy {
    const char *Tag, *Name, *Min;
  } Tys[] = {{"i32", "int", "(-2147483647 - 1)"},
             {"u32", "uint", nullptr},
             {"i64", "int64", "(-9223372036854775807l - 1)"},
             {"u64", "uint64", nullptr}};
  for (const IntTy &T : Tys) {
    std::string N = T.Name;
    std::string Zero = "(" + N + ")0";
    for (bool Div : {true, false}) {
      open(N + " sm_" + (Div ? "div_" : "mod_") + T.Tag + "(" + N + " a, " + N +
           " b)");
      line("if (b == " + Zero + ")");
      line("  return a;");
      if (T.Min) {
        line("if (a == " + std::string(T.Min) + " && b == (" + N + ")-1)");
        line(Div ? "  return a;" : "  return " + Zero + ";");
      }
      line(Div ? "return a / b;" : "return a % b;");
      close();
    }
  }
  line("");
  line("// Floating variables hold integers within these bounds.");
  open("float sm_clamp_f32(float x)");
  line("if (x > 4096.0f)");
  line("  return 4096.0f;");
  line("if (x < -4096.0f)");
  line("  return -4096.0f;");
  line("return x;");
  close();
  open("double sm_clamp_f64(double x)");
  line("if (x > 1048576.0)");
  line("  return 1048576.0;");
  line("if (x < -1048576.0)");
  line("  return -1048576.0;");
  line("return x;");
  close();
  line("// Factors for exact products: -1, 1 or 2.");
  for (const char *T : {"float", "double"}) {
    std::string N = T;
    open(N + " sm_unit_" + (N == "float" ? "f32" : "f64") + "(int v)");
    line("int k = v & 3;");
    line("if (k == 0)");
    line("  return (" + N + ")2;");
    line("if (k == 1)");
    line("  return (" + N + ")-1;");
    line("return (" + N + ")1;");
    close();
  }
  line("");
  if (Opts.has(Feature::AddrOf)) {
    line("// Out-parameters, as C functions write them.");
    for (Ty T :
         {Ty::Int, Ty::UInt, Ty::Int64, Ty::UInt64, Ty::Float, Ty::Double}) {
      std::string N = tyName(T);
      line("void sm_set_" + N + "(" + N + " *p, " + N + " v) { *p = v; }");
    }
    line("");
  }
  if (Opts.has(Feature::StructValues))
    structHelpers();
  if (Opts.has(Feature::ConstExprs))
    constExprs();
}

void Generator::hostFunction(unsigned K) {
  S = Scope();
  S.push();
  Where = Ctx::Host;
  open("uint64 host" + std::to_string(K) + "(uint64 h, int a)");
  S.add({"a", Ty::Int});
  declStmt();
  declStmt();
  stmtList(R.range(2, 3 + static_cast<int>(Opts.Size)), 3);
  hashVars("h");
  line("return h;");
  close();
  line("");
}

void Generator::run(llvm::raw_ostream &OS) {
  line("// Generated by bsgp-smith (seed " + std::to_string(Opts.Seed) +
       ", size " + std::to_string(Opts.Size) + ").");
  if (Opts.PlantError)
    line("// With one planted error (--plant-error): bsgpc must reject the "
         "marked line.");
  std::string Off;
  for (unsigned K = 0; K < static_cast<unsigned>(Feature::NumFeatures); ++K)
    if (!Opts.Enabled[K])
      Off += std::string(Off.empty() ? "" : ",") + Features[K].Name;
  if (!Off.empty())
    line("// Features off: " + Off + ".");
  preamble();
  helpers();

  unsigned NumSpawns = R.range(1, 1 + static_cast<int>(Opts.Size) / 2);
  unsigned NumHost = R.range(1, 2);
  for (unsigned K = 0; K < NumSpawns; ++K)
    spawnFunction(K);
  for (unsigned K = 0; K < NumHost; ++K)
    hostFunction(K);

  // main interleaves the host functions between the spawns.
  open("int main()");
  line("uint64 h = 1469598103934665603ul;");
  unsigned H = 0;
  for (unsigned K = 0; K < NumSpawns; ++K) {
    if (H < NumHost && R.chance(50)) {
      line("h = host" + std::to_string(H) + "(h, " +
           std::to_string(R.range(-100, 100)) + ");");
      line("printf(\"host" + std::to_string(H) + " %016llx\\n\", h);");
      ++H;
    }
    // The struct parameter of struct-inits: a compound literal (no random
    // draw).
    std::string Arg;
    if (Opts.has(Feature::StructValues) && Opts.has(Feature::StructInits))
      Arg = ", (struct SmVal){" + std::to_string(K + 1) + ", {-" +
            std::to_string(K + 2) + ", 5u}, " + std::to_string(3 * K + 7) +
            "u}";
    line("h = spawn" + std::to_string(K) + "(h, " +
         std::to_string(SpawnSizes[K]) + Arg + ");");
    line("printf(\"spawn" + std::to_string(K) + " %016llx\\n\", h);");
  }
  for (; H < NumHost; ++H) {
    line("h = host" + std::to_string(H) + "(h, " +
         std::to_string(R.range(-100, 100)) + ");");
    line("printf(\"host" + std::to_string(H) + " %016llx\\n\", h);");
  }
  if (Opts.has(Feature::Globals)) {
    line("h = sm_mix(h, sm_gstate);");
    line("h = sm_mix(h, (uint64)sm_gcount);");
    line("printf(\"globals %016llx\\n\", h);");
  }
  if (Opts.has(Feature::ConstExprs)) {
    line("h = sm_consts(h);");
    line("printf(\"consts %016llx\\n\", h);");
  }
  line("printf(\"checksum %016llx\\n\", h);");
  line("return 0;");
  close();
  OS << Out;
}
