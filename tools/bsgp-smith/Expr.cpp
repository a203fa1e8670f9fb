//===- Expr.cpp - bsgp-smith's expressions with safe arithmetic -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Every expression is defined for all values of its operands:
// - `+ - *`, unary minus and `<<` on signed types are computed in the
//   unsigned type of the same width and converted back (two's complement
//   wrap, the same on every target), so no signed overflow happens;
// - `/` and `%` go through the sm_div_* / sm_mod_* helpers, which return
//   the dividend for a zero divisor and for INT_MIN / -1;
// - shift counts are masked to the width;
// - floating values are integers whose magnitude the generator tracks, and
//   an operation whose exact result could exceed the exactly representable
//   integers (2^24 for float, 2^53 for double) is not generated, so results
//   do not depend on rounding, evaluation order or contraction. Conversions
//   from floating to integer types go through a signed type of the same
//   width, which always holds the value.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <algorithm>
#include <cmath>

using namespace bsgp::smith;

const char *bsgp::smith::tyName(Ty T) {
  switch (T) {
  case Ty::Int:
    return "int";
  case Ty::UInt:
    return "uint";
  case Ty::Int64:
    return "int64";
  case Ty::UInt64:
    return "uint64";
  case Ty::Float:
    return "float";
  case Ty::Double:
    return "double";
  }
  return "int";
}

bool bsgp::smith::isFloating(Ty T) { return T == Ty::Float || T == Ty::Double; }
bool bsgp::smith::isSigned(Ty T) { return T == Ty::Int || T == Ty::Int64; }
bool bsgp::smith::is64(Ty T) {
  return T == Ty::Int64 || T == Ty::UInt64 || T == Ty::Double;
}
Ty bsgp::smith::unsignedOf(Ty T) { return is64(T) ? Ty::UInt64 : Ty::UInt; }

double bsgp::smith::floatLimit(Ty T) {
  return T == Ty::Float ? 4096.0 : 1048576.0;
}

/// The largest magnitude below which every integer is exact.
static double exactLimit(Ty T) {
  return T == Ty::Float ? 16777216.0 : 9007199254740992.0;
}

/// The helper-name suffix of an integer type.
static const char *tag(Ty T) {
  switch (T) {
  case Ty::Int:
    return "i32";
  case Ty::UInt:
    return "u32";
  case Ty::Int64:
    return "i64";
  case Ty::UInt64:
    return "u64";
  default:
    return "i32";
  }
}

std::vector<Var> Scope::all(Ty T) const {
  std::vector<Var> Result;
  for (const auto &L : Levels)
    for (const Var &V : L)
      if (V.T == T && !V.Len)
        Result.push_back(V);
  return Result;
}

std::vector<Var> Scope::all() const {
  std::vector<Var> Result;
  for (const auto &L : Levels)
    for (const Var &V : L)
      if (!V.Len)
        Result.push_back(V);
  return Result;
}

std::vector<Var> Scope::writable() const {
  std::vector<Var> Result;
  for (const auto &L : Levels)
    for (const Var &V : L)
      if (!V.Len && V.Writable)
        Result.push_back(V);
  return Result;
}

std::vector<Var> Scope::arrays() const {
  std::vector<Var> Result;
  for (const auto &L : Levels)
    for (const Var &V : L)
      if (V.Len)
        Result.push_back(V);
  return Result;
}

void Scope::dropArrays(size_t Level) {
  if (Level >= Levels.size())
    return;
  auto &L = Levels[Level];
  L.erase(
      std::remove_if(L.begin(), L.end(), [](const Var &V) { return V.Len; }),
      L.end());
}

Ty Generator::randomIntTy() {
  std::vector<Ty> Tys = {Ty::Int, Ty::Int, Ty::UInt, Ty::UInt};
  if (Opts.has(Feature::Int64)) {
    Tys.push_back(Ty::Int64);
    Tys.push_back(Ty::UInt64);
  }
  return R.pick(Tys);
}

