//===- bench_cuda.cu - BSGP on the GPU against hand-written CUDA ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The BSGP kernels of bench/cpu/kernels.bsgp, compiled by bsgpc for the
// cuda target and launched by libbsgprt, against the same algorithms written
// by hand in CUDA C++ (nvcc -O3), on the same device buffers in the same
// run; the SGEMV with one subgroup per row against cuBLAS's cublasSgemv
// too. Prints the median time of each, the ratio cuda_time / bsgp_time
// (above 1: BSGP is faster), the achieved bandwidth, whether the results
// agree, and the device memory each side needs beyond the inputs and
// outputs (BSGP: the runtime's peak, from bsgprt_memory_stats; CUDA: what
// the hand-written code allocates). Both sides wait for the GPU after every
// call (BSGP launches are asynchronous).
//
//===----------------------------------------------------------------------===//

#include "../GridMesh.h"
#include "../Timing.h"
#include "bsgp/runtime.h"

#include <cub/device/device_radix_sort.cuh>
#include <cublas_v2.h>

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
void sgemvSubgroup(int m, int n, float *a, float *x, float *y);
void stencil(int w, int h, float *src, float *dst);
void stencil2d(int w, int h, float *src, float *dst);
void findFaces(int *pf, int *hd, int *ib, int n);
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

// The 2-D form a CUDA programmer writes: 16x16 blocks over the grid.
__global__ void stencil2dKernel(int w, int h, const float *src, float *dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  int i = y * w + x;
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

// The paper's Listing 2 with CUB's radix sort in place of cudppSort. The
// 16-bit packing of (vertex, face) into one key limits Listing 2 to 65536
// faces, so the vertex is the key and the corner the value of a pair sort,
// which is stable as cudppSort's was. The temporaries are allocated once,
// outside the timed calls: the strongest form of the hand-written code.
__global__ void beforeSort(unsigned *key, unsigned *corner, const int *ib,
                           int n3) {
  int rk = blockIdx.x * blockDim.x + threadIdx.x;
  if (rk < n3) {
    key[rk] = unsigned(ib[rk]);
    corner[rk] = unsigned(rk);
  }
}

__global__ void afterSort(int *pf, const unsigned *corner, int n3) {
  int rk = blockIdx.x * blockDim.x + threadIdx.x;
  if (rk < n3)
    pf[rk] = int(corner[rk] / 3);
}

__global__ void makeHead(int *hd, const unsigned *owner, int n3) {
  int rk = blockIdx.x * blockDim.x + threadIdx.x;
  if (rk < n3) {
    unsigned v = owner[rk];
    if (rk == 0 || v != owner[rk - 1])
      hd[v] = rk;
  }
}

struct FindFacesCUB {
  int n3 = 0, endBit = 0;
  unsigned *key = nullptr, *sorted = nullptr, *corner = nullptr,
           *sortedCorner = nullptr;
  void *temp = nullptr;
  size_t tempBytes = 0;

  FindFacesCUB(int n, int numVertices) : n3(n * 3) {
    while (endBit < 32 && (1u << endBit) < unsigned(numVertices))
      ++endBit;
    cudaMalloc(&key, n3 * 4);
    cudaMalloc(&sorted, n3 * 4);
    cudaMalloc(&corner, n3 * 4);
    cudaMalloc(&sortedCorner, n3 * 4);
    cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, key, sorted, corner,
                                    sortedCorner, n3, 0, endBit);
    cudaMalloc(&temp, tempBytes);
  }
  ~FindFacesCUB() {
    cudaFree(key);
    cudaFree(sorted);
    cudaFree(corner);
    cudaFree(sortedCorner);
    cudaFree(temp);
  }
  size_t bytes() const { return 4 * size_t(n3) * 4 + tempBytes; }
  void run(int *pf, int *hd, const int *ib) {
    int block = 256, grid = (n3 + block - 1) / block;
    beforeSort<<<grid, block>>>(key, corner, ib, n3);
    cub::DeviceRadixSort::SortPairs(temp, tempBytes, key, sorted, corner,
                                    sortedCorner, n3, 0, endBit);
    afterSort<<<grid, block>>>(pf, sortedCorner, n3);
    makeHead<<<grid, block>>>(hd, sorted, n3);
  }
};

/// Device memory the runtime needed during `f` beyond what was live before.
static double bsgpExtraMiB(const std::function<void()> &f) {
  bsgprt_pool_trim();
  bsgprt_memory_reset_peak();
  bsgprt_memory_stats_t before, after;
  bsgprt_memory_stats(&before);
  f();
  bsgprt_synchronize();
  bsgprt_memory_stats(&after);
  return double(after.peak_device_bytes - before.device_bytes) / (1 << 20);
}

