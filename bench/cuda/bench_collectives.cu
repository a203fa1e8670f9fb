//===- bench_collectives.cu - BSGP's collectives against CUB ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// reduce, scan, compact and thread.sortby of 2^28 ints (scale 1), written as
// BSGP programs use them (bench/cuda/collectives.bsgp, compiled by bsgpc for
// the cuda target), against CUB's device-wide algorithms from the CUDA
// toolkit on the same data in the same run. Prints the median times, the
// ratio cub_time / bsgp_time (above 1: BSGP is faster), the throughput in
// input elements and as a fraction of the device-to-device copy bandwidth,
// and whether the results agree.
//
// The BSGP side includes what the collective costs a program: the spawn
// that reads the list and the temporary list the collective library fills
// before the device-wide step; CUB works on the list as it is.
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
void benchReduce(int *in, int *out, int n);
void benchScan(int *in, int *out, int n);
void benchCompact(int *in, int *out, int n);
void benchSortby(unsigned *keys, unsigned *sortedKeys, unsigned *ranks, int n);
void benchSortIdx(unsigned *keys, int *idx, int n);
}

namespace {

double copyGBs = 0;

struct IsOdd {
  __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

void report(const char *name, size_t n, double bsgp, double cub, double bytes,
            bool same) {
  std::printf("%-8s n=%zu  bsgp %9.3f ms (%6.2f Gelem/s, %4.0f%% of copy)   "
              "cub %9.3f ms (%6.2f Gelem/s)   ratio %.2f   %s\n",
              name, n, bsgp * 1e3, n / bsgp / 1e9,
              100.0 * bytes / bsgp / 1e9 / copyGBs, cub * 1e3, n / cub / 1e9,
              cub / bsgp, same ? "results agree" : "RESULTS DIFFER");
}

template <class T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

void *scratch(size_t bytes) {
  void *p = nullptr;
  cudaMalloc(&p, bytes ? bytes : 1);
  return p;
}

} // namespace

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int reps = argc > 2 ? std::atoi(argv[2]) : 11;
  size_t n = size_t(double(size_t(1) << 28) * scale);
  cudaFree(nullptr);
  std::printf("device: %s\n", bsgprt_device_name());

  std::vector<int> h(n);
  uint64_t s = 88172645463325252ull;
  for (size_t i = 0; i < n; ++i) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    h[i] = int(s % 2001) - 1000;
  }
  int *in = static_cast<int *>(scratch(n * 4));
  int *outB = static_cast<int *>(scratch(n * 4 + 4));
  int *outC = static_cast<int *>(scratch(n * 4 + 4));
  int *count = static_cast<int *>(scratch(8));
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice);

  {
    double t = medianSeconds(
        [&] {
          cudaMemcpy(outC, in, n * 4, cudaMemcpyDeviceToDevice);
          cudaDeviceSynchronize();
        },
        reps);
    copyGBs = 2.0 * n * 4 / t / 1e9;
    std::printf("copy     %9.3f ms (%6.0f GB/s)\n", t * 1e3, copyGBs);
  }

  {
    size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, in, outC, int(n));
    void *tmp = scratch(bytes);
    double tc = medianSeconds(
        [&] {
          cub::DeviceReduce::Sum(tmp, bytes, in, outC, int(n));
          cudaDeviceSynchronize();
        },
        reps);
    double tb = medianSeconds(
        [&] {
          benchReduce(in, outB, int(n));
          bsgprt_synchronize();
        },
        reps);
    bool same = download(outB, 1) == download(outC, 1);
    report("reduce", n, tb, tc, 4.0 * n, same);
    cudaFree(tmp);
  }
  {
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, outC, int(n));
    void *tmp = scratch(bytes);
    double tc = medianSeconds(
        [&] {
          cub::DeviceScan::ExclusiveSum(tmp, bytes, in, outC, int(n));
          cudaDeviceSynchronize();
        },
        reps);
    double tb = medianSeconds(
        [&] {
          benchScan(in, outB, int(n));
          bsgprt_synchronize();
        },
        reps);
    bool same = download(outB, n) == download(outC, n);
    report("scan", n, tb, tc, 8.0 * n, same);
    cudaFree(tmp);
  }
  {
    size_t bytes = 0;
    cub::DeviceSelect::If(nullptr, bytes, in, outC, count, int(n), IsOdd());
    void *tmp = scratch(bytes);
    double tc = medianSeconds(
        [&] {
          cub::DeviceSelect::If(tmp, bytes, in, outC, count, int(n), IsOdd());
          cudaDeviceSynchronize();
        },
        reps);
    double tb = medianSeconds(
        [&] {
          benchCompact(in, outB, int(n));
          bsgprt_synchronize();
        },
        reps);
    int kept = download(count, 1)[0];
    bool same = download(outB, kept) == download(outC, kept);
    report("compact", n, tb, tc, 4.0 * n + 4.0 * kept, same);
    cudaFree(tmp);
  }
  {
    // Keys: the values as unsigned, so that equal keys test stability.
    auto *keys = reinterpret_cast<unsigned *>(in);
    auto *sortedB = reinterpret_cast<unsigned *>(outB);
    auto *sortedC = reinterpret_cast<unsigned *>(outC);
    auto *ranksB = static_cast<unsigned *>(scratch(n * 4));
    auto *ranksIn = static_cast<unsigned *>(scratch(n * 4));
    auto *ranksC = static_cast<unsigned *>(scratch(n * 4));
    std::vector<unsigned> iota(n);
    for (size_t i = 0; i < n; ++i)
      iota[i] = unsigned(i);
    cudaMemcpy(ranksIn, iota.data(), n * 4, cudaMemcpyHostToDevice);
    size_t bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sortedC, ranksIn,
                                    ranksC, int(n));
    void *tmp = scratch(bytes);
    int sortReps = std::max(3, reps / 4);
    double tc = medianSeconds(
        [&] {
          cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, sortedC, ranksIn,
                                          ranksC, int(n));
          cudaDeviceSynchronize();
        },
        sortReps);
    double tb = medianSeconds(
        [&] {
          benchSortby(keys, sortedB, ranksB, int(n));
          bsgprt_synchronize();
        },
        sortReps);
    bool same = download(sortedB, n) == download(sortedC, n) &&
                download(ranksB, n) == download(ranksC, n);
    report("sortby", n, tb, tc, 16.0 * n, same);
    // sort_idx gives each rank the old rank of the rank-th smallest key:
    // CUB's ranks of the same pair sort. Bandwidth counts reading the keys
    // and writing the ranks.
    double ti = medianSeconds(
        [&] {
          benchSortIdx(keys, reinterpret_cast<int *>(ranksB), int(n));
          bsgprt_synchronize();
        },
        sortReps);
    report("sort_idx", n, ti, tc, 8.0 * n,
           download(ranksB, n) == download(ranksC, n));
    cudaFree(tmp);
    cudaFree(ranksB);
    cudaFree(ranksIn);
    cudaFree(ranksC);
  }
  return 0;
}
