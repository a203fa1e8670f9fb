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

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <vector>

#include <parallel/algorithm>

extern "C" {
void saxpy(int n, float a, float *x, float *y);
void sgemv(int m, int n, float *a, float *x, float *y);
void stencil(int w, int h, float *src, float *dst);
void stencil2d(int w, int h, float *src, float *dst);
void findFaces(int *pf, int *hd, int *ib, int n);
// bench/cuda/collectives.bsgp: the collectives as programs use them.
void benchReduce(int *in, int *out, int n);
void benchReduceFloat(float *in, float *out, int n);
void benchScan(int *in, int *out, int n);
void benchCompact(int *in, int *out, int n);
void benchSortby(unsigned *keys, unsigned *sortedKeys, unsigned *ranks, int n);
}

static void report(const char *name, double bsgp, double omp, bool same) {
  std::printf("%-9s bsgp %9.3f ms   openmp %9.3f ms   ratio %.2f   %s\n", name,
              bsgp * 1e3, omp * 1e3, omp / bsgp,
              same ? "results equal" : "RESULTS DIFFER");
}

static float *deviceCopy(const std::vector<float> &h) {
  auto *d = static_cast<float *>(
      bsgprt_dnew(h.size() * sizeof(float), "bench_cpu.cpp"));
  bsgprt_memcpy_htod(d, h.data(), h.size() * sizeof(float));
  return d;
}

/// Exclusive prefix sums of `in` into `out` with OpenMP: each thread sums
/// its chunk, one thread scans the chunk sums, each rescans its chunk.
/// Returns the total.
static long ompExclusiveScan(const std::vector<int> &in, std::vector<int> &out,
                             const std::vector<char> *keep = nullptr) {
  long n = long(in.size());
  int t = omp_get_max_threads();
  std::vector<int> sums(t + 1, 0);
#pragma omp parallel num_threads(t)
  {
    int id = omp_get_thread_num();
    long b = n * id / t, e = n * (id + 1) / t;
    int s = 0;
    for (long i = b; i < e; ++i)
      s += keep ? (*keep)[i] : in[i];
    sums[id + 1] = s;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= t; ++k)
      sums[k] += sums[k - 1];
    int acc = sums[id];
    if (keep) {
      for (long i = b; i < e; ++i)
        if ((*keep)[i])
          out[acc++] = in[i];
    } else {
      for (long i = b; i < e; ++i) {
        out[i] = acc;
        acc += in[i];
      }
    }
  }
  return sums[t];
}

