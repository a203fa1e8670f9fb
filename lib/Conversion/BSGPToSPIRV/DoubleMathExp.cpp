//===- DoubleMathExp.cpp - exp, log, pow and the hyperbolics of doubles ---===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// exp reduces its argument by ln 2 (x = n ln2 + r, |r| <= ln2 / 2, r in
// two parts), sums the Taylor series of e^r - 1 - r to r^14 (its next term
// is below 2^-63 relative) and scales by 2^n. log splits off the exponent
// (x = 2^e m, sqrt(1/2) <= m < sqrt(2)) and sums 2 atanh(s) = log(m),
// s = (m - 1) / (m + 1), in double-double, so that pow can take e^(y log x)
// from a logarithm accurate to 2^-100 or so. The hyperbolic functions are
// formed from e^x - 1 where they would cancel.
//
//===----------------------------------------------------------------------===//

#include "DoubleMath.h"

#include <limits>

using namespace mlir;
using namespace bsgp::spv;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// ln 2 in two parts, the first of 42 bits so that n * kLn2Hi is exact for
/// every |n| < 2^11.
constexpr double kLn2Hi = 0x1.62e42fefa3800p-1;
constexpr double kLn2Lo = 0x1.ef35793c76730p-45;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
/// ln 2, 1 / ln 2 and 1 / ln 10 as double-doubles.
constexpr double kLn2[] = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};
constexpr double kLog2E[] = {0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56};
constexpr double kLog10E[] = {0x1.bcb7b1526e50ep-2, 0x1.95355baaafad3p-57};
/// 1/3 and 1/5 as double-doubles.
constexpr double kThird[] = {0x1.5555555555555p-2, 0x1.5555555555555p-56};
constexpr double kFifth[] = {0x1.999999999999ap-3, -0x1.999999999999ap-57};

/// x = n ln2 + hi + lo.
struct ExpArg {
  Value hi, lo, n;
};

} // namespace

/// Reduces |x| <= 1100 by ln 2: the multiple is exact and the rest is kept
/// in two parts.
static ExpArg reduceExp(DoubleBuilder &d, Value x) {
  Value k = d.floor(d.add(d.mul(x, d.c(kInvLn2)), d.c(0.5)));
  Value a = d.sub(x, d.mul(k, d.c(kLn2Hi)));
  DD r = d.twoSum(a, d.neg(d.mul(k, d.c(kLn2Lo))));
  return {r.hi, r.lo, d.toInt(k)};
}

/// e^(hi + lo) - 1 - hi for |hi| <= 0.35 and lo tiny: the Taylor series of
/// e^hi from its r^2 term, plus lo e^hi to first order.
static Value expSmall(DoubleBuilder &d, ExpArg a) {
  static const double coeffs[] = {
      1.0 / 2,          1.0 / 6,        1.0 / 24,        1.0 / 120,
      1.0 / 720,        1.0 / 5040,     1.0 / 40320,     1.0 / 362880,
      1.0 / 3628800,    1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800,
      1.0 / 87178291200};
  Value tail = d.mul(d.mul(a.hi, a.hi), d.poly(a.hi, coeffs));
  return d.add(d.add(a.lo, d.mul(a.hi, a.lo)), tail);
}

/// 2^(n + adjust) e^(hi + lo): 1 + hi is summed exactly, so the result is
/// rounded about once before the scaling (which may round again, once, into
/// the subnormals).
static Value expFromReduced(DoubleBuilder &d, ExpArg a, int64_t adjust = 0) {
  DD one = d.twoSum(d.c(1.0), a.hi);
  Value y = d.add(one.hi, d.add(one.lo, expSmall(d, a)));
  Value n = adjust ? d.iadd(a.n, d.ci(adjust)) : a.n;
  return d.scale(y, n);
}

/// e^x - 1 for 0 <= x <= 46, as a double-double.
static DD expm1Positive(DoubleBuilder &d, Value x) {
  ExpArg a = reduceExp(d, x);
  Value s = d.pow2(a.n);
  DD head = d.twoSum(d.sub(s, d.c(1.0)), d.mul(s, a.hi));
  return d.fastTwoSum(head.hi, d.add(head.lo, d.mul(s, expSmall(d, a))));
}

