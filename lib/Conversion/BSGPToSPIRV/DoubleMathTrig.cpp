//===- DoubleMathTrig.cpp - trigonometric functions of doubles ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// sin, cos and tan reduce x by pi/2 (x = n pi/2 + r, |r| <= pi/4, r in
// double-double) and sum the Taylor series of sin r and cos r, whose first
// omitted terms are below 2^-60 relative. Below 2^20 the reduction
// subtracts n pi/2 in four parts of which n times the first three is exact
// (Cody and Waite); from 2^20 on it multiplies the 53-bit significand of x
// by the bits of 2/pi that matter at its exponent in integer arithmetic
// (Payne and Hanek), so that even the doubles closest to a multiple of pi/2
// (about 2^-61 away) keep their precision. atan reduces its argument to
// [0, 1] (pi/2 - atan(1/x)) and then by the nearest of atan(k/8), k = 0..8
// (atan t = atan c + atan((t - c) / (1 + t c))), to a series in u^2 <=
// 2^-8; atan2, asin and acos are formed from the same angle.
//
//===----------------------------------------------------------------------===//

#include "DoubleMath.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace bsgp::spv;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// pi/2 in four parts; the first three have 33 bits, so n times each is
/// exact for n < 2^20.
constexpr double kPio2Parts[] = {0x1.921fb54400000p+0, 0x1.0b4611a600000p-34,
                                 0x1.3198a2e000000p-69, 0x1.b839a252049c1p-104};
constexpr double kPio2[] = {0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54};
constexpr double kPi[] = {0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53};
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
/// The bits of 2/pi, 24 at a time: 2/pi = sum of kTwoOverPiDigits[i] *
/// 2^(-24 (i + 1)). 50 digits reach the exponent of the largest double.
constexpr int64_t kTwoOverPiDigits[] = {
    0xa2f983, 0x6e4e44, 0x1529fc, 0x2757d1, 0xf534dd, 0xc0db62, 0x95993c,
    0x439041, 0xfe5163, 0xabdebb, 0xc561b7, 0x246e3a, 0x424dd2, 0xe00649,
    0x2eea09, 0xd1921c, 0xfe1deb, 0x1cb129, 0xa73ee8, 0x8235f5, 0x2ebb44,
    0x84e99c, 0x7026b4, 0x5f7e41, 0x3991d6, 0x398353, 0x39f49c, 0x845f8b,
    0xbdf928, 0x3b1ff8, 0x97ffde, 0x05980f, 0xef2f11, 0x8b5a0a, 0x6d1f6d,
    0x367ecf, 0x27cb09, 0xb74f46, 0x3f669e, 0x5fea2d, 0x7527ba, 0xc7ebe5,
    0xf17b3d, 0x0739f7, 0x8a5292, 0xea6bfb, 0x5fb11f, 0x8d5d08, 0x560330,
    0x46fc7b};
/// atan(k/8), k = 0..8, as double-doubles.
constexpr double kAtanEighths[][2] = {
    {0.0, 0.0},
    {0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59},
    {0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57},
    {0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56},
    {0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56},
    {0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58},
    {0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56},
    {0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56},
    {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55}};

/// x = (4m + quadrant) pi/2 + r.
struct Reduced {
  DD r;
  Value quadrant;
};

} // namespace

/// Digit i of 2/pi (0 for i < 0), a helper function of the module.
static Value twoOverPiDigit(DoubleBuilder &d, Value i) {
  Type i64 = d.builder().getI64Type();
  return d.call((kDoubleMathPrefix + "2_over_pi_digit").str(), i64, i,
                [](DoubleBuilder &fd, ValueRange args) {
                  Value digit = fd.ci(0);
                  for (auto [j, w] : llvm::enumerate(kTwoOverPiDigits))
                    digit =
                        fd.select(fd.ieq(args[0], fd.ci(j)), fd.ci(w), digit);
                  return digit;
                });
}

