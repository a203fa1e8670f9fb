//===- ConstExprs.cpp - bsgp-smith's integer constant expressions ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Feature const-exprs: integer constant expressions of mixed signedness and
// width (literals typed as C types them, decimal, hexadecimal and octal,
// with and without suffixes; global constants; sizeof; casts; unary,
// arithmetic, shift, comparison, bitwise and logical operators; `?:`) in
// the places the compiler folds them: array sizes in host and device code,
// global constants, template value arguments, and `if`s and `?:`s decided
// in instantiations, inside template functions whose body sizes arrays by
// the value parameter. `sm_consts` prints one line `ceN value` for each
// (the value converted to uint64) and folds it into the hash.
//
// The region between the `bsgp-smith const-exprs: begin` and `end`
// comments is C as well, but for a few BSGP forms a script turns into C
// (test/Smith/Inputs/const-exprs-oracle.py): so a C compiler is the
// independent evaluator of the same expressions.
//
// The generator keeps its own model of each value (C's rules, written
// here without the compiler's evaluator) only to stay clear of undefined
// behaviour: no signed overflow, no division by zero or MIN / -1, shift
// counts below the width, no left shift of a negative value or past the
// sign bit; and to keep array sizes between 1 and 16 and template
// arguments within their parameter's type. Its own random numbers come
// from the seed through a stream of their own, so that the feature
// changes nothing else in a program.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <optional>

using namespace bsgp::smith;

namespace {

/// BSGP's integer types, which are C's on a 64-bit target (int64 is long).
enum class IK { Bool, Char, UChar, Short, UShort, Int, UInt, Int64, UInt64 };

unsigned widthOf(IK K) {
  switch (K) {
  case IK::Bool:
    return 1;
  case IK::Char:
  case IK::UChar:
    return 8;
  case IK::Short:
  case IK::UShort:
    return 16;
  case IK::Int:
  case IK::UInt:
    return 32;
  default:
    return 64;
  }
}

bool signedKind(IK K) {
  return K == IK::Char || K == IK::Short || K == IK::Int || K == IK::Int64;
}

const char *kindName(IK K) {
  static const char *Names[] = {"bool", "char", "uchar", "short", "ushort",
                                "int",  "uint", "int64", "uint64"};
  return Names[static_cast<unsigned>(K)];
}

IK promote(IK K) { return widthOf(K) < 32 ? IK::Int : K; }

/// The usual arithmetic conversions (after promotion: the wider type, at
/// equal width the unsigned one).
IK common(IK A, IK B) {
  A = promote(A);
  B = promote(B);
  if (A == B)
    return A;
  if (widthOf(A) != widthOf(B))
    return widthOf(A) > widthOf(B) ? A : B;
  return signedKind(A) ? B : A;
}

/// A value: its type and its pattern extended to 64 bits.
struct Val {
  IK K = IK::Int;
  uint64_t B = 0;
};

/// \p Bits converted to \p K as C converts.
Val make(IK K, uint64_t Bits) {
  unsigned W = widthOf(K);
  if (K == IK::Bool)
    return {K, Bits != 0};
  if (W == 64)
    return {K, Bits};
  uint64_t Low = Bits & ((uint64_t(1) << W) - 1);
  if (signedKind(K) && (Low >> (W - 1)))
    Low |= ~((uint64_t(1) << W) - 1);
  return {K, Low};
}

__int128 wide(Val V) {
  return signedKind(V.K) ? __int128(static_cast<int64_t>(V.B)) : __int128(V.B);
}

__int128 maxOf(IK K) {
  return signedKind(K) ? (__int128(1) << (widthOf(K) - 1)) - 1
                       : (__int128(1) << widthOf(K)) - 1;
}

__int128 minOf(IK K) {
  return signedKind(K) ? -(__int128(1) << (widthOf(K) - 1)) : 0;
}

bool fits(Val V, IK K) { return wide(V) >= minOf(K) && wide(V) <= maxOf(K); }

/// A generated expression: a leaf or a parenthesized whole, its value, and
/// whether it names the value parameter V.
struct CExpr {
  std::string S;
  Val V;
  bool UsesParam = false;
};

/// The generator of the feature's code.
class ConstGen {
public:
  ConstGen(Generator &G)
      : G(G), R(G.Opts.Seed * 0x2545f4914f6cdd1dull + 0x51ed270b),
        Wide(G.Opts.has(Feature::Int64)) {}
  void run();

private:
  // Expressions.
  IK randomKind(bool Small = false);
  CExpr literal(IK K, uint64_t V);
  CExpr randomLiteral();
  CExpr leaf();
  CExpr expr(int Depth);
  CExpr castTo(IK K, const CExpr &A);
  CExpr unary(const CExpr &A);
  CExpr binary(const CExpr &A, const CExpr &B);
  std::optional<CExpr> arith(char Op, const CExpr &A, const CExpr &B);
  std::optional<CExpr> shift(bool Left, const CExpr &A);
  CExpr compare(const CExpr &A, const CExpr &B);
  CExpr conditional(const CExpr &C, const CExpr &A, const CExpr &B);
  /// An expression that names V (in a template body).
  CExpr withParam(int Depth);
  /// A size between 1 and 16 made of \p E (modulo, mask or comparison).
  CExpr size(const CExpr &E);
  /// \p E as an argument for a parameter of type \p K: as it is when its
  /// value fits, else cast.
  std::string argument(IK K, const CExpr &E);