Value bsgp::spv::emitExp(DoubleBuilder &d, Value x) {
  // Beyond +-746 the result is inf or 0 (ln DBL_MAX is 709.78, and
  // e^-746 is below half the smallest subnormal); a NaN is 0 until the end.
  Value xc = d.select(d.le(d.abs(x), d.c(746.0)), x, d.c(0.0));
  Value y = expFromReduced(d, reduceExp(d, xc));
  y = d.select(d.gt(x, d.c(746.0)), d.c(kInf), y);
  y = d.select(d.lt(x, d.c(-746.0)), d.c(0.0), y);
  return d.select(d.isNaN(x), d.add(x, x), y);
}

Value bsgp::spv::emitExp2(DoubleBuilder &d, Value x) {
  // x = n + r exactly, |r| <= 1/2, and 2^r = e^(r ln2) with r ln2 in
  // double-double.
  Value xc = d.select(d.le(d.abs(x), d.c(1100.0)), x, d.c(0.0));
  Value k = d.floor(d.add(xc, d.c(0.5)));
  DD r = d.mul(d.dd(kLn2[0], kLn2[1]), d.sub(xc, k));
  Value y = expFromReduced(d, {r.hi, r.lo, d.toInt(k)});
  y = d.select(d.gt(x, d.c(1100.0)), d.c(kInf), y);
  y = d.select(d.lt(x, d.c(-1100.0)), d.c(0.0), y);
  return d.select(d.isNaN(x), d.add(x, x), y);
}

/// log(x) for a finite x > 0, as a double-double:
///   x = 2^e m, log x = e ln2 + 2 atanh(s), s = (m - 1) / (m + 1)
///   2 atanh(s) = 2s (1 + z/3 + z^2/5 + ...), z = s^2 <= 0.0295,
/// with s, z and the terms to z/5 in double-double and the rest (from
/// z^2/7, below 2^-12 of the sum) in double, to z^13/27.
static DD logDD(DoubleBuilder &d, Value x) {
  // A subnormal x is scaled to a normal one first.
  Value sub = d.lt(x, d.c(0x1p-1022));
  Value u = d.bits(d.select(sub, d.mul(x, d.c(0x1p54)), x));
  Value bias = d.select(sub, d.ci(1023 + 54), d.ci(1023));
  Value e = d.isub(d.shr(u, d.ci(52)), bias);
  Value m = d.fromBits(
      d.ior(d.iand(u, d.ci(0xfffffffffffffLL)), d.ci(0x3ff0000000000000LL)));
  Value big = d.gt(m, d.c(0x1.6a09e667f3bcdp+0));
  m = d.select(big, d.mul(m, d.c(0.5)), m);
  e = d.select(big, d.iadd(e, d.ci(1)), e);
  // m - 1 is exact for m in [1/2, 2].
  Value f = d.sub(m, d.c(1.0));
  DD s = d.div(d.dd(f), d.twoSum(d.c(2.0), f));
  DD z = d.mul(s, s);
  static const double rest[] = {1.0 / 7,  1.0 / 9,  1.0 / 11, 1.0 / 13,
                                1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21,
                                1.0 / 23, 1.0 / 25, 1.0 / 27};
  Value v = d.mul(d.mul(z.hi, z.hi), d.poly(z.hi, rest));
  DD t =
      d.add(d.dd(kThird[0], kThird[1]), d.mul(z, d.dd(kFifth[0], kFifth[1])));
  t = d.add(t, d.dd(v));
  DD twoS = {d.mul(d.c(2.0), s.hi), d.mul(d.c(2.0), s.lo)};
  DD logM = d.add(twoS, d.mul(d.mul(twoS, z), t));
  Value ed = d.toDouble(e);
  DD eLn2 = d.add(d.dd(d.mul(ed, d.c(kLn2Hi))), d.twoProd(ed, d.c(kLn2Lo)));
  return d.add(eLn2, logM);
}