Ty Generator::randomTy() {
  if (Opts.has(Feature::Float) && R.chance(15))
    return Ty::Float;
  if (Opts.has(Feature::Double) && R.chance(8))
    return Ty::Double;
  return randomIntTy();
}

std::string Generator::literal(Ty T) {
  bool Edge = R.chance(15);
  switch (T) {
  case Ty::Int:
    if (Edge)
      return R.pick(std::vector<std::string>{"2147483647", "(-2147483647 - 1)",
                                             "-1", "65536"});
    return std::to_string(R.range(-100, 100));
  case Ty::UInt:
    if (Edge)
      return R.pick(std::vector<std::string>{"4294967295u", "2147483648u", "0u",
                                             "65535u"});
    return std::to_string(R.range(0, 200)) + "u";
  case Ty::Int64:
    if (Edge)
      return R.pick(std::vector<std::string>{"9223372036854775807l",
                                             "(-9223372036854775807l - 1)",
                                             "4294967296l", "(int64)-1"});
    return "(int64)" + std::to_string(R.range(-1000, 1000));
  case Ty::UInt64:
    if (Edge)
      return R.pick(std::vector<std::string>{
          "18446744073709551615ul", "4294967296ul", "9223372036854775808ul"});
    return std::to_string(R.range(0, 5000)) + "ul";
  case Ty::Float:
    return std::to_string(R.range(-50, 50)) + ".0f";
  case Ty::Double:
    return std::to_string(R.range(-5000, 5000)) + ".0";
  }
  return "0";
}

std::string Generator::convert(const std::string &E, Ty From, Ty To) {
  if (From == To)
    return E;
  if (!isFloating(To)) {
    if (From == Ty::Float)
      return "(" + std::string(tyName(To)) + ")(int)(" + E + ")";
    if (From == Ty::Double)
      return "(" + std::string(tyName(To)) + ")(int64)(" + E + ")";
    return "(" + std::string(tyName(To)) + ")(" + E + ")";
  }
  // To a floating type: bring the value within floatLimit(To) first.
  const char *FT = tyName(To);
  if (From == Ty::Float) // |E| <= 4096 <= 2^20: exact in double.
    return "(" + std::string(FT) + ")(" + E + ")";
  if (From == Ty::Double)
    return "(float)((int64)(" + E + ") % 4096)";
  std::string Mod = To == Ty::Float ? "4096" : "1048576";
  if (isSigned(From))
    return "(" + std::string(FT) + ")((" + E + ") % " + Mod + ")";
  std::string Mask = To == Ty::Float ? "4095" : "1048575";
  return "(" + std::string(FT) + ")((" + E + ") & " + Mask +
         (From == Ty::UInt ? "u" : "ul") + ")";
}

