//===- bench_cuda.cu - BSGP on the GPU against hand-written CUDA ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The BSGP kernels of bench/cpu/kernels.bsgp, compiled by bsgpc for the
// cuda target and launched by libbsgprt, against the same algorithms written
// by hand in CUDA C++ (nvcc -O3), on the same device buffers in the same
// run. Prints the median time of each, the ratio cuda_time / bsgp_time
// (above 1: BSGP is faster), the achieved bandwidth and whether the results
// agree. Both sides wait for the GPU after every call (BSGP launches are
// asynchronous).
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

extern "C" {
void saxpy(int n, float a, float *x, float *y);
void sgemv(int m, int n, float *a, float *x, float *y);
void stencil(int w, int h, float *src, float *dst);
}

__global__ void saxpyKernel(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void sgemvKernel(int m, int n, const float *a, const float *x,
                            float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m)
    return;
  float s = 0.0f;
  for (int j = 0; j < n; ++j)
    s += a[(size_t)r * n + j] * x[j];
  y[r] = s;
}

__global__ void stencilKernel(int w, int h, const float *src, float *dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= w * h)
    return;
  int x = i % w, y = i / w;
  float v = src[i];
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1)
    v = 0.25f * (src[i - 1] + src[i + 1] + src[i - w] + src[i + w]);
  dst[i] = v;
}

static bool close(const std::vector<float> &a, const std::vector<float> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - b[i]) > 1e-5f * std::max(1.0f, std::fabs(b[i])))
      return false;
  return true;
}

static float *upload(const std::vector<float> &h) {
  float *d;
  cudaMalloc(&d, h.size() * sizeof(float));
  cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  return d;
}

static std::vector<float> download(const float *d, size_t n) {
  std::vector<float> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return h;
}

static void report(const char *name, double bsgp, double cuda, double bytes,
                   bool same) {
  std::printf("%-8s bsgp %8.3f ms (%6.0f GB/s)   cuda %8.3f ms (%6.0f GB/s)   "
              "ratio %.2f   %s\n",
              name, bsgp * 1e3, bytes / bsgp / 1e9, cuda * 1e3,
              bytes / cuda / 1e9, cuda / bsgp,
              same ? "results agree" : "RESULTS DIFFER");
}

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int reps = 21;
  bool ok = true;
  cudaFree(nullptr);
  std::printf("device: %s\n", bsgprt_device_name());

  // The copy bandwidth the others are measured against.
  {
    size_t n = size_t(256) << 20;
    float *a, *b;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    double t = medianSeconds(
        [&] {
          cudaMemcpy(b, a, n * 4, cudaMemcpyDeviceToDevice);
          cudaDeviceSynchronize();
        },
        reps);
    std::printf("copy     %8.3f ms (%6.0f GB/s)\n", t * 1e3, 2.0 * n * 4 / t / 1e9);
    cudaFree(a);
    cudaFree(b);
  }
  {
    int n = int(200'000'000 * scale);
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i % 100);
      y[i] = float(i % 7);
    }
    float *dx = upload(x), *dyb = upload(y), *dyc = upload(y);
    double tb = medianSeconds(
        [&] {
          saxpy(n, 1.0001f, dx, dyb);
          bsgprt_synchronize();
        },
        reps);
    int block = 256, grid = (n + block - 1) / block;
    double tc = medianSeconds(
        [&] {
          saxpyKernel<<<grid, block>>>(n, 1.0001f, dx, dyc);
          cudaDeviceSynchronize();
        },
        reps);
    bool same = close(download(dyb, n), download(dyc, n));
    ok &= same;
    report("saxpy", tb, tc, 12.0 * n, same);
  }
  {
    int m = 16384, n = int(16384 * scale);
    std::vector<float> a(size_t(m) * n), x(n), y(m, 0.0f);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = float(int(i % 13) - 6) * 0.25f;
    for (int j = 0; j < n; ++j)
      x[j] = float(j % 5);
    float *da = upload(a), *dx = upload(x), *dyb = upload(y), *dyc = upload(y);
    double tb = medianSeconds(
        [&] {
          sgemv(m, n, da, dx, dyb);
          bsgprt_synchronize();
        },
        reps);
    int block = 256, grid = (m + block - 1) / block;
    double tc = medianSeconds(
        [&] {
          sgemvKernel<<<grid, block>>>(m, n, da, dx, dyc);
          cudaDeviceSynchronize();
        },
        reps);
    bool same = close(download(dyb, m), download(dyc, m));
    ok &= same;
    report("sgemv", tb, tc, 4.0 * m * n, same);
  }
  {
    int w = 8192, h = int(8192 * scale);
    std::vector<float> g(size_t(w) * h);
    for (size_t i = 0; i < g.size(); ++i)
      g[i] = float(i % 17);
    float *ds = upload(g), *db = upload(g), *dc = upload(g);
    double tb = medianSeconds(
        [&] {
          stencil(w, h, ds, db);
          bsgprt_synchronize();
        },
        reps);
    int block = 256, grid = int((size_t(w) * h + block - 1) / block);
    double tc = medianSeconds(
        [&] {
          stencilKernel<<<grid, block>>>(w, h, ds, dc);
          cudaDeviceSynchronize();
        },
        reps);
    bool same = close(download(db, g.size()), download(dc, g.size()));
    ok &= same;
    report("stencil", tb, tc, 8.0 * w * h, same);
  }
  return ok ? 0 : 1;
}