/// A logarithm `main` of x > 0 with C's special cases: log(+-0) = -inf,
/// log(x < 0) = NaN, log(inf) = inf.
static Value logSpecialCases(DoubleBuilder &d, Value x, Value main) {
  Value y = d.select(d.eq(x, d.c(0.0)), d.c(-kInf), main);
  y = d.select(d.lt(x, d.c(0.0)), d.c(kNaN), y);
  y = d.select(d.eq(x, d.c(kInf)), x, y);
  return d.select(d.isNaN(x), d.add(x, x), y);
}

/// log(x) times the double-double `k` (k = 1 for log itself).
static Value emitScaledLog(DoubleBuilder &d, Value x, const double *k) {
  Value ok = d.logicalAnd(d.gt(x, d.c(0.0)), d.lt(x, d.c(kInf)));
  DD l = logDD(d, d.select(ok, x, d.c(1.0)));
  Value main = k ? d.mul(l, d.dd(k[0], k[1])).hi : l.hi;
  return logSpecialCases(d, x, main);
}

Value bsgp::spv::emitLog(DoubleBuilder &d, Value x) {
  return emitScaledLog(d, x, nullptr);
}
Value bsgp::spv::emitLog2(DoubleBuilder &d, Value x) {
  return emitScaledLog(d, x, kLog2E);
}
Value bsgp::spv::emitLog10(DoubleBuilder &d, Value x) {
  return emitScaledLog(d, x, kLog10E);
}

/// pow(x, y) for finite x > 0 and finite y: e^(y log x), with y log x in
/// double-double (an error of 2^-60 in it would be one of 2^-60 relative in
/// the result).
static Value powPositive(DoubleBuilder &d, Value x, Value y) {
  DD l = logDD(d, x);
  DD p = d.twoProd(y, l.hi);
  p = d.fastTwoSum(p.hi, d.add(p.lo, d.mul(y, l.lo)));
  Value inRange = d.le(d.abs(p.hi), d.c(746.0));
  Value ph = d.select(inRange, p.hi, d.c(0.0));
  Value pl = d.select(inRange, p.lo, d.c(0.0));
  Value k = d.floor(d.add(d.mul(ph, d.c(kInvLn2)), d.c(0.5)));
  Value a = d.sub(ph, d.mul(k, d.c(kLn2Hi)));
  DD r = d.twoSum(a, d.neg(d.mul(k, d.c(kLn2Lo))));
  r = d.twoSum(r.hi, d.add(r.lo, pl));
  Value v = expFromReduced(d, {r.hi, r.lo, d.toInt(k)});
  v = d.select(d.gt(p.hi, d.c(746.0)), d.c(kInf), v);
  return d.select(d.lt(p.hi, d.c(-746.0)), d.c(0.0), v);
}

Value bsgp::spv::emitPow(DoubleBuilder &d, Value x, Value y) {
  Value ax = d.abs(x), ay = d.abs(y), inf = d.c(kInf), zero = d.c(0.0);
  Value yInt = d.eq(d.floor(y), y);
  Value halfY = d.mul(y, d.c(0.5));
  Value yOdd = d.logicalAnd(yInt, d.logicalNot(d.eq(d.floor(halfY), halfY)));
  Value finite =
      d.logicalAnd(d.logicalAnd(d.lt(ax, inf), d.lt(ay, inf)), d.gt(ax, zero));
  // For x != 1, |y log x| > 2^11 once |y| > 2^64: the result overflows or
  // underflows whatever |y| is beyond, and the products stay finite.
  Value yBig = d.select(d.lt(y, zero), d.c(-0x1p64), d.c(0x1p64));
  Value yc = d.select(d.lt(ay, d.c(0x1p64)), y, yBig);
  Value v = powPositive(d, d.select(finite, ax, d.c(1.0)),
                        d.select(finite, yc, zero));
  // C's special cases (C11 F.10.4.4), each overriding those before it.
  v = d.select(d.logicalAnd(d.lt(x, zero), d.logicalNot(yInt)), d.c(kNaN), v);
  Value yNeg = d.lt(y, zero);
  v = d.select(d.eq(x, zero), d.select(yNeg, inf, zero), v);
  v = d.select(d.eq(ax, inf), d.select(yNeg, zero, inf), v);
  v = d.select(d.logicalOr(d.isNaN(x), d.isNaN(y)), d.add(x, y), v);
  Value below1 = d.lt(ax, d.c(1.0));
  Value yInf =
      d.select(below1, d.select(yNeg, inf, zero), d.select(yNeg, zero, inf));
  yInf = d.select(d.eq(ax, d.c(1.0)), d.c(1.0), yInf);
  v = d.select(d.logicalAnd(d.eq(ay, inf), d.logicalNot(d.isNaN(x))), yInf, v);
  // A negative x (-0 and -inf too) to an odd integer power is negative.
  v = d.select(d.logicalAnd(d.signBit(x), yOdd), d.neg(v), v);
  return d.select(d.logicalOr(d.eq(x, d.c(1.0)), d.eq(y, zero)), d.c(1.0), v);
}

