//===- bench_supersteps_cpu.cpp - small supersteps on the CPU -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The programs of many small supersteps (bench/cuda/uniform_loop.bsgp and
// supersteps.bsgp, compiled for the cpu target) against OpenMP versions of
// the same algorithms, in one run: the ring smoothing of bench_uniform_loop,
// the Needleman-Wunsch wavefront and the pathfinder row DP. Each OpenMP
// version is written two ways, as OpenMP programmers write such loops:
//   - "omp for": one parallel region, a worksharing loop per step (its
//     implicit barrier between steps);
//   - "parallel for": a parallel region per step (a fork and join per step,
//     as Rodinia's OpenMP pathfinder does).
// Each line prints both times, the time per superstep, and the ratio
// openmp / bsgp (above 1: BSGP is faster); the results must agree.
//
// Usage: bench_supersteps_cpu [scale]  (scale 1: n = 65,536 and 1000 steps
// of the ring, 16384^2 wavefront, 500 x 10^6 pathfinder)
//
//===----------------------------------------------------------------------===//

#include "../Hash.h"
#include "../Timing.h"
#include "bsgp/runtime.h"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
// bench/cuda/uniform_loop.bsgp
void loopHost(float *a, int n, int iters);
// bench/cuda/supersteps.bsgp
void nwWavefront(int *m, const int *a, const int *b, int n);
void pathfinder(const int *wall, int *result, int rows, int cols);
}

namespace {

// The scores of bench/cuda/supersteps.bsgp.
constexpr int MATCH = 5, MISMATCH = -3, GAP = 4;

template <typename T> T *deviceList(size_t n) {
  return static_cast<T *>(bsgprt_dnew(n * sizeof(T), "bench_supersteps_cpu"));
}

template <typename T> T *upload(const std::vector<T> &h) {
  T *d = deviceList<T>(h.size());
  bsgprt_memcpy_htod(d, h.data(), h.size() * sizeof(T));
  return d;
}

template <typename T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> h(n);
  bsgprt_memcpy_dtoh(h.data(), d, n * sizeof(T));
  return h;
}

void report(const char *name, double bsgp, long steps, const char *form,
            double omp, bool same) {
  std::printf("%-26s bsgp %9.3f ms (%6.2f us/superstep)  openmp %-12s "
              "%9.3f ms (%6.2f us/step)  ratio %.2f  %s\n",
              name, bsgp * 1e3, bsgp * 1e6 / steps, form, omp * 1e3,
              omp * 1e6 / steps, omp / bsgp,
              same ? "results agree" : "RESULTS DIFFER");
}

// The ring smoothing of bench/cuda/uniform_loop.bsgp: x[i] = (x[i] +
// x[i + 1 mod n]) / 2, `iters` times.
void ring(int n, int iters, int reps) {
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = float(hash32(uint32_t(i)) % 1000);
  float *a = deviceList<float>(n);
  double bsgp = medianSeconds(
      [&] {
        bsgprt_memcpy_htod(a, h.data(), n * sizeof(float));
        loopHost(a, n, iters);
        bsgprt_synchronize();
      },
      reps);
  std::vector<float> got = download(a, n);
  bsgprt_dfree(a);

  std::vector<float> x(n), y(n);
  auto step = [&](const float *p, float *q, int i) {
    q[i] = 0.5f * (p[i] + p[i + 1 == n ? 0 : i + 1]);
  };
  double team = medianSeconds(
      [&] {
        x = h;
#pragma omp parallel
        {
          float *p = x.data(), *q = y.data();
          for (int k = 0; k < iters; ++k) {
#pragma omp for schedule(static)
            for (int i = 0; i < n; ++i)
              step(p, q, i);
            std::swap(p, q);
          }
        }
      },
      reps);
  bool same = got == (iters % 2 ? y : x);
  char name[64];
  std::snprintf(name, sizeof name, "ring n=%d iters=%d", n, iters);
  report(name, bsgp, iters, "omp for", team, same);
  double forkJoin = medianSeconds(
      [&] {
        x = h;
        float *p = x.data(), *q = y.data();
        for (int k = 0; k < iters; ++k) {
#pragma omp parallel for schedule(static)
          for (int i = 0; i < n; ++i)
            step(p, q, i);
          std::swap(p, q);
        }
      },
      reps);
  same = got == (iters % 2 ? y : x);
  report(name, bsgp, iters, "parallel for", forkJoin, same);
}

