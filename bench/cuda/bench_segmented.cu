//===- bench_segmented.cu - segscan and segreduce against CUB -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// segscan(+) and segreduce(+) of 2^26 ints (scale 1) in segments of random
// lengths (1 to 2 * mean - 1, mean 64 by default), written as BSGP programs
// use them (bench/cuda/segmented.bsgp), against CUB on the same data in the
// same run: cub::DeviceScan::ExclusiveSumByKey for segscan; for segreduce,
// cub::DeviceReduce::ReduceByKey (one total per segment) and a kernel that
// gives every element its segment's total, which is what segreduce returns.
// Prints the median times, the ratio cub_time / bsgp_time (above 1: BSGP
// is faster) and whether the results agree.
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
void benchSegScan(const int *in, const int *key, int *out, int n);
void benchSegReduce(const int *in, const int *key, int *out, int n);
}

namespace {

struct Add {
  __device__ int operator()(int a, int b) const { return a + b; }
};

/// out[i] = totals[key[i]]: the keys are the segments' numbers.
__global__ void gatherTotals(const int *key, const int *totals, int *out,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = totals[key[i]];
}

void *scratch(size_t bytes) {
  void *p = nullptr;
  cudaMalloc(&p, bytes ? bytes : 1);
  return p;
}

template <class T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

void report(const char *name, size_t n, double bsgp, double cub, bool same) {
  std::printf("%-10s n=%zu  bsgp %8.3f ms (%6.2f Gelem/s)   cub %8.3f ms "
              "(%6.2f Gelem/s)   ratio %.2f   %s\n",
              name, n, bsgp * 1e3, n / bsgp / 1e9, cub * 1e3, n / cub / 1e9,
              cub / bsgp, same ? "results agree" : "RESULTS DIFFER");
}

} // namespace

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int mean = argc > 2 ? std::atoi(argv[2]) : 64;
  int reps = argc > 3 ? std::atoi(argv[3]) : 11;
  size_t n = size_t(double(size_t(1) << 26) * scale);
  cudaFree(nullptr);
  std::printf("device: %s, segments of 1 to %d elements\n",
              bsgprt_device_name(), 2 * mean - 1);

  std::vector<int> hx(n), hk(n);
  uint64_t s = 88172645463325252ull;
  auto next = [&] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  int segment = 0;
  size_t left = 0;
  for (size_t i = 0; i < n; ++i) {
    if (left == 0) {
      left = 1 + next() % (2 * mean - 1);
      segment += i > 0;
    }
    --left;
    hk[i] = segment;
    hx[i] = int(next() % 2001) - 1000;
  }
  int segments = segment + 1;
  int *x = static_cast<int *>(scratch(n * 4));
  int *key = static_cast<int *>(scratch(n * 4));
  int *outB = static_cast<int *>(scratch(n * 4));
  int *outC = static_cast<int *>(scratch(n * 4));
  int *unique = static_cast<int *>(scratch(size_t(segments) * 4));
  int *totals = static_cast<int *>(scratch(size_t(segments) * 4));
  int *runs = static_cast<int *>(scratch(4));
  cudaMemcpy(x, hx.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(key, hk.data(), n * 4, cudaMemcpyHostToDevice);

  {
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSumByKey(nullptr, bytes, key, x, outC, int(n));
    void *tmp = scratch(bytes);
    double tc = medianSeconds(
        [&] {
          cub::DeviceScan::ExclusiveSumByKey(tmp, bytes, key, x, outC, int(n));
          cudaDeviceSynchronize();
        },
        reps);
    double tb = medianSeconds(
        [&] {
          benchSegScan(x, key, outB, int(n));
          bsgprt_synchronize();
        },
        reps);
    report("segscan", n, tb, tc, download(outB, n) == download(outC, n));
    cudaFree(tmp);
  }
  {
    size_t bytes = 0;
    cub::DeviceReduce::ReduceByKey(nullptr, bytes, key, unique, x, totals,
                                   runs, Add(), int(n));
    void *tmp = scratch(bytes);
    double tc = medianSeconds(
        [&] {
          cub::DeviceReduce::ReduceByKey(tmp, bytes, key, unique, x, totals,
                                         runs, Add(), int(n));
          gatherTotals<<<unsigned((n + 255) / 256), 256>>>(key, totals, outC,
                                                           int(n));
          cudaDeviceSynchronize();
        },
        reps);
    double tb = medianSeconds(
        [&] {
          benchSegReduce(x, key, outB, int(n));
          bsgprt_synchronize();
        },
        reps);
    bool same = download(outB, n) == download(outC, n) &&
                download(runs, 1)[0] == segments;
    report("segreduce", n, tb, tc, same);
    cudaFree(tmp);
  }
  return 0;
}
