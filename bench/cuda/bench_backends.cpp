//===- bench_backends.cpp - one BSGP program on the cuda and vulkan backends ===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// SAXPY and the 5-point stencil of bench/cpu/kernels.bsgp, compiled once with
// --target=cpu,cuda,spirv, run on the same GPU through the cuda backend
// (PTX) and through the vulkan backend (SPIR-V), switching with
// bsgprt_select_device. Prints the median time of each and the ratio
// cuda_time / vulkan_time (above 1: Vulkan is faster), and whether the two
// backends computed the same results.
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
void saxpy(int n, float a, float *x, float *y);
void stencil(int w, int h, float *src, float *dst);
}

namespace {

struct Result {
  double seconds = 0;
  std::vector<float> out;
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

} // namespace

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int reps = 21;
  int n = int(200'000'000 * scale);
  int w = 8192, h = int(8192 * scale);
  Result saxpyOn[2], stencilOn[2];
  const char *backends[2] = {"cuda", "vulkan"};
  for (int b = 0; b < 2; ++b) {
    if (bsgprt_select_device(backends[b]) != BSGPRT_SUCCESS) {
      std::printf("no %s device\n", backends[b]);
      return 1;
    }
    std::printf("%s: %s\n", backends[b], bsgprt_device_name());
    saxpyOn[b] = runSaxpy(n, reps);
    stencilOn[b] = runStencil(w, h, reps);
  }
  bool ok = true;
  auto report = [&](const char *name, const Result *r, double bytes) {
    bool same = r[0].out == r[1].out;
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
  return ok ? 0 : 1;
}