  // Program parts.
  void constants();
  void templateFunction();
  void hostItems();
  void deviceItems();
  void print(const std::string &Value);

  Generator &G;
  Rng R;
  bool Wide;
  std::vector<std::pair<std::string, Val>> Consts;
  /// In a template body: the value parameter's value.
  std::optional<Val> Param;
  /// The statements of sm_consts, written after the templates.
  std::vector<std::string> Body;
  unsigned Labels = 0, Names = 0;
};

} // namespace

IK ConstGen::randomKind(bool Small) {
  std::vector<IK> Ks = {IK::Int, IK::UInt};
  if (Wide) {
    Ks.push_back(IK::Int64);
    Ks.push_back(IK::UInt64);
    Ks.push_back(IK::UInt64);
  }
  if (Small) {
    Ks.push_back(IK::Char);
    Ks.push_back(IK::Bool);
    static const std::vector<IK> Narrow = {IK::UChar, IK::Short, IK::UShort};
    Ks.push_back(R.pick(Narrow));
  }
  return R.pick(Ks);
}

/// A literal of value \p V (non-negative, within \p K) whose C type is
/// \p K: decimal, hexadecimal or octal, with a suffix where the radix and
/// the value alone would give another type (C 6.4.4.1).
CExpr ConstGen::literal(IK K, uint64_t V) {
  bool Hex = R.chance(40), Oct = !Hex && V > 7 && R.chance(10);
  bool Dec = !Hex && !Oct;
  bool Above32 = V > 0x7fffffffull, AboveU32 = V > 0xffffffffull,
       Above64 = V > 0x7fffffffffffffffull;
  std::vector<std::string> Suffixes;
  switch (K) {
  case IK::UInt:
    Suffixes = {"u", "U"};
    if (!Dec && Above32)
      Suffixes.push_back("");
    break;
  case IK::Int64:
    Suffixes = {"l", "ll", "LL"};
    if (Dec ? Above32 : AboveU32)
      Suffixes.push_back("");
    break;
  case IK::UInt64:
    Suffixes = {"ul", "ull", "ULL", "llu"};
    if (AboveU32)
      Suffixes.push_back("u");
    if (!Dec && Above64) {
      Suffixes.push_back("");
      Suffixes.push_back("l");
    }
    break;
  default:
    Suffixes = {""};
    break;
  }
  char Buf[40];
  auto U = static_cast<unsigned long long>(V);
  if (Hex)
    snprintf(Buf, sizeof(Buf), R.chance(20) ? "0X%llX" : "0x%llx", U);
  else if (Oct)
    snprintf(Buf, sizeof(Buf), "0%llo", U);
  else
    snprintf(Buf, sizeof(Buf), "%llu", U);
  return {Buf + R.pick(Suffixes), make(K, V)};
}

