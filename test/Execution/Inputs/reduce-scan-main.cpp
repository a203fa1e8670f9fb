//===- reduce-scan-main.cpp - checks reduce-scan.bsgp ---------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Runs every rs_<op>_<type> of reduce-scan.bsgp on pseudo-random data and
// compares each thread's reduce result, scanned value and scan total with a
// sequential loop. Float data is chosen so that any summation order gives
// the same, exact result (small integers; products of +-1 and a few powers
// of two).
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

extern "C" {
#define DECLARE(OP, T)                                                         \
  void rs_##OP##_##T(T *, T *, T *, T *, T *, int);
using uint = uint32_t;
DECLARE(add, int) DECLARE(mul, int) DECLARE(min, int) DECLARE(max, int)
DECLARE(and, int) DECLARE(or, int) DECLARE(xor, int)
DECLARE(add, uint) DECLARE(mul, uint) DECLARE(min, uint) DECLARE(max, uint)
DECLARE(and, uint) DECLARE(or, uint) DECLARE(xor, uint)
DECLARE(add, float) DECLARE(mul, float) DECLARE(min, float)
DECLARE(max, float)
using int64 = int64_t;
using uint64 = uint64_t;
DECLARE(add, int64) DECLARE(mul, int64) DECLARE(min, int64)
DECLARE(max, int64) DECLARE(and, int64) DECLARE(or, int64)
DECLARE(xor, int64)
DECLARE(add, uint64) DECLARE(mul, uint64) DECLARE(min, uint64)
DECLARE(max, uint64) DECLARE(and, uint64) DECLARE(or, uint64)
DECLARE(xor, uint64)
DECLARE(add, double) DECLARE(mul, double) DECLARE(min, double)
DECLARE(max, double)
#undef DECLARE
}

namespace {

uint64_t rngState = 12345;
uint32_t next() {
  rngState = rngState * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(rngState >> 33);
}

int failures = 0, cases = 0;

template <typename T>
T data(const char *op, uint64_t i) {
  uint32_t r = next();
  // 64-bit integers get high bits of their own (negative for int64).
  uint64_t wide = sizeof(T) == 8 ? uint64_t(next()) << 32 : 0;
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::strcmp(op, "add"))
      return T(r % 8);
    if (!std::strcmp(op, "mul"))
      return i % 4096 == 0 ? T(2) : i % 4096 == 2048 ? T(0.5)
                                    : (r & 1) ? T(1) : T(-1);
    return T(int32_t(r)) / T(1024);
  } else {
    if (!std::strcmp(op, "mul"))
      return (r % 16) ? T(1 + 2 * (r % 3)) : T(r); // odd: mostly nonzero
    if (!std::strcmp(op, "and"))
      return T(~(T(1) << (r % (8 * sizeof(T)))) | T(r & 0xff00));
    return T(wide | r);
  }
}

template <typename T> T apply(const char *op, T a, T b) {
  // Integers wrap around, as in the device code.
  using W = std::conditional_t<
      std::is_floating_point_v<T>, T,
      std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>>;
  if (!std::strcmp(op, "add"))
    return T(W(a) + W(b));
  if (!std::strcmp(op, "mul"))
    return T(W(a) * W(b));
  if (!std::strcmp(op, "min"))
    return b < a ? b : a;
  if (!std::strcmp(op, "max"))
    return a < b ? b : a;
  if constexpr (!std::is_floating_point_v<T>) {
    if (!std::strcmp(op, "and"))
      return a & b;
    if (!std::strcmp(op, "or"))
      return a | b;
    return a ^ b;
  }
  return a;
}

template <typename T> T identity(const char *op) {
  if (!std::strcmp(op, "mul"))
    return T(1);
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::strcmp(op, "min"))
      return std::numeric_limits<T>::infinity();
    if (!std::strcmp(op, "max"))
      return -std::numeric_limits<T>::infinity();
  } else {
    if (!std::strcmp(op, "and"))
      return T(~T(0));
    if (!std::strcmp(op, "min"))
      return std::numeric_limits<T>::max();
    if (!std::strcmp(op, "max"))
      return std::numeric_limits<T>::lowest();
  }
  return T(0);
}

