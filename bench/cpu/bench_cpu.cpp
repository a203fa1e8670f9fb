//===- bench_cpu.cpp - BSGP on the CPU against OpenMP C++ -----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Times each BSGP kernel (compiled by bsgpc for the cpu target, run by
// libbsgprt's OpenMP backend) against a hand-written OpenMP loop on the same
// data in the same run, checks that both give the same result, and prints
// the ratio omp_time / bsgp_time (above 1: BSGP is faster). Times are the
// median of several repetitions after a warm-up.
//
//===----------------------------------------------------------------------===//

#include "../GridMesh.h"
#include "../Timing.h"
#include "bsgp/runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include <parallel/algorithm>

extern "C" {
void saxpy(int n, float a, float *x, float *y);
void sgemv(int m, int n, float *a, float *x, float *y);
void stencil(int w, int h, float *src, float *dst);
void findFaces(int *pf, int *hd, int *ib, int n);
}

static void report(const char *name, double bsgp, double omp, bool same) {
  std::printf("%-8s bsgp %9.3f ms   openmp %9.3f ms   ratio %.2f   %s\n", name,
              bsgp * 1e3, omp * 1e3, omp / bsgp,
              same ? "results equal" : "RESULTS DIFFER");
}

static float *deviceCopy(const std::vector<float> &h) {
  auto *d = static_cast<float *>(
      bsgprt_dnew(h.size() * sizeof(float), "bench_cpu.cpp"));
  bsgprt_memcpy_htod(d, h.data(), h.size() * sizeof(float));
  return d;
}

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int reps = 9;
  bool allSame = true;
  std::printf("device: %s\n", bsgprt_device_name());

  {
    int n = int(50'000'000 * scale);
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i % 100);
      y[i] = float(i % 7);
    }
    float *dx = deviceCopy(x), *dy = deviceCopy(y);
    std::vector<float> oy = y;
    double tb = medianSeconds([&] { saxpy(n, 1.0001f, dx, dy); }, reps);
    double to = medianSeconds(
        [&] {
#pragma omp parallel for simd schedule(static)
          for (int i = 0; i < n; ++i)
            oy[i] = 1.0001f * x[i] + oy[i];
        },
        reps);
    std::vector<float> r(n);
    bsgprt_memcpy_dtoh(r.data(), dy, n * sizeof(float));
    bool same = r == oy;
    allSame &= same;
    report("saxpy", tb, to, same);
  }
  {
    int m = int(8192 * std::sqrt(scale)), n = 8192;
    std::vector<float> a(size_t(m) * n), x(n), y(m), oy(m);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = float(int(i % 13) - 6);
    for (int j = 0; j < n; ++j)
      x[j] = float(j % 5);
    float *da = deviceCopy(a), *dx = deviceCopy(x), *dy = deviceCopy(y);
    double tb = medianSeconds([&] { sgemv(m, n, da, dx, dy); }, reps);
    double to = medianSeconds(
        [&] {
#pragma omp parallel for schedule(static)
          for (int r = 0; r < m; ++r) {
            float s = 0.0f;
            for (int j = 0; j < n; ++j)
              s += a[size_t(r) * n + j] * x[j];
            oy[r] = s;
          }
        },
        reps);
    std::vector<float> r(m);
    bsgprt_memcpy_dtoh(r.data(), dy, m * sizeof(float));
    bool same = r == oy;
    allSame &= same;
    report("sgemv", tb, to, same);
  }
  {
    int w = 4096, h = int(4096 * scale);
    std::vector<float> g(size_t(w) * h), o(g.size());
    for (size_t i = 0; i < g.size(); ++i)
      g[i] = float(i % 17);
    float *ds = deviceCopy(g), *dd = deviceCopy(g);
    double tb = medianSeconds([&] { stencil(w, h, ds, dd); }, reps);
    double to = medianSeconds(
        [&] {
#pragma omp parallel for schedule(static)
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
              size_t i = size_t(y) * w + x;
              float v = g[i];
              if (x > 0 && x < w - 1 && y > 0 && y < h - 1)
                v = 0.25f * (g[i - 1] + g[i + 1] + g[i - w] + g[i + w]);
              o[i] = v;
            }
        },
        reps);
    std::vector<float> r(g.size());
    bsgprt_memcpy_dtoh(r.data(), dd, r.size() * sizeof(float));
    bool same = r == o;
    allSame &= same;
    report("stencil", tb, to, same);
  }
  {
    // Listing 1 on a grid of 2*k*k triangles; the OpenMP version sorts the
    // (vertex, corner) pairs with libstdc++'s OpenMP parallel stable sort.
    int k = int(1024 * std::sqrt(scale));
    int nv = (k + 1) * (k + 1), nf = 2 * k * k;
    std::vector<int> ib = gridTriangles(k);
    int *dib = static_cast<int *>(bsgprt_dnew(ib.size() * 4, "bench"));
    int *dpf = static_cast<int *>(bsgprt_dnew(ib.size() * 4, "bench"));
    int *dhd = static_cast<int *>(bsgprt_dnew(size_t(nv) * 4, "bench"));
    bsgprt_memcpy_htod(dib, ib.data(), ib.size() * 4);
    double tb = medianSeconds([&] { findFaces(dpf, dhd, dib, nf); }, reps);
    std::vector<int> pf(ib.size()), hd(nv);
    std::vector<std::pair<int, int>> pairs(ib.size());
    double to = medianSeconds(
        [&] {
#pragma omp parallel for schedule(static)
          for (long i = 0; i < long(ib.size()); ++i)
            pairs[i] = {ib[i], int(i)};
          __gnu_parallel::stable_sort(
              pairs.begin(), pairs.end(),
              [](const std::pair<int, int> &a, const std::pair<int, int> &b) {
                return a.first < b.first;
              });
#pragma omp parallel for schedule(static)
          for (long r = 0; r < long(pairs.size()); ++r) {
            pf[r] = pairs[r].second / 3;
            if (r == 0 || pairs[r - 1].first != pairs[r].first)
              hd[pairs[r].first] = int(r);
          }
        },
        reps);
    std::vector<int> rpf(ib.size()), rhd(nv);
    bsgprt_memcpy_dtoh(rpf.data(), dpf, rpf.size() * 4);
    bsgprt_memcpy_dtoh(rhd.data(), dhd, rhd.size() * 4);
    bool same = rpf == pf && rhd == hd;
    allSame &= same;
    report("faces", tb, to, same);
  }
  return allSame ? 0 : 1;
}