CExpr ConstGen::randomLiteral() {
  IK K = randomKind();
  uint64_t Max = static_cast<uint64_t>(maxOf(K));
  uint64_t V;
  switch (R.below(6)) {
  case 0:
    V = Max;
    break;
  case 1:
    V = Max - R.below(3);
    break;
  case 2:
    V = uint64_t(1) << R.below(widthOf(K) - (signedKind(K) ? 1 : 0));
    break;
  case 3:
    V = R.next() & Max;
    break;
  default:
    V = R.below(20);
    break;
  }
  return literal(K, V);
}

CExpr ConstGen::leaf() {
  unsigned Pick = R.below(100);
  if (Param && Pick < 30)
    return {"V", *Param, true};
  if (!Consts.empty() && Pick < 45) {
    const auto &[Name, V] = Consts[R.below(Consts.size())];
    return {Name, V};
  }
  if (Pick < 52) {
    static const std::pair<const char *, uint64_t> Sizes[] = {
        {"char", 1}, {"short", 2}, {"ushort", 2}, {"uchar", 1},
        {"int", 4},  {"uint", 4},  {"int64", 8},  {"uint64", 8}};
    const auto &[T, N] = Sizes[R.below(Wide ? 8 : 6)];
    return {std::string("sizeof(") + T + ")", make(IK::UInt64, N)};
  }
  CExpr L = randomLiteral();
  // A negative value is a negated literal, as C has no negative literals.
  if (signedKind(L.V.K) && R.chance(25) && wide(L.V) != minOf(L.V.K))
    return {"(-" + L.S + ")", make(L.V.K, 0 - L.V.B)};
  return L;
}

CExpr ConstGen::castTo(IK K, const CExpr &A) {
  return {std::string("((") + kindName(K) + ")" + A.S + ")", make(K, A.V.B),
          A.UsesParam};
}

CExpr ConstGen::unary(const CExpr &A) {
  Val X = make(promote(A.V.K), A.V.B);
  switch (R.below(3)) {
  case 0:
    if (!signedKind(X.K) || wide(X) != minOf(X.K))
      return {"(-" + A.S + ")", make(X.K, 0 - X.B), A.UsesParam};
    [[fallthrough]];
  case 1:
    return {"(~" + A.S + ")", make(X.K, ~X.B), A.UsesParam};
  default:
    return {"(!" + A.S + ")", make(IK::Int, X.B == 0), A.UsesParam};
  }
}

/// `A op B` for `+ - * / % & | ^`, or nothing where C leaves it undefined.
std::optional<CExpr> ConstGen::arith(char Op, const CExpr &A, const CExpr &B) {
  IK K = common(A.V.K, B.V.K);
  Val X = make(K, A.V.B), Y = make(K, B.V.B);
  __int128 P = wide(X), Q = wide(Y), Exact;
  switch (Op) {
  case '+':
    Exact = P + Q;
    break;
  case '-':
    Exact = P - Q;
    break;
  case '*':
    Exact = signedKind(K) ? P * Q : __int128(X.B * Y.B);
    break;
  case '/':
  case '%':
    if (Q == 0 || (signedKind(K) && P == minOf(K) && Q == -1))
      return std::nullopt;
    Exact = Op == '/' ? P / Q : P % Q;
    break;
  case '&':
    Exact = __int128(X.B & Y.B);
    break;
  case '|':
    Exact = __int128(X.B | Y.B);
    break;
  default:
    Exact = __int128(X.B ^ Y.B);
    break;
  }
  bool Bitwise = Op == '&' || Op == '|' || Op == '^';
  if (signedKind(K) && !Bitwise && (Exact < minOf(K) || Exact > maxOf(K)))
    return std::nullopt;
  return CExpr{"(" + A.S + " " + Op + " " + B.S + ")",
               make(K, static_cast<uint64_t>(Exact)),
               A.UsesParam || B.UsesParam};
}