template <typename T>
void run(const char *type, const char *op,
         void (*fn)(T *, T *, T *, T *, T *, int), uint64_t n) {
  ++cases;
  std::vector<T> in(n);
  for (uint64_t i = 0; i < n; ++i)
    in[i] = data<T>(op, i);
  // The sequential reference.
  std::vector<T> scan(n);
  T acc = identity<T>(op);
  for (uint64_t i = 0; i < n; ++i) {
    scan[i] = acc;
    acc = apply(op, acc, in[i]);
  }
  uint64_t bytes = (n ? n : 1) * sizeof(T);
  T *dIn = static_cast<T *>(bsgprt_dnew(bytes, "main"));
  T *dRed = static_cast<T *>(bsgprt_dnew(bytes, "main"));
  T *dScan = static_cast<T *>(bsgprt_dnew(bytes, "main"));
  T *dTot = static_cast<T *>(bsgprt_dnew(bytes, "main"));
  T *dOnly = static_cast<T *>(bsgprt_dnew(bytes, "main"));
  bsgprt_memcpy_htod(dIn, in.data(), n * sizeof(T));
  fn(dIn, dRed, dScan, dTot, dOnly, static_cast<int>(n));
  std::vector<T> red(n), got(n), tot(n), only(n);
  bsgprt_memcpy_dtoh(red.data(), dRed, n * sizeof(T));
  bsgprt_memcpy_dtoh(got.data(), dScan, n * sizeof(T));
  bsgprt_memcpy_dtoh(tot.data(), dTot, n * sizeof(T));
  bsgprt_memcpy_dtoh(only.data(), dOnly, n * sizeof(T));
  uint64_t bad = 0, first = n;
  for (uint64_t i = 0; i < n; ++i)
    if (!(red[i] == acc && tot[i] == acc && got[i] == scan[i] &&
          only[i] == scan[i])) {
      ++bad;
      first = first < i ? first : i;
    }
  if (bad) {
    ++failures;
    std::printf("FAIL %s %s n=%llu: %llu wrong, first at %llu\n", op, type,
                (unsigned long long)n, (unsigned long long)bad,
                (unsigned long long)first);
  }
  bsgprt_dfree(dIn);
  bsgprt_dfree(dRed);
  bsgprt_dfree(dScan);
  bsgprt_dfree(dTot);
  bsgprt_dfree(dOnly);
}

} // namespace

int main() {
  // 256 ranks and fewer run as one chunk on the cpu backend, 257 as two.
  const uint64_t sizes[] = {0,    1,    2,    31,   32,   33,   255,
                            256,  257,  1023, 1024, 1025, (1u << 20) + 7};
  for (uint64_t n : sizes) {
#define RUN(OP, T) run<T>(#T, #OP, rs_##OP##_##T, n);
    RUN(add, int) RUN(mul, int) RUN(min, int) RUN(max, int)
    RUN(and, int) RUN(or, int) RUN(xor, int)
    RUN(add, uint) RUN(mul, uint) RUN(min, uint) RUN(max, uint)
    RUN(and, uint) RUN(or, uint) RUN(xor, uint)
    RUN(add, float) RUN(mul, float) RUN(min, float) RUN(max, float)
    RUN(add, int64) RUN(mul, int64) RUN(min, int64) RUN(max, int64)
    RUN(and, int64) RUN(or, int64) RUN(xor, int64)
    RUN(add, uint64) RUN(mul, uint64) RUN(min, uint64) RUN(max, uint64)
    RUN(and, uint64) RUN(or, uint64) RUN(xor, uint64)
    RUN(add, double) RUN(mul, double) RUN(min, double) RUN(max, double)
#undef RUN
  }
  std::printf("reduce/scan: %d cases, %d failures\n", cases, failures);
  return failures != 0;
}