// Needleman-Wunsch over the (n+1)^2 matrix, an anti-diagonal per step.
void wavefront(int n, int reps) {
  std::vector<int> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = hash32(i) % 4;
    hb[i] = hash32(i + 0x9e3779b9U) % 4;
  }
  size_t w = size_t(n) + 1, cells = w * w;
  int *a = upload(ha), *b = upload(hb), *m = deviceList<int>(cells);
  double bsgp = medianSeconds([&] { nwWavefront(m, a, b, n); }, reps);
  std::vector<int> got = download(m, cells);
  bsgprt_dfree(a);
  bsgprt_dfree(b);
  bsgprt_dfree(m);

  std::vector<int> o(cells);
  int *mo = o.data();
  double team = medianSeconds(
      [&] {
#pragma omp parallel
        {
#pragma omp for schedule(static)
          for (int j = 0; j <= n; ++j) {
            mo[j] = -j * GAP;
            mo[j * w] = -j * GAP;
          }
          for (int d = 0; d < 2 * n - 1; ++d) {
            int lo = std::max(0, d - (n - 1)), hi = std::min(d, n - 1);
#pragma omp for schedule(static)
            for (int j = lo; j <= hi; ++j) {
              size_t i = size_t(d - j);
              int diag = mo[i * w + j] + (ha[i] == hb[j] ? MATCH : MISMATCH);
              int up = mo[i * w + j + 1] - GAP;
              int left = mo[(i + 1) * w + j] - GAP;
              mo[(i + 1) * w + j + 1] = std::max(diag, std::max(up, left));
            }
          }
        }
      },
      reps);
  char name[64];
  std::snprintf(name, sizeof name, "nw n=%d", n);
  report(name, bsgp, 2L * n - 1, "omp for", team, got == o);
}

// Rodinia's pathfinder: rows x cols walls, a row per step.
void rowDP(int rows, int cols, int reps) {
  std::vector<int> wall(size_t(rows) * cols);
  for (size_t k = 0; k < wall.size(); ++k)
    wall[k] = int(hash32(uint32_t(k) ^ 0xabcdefU) % 10);
  int *dw = upload(wall), *dr = deviceList<int>(cols);
  double bsgp = medianSeconds([&] { pathfinder(dw, dr, rows, cols); }, reps);
  std::vector<int> got = download(dr, cols);
  bsgprt_dfree(dw);
  bsgprt_dfree(dr);

  std::vector<int> x(cols), y(cols);
  auto cell = [&](const int *p, int *q, int r, int c) {
    int best = p[c];
    if (c > 0)
      best = std::min(best, p[c - 1]);
    if (c + 1 < cols)
      best = std::min(best, p[c + 1]);
    q[c] = wall[size_t(r) * cols + c] + best;
  };
  int *last = nullptr;
  double team = medianSeconds(
      [&] {
        std::copy(wall.begin(), wall.begin() + cols, x.begin());
#pragma omp parallel
        {
          int *p = x.data(), *q = y.data();
          for (int r = 1; r < rows; ++r) {
#pragma omp for schedule(static)
            for (int c = 0; c < cols; ++c)
              cell(p, q, r, c);
            std::swap(p, q);
          }
#pragma omp single
          last = p;
        }
      },
      reps);
  bool same = std::equal(got.begin(), got.end(), last);
  char name[64];
  std::snprintf(name, sizeof name, "pathfinder %dx%d", rows, cols);
  report(name, bsgp, rows - 1, "omp for", team, same);
  double forkJoin = medianSeconds(
      [&] {
        std::copy(wall.begin(), wall.begin() + cols, x.begin());
        int *p = x.data(), *q = y.data();
        for (int r = 1; r < rows; ++r) {
#pragma omp parallel for schedule(static)
          for (int c = 0; c < cols; ++c)
            cell(p, q, r, c);
          std::swap(p, q);
        }
        last = p;
      },
      reps);
  same = std::equal(got.begin(), got.end(), last);
  report(name, bsgp, rows - 1, "parallel for", forkJoin, same);
}

} // namespace

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int reps = 5;
  std::printf("device: %s, %d OpenMP threads\n", bsgprt_device_name(),
              omp_get_max_threads());
  ring(std::max(1, int(65536 * scale)), 1000, reps);
  wavefront(std::max(2, int(16384 * scale)), reps);
  rowDP(500, std::max(2, int(1000000 * scale)), reps);
  return 0;
}