std::string Generator::leaf(Ty T, double &Bound) {
  Bound = isFloating(T) ? floatLimit(T) : 0;
  std::vector<Var> Vars = S.all(T);
  if (Where == Ctx::Device && T == Ty::Int && R.chance(15)) {
    if (RanksChanged && !InUniformFlow && !OldRankAmbiguous &&
        allows(Feature::OldRank) && R.chance(40))
      return "thread.oldrank";
    if (Opts.has(Feature::InlineRank) && R.chance(25))
      return "sm_rk(" + std::to_string(R.range(1, 7)) + ")";
    if (Opts.has(Feature::RankDiv) && R.chance(25))
      return R.chance(50) ? "(thread.rank / gw)" : "(thread.rank % gw)";
    if (!R.chance(70))
      return "thread.size";
    // Directly in the spawn body (a collective function cannot read the
    // domain), the rank as its coordinates make it up.
    if (Opts.has(Feature::Domains) && !inCollectiveFunction() &&
        DomR.chance(50))
      return domainRank();
    return "thread.rank";
  }
  if (Where == Ctx::Device && HasRec && R.chance(6)) {
    // A field of a record (the spawn has a thread only when n > 0); an int
    // may come from a narrow field, which promotes (as the cast says, so
    // that a template's argument stays an int).
    std::string At = "drec[(uint)" + indexLeaf() + " % (uint)n].";
    if (T == Ty::Int && R.chance(40)) {
      static const std::vector<const char *> Narrow = {"s", "b", "w"};
      return "((int)" + At + R.pick(Narrow) + ")";
    }
    const char *F = T == Ty::Int      ? "i"
                    : T == Ty::UInt   ? "u"
                    : T == Ty::Int64  ? "l"
                    : T == Ty::UInt64 ? "q"
                    : T == Ty::Float  ? (R.chance(70) ? "f" : "v.x")
                                      : "d";
    return At + F;
  }
  if (Where == Ctx::Device && R.chance(10)) {
    std::vector<Var> Lists;
    for (const Var &V : Inputs)
      if (V.T == T)
        Lists.push_back(V);
    // The spawn runs at least one thread only when n > 0.
    if (!Lists.empty())
      return R.pick(Lists).Name + "[(uint)" + indexLeaf() + " % (uint)n]";
  }
  // The global variable, in host code and in spawn bodies (threads read it
  // as it was when their spawn began), not in inline functions.
  if (T == Ty::Int && allows(Feature::Globals) && R.chance(4))
    return "sm_gcount";
  if (R.chance(6))
    for (const Table &Tb : Tables)
      if (Tb.T == T) {
        Bound = std::max(Tb.Bound, 1.0);
        return tableName(T) + "[" + indexLeaf() + " & 7]";
      }
  if (R.chance(10)) {
    std::vector<Var> Arrs;
    for (const Var &V : S.arrays())
      if (V.T == T)
        Arrs.push_back(V);
    if (!Arrs.empty()) {
      const Var &A = R.pick(Arrs);
      return A.Name + "[" + indexLeaf() + " & " + std::to_string(A.Len - 1) +
             "]";
    }
  }
  if (!Vars.empty() && R.chance(70))
    return R.pick(Vars).Name;
  if (R.chance(30)) {
    std::vector<Var> Any = S.all();
    if (!Any.empty()) {
      const Var &V = R.pick(Any);
      return convert(V.Name, V.T, T);
    }
  }
  std::string L = literal(T);
  if (isFloating(T))
    Bound = std::abs(std::stod(L.substr(0, L.find('.'))));
  return L;
}

std::string Generator::genericCall(const char *Name, Ty T,
                                   const std::vector<std::string> &Args) {
  // The last operands have type T; the first of sm_gsel is a condition.
  bool Explicit = R.chance(50);
  std::string Call = std::string(Name) +
                     (Explicit ? "<" + std::string(tyName(T)) + ">" : "") + "(";
  for (size_t I = 0; I < Args.size(); ++I) {
    bool Typed = I + 2 >= Args.size();
    Call += I ? ", " : "";
    Call += Typed && !Explicit
                ? "(" + std::string(tyName(T)) + ")(" + Args[I] + ")"
                : Args[I];
  }
  return Call + ")";
}

std::string Generator::indexLeaf() {
  std::vector<Var> Ints = S.all(Ty::Int);
  if (Where == Ctx::Device && R.chance(40))
    return "thread.rank";
  if (!Ints.empty() && R.chance(80))
    return R.pick(Ints).Name;
  return std::to_string(R.range(0, 9));
}

std::string Generator::cond(int Depth) {
  unsigned Choice = R.below(Depth > 0 ? 5 : 3);
  static const char *Cmp[] = {"<", "<=", ">", ">=", "==", "!="};
  switch (Choice) {
  case 0:
  case 1: {
    Ty T = randomTy();
    return "(" + expr(T, Depth > 0 ? Depth - 1 : 0) + " " + Cmp[R.below(6)] +
           " " + expr(T, Depth > 0 ? Depth - 1 : 0) + ")";
  }
  case 2: {
    Ty T = randomIntTy();
    return "((" + expr(T, 0) + " & " + literal(T) +
           ") != " + convert("0", Ty::Int, T) + ")";
  }
  case 3:
    return "(" + cond(Depth - 1) + (R.chance(50) ? " && " : " || ") +
           cond(Depth - 1) + ")";
  default:
    return "!" + cond(Depth - 1);
  }
}