/// The collectives of Appendix A as BSGP programs write them
/// (bench/cuda/collectives.bsgp) against OpenMP C++: a reduction clause,
/// two-pass scan and compaction, and libstdc++'s parallel stable sort of
/// (key, rank) pairs.
static void collectives(double scale, int reps, bool &allSame) {
  int n = int((1 << 26) * scale);
  std::vector<int> in(n);
  uint64_t state = 12345;
  for (int i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    in[i] = int(state >> 40) & 1023;
  }
  int *din = static_cast<int *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  int *dout = static_cast<int *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  bsgprt_memcpy_htod(din, in.data(), size_t(n) * 4);
  {
    long total = 0;
    double tb = medianSeconds([&] { benchReduce(din, dout, n); }, reps);
    double to = medianSeconds(
        [&] {
          long s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
          for (int i = 0; i < n; ++i)
            s += in[i];
          total = s;
        },
        reps);
    int got = 0;
    bsgprt_memcpy_dtoh(&got, dout, 4);
    bool same = got == int(total);
    allSame &= same;
    report("reduce", tb, to, same);
  }
  {
    // Floats in [0.25, 1.25): OpenMP sums each thread's range in 8-wide
    // partial sums (simd), BSGP as a tree of blocks. BSGP's sum must be
    // within 1e-5 of the sum in double; OpenMP's error is printed (millions
    // of values a partial sum lose digits).
    std::vector<float> f(n);
    double exact = 0;
    for (int i = 0; i < n; ++i) {
      f[i] = float(in[i]) / 1024.0f + 0.25f;
      exact += f[i];
    }
    float *df = deviceCopy(f);
    float *dfo = static_cast<float *>(bsgprt_dnew(4, "bench"));
    float total = 0;
    double tb = medianSeconds([&] { benchReduceFloat(df, dfo, n); }, reps);
    double to = medianSeconds(
        [&] {
          float s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
          for (int i = 0; i < n; ++i)
            s += f[i];
          total = s;
        },
        reps);
    float got = 0;
    bsgprt_memcpy_dtoh(&got, dfo, 4);
    bool same = std::fabs(got - exact) < 1e-5 * exact;
    allSame &= same;
    report("reducef", tb, to, same);
    std::printf("         relative error: bsgp %.2g openmp %.2g\n",
                std::fabs(got - exact) / exact,
                std::fabs(total - exact) / exact);
    bsgprt_dfree(df);
    bsgprt_dfree(dfo);
  }
  {
    std::vector<int> out(n);
    double tb = medianSeconds([&] { benchScan(din, dout, n); }, reps);
    double to = medianSeconds([&] { ompExclusiveScan(in, out); }, reps);
    std::vector<int> got(n);
    bsgprt_memcpy_dtoh(got.data(), dout, size_t(n) * 4);
    bool same = got == out;
    allSame &= same;
    report("scan", tb, to, same);
  }
  {
    std::vector<char> keep(n);
    for (int i = 0; i < n; ++i)
      keep[i] = (in[i] & 1) != 0;
    std::vector<int> out(n);
    long kept = 0;
    double tb = medianSeconds([&] { benchCompact(din, dout, n); }, reps);
    double to = medianSeconds(
        [&] {
          // The flags are part of the work, as in BSGP.
#pragma omp parallel for schedule(static)
          for (int i = 0; i < n; ++i)
            keep[i] = (in[i] & 1) != 0;
          kept = ompExclusiveScan(in, out, &keep);
        },
        reps);
    std::vector<int> got(kept);
    bsgprt_memcpy_dtoh(got.data(), dout, size_t(kept) * 4);
    bool same = std::equal(got.begin(), got.end(), out.begin());
    allSame &= same;
    report("compact", tb, to, same);
  }
  {
    std::vector<unsigned> keys(n);
    for (int i = 0; i < n; ++i)
      keys[i] = unsigned(in[i]) * 2654435761u;
    auto *dk = static_cast<unsigned *>(bsgprt_dnew(size_t(n) * 4, "bench"));
    auto *dsk = static_cast<unsigned *>(bsgprt_dnew(size_t(n) * 4, "bench"));
    auto *dr = static_cast<unsigned *>(bsgprt_dnew(size_t(n) * 4, "bench"));
    bsgprt_memcpy_htod(dk, keys.data(), size_t(n) * 4);
    std::vector<std::pair<unsigned, unsigned>> pairs(n);
    double tb = medianSeconds([&] { benchSortby(dk, dsk, dr, n); }, reps);
    double to = medianSeconds(
        [&] {
#pragma omp parallel for schedule(static)
          for (int i = 0; i < n; ++i)
            pairs[i] = {keys[i], unsigned(i)};
          __gnu_parallel::stable_sort(
              pairs.begin(), pairs.end(),
              [](const std::pair<unsigned, unsigned> &a,
                 const std::pair<unsigned, unsigned> &b) {
                return a.first < b.first;
              });
        },
        reps);
    std::vector<unsigned> sk(n), r(n);
    bsgprt_memcpy_dtoh(sk.data(), dsk, size_t(n) * 4);
    bsgprt_memcpy_dtoh(r.data(), dr, size_t(n) * 4);
    bool same = true;
    for (int i = 0; i < n && same; ++i)
      same = sk[i] == pairs[i].first && r[i] == pairs[i].second;
    allSame &= same;
    report("sortby", tb, to, same);
    bsgprt_dfree(dk);
    bsgprt_dfree(dsk);
    bsgprt_dfree(dr);
  }
  bsgprt_dfree(din);
  bsgprt_dfree(dout);
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
    // The same over a 2-D spawn domain, against the same OpenMP loop.
    double t2 = medianSeconds([&] { stencil2d(w, h, ds, dd); }, reps);
    bsgprt_memcpy_dtoh(r.data(), dd, r.size() * sizeof(float));
    same = r == o;
    allSame &= same;
    report("stencil2d", t2, to, same);
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
  collectives(scale, reps, allSame);
  return allSame ? 0 : 1;
}