/// `A << n` or `A >> n`, n below the width of A's promoted type, of any
/// integer type; a left shift of a signed value only where it stays below
/// the type's maximum.
std::optional<CExpr> ConstGen::shift(bool Left, const CExpr &A) {
  Val X = make(promote(A.V.K), A.V.B);
  unsigned W = widthOf(X.K), Limit = W;
  if (Left && signedKind(X.K)) {
    if (wide(X) < 0)
      return std::nullopt;
    Limit = 1;
    while (Limit < W && (wide(X) << Limit) <= maxOf(X.K))
      ++Limit;
  }
  unsigned N = R.below(Limit);
  IK CountKind = randomKind();
  CExpr Count = literal(CountKind, N);
  uint64_t Bits = Left ? X.B << N
                  : signedKind(X.K)
                      ? static_cast<uint64_t>(static_cast<int64_t>(X.B) >> N)
                      : X.B >> N;
  return CExpr{"(" + A.S + (Left ? " << " : " >> ") + Count.S + ")",
               make(X.K, Bits), A.UsesParam};
}

CExpr ConstGen::compare(const CExpr &A, const CExpr &B) {
  static const char *Ops[] = {"<", ">", "<=", ">=", "==", "!="};
  unsigned Op = R.below(6);
  IK K = common(A.V.K, B.V.K);
  __int128 P = wide(make(K, A.V.B)), Q = wide(make(K, B.V.B));
  bool V = Op == 0   ? P < Q
           : Op == 1 ? P > Q
           : Op == 2 ? P <= Q
           : Op == 3 ? P >= Q
           : Op == 4 ? P == Q
                     : P != Q;
  return {"(" + A.S + " " + Ops[Op] + " " + B.S + ")", make(IK::Int, V),
          A.UsesParam || B.UsesParam};
}

CExpr ConstGen::conditional(const CExpr &C, const CExpr &A, const CExpr &B) {
  IK K = A.V.K == B.V.K ? A.V.K : common(A.V.K, B.V.K);
  const CExpr &Taken = C.V.B ? A : B;
  return {"(" + C.S + " ? " + A.S + " : " + B.S + ")", make(K, Taken.V.B),
          C.UsesParam || A.UsesParam || B.UsesParam};
}

/// A binary operation on A and B; where the one picked would be undefined,
/// `^`, which never is.
CExpr ConstGen::binary(const CExpr &A, const CExpr &B) {
  static const char Arith[] = {'+', '-', '*', '/', '%', '&', '|', '^'};
  unsigned Pick = R.below(100);
  if (Pick < 50) {
    if (std::optional<CExpr> E = arith(Arith[R.below(8)], A, B))
      return *E;
  } else if (Pick < 62) {
    if (std::optional<CExpr> E = shift(R.chance(50), A))
      return *E;
  } else if (Pick < 85) {
    return compare(A, B);
  } else {
    bool And = R.chance(50);
    bool V = And ? (A.V.B && B.V.B) : (A.V.B || B.V.B);
    return {"(" + A.S + (And ? " && " : " || ") + B.S + ")", make(IK::Int, V),
            A.UsesParam || B.UsesParam};
  }
  return *arith('^', A, B);
}