/// The builtins on operands of one type: min(A, B), max(A, B),
/// clamp(A, B, C) with a third operand from \p Third, abs(A) or abs(B).
/// abs of a signed integer may meet its minimum, which it keeps.
std::string Generator::minMaxCall(const std::string &A, const std::string &B,
                                  llvm::function_ref<std::string()> Third) {
  switch (R.below(5)) {
  case 0:
    return "min(" + A + ", " + B + ")";
  case 1:
    return "max(" + A + ", " + B + ")";
  case 2:
    return "clamp(" + A + ", " + B + ", " + Third() + ")";
  case 3:
    return "abs(" + A + ")";
  default:
    return "max(abs(" + B + "), " + A + ")";
  }
}

std::string Generator::intExpr(Ty T, int Depth) {
  double Ignored;
  if (Depth <= 0 || R.chance(20))
    return leaf(T, Ignored);
  const std::string TN = tyName(T);
  const std::string U = tyName(unsignedOf(T));
  auto Sub = [&]() { return intExpr(T, Depth - 1); };
  if (T == Ty::Int && Opts.has(Feature::FnJumps) && R.chance(4))
    return "sm_find(" + Sub() + ", " + Sub() + ")";
  if (Opts.has(Feature::CForms) && R.chance(6))
    return cForm(T, Depth);
  switch (R.below(10)) {
  case 0:
  case 1: { // + - * (wrapping)
    const char *Op = R.pick(std::vector<const char *>{"+", "-", "*"});
    if (!isSigned(T))
      return "(" + Sub() + " " + Op + " " + Sub() + ")";
    return "(" + TN + ")((" + U + ")" + Sub() + " " + Op + " (" + U + ")" +
           Sub() + ")";
  }
  case 2: { // bitwise
    const char *Op = R.pick(std::vector<const char *>{"&", "|", "^"});
    return "(" + Sub() + " " + Op + " " + Sub() + ")";
  }
  case 3: { // shifts with a masked count
    std::string Mask = is64(T) ? "63" : "31";
    std::string Count = "(" + Sub() + " & " + convert(Mask, Ty::Int, T) + ")";
    if (R.chance(50))
      return "(" + Sub() + " >> " + Count + ")";
    if (!isSigned(T))
      return "(" + Sub() + " << " + Count + ")";
    return "(" + TN + ")((" + U + ")" + Sub() + " << " + Count + ")";
  }
  case 4: // guarded division and remainder
    return std::string(R.chance(50) ? "sm_div_" : "sm_mod_") + tag(T) + "(" +
           Sub() + ", " + Sub() + ")";
  case 5:
    if (Opts.has(Feature::Generics) && R.chance(25))
      return genericCall("sm_gsel", T, {cond(Depth - 1), Sub(), Sub()});
    return "(" + cond(Depth - 1) + " ? " + Sub() + " : " + Sub() + ")";
  case 6:
    return "(" + TN + ")" + cond(Depth - 1);
  case 7:
    if (isSigned(T))
      return "(" + TN + ")((" + U + ")0 - (" + U + ")" + Sub() + ")";
    return "(~" + Sub() + ")";
  case 8: { // from another type
    Ty From = randomTy();
    return convert(expr(From, Depth - 1), From, T);
  }
  default: { // min / max written out; each operand appears twice
    std::string A = intExpr(T, Depth / 2), B = intExpr(T, Depth / 2);
    if (Opts.has(Feature::MinMax) && R.chance(40))
      return minMaxCall(A, B, [&]() { return intExpr(T, Depth / 2); });
    if (Opts.has(Feature::Generics) && R.chance(25))
      return genericCall("sm_gmax", T, {A, B});
    return "(" + A + (R.chance(50) ? " < " : " > ") + B + " ? " + A + " : " +
           B + ")";
  }
  }
}