/// The reduction of a finite x >= 2^20. With x = M 2^E (M the 53-bit
/// significand), x 2/pi = sum_i M w_i 2^(E - 24 (i + 1)), and the terms
/// with E - 24 (i + 1) >= 2 are multiples of 4, which change neither the
/// quadrant nor r. The next ten digits, from i0 = floor((E - 2) / 24) on,
/// are multiplied by M (as two halves of 29 and 24 bits) into limbs of 24
/// bits; the limbs after the binary point, shifted by s = E - 24 i0 (2 to
/// 25), give the quadrant and 144 bits of the fraction, rounded to the
/// nearest multiple of pi/2.
static Reduced reduceLarge(DoubleBuilder &d, Value x) {
  Value u = d.bits(x);
  Value e = d.isub(d.iand(d.shr(u, d.ci(52)), d.ci(0x7ff)), d.ci(1075));
  Value m = d.ior(d.iand(u, d.ci(0xfffffffffffffLL)), d.ci(1LL << 52));
  // E >= -32 here, so E + 46 > 0 and the division is a floor.
  Value i0 = d.isub(d.idiv(d.iadd(e, d.ci(46)), d.ci(24)), d.ci(2));
  Value s = d.isub(e, d.imul(d.ci(24), i0));
  Value mHi = d.shr(m, d.ci(24)), mLo = d.iand(m, d.ci(0xffffff));
  constexpr int kLimbs = 10;
  Value limbs[kLimbs];
  Value prev = d.ci(0);
  for (int j = 0; j < kLimbs; ++j) {
    Value w = twoOverPiDigit(d, d.iadd(i0, d.ci(j)));
    limbs[j] = d.iadd(d.imul(mHi, w), d.imul(mLo, prev));
    prev = w;
  }
  for (int j = kLimbs - 1; j >= 1; --j) {
    limbs[j - 1] = d.iadd(limbs[j - 1], d.shr(limbs[j], d.ci(24)));
    limbs[j] = d.iand(limbs[j], d.ci(0xffffff));
  }
  // Limb 0 is the integer part, a multiple of 4 once shifted by s.
  auto word = [&](int j) {
    return d.ior(d.shl(limbs[j], d.ci(24)), limbs[j + 1]);
  };
  Value w1 = word(1), w2 = word(3), w3 = word(5), w4 = word(7);
  Value mask48 = d.ci((1LL << 48) - 1);
  Value back = d.isub(d.ci(48), s);
  Value q = d.iand(d.shr(w1, back), d.ci(3));
  auto frac = [&](Value hi, Value lo) {
    return d.ior(d.iand(d.shl(hi, s), mask48), d.shr(lo, back));
  };
  Value f1 = frac(w1, w2), f2 = frac(w2, w3), f3 = frac(w3, w4);
  // Round to the nearest quadrant: f1 becomes signed.
  Value up = d.ige(f1, d.ci(1LL << 47));
  q = d.select(up, d.iadd(q, d.ci(1)), q);
  f1 = d.select(up, d.isub(f1, d.ci(1LL << 48)), f1);
  DD f = d.twoSum(d.mul(d.toDouble(f1), d.c(0x1p-48)),
                  d.mul(d.toDouble(f2), d.c(0x1p-96)));
  f = d.fastTwoSum(f.hi, d.add(f.lo, d.mul(d.toDouble(f3), d.c(0x1p-144))));
  return {d.mul(f, d.dd(kPio2[0], kPio2[1])), d.iand(q, d.ci(3))};
}

/// Cody and Waite's reduction for |x| < 2^20: x - n pi/2 in four steps,
/// the first exact (Sterbenz) and the others summed exactly.
static Reduced reduceSmall(DoubleBuilder &d, Value x) {
  Value k = d.floor(d.add(d.mul(x, d.c(kTwoOverPi)), d.c(0.5)));
  Value a = d.sub(x, d.mul(k, d.c(kPio2Parts[0])));
  DD s = d.twoSum(a, d.neg(d.mul(k, d.c(kPio2Parts[1]))));
  DD t = d.twoSum(s.hi, d.neg(d.mul(k, d.c(kPio2Parts[2]))));
  Value rest = d.sub(d.add(s.lo, t.lo), d.mul(k, d.c(kPio2Parts[3])));
  return {d.twoSum(t.hi, rest), d.iand(d.toInt(k), d.ci(3))};
}

