//===- bench_backends.cpp - one program on the cuda and vulkan backends ---===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// SAXPY, the 5-point stencil and thread.sortby (the collective library's
// radix sort) of bench/cpu/kernels.bsgp, compiled once with
// --target=cpu,cuda,spirv, run on the same GPU through the cuda backend
// (PTX) and through the vulkan backend (SPIR-V), switching with
// bsgprt_select_device. Prints the median time of each and the ratio
// cuda_time / vulkan_time (above 1: Vulkan is faster), and whether the two
// backends computed the same results. With BSGP_PROFILE set, each
// backend's kernel profile is printed after its runs.
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
void saxpy(int n, float a, float *x, float *y);
void stencil(int w, int h, float *src, float *dst);
void sortKeys(unsigned *key, unsigned *sorted, int *old, int n);
}

namespace {

struct Result {
  double seconds = 0;
  std::vector<float> out;
  /// The sort's keys and old ranks, to compare the backends.
  std::vector<unsigned> keys;
  std::vector<int> ranks;
};

float *upload(const std::vector<float> &h) {
  auto *d = static_cast<float *>(bsgprt_dnew(h.size() * 4, "bench"));
  bsgprt_memcpy_htod(d, h.data(), h.size() * 4);
  return d;
}

std::vector<float> download(const float *d, size_t n) {
  std::vector<float> h(n);
  bsgprt_memcpy_dtoh(h.data(), d, n * 4);
  return h;
}

Result runSaxpy(int n, int reps) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 100);
    y[i] = float(i % 7);
  }
  float *dx = upload(x), *dy = upload(y);
  Result r;
  r.seconds = medianSeconds(
      [&] {
        saxpy(n, 1.0001f, dx, dy);
        bsgprt_synchronize();
      },
      reps);
  // The result of one call on fresh data, to compare the backends.
  bsgprt_memcpy_htod(dy, y.data(), size_t(n) * 4);
  saxpy(n, 1.0001f, dx, dy);
  r.out = download(dy, n);
  bsgprt_dfree(dx);
  bsgprt_dfree(dy);
  return r;
}

Result runStencil(int w, int h, int reps) {
  std::vector<float> g(size_t(w) * h);
  for (size_t i = 0; i < g.size(); ++i)
    g[i] = float(i % 17);
  float *src = upload(g), *dst = upload(g);
  Result r;
  r.seconds = medianSeconds(
      [&] {
        stencil(w, h, src, dst);
        bsgprt_synchronize();
      },
      reps);
  r.out = download(dst, g.size());
  bsgprt_dfree(src);
  bsgprt_dfree(dst);
  return r;
}

/// 32-bit keys from a linear congruential generator: every byte varies,
/// so no pass is skipped.
std::vector<unsigned> sortKeysInput(int n) {
  std::vector<unsigned> k(n);
  uint32_t x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    k[i] = x;
  }
  return k;
}

Result runSort(int n, int reps) {
  std::vector<unsigned> k = sortKeysInput(n);
  auto *key = static_cast<unsigned *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  auto *sorted = static_cast<unsigned *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  auto *old = static_cast<int *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  bsgprt_memcpy_htod(key, k.data(), size_t(n) * 4);
  Result r;
  r.seconds = medianSeconds(
      [&] {
        sortKeys(key, sorted, old, n);
        bsgprt_synchronize();
      },
      reps);
  r.keys.resize(n);
  r.ranks.resize(n);
  bsgprt_memcpy_dtoh(r.keys.data(), sorted, size_t(n) * 4);
  bsgprt_memcpy_dtoh(r.ranks.data(), old, size_t(n) * 4);
  bsgprt_dfree(key);
  bsgprt_dfree(sorted);
  bsgprt_dfree(old);
  return r;
}

} // namespace

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int reps = 21;
  int n = int(200'000'000 * scale);
  int w = 8192, h = int(8192 * scale);
  int keys = int(100'000'000 * scale);
  Result saxpyOn[2], stencilOn[2], sortOn[2];
  bool profiling = std::getenv("BSGP_PROFILE") != nullptr;
  const char *backends[2] = {"cuda", "vulkan"};
  for (int b = 0; b < 2; ++b) {
    if (bsgprt_select_device(backends[b]) != BSGPRT_SUCCESS) {
      std::printf("no %s device\n", backends[b]);
      return 1;
    }
    std::printf("%s: %s\n", backends[b], bsgprt_device_name());
    saxpyOn[b] = runSaxpy(n, reps);
    stencilOn[b] = runStencil(w, h, reps);
    sortOn[b] = runSort(keys, 5);
    if (profiling) {
      bsgprt_profile_report(stdout);
      bsgprt_profile_reset();
    }
  }
  bool ok = true;
  auto report = [&](const char *name, const Result *r, double bytes) {
    bool same = r[0].out == r[1].out && r[0].keys == r[1].keys &&
                r[0].ranks == r[1].ranks;
    ok &= same;
    std::printf("%-8s cuda %8.3f ms (%6.0f GB/s)   vulkan %8.3f ms (%6.0f "
                "GB/s)   ratio %.2f   %s\n",
                name, r[0].seconds * 1e3, bytes / r[0].seconds / 1e9,
                r[1].seconds * 1e3, bytes / r[1].seconds / 1e9,
                r[0].seconds / r[1].seconds,
                same ? "results agree" : "RESULTS DIFFER");
  };
  report("saxpy", saxpyOn, 12.0 * n);
  report("stencil", stencilOn, 8.0 * w * h);
  // Keys and ranks read and written once a pass, four passes.
  report("sortby", sortOn, 4 * 16.0 * keys);
  // The cuda backend's sort is a stable sort of the keys: sorted keys,
  // each the key at its old rank, equal keys in the order of their ranks.
  std::vector<unsigned> k = sortKeysInput(keys);
  const Result &c = sortOn[0];
  bool sorted = c.keys.size() == size_t(keys) && c.ranks.size() == size_t(keys);
  for (int i = 0; i < keys && sorted; ++i) {
    int o = c.ranks[i];
    sorted = o >= 0 && o < keys && k[o] == c.keys[i] &&
             (i == 0 || c.keys[i - 1] < c.keys[i] ||
              (c.keys[i - 1] == c.keys[i] && c.ranks[i - 1] < o));
  }
  std::printf("sortby   %s\n", sorted ? "stable order" : "NOT SORTED");
  ok &= sorted;
  return ok ? 0 : 1;
}