/// An integer of type \p T written in one of C's forms: `(T){e}`, a lane
/// of a vector compound literal, `sizeof` of an expression, or (host code)
/// a quotient or remainder from `div` or `lldiv` by a divisor of 1 to 16.
std::string Generator::cForm(Ty T, int Depth) {
  const std::string TN = tyName(T);
  auto Sub = [&]() { return intExpr(T, Depth - 1); };
  bool Host = Where == Ctx::Host && Opts.has(Feature::CNames);
  switch (R.below(Host ? 4 : 3)) {
  case 0:
    return "(" + TN + "){" + Sub() + "}";
  case 1: {
    if (T != Ty::Int && T != Ty::UInt)
      return "(" + TN + "){" + Sub() + "}";
    // (int2){a, b}.y, (uint4){a}.z (the lanes left out are zero).
    std::string V = T == Ty::Int ? "int" : "uint";
    unsigned N = R.range(2, 4), Given = R.range(1, N), Lane = R.below(N);
    std::string List;
    for (unsigned K = 0; K < Given; ++K)
      List += (K ? ", " : "") + Sub();
    return "((" + V + std::to_string(N) + "){" + List + "})." + "xyzw"[Lane];
  }
  case 2:
    return "(" + TN + ")sizeof(" + expr(randomTy(), Depth - 1) + ")";
  default: {
    bool Wide = is64(T);
    std::string A = Wide ? "(int64)" + convert(Sub(), T, Ty::Int64)
                         : "(int)" + convert(Sub(), T, Ty::Int);
    std::string D = "((int)(" + convert(Sub(), T, Ty::Int) + " & 15) + 1)";
    if (Wide)
      D = "(int64)" + D;
    return "(" + TN + ")" + (Wide ? "lldiv(" : "div(") + A + ", " + D +
           (R.chance(50) ? ").quot" : ").rem");
  }
  }
}