/// Reduces a finite x by pi/2; the large reduction runs only where needed.
static Reduced reduceTrig(DoubleBuilder &d, Value x) {
  OpBuilder &b = d.builder();
  Location loc = d.getLoc();
  Type f64 = b.getF64Type();
  Value large = d.logicalNot(d.lt(d.abs(x), d.c(0x1p20)));
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{f64, f64, b.getI64Type()},
                                large, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Reduced red = reduceLarge(d, d.abs(x));
    // sin and tan are odd: -x reduces to -r in quadrant -n.
    Value neg = d.lt(x, d.c(0.0));
    DD r = d.select(neg, d.neg(red.r), red.r);
    Value q = d.select(neg, d.iand(d.isub(d.ci(0), red.quadrant), d.ci(3)),
                       red.quadrant);
    scf::YieldOp::create(b, loc, ValueRange{r.hi, r.lo, q});
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    red = reduceSmall(d, x);
    scf::YieldOp::create(b, loc, ValueRange{red.r.hi, red.r.lo, red.quadrant});
  }
  return {{ifOp.getResult(0), ifOp.getResult(1)}, ifOp.getResult(2)};
}

/// sin r for |r| <= pi/4 (a little more), r in double-double.
static DD sinReduced(DoubleBuilder &d, DD r) {
  static const double coeffs[] = {-1.0 / 6,
                                  1.0 / 120,
                                  -1.0 / 5040,
                                  1.0 / 362880,
                                  -1.0 / 39916800,
                                  1.0 / 6227020800,
                                  -1.0 / 1307674368000,
                                  1.0 / 355687428096000,
                                  -1.0 / 121645100408832000.0,
                                  1.0 / 51090942171709440000.0};
  Value z = d.mul(r.hi, r.hi);
  Value tail = d.mul(d.mul(r.hi, z), d.poly(z, coeffs));
  // sin(hi + lo) = sin hi + lo cos hi, cos hi = 1 - z/2 to first order.
  Value lo = d.mul(r.lo, d.sub(d.c(1.0), d.mul(d.c(0.5), z)));
  return d.fastTwoSum(r.hi, d.add(lo, tail));
}

/// cos r for |r| <= pi/4, r in double-double: 1 - z/2 with z = r^2 exact.
static DD cosReduced(DoubleBuilder &d, DD r) {
  static const double coeffs[] = {1.0 / 24,
                                  -1.0 / 720,
                                  1.0 / 40320,
                                  -1.0 / 3628800,
                                  1.0 / 479001600,
                                  -1.0 / 87178291200,
                                  1.0 / 20922789888000,
                                  -1.0 / 6402373705728000,
                                  1.0 / 2432902008176640000.0,
                                  -1.0 / 1124000727777607680000.0};
  DD z = d.twoProd(r.hi, r.hi);
  Value tail = d.mul(d.mul(z.hi, z.hi), d.poly(z.hi, coeffs));
  Value halfZ = d.mul(d.c(0.5), z.hi);
  Value w = d.sub(d.c(1.0), halfZ);
  // (1 - w) - z/2 is what the rounding of w lost.
  Value lost = d.sub(d.sub(d.sub(d.c(1.0), w), halfZ), d.mul(d.c(0.5), z.lo));
  Value rest = d.add(lost, d.sub(tail, d.mul(r.hi, r.lo)));
  return d.fastTwoSum(w, rest);
}

namespace {
enum class TrigKind { Sin, Cos, Tan };
} // namespace

/// sin, cos or tan of x: C's NaN for +-inf, and x itself where the result
/// rounds to it (the sign of -0.0 included).
static Value emitTrig(DoubleBuilder &d, Value x, TrigKind kind) {
  Value finite = d.lt(d.abs(x), d.c(kInf));
  Reduced red = reduceTrig(d, d.select(finite, x, d.c(0.0)));
  DD s = sinReduced(d, red.r), c = cosReduced(d, red.r);
  Value v;
  if (kind == TrigKind::Tan) {
    Value odd = d.ieq(d.iand(red.quadrant, d.ci(1)), d.ci(1));
    // tan = sin r / cos r, or -cos r / sin r in the odd quadrants.
    DD num = d.select(odd, d.neg(c), s), den = d.select(odd, s, c);
    v = d.div(num, den).hi;
    v = d.select(d.lt(d.abs(x), d.c(0x1p-27)), x, v);
  } else {
    // sin: s, c, -s, -c by quadrant; cos: c, -s, -c, s.
    Value quadrant = red.quadrant;
    if (kind == TrigKind::Cos)
      quadrant = d.iadd(quadrant, d.ci(1));
    Value odd = d.ieq(d.iand(quadrant, d.ci(1)), d.ci(1));
    Value neg = d.ieq(d.iand(quadrant, d.ci(2)), d.ci(2));
    v = d.select(odd, c.hi, s.hi);
    v = d.select(neg, d.neg(v), v);
    if (kind == TrigKind::Sin)
      v = d.select(d.lt(d.abs(x), d.c(0x1p-26)), x, v);
  }
  return d.select(finite, v, d.sub(x, x));
}