CExpr ConstGen::expr(int Depth) {
  if (Depth <= 0 || R.chance(20))
    return leaf();
  unsigned Pick = R.below(100);
  if (Pick < 12)
    return castTo(randomKind(/*Small=*/true), expr(Depth - 1));
  if (Pick < 22)
    return unary(expr(Depth - 1));
  if (Pick < 32) {
    CExpr C = expr(Depth - 1);
    return conditional(C, expr(Depth - 1), expr(Depth - 1));
  }
  CExpr A = expr(Depth - 1);
  return binary(A, expr(Depth - 1));
}

CExpr ConstGen::withParam(int Depth) {
  CExpr E = expr(Depth);
  if (E.UsesParam)
    return E;
  CExpr V{"V", *Param, true};
  bool First = R.chance(50);
  const CExpr &A = First ? V : E, &B = First ? E : V;
  CExpr Out = binary(A, B);
  // A shift keeps only its left operand.
  return Out.UsesParam ? Out : compare(A, B);
}

CExpr ConstGen::size(const CExpr &E) {
  IK K = promote(E.V.K);
  unsigned M = R.range(2, 9);
  CExpr Mod = literal(R.chance(50) ? IK::Int : randomKind(), M);
  switch (R.below(3)) {
  case 0:
    // Unsigned: E % M + 1; signed: E % M + M (E % M may be negative).
    if (std::optional<CExpr> A = arith('%', E, Mod)) {
      CExpr Add = signedKind(K) ? literal(IK::Int, M) : literal(IK::Int, 1);
      if (std::optional<CExpr> S = arith('+', *A, Add))
        if (wide(S->V) >= 1 && wide(S->V) <= 16)
          return *S;
    }
    break;
  case 1:
    if (!signedKind(K)) {
      CExpr Mask = literal(IK::Int, 7);
      if (std::optional<CExpr> A = arith('&', E, Mask))
        return *arith('+', *A, literal(IK::UInt, 1));
    }
    break;
  default:
    break;
  }
  CExpr C = compare(E, expr(1));
  return conditional(C, literal(IK::Int, R.range(1, 8)),
                     literal(R.chance(50) ? IK::Int : IK::UInt, R.range(1, 8)));
}

std::string ConstGen::argument(IK K, const CExpr &E) {
  if (fits(E.V, K))
    return E.S;
  return castTo(K, E).S;
}

void ConstGen::print(const std::string &Value) {
  Body.push_back("v = (uint64)(" + Value + ");");
  Body.push_back("printf(\"ce" + std::to_string(Labels++) + " %llu\\n\", v);");
  Body.push_back("h = sm_mix(h, v);");
}

void ConstGen::constants() {
  unsigned N = R.range(1, 3);
  for (unsigned I = 0; I < N; ++I) {
    IK K = randomKind(/*Small=*/true);
    if (K == IK::Bool)
      K = IK::Char;
    CExpr E = expr(R.range(1, 3));
    std::string Name = "SM_CE" + std::to_string(Consts.size());
    G.line("const " + std::string(kindName(K)) + " " + Name + " = " + E.S +
           ";");
    Consts.push_back({Name, make(K, E.V.B)});
    print(Name);
  }
}