std::string Generator::floatExpr(Ty T, int Depth, double &Bound) {
  if (Depth <= 0 || R.chance(20))
    return leaf(T, Bound);
  const bool F = T == Ty::Float;
  const std::string Sfx = F ? "f" : "";
  const std::string Lit = F ? ".0f" : ".0";
  double BA, BB;
  switch (R.below(8)) {
  case 0:
  case 1: { // + -
    std::string A = floatExpr(T, Depth - 1, BA);
    std::string B = floatExpr(T, Depth - 1, BB);
    Bound = BA + BB;
    return "(" + A + (R.chance(50) ? " + " : " - ") + B + ")";
  }
  case 2: { // * where the product stays exact, + otherwise
    std::string A = floatExpr(T, Depth - 1, BA);
    std::string B = floatExpr(T, Depth - 1, BB);
    if (BA * BB < exactLimit(T)) {
      Bound = BA * BB;
      // Sometimes divided again by a nonzero factor: the quotient of an
      // exact product is exact, and division is correctly rounded
      // everywhere (SPIR-V divides floats in double).
      if (R.chance(25)) {
        std::string C = "(fabs" + Sfx + "(" + B + ") + 1" + Lit + ")";
        if (Opts.has(Feature::Math) && BA * (BB + 1) < exactLimit(T)) {
          Bound = BA;
          return "((" + A + " * " + C + ") / " + C + ")";
        }
      }
      return "(" + A + " * " + B + ")";
    }
    Bound = BA + BB;
    return "(" + A + " + " + B + ")";
  }
  case 3: { // min / max
    std::string A = floatExpr(T, Depth - 1, BA);
    std::string B = floatExpr(T, Depth - 1, BB);
    Bound = std::max(BA, BB);
    if (Opts.has(Feature::MinMax) && R.chance(40)) {
      // Adding +0 turns a -0.0 into 0.0: min and max of two zeros may
      // return either (docs/language.md), so the operands avoid -0.0.
      std::string Zero = T == Ty::Float ? " + 0.0f)" : " + 0.0)";
      return minMaxCall("(" + A + Zero, "(" + B + Zero, [&]() {
        double BC;
        std::string C = floatExpr(T, Depth - 1, BC);
        Bound = std::max(Bound, BC);
        return "(" + C + Zero;
      });
    }
    if (Opts.has(Feature::Generics) && R.chance(20))
      return genericCall("sm_gmax", T, {A, B});
    if (Opts.has(Feature::Math) && R.chance(50))
      return (R.chance(50) ? "fmin" : "fmax") + Sfx + "(" + A + ", " + B + ")";
    return "(" + A + (R.chance(50) ? " < " : " > ") + B + " ? " + A + " : " +
           B + ")";
  }
  case 4: { // exact math on integers
    if (Opts.has(Feature::Math) && Opts.has(Feature::Libm) &&
        R.chance(T == Ty::Double ? 90 : 30))
      return libmCall(T, Depth, Bound);
    std::string A = floatExpr(T, Depth - 1, BA);
    Bound = BA;
    if (!Opts.has(Feature::Math))
      return "(-" + A + ")";
    switch (R.below(5)) {
    case 0:
      return "fabs" + Sfx + "(" + A + ")";
    case 1:
      return "floor" + Sfx + "(" + A + " * 0.5" + Sfx + ")";
    case 2:
      return "ceil" + Sfx + "(" + A + ")";
    case 3:
      return (Opts.has(Feature::Trunc) ? "trunc" : "ceil") + Sfx + "(" + A +
             ")";
    default:
      // sqrt of a perfect square, rounded again: Vulkan allows sqrt a few
      // ulps of error, so the result is made exact with floor(x + 0.5).
      if (BA * BA < exactLimit(T))
        return "floor" + Sfx + "(sqrt" + Sfx + "(" + A + " * " + A + ") + 0.5" +
               Sfx + ")";
      return "fabs" + Sfx + "(" + A + ")";
    }
  }
  case 5: {
    std::string A = floatExpr(T, Depth - 1, BA);
    std::string B = floatExpr(T, Depth - 1, BB);
    Bound = std::max(BA, BB);
    if (Opts.has(Feature::Generics) && R.chance(25))
      return genericCall("sm_gsel", T, {cond(Depth - 1), A, B});
    return "(" + cond(Depth - 1) + " ? " + A + " : " + B + ")";
  }
  default: { // from an integer or the other floating type
    Ty From = R.chance(70) ? randomIntTy() : (F ? Ty::Double : Ty::Float);
    if (isFloating(From) && !Opts.has(F ? Feature::Double : Feature::Float))
      From = Ty::Int;
    Bound = floatLimit(T);
    return convert(expr(From, Depth - 1), From, T);
  }
  }
}

/// An inexact C library function rounded back to an integer,
/// floor(4 f(x) + 0.25). The backends compute f differently (glibc on the
/// CPU and in bsgpi, libdevice on CUDA, bsgpc's own functions on SPIR-V),
/// a few ulps apart, so the argument keeps f small and the rounded value
/// away from an integer: f(x) = (4m - 1) / 16 has no solution for the
/// arguments used (integers, and the sine of an integer, which is
/// transcendental), and the offset 0.25 keeps exact results such as
/// exp(0) = 1 or exp2f(-3) = 0.125 off the integers too. The float
/// arguments are clamped to a few integers, whose rounded values were all
/// checked to be at least 5e-4 from an integer.
namespace {
/// The argument of a C math function in the generated call: A itself, its
/// sine S, or |A| + 1.
enum LibmArg { OfA, OfS, OfPos };
/// Each function with its argument and a bound of |f|:
/// Bound + PerLog * log(bound of |A| + 1).
struct LibmFn {
  const char *Name;
  LibmArg X;
  double Bound, PerLog;
};
} // namespace