Value bsgp::spv::emitSin(DoubleBuilder &d, Value x) {
  return emitTrig(d, x, TrigKind::Sin);
}
Value bsgp::spv::emitCos(DoubleBuilder &d, Value x) {
  return emitTrig(d, x, TrigKind::Cos);
}
Value bsgp::spv::emitTan(DoubleBuilder &d, Value x) {
  return emitTrig(d, x, TrigKind::Tan);
}

/// atan t for t in [0, 1] in double-double: with c = k/8 the nearest
/// eighth, atan t = atan c + atan u, u = (t - c) / (1 + t c), |u| < 1/16,
/// and atan u = u - u^3/3 + ... to u^17.
static DD atanUnit(DoubleBuilder &d, DD t) {
  Value k = d.floor(d.add(d.mul(t.hi, d.c(8.0)), d.c(0.5)));
  Value c = d.mul(k, d.c(0.125));
  // t - c is exact (Sterbenz) for k >= 1, and t itself for k = 0.
  DD num = d.twoSum(d.sub(t.hi, c), t.lo);
  DD tc = d.twoProd(t.hi, c);
  DD one = d.twoSum(d.c(1.0), tc.hi);
  DD den = d.fastTwoSum(one.hi, d.add(one.lo, d.add(tc.lo, d.mul(t.lo, c))));
  DD u = d.div(num, den);
  static const double coeffs[] = {-1.0 / 3,  1.0 / 5,  -1.0 / 7,  1.0 / 9,
                                  -1.0 / 11, 1.0 / 13, -1.0 / 15, 1.0 / 17};
  Value z = d.mul(u.hi, u.hi);
  Value tail = d.mul(d.mul(u.hi, z), d.poly(z, coeffs));
  DD base = d.dd(0.0, 0.0);
  for (int i = 1; i <= 8; ++i)
    base = d.select(d.eq(k, d.c(i)),
                    d.dd(kAtanEighths[i][0], kAtanEighths[i][1]), base);
  DD sum = d.twoSum(base.hi, u.hi);
  Value rest = d.add(base.lo, d.add(u.lo, tail));
  return d.fastTwoSum(sum.hi, d.add(sum.lo, rest));
}

/// The angle of the point (x, y) for x, y >= 0, not both 0, each 0 or in
/// [2^-1000, 2^1000]: atan(y/x), or pi/2 - atan(x/y) when y > x.
static DD angle(DoubleBuilder &d, DD y, DD x) {
  Value steep = d.gt(y.hi, x.hi);
  DD t = d.div(d.select(steep, x, y), d.select(steep, y, x));
  DD a = atanUnit(d, t);
  return d.select(steep, d.add(d.dd(kPio2[0], kPio2[1]), d.neg(a)), a);
}

Value bsgp::spv::emitAtan(DoubleBuilder &d, Value x) {
  // Beyond 2^100, pi/2 - 1/|x| rounds to pi/2 as well.
  Value ax = d.abs(x);
  Value axd = d.select(d.lt(ax, d.c(0x1p100)), ax, d.c(0x1p100));
  Value v = angle(d, d.dd(axd), d.dd(1.0, 0.0)).hi;
  v = d.select(d.lt(ax, d.c(0x1p-27)), ax, v);
  return d.select(d.isNaN(x), d.add(x, x), d.orSign(v, x));
}