/// A template of one value parameter V, instantiated for one argument
/// (twice, the second time spelled as another literal of the same value,
/// which must name the same instantiation). Its body returns V, sizes an
/// array by it, or decides an `if` or a `?:` on it.
void ConstGen::templateFunction() {
  IK K = randomKind(/*Small=*/true);
  CExpr Arg = K == IK::Bool ? compare(expr(1), expr(1)) : expr(R.range(0, 3));
  Val V = make(K, Arg.V.B);
  std::string Name = "sm_cet" + std::to_string(Names++);
  Param = V;
  G.open("template <" + std::string(kindName(K)) + " V> uint64 " + Name + "()");
  switch (R.below(4)) {
  case 0:
    G.line("return (uint64)V;");
    break;
  case 1:
    G.line("int a[" + size(withParam(R.range(1, 3))).S + "];");
    G.line("return (uint64)(sizeof(a) / sizeof(int));");
    break;
  case 2:
    G.line("uint64 r = 0;");
    G.line("if (" + withParam(R.range(1, 3)).S + ")");
    G.line("  r = 1;");
    G.line("else");
    G.line("  r = 2;");
    G.line("return r;");
    break;
  default: {
    CExpr C = withParam(R.range(1, 2));
    CExpr A = expr(R.range(0, 2)), B = expr(R.range(0, 2));
    G.line("return (uint64)" + conditional(C, A, B).S + ";");
    break;
  }
  }
  G.close();
  Param.reset();
  // Arguments are parenthesized where they hold `<` or `>`, which would
  // end the list.
  auto Call = [&](const std::string &A) {
    bool Paren = A.find_first_of("<>") != std::string::npos && A[0] != '(';
    print(Name + "<" + (Paren ? "(" + A + ")" : A) + ">()");
  };
  Call(argument(K, Arg));
  if (K != IK::Bool && !signedKind(K) && R.chance(40))
    Call(literal(R.chance(50) ? IK::UInt64 : K, V.B).S);
  else if (K != IK::Bool && wide(V) >= 0 && R.chance(40))
    Call(literal(fits(V, IK::Int) ? IK::Int : IK::Int64, V.B).S);
}

void ConstGen::hostItems() {
  unsigned N = R.range(2, 4 + static_cast<int>(G.Opts.Size) / 2);
  for (unsigned I = 0; I < N; ++I) {
    std::string A = "sm_ca" + std::to_string(I);
    Body.push_back("int " + A + "[" + size(expr(R.range(1, 4))).S + "];");
    print("sizeof(" + A + ") / sizeof(int)");
  }
  for (unsigned I = 0, M = R.range(1, 3); I < M; ++I)
    print(expr(R.range(1, 4)).S);
}

/// Private arrays sized by constant expressions and values computed in a
/// thread, copied back to the host.
void ConstGen::deviceItems() {
  unsigned N = R.range(1, 3);
  std::vector<std::string> Values;
  Body.push_back("uint64 *sm_ced = dnew[" + std::to_string(2 * N) + "]uint64;");
  Body.push_back("spawn (1) {");
  for (unsigned I = 0; I < N; ++I) {
    std::string A = "sm_cda" + std::to_string(I);
    Body.push_back("  int " + A + "[" + size(expr(R.range(1, 3))).S + "];");
    Body.push_back("  " + A + "[0] = " + std::to_string(I) + ";");
    Body.push_back("  sm_ced[" + std::to_string(2 * I) +
                   "] = (uint64)(sizeof(" + A + ") / sizeof(int)) + " + A +
                   "[0];");
    Body.push_back("  sm_ced[" + std::to_string(2 * I + 1) + "] = (uint64)(" +
                   expr(R.range(1, 3)).S + ");");
  }
  Body.push_back("}");
  Body.push_back("uint64 sm_ceg[" + std::to_string(2 * N) + "];");
  Body.push_back("bsgprt_memcpy_dtoh(sm_ceg, sm_ced, " +
                 std::to_string(16 * N) + ");");
  for (unsigned I = 0; I < 2 * N; ++I)
    print("sm_ceg[" + std::to_string(I) + "]");
}

void ConstGen::run() {
  G.line("// bsgp-smith const-exprs: begin");
  G.line("// Integer constant expressions (each line `ceN value`; the region");
  G.line("// is also C, test/Smith/Inputs/const-exprs-oracle.py).");
  constants();
  for (unsigned I = 0, N = R.range(2, 4); I < N; ++I)
    templateFunction();
  hostItems();
  deviceItems();
  G.open("uint64 sm_consts(uint64 h)");
  G.line("uint64 v = 0;");
  for (const std::string &S : Body)
    G.line(S);
  G.line("return h;");
  G.close();
  G.line("// bsgp-smith const-exprs: end");
  G.line("");
}

void Generator::constExprs() { ConstGen(*this).run(); }