/// `other` names the competitor: hand-written CUDA, or a library.
static void report(const char *name, double bsgp, double cuda, double bytes,
                   bool same, double bsgpMiB, double cudaMiB,
                   const char *other = "cuda") {
  std::printf("%-9s bsgp %8.3f ms (%6.0f GB/s)   %-6s %8.3f ms (%6.0f GB/s)   "
              "ratio %.2f   %s   extra memory: bsgp %.1f MiB, %s %.1f MiB\n",
              name, bsgp * 1e3, bytes / bsgp / 1e9, other, cuda * 1e3,
              bytes / cuda / 1e9, cuda / bsgp,
              same ? "results agree" : "RESULTS DIFFER", bsgpMiB, other,
              cudaMiB);
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
    double mem = bsgpExtraMiB([&] { saxpy(n, 1.0001f, dx, dyb); });
    report("saxpy", tb, tc, 12.0 * n, same, mem, 0);
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
    double mem = bsgpExtraMiB([&] { sgemv(m, n, da, dx, dyb); });
    report("sgemv", tb, tc, 4.0 * m * n, same, mem, 0);

    // One subgroup per row against cuBLAS. cuBLAS is column-major: the
    // row-major m x n matrix is its n x m matrix with leading dimension n,
    // transposed.
    cublasHandle_t handle;
    cublasCreate(&handle);
    float one = 1.0f, zero = 0.0f;
    double tl = medianSeconds(
        [&] {
          cublasSgemv(handle, CUBLAS_OP_T, n, m, &one, da, n, dx, 1, &zero, dyc,
                      1);
          cudaDeviceSynchronize();
        },
        reps);
    double ts = medianSeconds(
        [&] {
          sgemvSubgroup(m, n, da, dx, dyb);
          bsgprt_synchronize();
        },
        reps);
    same = close(download(dyb, m), download(dyc, m));
    ok &= same;
    mem = bsgpExtraMiB([&] { sgemvSubgroup(m, n, da, dx, dyb); });
    // cuBLAS's own workspace (made by cublasCreate) is not counted.
    report("sgemv-sg", ts, tl, 4.0 * m * n, same, mem, 0, "cublas");
    cublasDestroy(handle);
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
    double mem = bsgpExtraMiB([&] { stencil(w, h, ds, db); });
    report("stencil", tb, tc, 8.0 * w * h, same, mem, 0);
    // The same over a 2-D spawn domain, against the 16x16-block CUDA form.
    double t2 = medianSeconds(
        [&] {
          stencil2d(w, h, ds, db);
          bsgprt_synchronize();
        },
        reps);
    dim3 block2(16, 16), grid2((w + 15) / 16, (h + 15) / 16);
    double tc2 = medianSeconds(
        [&] {
          stencil2dKernel<<<grid2, block2>>>(w, h, ds, dc);
          cudaDeviceSynchronize();
        },
        reps);
    same = close(download(db, g.size()), download(dc, g.size()));
    ok &= same;
    report("stencil2d", t2, tc2, 8.0 * w * h, same, 0, 0);
  }
  {
    // Listing 1 against Listing 2 on a grid of 2*k*k triangles, as in
    // bench/cpu. Bandwidth counts reading ib and writing pf and hd.
    int k = int(1024 * std::sqrt(scale));
    int nv = (k + 1) * (k + 1), nf = 2 * k * k;
    std::vector<int> ib = gridTriangles(k);
    int *dib, *dpfb, *dpfc, *dhdb, *dhdc;
    cudaMalloc(&dib, ib.size() * 4);
    cudaMemcpy(dib, ib.data(), ib.size() * 4, cudaMemcpyHostToDevice);
    cudaMalloc(&dpfb, ib.size() * 4);
    cudaMalloc(&dpfc, ib.size() * 4);
    cudaMalloc(&dhdb, size_t(nv) * 4);
    cudaMalloc(&dhdc, size_t(nv) * 4);
    double tb = medianSeconds(
        [&] {
          findFaces(dpfb, dhdb, dib, nf);
          bsgprt_synchronize();
        },
        reps);
    FindFacesCUB cub(nf, nv);
    double tc = medianSeconds(
        [&] {
          cub.run(dpfc, dhdc, dib);
          cudaDeviceSynchronize();
        },
        reps);
    std::vector<int> pfb(ib.size()), pfc(ib.size()), hdb(nv), hdc(nv);
    cudaMemcpy(pfb.data(), dpfb, ib.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(pfc.data(), dpfc, ib.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hdb.data(), dhdb, size_t(nv) * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hdc.data(), dhdc, size_t(nv) * 4, cudaMemcpyDeviceToHost);
    bool same = pfb == pfc && hdb == hdc;
    ok &= same;
    double mem = bsgpExtraMiB([&] { findFaces(dpfb, dhdb, dib, nf); });
    report("faces", tb, tc, 4.0 * (2 * ib.size() + nv), same, mem,
           double(cub.bytes()) / (1 << 20));
    cudaFree(dib);
    cudaFree(dpfb);
    cudaFree(dpfc);
    cudaFree(dhdb);
    cudaFree(dhdc);
  }
  return ok ? 0 : 1;
}
