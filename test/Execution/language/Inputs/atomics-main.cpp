//===- atomics-main.cpp - checks atomics.test -----------------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Runs the kernels of atomics.bsgp on pseudo-random data and compares the
// results with sequential loops.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" {
void histogram(int *values, int *bins, int n);
void minmax(int *values, int *out, uint32_t *uout, int n);
void casloop(int *sum, int *ticket, int *counter, int n);
void wide(int64_t *acc, uint64_t *umax, int64_t *last, int n);
void bitops(uint32_t *bits, int n);
void floats(float *f, int n);
int targets(int *out, int n);
}

namespace {

uint64_t rngState = 12345;
uint32_t next() {
  rngState = rngState * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(rngState >> 33);
}

template <typename T> T *toDevice(const std::vector<T> &v) {
  T *d = static_cast<T *>(bsgprt_dnew(v.size() * sizeof(T), "main"));
  bsgprt_memcpy_htod(d, v.data(), v.size() * sizeof(T));
  return d;
}

template <typename T> std::vector<T> fromDevice(const T *d, size_t n) {
  std::vector<T> v(n);
  bsgprt_memcpy_dtoh(v.data(), d, n * sizeof(T));
  return v;
}

bool report(const char *what, bool ok) {
  std::printf("%s %s\n", what, ok ? "ok" : "FAILED");
  return ok;
}

} // namespace

int main() {
  bool ok = true;
  const int n = 1000000;

  std::vector<int> values(n);
  for (int &v : values)
    v = int(next()) - (1 << 30);
  int *dValues = toDevice(values);

  {
    std::vector<int> want(256, 0);
    for (int v : values)
      ++want[v & 255];
    int *dBins = toDevice(std::vector<int>(256, 0));
    histogram(dValues, dBins, n);
    ok &= report("histogram", fromDevice(dBins, 256) == want);
    bsgprt_dfree(dBins);
  }
  {
    int *dOut = toDevice(std::vector<int>{INT32_MAX, INT32_MIN, 0, n});
    uint32_t *dU = toDevice(std::vector<uint32_t>{UINT32_MAX, 0});
    minmax(dValues, dOut, dU, n);
    std::vector<int> got = fromDevice(dOut, 4);
    std::vector<uint32_t> ugot = fromDevice(dU, 2);
    uint32_t umin = UINT32_MAX, umax = 0;
    for (int v : values) {
      umin = std::min(umin, uint32_t(v));
      umax = std::max(umax, uint32_t(v));
    }
    ok &= report("minmax",
                 got[0] == *std::min_element(values.begin(), values.end()) &&
                     got[1] ==
                         *std::max_element(values.begin(), values.end()) &&
                     got[3] == 0 && ugot[0] == umin && ugot[1] == umax);
    bsgprt_dfree(dOut);
    bsgprt_dfree(dU);
  }
  {
    const int m = 100000;
    int *dSum = toDevice(std::vector<int>{0});
    int *dTicket = toDevice(std::vector<int>(m, -1));
    int *dCounter = toDevice(std::vector<int>{0});
    casloop(dSum, dTicket, dCounter, m);
    std::vector<int> tickets = fromDevice(dTicket, m);
    std::sort(tickets.begin(), tickets.end());
    bool perm = true;
    for (int i = 0; i < m; ++i)
      perm &= tickets[i] == i;
    // 0 + 1 + ... + (m-1) wraps in 32 bits exactly as the kernel's sum.
    uint32_t want = 0;
    for (int i = 0; i < m; ++i)
      want += uint32_t(i);
    ok &= report("cas", perm && fromDevice(dSum, 1)[0] == int(want) &&
                            fromDevice(dCounter, 1)[0] == m);
    bsgprt_dfree(dSum);
    bsgprt_dfree(dTicket);
    bsgprt_dfree(dCounter);
  }
  {
    const int m = 100000;
    int64_t *dAcc = toDevice(std::vector<int64_t>{5});
    uint64_t *dMax = toDevice(std::vector<uint64_t>{0});
    int64_t *dLast = toDevice(std::vector<int64_t>{-1});
    wide(dAcc, dMax, dLast, m);
    int64_t acc = 5;
    uint64_t umax = 0;
    for (int64_t r = 0; r < m; ++r) {
      acc += r * 4294967296ll;
      umax = std::max<uint64_t>(umax, uint64_t(r) * 1000000007ull);
    }
    int64_t last = fromDevice(dLast, 1)[0];
    ok &= report("int64", fromDevice(dAcc, 1)[0] == acc &&
                              fromDevice(dMax, 1)[0] == umax && last >= 0 &&
                              last < m);
    bsgprt_dfree(dAcc);
    bsgprt_dfree(dMax);
    bsgprt_dfree(dLast);
  }
  {
    const int m = 77; // bits 0..12 toggled 3 times, bits 13..31 twice.
    uint32_t *dBits = toDevice(std::vector<uint32_t>{0, 0xffffffffu, 0});
    bitops(dBits, m);
    uint32_t orWant = 0, andWant = 0xffffffffu, xorWant = 0;
    for (int r = 0; r < m; ++r) {
      orWant |= 1u << (r % 32);
      andWant &= ~(1u << (r % 32));
      xorWant ^= 1u << (r % 32);
    }
    std::vector<uint32_t> got = fromDevice(dBits, 3);
    ok &= report("bitops",
                 got[0] == orWant && got[1] == andWant && got[2] == xorWant);
    bsgprt_dfree(dBits);
  }
  {
    const int m = 100000;
    float *dF = toDevice(std::vector<float>{0.5f, 0.0f});
    floats(dF, m);
    float sum = 0.5f;
    for (int r = 0; r < m; ++r)
      sum += float(r % 4);
    std::vector<float> got = fromDevice(dF, 2);
    ok &= report("float", got[0] == sum && got[1] == float(m));
    bsgprt_dfree(dF);
  }
  {
    const int m = 1000;
    int *dOut = toDevice(std::vector<int>(m, 0));
    int host = targets(dOut, m);
    std::vector<int> got = fromDevice(dOut, m);
    // On the cpu: target.cpu (1), a device function called from a kernel
    // sees the CPU too (10), target.spirv false (0); the host code returns
    // 7. On a GPU (the same program built as a fat object): 2 on cuda, 3 +
    // 100 on vulkan, and the host code returns 0.
    int target = bsgprt_target();
    int device = target == BSGPRT_TARGET_CPU    ? 11
                 : target == BSGPRT_TARGET_CUDA ? 2
                                                : 103;
    bool same = std::all_of(got.begin(), got.end(),
                            [&](int v) { return v == device; });
    ok &= report("target",
                 same && host == (target == BSGPRT_TARGET_CPU ? 7 : 0));
    bsgprt_dfree(dOut);
  }
  bsgprt_dfree(dValues);
  std::printf("%s\n", ok ? "all ok" : "FAILED");
  return ok ? 0 : 1;
}
