//===- wavefront_sync.cu - the wavefront's step: what its barrier costs ---===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A measurement for issue #43, not a BSGP-against-CUDA benchmark: the
// Needleman-Wunsch wavefront of bench_supersteps (one thread per column,
// one step per anti-diagonal, the score matrix in global memory), written
// as the one kernel bsgp-fuse-uniform-loops makes of it, with the step's
// synchronization done five ways:
//
//   grid barrier        the arrival count of bsgpc's grid loops (GridLoops)
//   chain fence+acquire each block waits for the block before it to finish
//                       the step before (its threads read only columns j - 1
//                       and j), a fence and a store to publish, an acquire
//                       load each step
//   chain release+lazy  the same with a release store, and the acquire load
//                       only when the last value seen is too old
//   cg grid.sync        cooperative groups' grid barrier
//   chain release+acq.  a release store, an acquire load each step
//
// Each prints the best of three in ms and µs a step, and whether its score
// matrix is the grid barrier's. Results are in bench/README.md ("The
// wavefront's step without a grid barrier").
//
// Build and run: nvcc -O3 -arch=sm_90 -o wavefront_sync wavefront_sync.cu
//                ./wavefront_sync [n=16384] [threads a block=128]
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace cg = cooperative_groups;
__device__ unsigned gridWord;
__device__ int flags[4096];
constexpr int MATCH = 5, MISMATCH = -3, GAP = 4;

__device__ __forceinline__ int ldAcquire(const int *p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];"
               : "=r"(v)
               : "l"(p)
               : "memory");
  return v;
}
__device__ __forceinline__ void stRelease(int *p, int v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v)
               : "memory");
}
__device__ __forceinline__ void stRelaxed(int *p, int v) {
  asm volatile("st.relaxed.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v)
               : "memory");
}
__device__ void gridBarrier() {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1) : 1;
    __threadfence();
    unsigned old = atomicAdd(&gridWord, add);
    unsigned now;
    do {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
                   : "=r"(now)
                   : "l"(&gridWord)
                   : "memory");
    } while (((old ^ now) & 0x80000000u) == 0);
  }
  __syncthreads();
}
// MODE 0 grid barrier; 1 chain, fence + relaxed store, acquire every step;
// 2 chain, st.release, lazy acquire; 3 cg grid.sync; 4 chain, st.release,
// acquire every step
template <int MODE>
__global__ void nw(int *m, const int *a, const int *b, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int w = n + 1;
  int bj = j < n ? b[j] : 0;
  int seen = 0;
  for (int d = 0; d < 2 * n - 1; ++d) {
    if (MODE == 1 || MODE == 2 || MODE == 4) {
      if (threadIdx.x == 0 && blockIdx.x > 0 && d > 0) {
        if (MODE != 2 || seen < d) {
          int v;
          do {
            v = ldAcquire(&flags[blockIdx.x - 1]);
          } while (v < d);
          seen = v;
        }
      }
      __syncthreads();
    }
    int i = d - j;
    if (j < n && i >= 0 && i < n) {
      int diag = m[i * w + j] + (a[i] == bj ? MATCH : MISMATCH);
      int up = m[i * w + j + 1] - GAP;
      int left = m[(i + 1) * w + j] - GAP;
      m[(i + 1) * w + j + 1] = max(diag, max(up, left));
    }
    if (MODE == 0)
      gridBarrier();
    else if (MODE == 3)
      cg::this_grid().sync();
    else {
      __syncthreads();
      if (threadIdx.x == 0) {
        if (MODE == 1) {
          __threadfence();
          stRelaxed(&flags[blockIdx.x], d + 1);
        } else
          stRelease(&flags[blockIdx.x], d + 1);
      }
    }
  }
}
__global__ void borders(int *m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int w = n + 1;
  if (j < n) {
    m[j + 1] = -(j + 1) * GAP;
    m[(j + 1) * w] = -(j + 1) * GAP;
  }
  if (j == 0)
    m[0] = 0;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16384;
  int bs = argc > 2 ? atoi(argv[2]) : 128;
  size_t cells = size_t(n + 1) * (n + 1);
  std::vector<int> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = (i * 7 + 3) % 4;
    hb[i] = (i * 13 + 1) % 4;
  }
  int *m, *a, *b;
  cudaMalloc(&m, cells * 4);
  cudaMalloc(&a, n * 4);
  cudaMalloc(&b, n * 4);
  cudaMemcpy(a, ha.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), n * 4, cudaMemcpyHostToDevice);
  int blocks = (n + bs - 1) / bs;
  std::vector<int> ref;
  void (*ks[])(int *, const int *, const int *, int) = {nw<0>, nw<1>, nw<2>,
                                                        nw<3>, nw<4>};
  const char *names[] = {"grid barrier", "chain fence+acquire",
                         "chain release+lazy acquire", "cg grid.sync",
                         "chain release+acquire"};
  for (int mode = 0; mode < 5; ++mode) {
    float best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
      void *fp;
      cudaGetSymbolAddress(&fp, flags);
      cudaMemset(fp, 0, sizeof(int) * 4096);
      cudaMemset(m, 0, cells * 4);
      borders<<<blocks, bs>>>(m, n);
      cudaEvent_t e0, e1;
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      void *args[] = {&m, &a, &b, &n};
      cudaEventRecord(e0);
      cudaError_t err =
          cudaLaunchCooperativeKernel((void *)ks[mode], blocks, bs, args, 0, 0);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      if (err != cudaSuccess || cudaGetLastError() != cudaSuccess) {
        printf("launch error %s\n", cudaGetErrorString(err));
        return 1;
      }
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      best = std::min(best, ms);
    }
    std::vector<int> out(cells);
    cudaMemcpy(out.data(), m, cells * 4, cudaMemcpyDeviceToHost);
    bool ok = true;
    if (mode == 0)
      ref = out;
    else
      ok = out == ref;
    printf("n=%d bs=%d %-28s %8.3f ms %6.3f us/step corner %d %s\n", n, bs,
           names[mode], best, best * 1000 / (2 * n - 1), out[cells - 1],
           ok ? "agree" : "DIFFER");
  }
}
