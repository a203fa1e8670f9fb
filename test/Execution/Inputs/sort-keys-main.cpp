//===- sort-keys-main.cpp - checks sort-keys.bsgp -------------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The expected order is std::stable_sort of the old ranks with a
// comparator that states docs/collectives.md's key order directly: numbers
// by value, -0 before +0, NaNs with the sign bit set before everything and
// the other NaNs after everything (NaNs among themselves by their bits).
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

extern "C" {
void sortby_int(int32_t *, int *, int);
void sortby_uint(uint32_t *, int *, int);
void sortby_float(float *, int *, int);
void sortby_int64(int64_t *, int *, int);
void sortby_uint64(uint64_t *, int *, int);
void sortby_double(double *, int *, int);
}

namespace {

int failures = 0;
uint64_t rngState = 7;
uint64_t next() {
  rngState = rngState * 6364136223846793005ull + 1442695040888963407ull;
  return rngState >> 11;
}

/// -2: negative NaN, -1: -0, 0: a number other than -0, 1: positive NaN.
template <typename F> int floatClass(F x) {
  if (std::isnan(x))
    return std::signbit(x) ? -2 : 1;
  return x == 0 && std::signbit(x) ? -1 : 0;
}

template <typename K> bool keyLess(K a, K b) {
  if constexpr (std::is_floating_point_v<K>) {
    int ca = floatClass(a), cb = floatClass(b);
    if (ca == -2 || cb == -2 || ca == 1 || cb == 1) {
      if (ca != cb)
        return (ca == -2 ? -3 : ca == 1 ? 3 : 0) <
               (cb == -2 ? -3 : cb == 1 ? 3 : 0);
      // Two NaNs of one sign: by their bits, larger magnitude first for
      // negative ones (the order the radix sort's image gives).
      using U = std::conditional_t<sizeof(K) == 4, uint32_t, uint64_t>;
      U ua, ub;
      std::memcpy(&ua, &a, sizeof(K));
      std::memcpy(&ub, &b, sizeof(K));
      return ca == 1 ? ua < ub : ua > ub;
    }
    if (a == 0 && b == 0)
      return ca == -1 && cb == 0; // -0 before +0
    return a < b;
  } else {
    return a < b;
  }
}

template <typename K> K randomKey(uint64_t i) {
  uint64_t r = next();
  if constexpr (std::is_floating_point_v<K>) {
    switch (r % 16) {
    case 0:
      return K(-0.0);
    case 1:
      return K(0.0);
    case 2:
      return std::numeric_limits<K>::infinity();
    case 3:
      return -std::numeric_limits<K>::infinity();
    case 4:
      return std::numeric_limits<K>::quiet_NaN();
    case 5:
      return -std::numeric_limits<K>::quiet_NaN();
    default:
      return K(int64_t(r % 200) - 100) * K(0.25);
    }
  } else if constexpr (sizeof(K) == 8) {
    // The high and the low bits both vary, so every pass matters.
    return K((r % 97) << 40 | (r >> 30) % 13) * (std::is_signed_v<K> && r % 3 == 0 ? K(-1) : K(1));
  } else {
    return K(int64_t(r % 300) - (std::is_signed_v<K> ? 150 : 0)) * K(i % 2 ? 65537 : 1);
  }
}

template <typename K>
void testType(const char *name, void (*sortby)(K *, int *, int)) {
  const int sizes[] = {0,    1,    2,    31,   32,   33,   1023, 1024,
                       1025, 2047, 2048, 2049, 4095, 4096, 4097, 5000,
                       (1 << 20) + 7};
  // The last run: 10000 equal keys, where the radix sort skips every digit.
  const int runs = sizeof(sizes) / sizeof(sizes[0]) + 1;
  int ok = 0;
  for (int run = 0; run < runs; ++run) {
    bool uniform = run == runs - 1;
    int n = uniform ? 10000 : sizes[run];
    std::vector<K> key(n);
    for (int i = 0; i < n; ++i)
      key[i] = uniform ? K(3) : randomKey<K>(i);
    K *dKey = static_cast<K *>(bsgprt_dnew((n + 1) * sizeof(K), "main"));
    int *dOut = static_cast<int *>(bsgprt_dnew((n + 1) * sizeof(int), "main"));
    bsgprt_memcpy_htod(dKey, key.data(), n * sizeof(K));
    sortby(dKey, dOut, n);
    std::vector<int> got(n);
    bsgprt_memcpy_dtoh(got.data(), dOut, n * sizeof(int));
    // The sort reads the caller's keys directly (bsgp-forward-sort-keys)
    // and must leave them as they were.
    std::vector<K> after(n);
    bsgprt_memcpy_dtoh(after.data(), dKey, n * sizeof(K));
    bool unchanged = std::memcmp(after.data(), key.data(), n * sizeof(K)) == 0;
    bsgprt_dfree(dKey);
    bsgprt_dfree(dOut);
    std::vector<int> want(n);
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(), [&](int a, int b) {
      return keyLess(key[a], key[b]);
    });
    if (got == want && unchanged) {
      ++ok;
    } else {
      ++failures;
      std::printf("%s n=%d%s: FAIL%s\n", name, n, uniform ? " (equal keys)" : "",
                  unchanged ? "" : " (keys changed)");
    }
  }
  std::printf("%s: %d sizes ok\n", name, ok);
}

} // namespace

int main() {
  testType<int32_t>("int", sortby_int);
  testType<uint32_t>("uint", sortby_uint);
  testType<float>("float", sortby_float);
  testType<int64_t>("int64", sortby_int64);
  testType<uint64_t>("uint64", sortby_uint64);
  testType<double>("double", sortby_double);
  std::printf("sort keys: %d failures\n", failures);
  return failures != 0;
}