// In the order of the generator's first version, so seeds keep their
// programs.
static const LibmFn LibmFns[] = {
    {"exp", OfS, 3, 0},    {"exp2", OfS, 4, 0},    {"log", OfPos, 1, 1},
    {"log2", OfPos, 2, 2}, {"log10", OfPos, 1, 1}, {"pow", OfS, 4, 0},
    {"sin", OfA, 4, 0},    {"cos", OfA, 4, 0},     {"tan", OfS, 4, 0},
    {"asin", OfS, 4, 0},   {"acos", OfS, 4, 0},    {"atan", OfA, 4, 0},
    {"atan2", OfA, 4, 0},  {"sinh", OfS, 4, 0},    {"cosh", OfS, 4, 0},
    {"tanh", OfA, 4, 0}};
const unsigned bsgp::smith::NumLibmFns = std::size(LibmFns);

std::string Generator::libmCall(Ty T, int Depth, double &Bound) {
  double BA, BB;
  std::string A = floatExpr(T, Depth - 1, BA);
  if (T == Ty::Float) {
    auto Clamp = [](const std::string &E, const char *L) {
      return std::string("fminf(fmaxf(") + E + ", -" + L + "), " + L + ")";
    };
    if (R.chance(50)) {
      Bound = 4 * 32 + 1;
      return "floorf(4.0f * exp2f(" + Clamp(A, "40.0f") + " * 0.125f) + 0.25f)";
    }
    std::string B = floatExpr(T, Depth - 1, BB);
    Bound = 14;
    return "floorf(4.0f * atan2f(" + Clamp(A, "8.0f") + ", " +
           Clamp(B, "8.0f") + ") + 0.25f)";
  }
  unsigned Index = R.below(NumLibmFns);
  std::string B;
  if (std::string(LibmFns[Index].Name) == "atan2")
    B = floatExpr(T, Depth - 1, BB);
  return libmOf(Index, A, BA, B, Bound);
}

std::string bsgp::smith::libmOf(unsigned Index, const std::string &A, double BA,
                                const std::string &B, double &Bound) {
  const LibmFn &G = LibmFns[Index % NumLibmFns];
  // A sine in [-1, 1] for the functions that need a small argument, and
  // |A| + 1 >= 1 for the logarithms (exact: A is an integer below 2^53).
  const std::string S = "sin(" + A + ")";
  const std::string Pos = "(fabs(" + A + ") + 1.0)";
  const std::string X = G.X == OfA ? A : G.X == OfS ? S : Pos;
  std::string F = std::string(G.Name) + "(" + X + ")";
  if (G.Name == std::string("pow"))
    F = "pow(fabs(" + S + ") + 1.0, " + S + ")";
  if (G.Name == std::string("atan2"))
    F = "atan2(" + A + ", " + B + ")";
  double FB = G.Bound + G.PerLog * std::log(BA + 1);
  Bound = 4 * FB + 1;
  return "floor(4.0 * " + F + " + 0.25)";
}

std::string Generator::expr(Ty T, int Depth) {
  if (!isFloating(T))
    return intExpr(T, Depth);
  double Bound;
  std::string E = floatExpr(T, Depth, Bound);
  if (Bound <= floatLimit(T))
    return E;
  // Bring it back within the variables' bound (exactly: all are integers).
  return std::string("sm_clamp_") + (T == Ty::Float ? "f32" : "f64") + "(" + E +
         ")";
}

/// thread.rank from the thread's coordinates in the spawn's domain
/// (docs/language.md, "Spawn domains"), which hold for any rank.
std::string Generator::domainRank() {
  switch (SpawnDims) {
  case 1:
    return DomR.chance(50) ? "thread.x" : "(thread.x + thread.y * thread.nz)";
  case 2:
    return "(thread.x + thread.nx * thread.y + thread.z)";
  default:
    return "(thread.x + thread.nx * (thread.y + thread.ny * thread.z))";
  }
}