/// e^|x| / 2 for 22 < |x| <= 746 (where e^-|x| no longer counts), without
/// overflowing before the result does.
static Value halfExpLarge(DoubleBuilder &d, Value ax) {
  Value axl = d.select(d.le(ax, d.c(746.0)), ax, d.c(0.0));
  return expFromReduced(d, reduceExp(d, axl), -1);
}

/// 1 + e^|x| - 1 as a double-double u, from t = e^|x| - 1.
static DD onePlus(DoubleBuilder &d, DD t) {
  DD u = d.twoSum(t.hi, d.c(1.0));
  return d.fastTwoSum(u.hi, d.add(u.lo, t.lo));
}

Value bsgp::spv::emitSinh(DoubleBuilder &d, Value x) {
  // sinh|x| = (t + t / (t + 1)) / 2 with t = e^|x| - 1.
  Value ax = d.abs(x);
  Value small = d.le(ax, d.c(22.0));
  DD t = expm1Positive(d, d.select(small, ax, d.c(0.0)));
  DD w = d.add(t, d.div(t, onePlus(d, t)));
  Value v = d.select(small, d.mul(d.c(0.5), w.hi), halfExpLarge(d, ax));
  v = d.select(d.gt(ax, d.c(746.0)), d.c(kInf), v);
  v = d.select(d.lt(ax, d.c(0x1p-28)), ax, v);
  return d.select(d.isNaN(x), d.add(x, x), d.orSign(v, x));
}

Value bsgp::spv::emitCosh(DoubleBuilder &d, Value x) {
  // cosh|x| = 1 + t^2 / (2 (t + 1)) with t = e^|x| - 1.
  Value ax = d.abs(x);
  Value small = d.le(ax, d.c(22.0));
  DD t = expm1Positive(d, d.select(small, ax, d.c(0.0)));
  DD u = onePlus(d, t);
  DD w = d.div(d.mul(t, t), {d.mul(d.c(2.0), u.hi), d.mul(d.c(2.0), u.lo)});
  DD one = d.twoSum(d.c(1.0), w.hi);
  Value v = d.add(one.hi, d.add(one.lo, w.lo));
  v = d.select(small, v, halfExpLarge(d, ax));
  v = d.select(d.gt(ax, d.c(746.0)), d.c(kInf), v);
  return d.select(d.isNaN(x), d.add(x, x), v);
}

Value bsgp::spv::emitTanh(DoubleBuilder &d, Value x) {
  // tanh|x| = t / (t + 2) with t = e^(2|x|) - 1; 1 from |x| > 22 on.
  Value ax = d.abs(x);
  Value small = d.le(ax, d.c(22.0));
  Value axc = d.select(small, ax, d.c(0.0));
  DD t = expm1Positive(d, d.mul(d.c(2.0), axc));
  DD den = d.twoSum(t.hi, d.c(2.0));
  den = d.fastTwoSum(den.hi, d.add(den.lo, t.lo));
  Value v = d.select(small, d.div(t, den).hi, d.c(1.0));
  v = d.select(d.lt(ax, d.c(0x1p-28)), ax, v);
  return d.select(d.isNaN(x), d.add(x, x), d.orSign(v, x));
}
