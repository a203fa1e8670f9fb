//===- min-max-main.cpp - checks min-max.test -----------------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Runs the kernels of min-max.bsgp on values that include each type's
// extremes, zeros of both signs and NaNs, and compares the results with
// what docs/language.md defines, computed here in C++.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

extern "C" {
#define DECLARE(T, C) void mm_##T(const C *, const C *, const C *, C *, int);
DECLARE(int, int32_t)
DECLARE(uint, uint32_t)
DECLARE(int64, int64_t)
DECLARE(uint64, uint64_t)
DECLARE(float, float)
DECLARE(double, double)
#undef DECLARE
void mm_vec(const float *a, const float *b, float *out, int *iout, int n);
int mm_host(int x);
}

namespace {

// The definitions: integers compare as their type does; floats are C's
// fmin and fmax (a NaN gives the other operand); clamp is min(max(x, lo),
// hi); abs wraps at a signed type's minimum.
template <typename T> T refMin(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return std::fmin(a, b);
  else
    return b < a ? b : a;
}
template <typename T> T refMax(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return std::fmax(a, b);
  else
    return a < b ? b : a;
}

// Results agree bit for bit, except that between -0.0 and +0.0 the targets
// may return either zero (as GPUs' min instructions do).
template <typename T> bool same(T got, T want) {
  if constexpr (std::is_floating_point_v<T>) {
    if (got == 0 && want == 0)
      return true;
    if (std::isnan(got) && std::isnan(want))
      return true;
  }
  return std::memcmp(&got, &want, sizeof(T)) == 0;
}
template <typename T> T refAbs(T a) {
  if constexpr (std::is_floating_point_v<T>)
    return std::fabs(a);
  else if constexpr (std::is_signed_v<T>)
    return a < 0 ? (T)(0 - (std::make_unsigned_t<T>)a) : a;
  else
    return a;
}

template <typename T>
bool check(const char *name,
           void (*kernel)(const T *, const T *, const T *, T *, int),
           std::vector<T> pool) {
  // Every ordered triple of the pool.
  std::vector<T> a, b, c;
  for (T x : pool)
    for (T y : pool)
      for (T z : pool) {
        a.push_back(x);
        b.push_back(y);
        c.push_back(z);
      }
  int n = (int)a.size();
  bsgp::buffer<T> da(a), db(b), dc(c), dout(4 * n);
  kernel(da.data(), db.data(), dc.data(), dout.data(), n);
  std::vector<T> out = dout.to_vector();
  int bad = 0;
  for (int r = 0; r < n; ++r) {
    T want[4] = {refMin(a[r], b[r]), refMax(a[r], b[r]),
                 refMin(refMax(a[r], b[r]), c[r]), refAbs(a[r])};
    bool ok = true;
    for (int k = 0; k < 4; ++k)
      ok &= same(out[4 * r + k], want[k]);
    if (!ok && bad++ < 3)
      std::printf("%s: rank %d differs\n", name, r);
  }
  std::printf("%s %s\n", name, bad ? "FAILED" : "ok");
  return bad == 0;
}

template <typename T> std::vector<T> intPool() {
  using L = std::numeric_limits<T>;
  return {L::min(), (T)(L::min() + 1), (T)-7, (T)-1, 0, 1, 5, L::max()};
}

template <typename T> std::vector<T> floatPool() {
  using L = std::numeric_limits<T>;
  return {-L::infinity(), (T)-2.5,  (T)-0.0,       (T)0.0,
          (T)1.25,        L::max(), L::quiet_NaN()};
}

bool checkVectors() {
  std::vector<float> a = {-3.0f, -0.5f, 0.0f, 0.75f, 2.0f, 7.0f},
                     b = {4.0f, -6.0f, 1.5f, -0.25f, 0.5f, -1.0f};
  int n = (int)a.size();
  bsgp::buffer<float> da(a), db(b), dout(6 * n);
  bsgp::buffer<int> diout(5 * n);
  mm_vec(da.data(), db.data(), dout.data(), diout.data(), n);
  std::vector<float> out = dout.to_vector();
  std::vector<int> iout = diout.to_vector();
  int bad = 0;
  for (int r = 0; r < n; ++r) {
    float x[3] = {a[r], b[r], -a[r]}, lo[3] = {-1, -2, -3};
    for (int k = 0; k < 3; ++k) {
      float m = refMin(x[k], 0.5f) + refMax(1.0f, x[k]) * 10.0f +
                std::fabs(x[k]) * 100.0f;
      float cl = refMin(refMax(x[k], lo[k]), 2.0f);
      bad += out[6 * r + k] != m;
      bad += out[6 * r + 3 + k] != cl;
    }
    int i = (int)a[r];
    int want[5] = {
        std::abs(i) + refMin(i, refMax(-2, 0)),
        std::abs(-i) + refMin(3, refMax(i, 0)),
        (int)(refMin((float)i, 2.5f) * 2.0f),
        (int)(refMax((uint32_t)i, 1u) % 1000u),
        (int)(refMax((int64_t)i * 1000000000, (int64_t)1) / 1000000)};
    for (int k = 0; k < 5; ++k)
      bad += iout[5 * r + k] != want[k];
  }
  std::printf("vectors %s\n", bad ? "FAILED" : "ok");
  return bad == 0;
}

} // namespace

int main() {
  bool ok = check("int", mm_int, intPool<int32_t>());
  ok &= check("uint", mm_uint, intPool<uint32_t>());
  ok &= check("int64", mm_int64, intPool<int64_t>());
  ok &= check("uint64", mm_uint64, intPool<uint64_t>());
  ok &= check("float", mm_float, floatPool<float>());
  ok &= check("double", mm_double, floatPool<double>());
  ok &= checkVectors();
  // The user's min(a, b) is a * 100 + b: min(max(3, -5), 7) = 307; the
  // reduce(min, rank + 3) over 4 ranks is 3; (int)abs(-2.5) is 2.
  int host = mm_host(3);
  bool hostOk = host == 307 + 3 * 10000 + 2 * 1000000;
  std::printf("host %s\n", hostOk ? "ok" : "FAILED");
  std::printf("%s\n", ok && hostOk ? "all ok" : "FAILED");
  return 0;
}