Value bsgp::spv::emitAtan2(DoubleBuilder &d, Value y, Value x) {
  Value ax = d.abs(x), ay = d.abs(y), one = d.c(1.0), zero = d.c(0.0);
  // Infinities as C has them (C11 F.10.1.4): both at pi/4, one alone on
  // its axis.
  Value xInf = d.eq(ax, d.c(kInf)), yInf = d.eq(ay, d.c(kInf));
  Value ax1 = d.select(xInf, one, d.select(yInf, zero, ax));
  Value ay1 = d.select(yInf, one, d.select(xInf, zero, ay));
  // Scaled together into [2^-1000, 2^1000], where the double-double
  // quotient cannot overflow; a coordinate far below the other is 0 there.
  Value mx = d.select(d.gt(ax1, ay1), ax1, ay1);
  Value sc = d.select(d.lt(mx, d.c(0x1p-900)), d.c(0x1p1000),
                      d.select(d.gt(mx, d.c(0x1p900)), d.c(0x1p-1000), one));
  Value xs = d.select(d.eq(mx, zero), one, d.mul(ax1, sc));
  Value ys = d.mul(ay1, sc);
  xs = d.select(d.lt(xs, d.c(0x1p-1000)), zero, xs);
  ys = d.select(d.lt(ys, d.c(0x1p-1000)), zero, ys);
  DD a = angle(d, d.dd(ys), d.dd(xs));
  // Far below x, the angle is the quotient.
  Value v =
      d.select(d.lt(ay1, d.mul(ax1, d.c(0x1p-900))), d.div(ay1, ax1), a.hi);
  DD fromPi = d.add(d.dd(kPi[0], kPi[1]), d.neg(a));
  v = d.select(d.signBit(x), fromPi.hi, v);
  return d.select(d.logicalOr(d.isNaN(x), d.isNaN(y)), d.add(x, y),
                  d.orSign(v, y));
}

/// sqrt(1 - a^2) for 0 <= a <= 1 in double-double: 1 - a^2 is formed
/// exactly enough ((1 - a)(1 + a) from 1/2 on, where 1 - a is exact), and
/// the square root corrected by one Newton step (Vulkan does not promise a
/// correctly rounded Sqrt).
static DD cosOfSin(DoubleBuilder &d, Value a) {
  DD sq = d.twoProd(a, a);
  DD s = d.twoSum(d.c(1.0), d.neg(sq.hi));
  DD small = d.fastTwoSum(s.hi, d.sub(s.lo, sq.lo));
  DD big = d.mul(d.twoSum(d.c(1.0), a), d.sub(d.c(1.0), a));
  DD v = d.select(d.lt(a, d.c(0.5)), small, big);
  Value r = d.sqrt(v.hi);
  DD r2 = d.twoProd(r, r);
  Value corr = d.add(d.sub(d.sub(v.hi, r2.hi), r2.lo), v.lo);
  corr = d.div(corr, d.mul(d.c(2.0), r));
  corr = d.select(d.eq(v.hi, d.c(0.0)), d.c(0.0), corr);
  return d.fastTwoSum(r, corr);
}

Value bsgp::spv::emitAsin(DoubleBuilder &d, Value x) {
  // asin|x| is the angle of (sqrt(1 - x^2), |x|).
  Value ax = d.abs(x);
  Value inDomain = d.le(ax, d.c(1.0));
  Value axc = d.select(inDomain, ax, d.c(0.0));
  Value v = angle(d, d.dd(axc), cosOfSin(d, axc)).hi;
  v = d.select(d.lt(ax, d.c(0x1p-26)), ax, v);
  v = d.select(inDomain, d.orSign(v, x), d.c(kNaN));
  return d.select(d.isNaN(x), d.add(x, x), v);
}

Value bsgp::spv::emitAcos(DoubleBuilder &d, Value x) {
  // acos x is the angle of (x, sqrt(1 - x^2)): of (|x|, ...), or pi minus
  // it for x < 0.
  Value ax = d.abs(x);
  Value inDomain = d.le(ax, d.c(1.0));
  Value axc = d.select(inDomain, ax, d.c(0.0));
  DD a = angle(d, cosOfSin(d, axc), d.dd(axc));
  DD fromPi = d.add(d.dd(kPi[0], kPi[1]), d.neg(a));
  Value v = d.select(d.lt(x, d.c(0.0)), fromPi.hi, a.hi);
  v = d.select(inDomain, v, d.c(kNaN));
  return d.select(d.isNaN(x), d.add(x, x), v);
}
