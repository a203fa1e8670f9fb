//===- bench_uniform_loop.cu - loops of supersteps against host loops ------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A spawn holding a 1000-iteration uniform loop of small supersteps
// (bench/cuda/uniform_loop.bsgp, compiled by bsgpc for the cuda target)
// against hand-written CUDA that launches the same step kernel in a host
// loop, ping-ponging two buffers. Prints the median times, the ratio
// cuda_time / bsgp_time (above 1: BSGP is faster) and whether the results
// agree; then the same loop with a condition the device computes (a reduce
// result the host reads each iteration), against CUDA doing the same
// (CUB's max reduction and a copy to the host per iteration), with the
// cost of an iteration of each.
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"

#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
void loopHost(float *a, int n, int iters);
int loopDevice(float *a, int n, int iters, float eps);
}

namespace {

__global__ void step(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int r = i + 1 == n ? 0 : i + 1;
    y[i] = 0.5f * (x[i] + x[r]);
  }
}

__global__ void stepChange(const float *x, float *y, float *change, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int r = i + 1 == n ? 0 : i + 1;
    float v = 0.5f * (x[i] + x[r]);
    y[i] = v;
    change[i] = fabsf(v - x[i]);
  }
}

struct Max {
  __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};

std::vector<float> initial(int n) {
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (float)((i * 7919) % 1000) / 10.0f;
  return h;
}

} // namespace

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 16;
  int iters = argc > 2 ? std::atoi(argv[2]) : 1000;
  int reps = 7;
  std::vector<float> h = initial(n);
  size_t bytes = (size_t)n * sizeof(float);

  // BSGP: the loop inside one spawn.
  float *a = (float *)bsgprt_dnew(bytes, "bench");
  double bsgp = medianSeconds(
      [&] {
        bsgprt_memcpy_htod(a, h.data(), bytes);
        loopHost(a, n, iters);
        bsgprt_synchronize();
      },
      reps);
  std::vector<float> gotB(n);
  bsgprt_memcpy_dtoh(gotB.data(), a, bytes);

  // CUDA: the step kernel in a host loop.
  float *x, *y, *chg, *dmax;
  cudaMalloc(&x, bytes);
  cudaMalloc(&y, bytes);
  cudaMalloc(&chg, bytes);
  cudaMalloc(&dmax, sizeof(float));
  int threads = 256, blocks = (n + threads - 1) / threads;
  float *result = nullptr;
  double cuda = medianSeconds(
      [&] {
        cudaMemcpy(x, h.data(), bytes, cudaMemcpyHostToDevice);
        float *p = x, *q = y;
        for (int i = 0; i < iters; ++i) {
          step<<<blocks, threads>>>(p, q, n);
          std::swap(p, q);
        }
        cudaDeviceSynchronize();
        result = p;
      },
      reps);
  std::vector<float> gotC(n);
  cudaMemcpy(gotC.data(), result, bytes, cudaMemcpyDeviceToHost);
  bool same = gotB == gotC;
  std::printf("host-bound loop  n=%d iters=%d  bsgp %8.3f ms (%5.2f us/iter)  "
              "cuda %8.3f ms (%5.2f us/iter)  ratio %.2f  %s\n",
              n, iters, bsgp * 1e3, bsgp * 1e6 / iters, cuda * 1e3,
              cuda * 1e6 / iters, cuda / bsgp,
              same ? "results agree" : "RESULTS DIFFER");

  // The condition computed on the device: eps 0 runs all iterations
  // (the change never reaches 0 exactly before iters for these values,
  // and both sides stop at the same step anyway).
  float eps = 0.0f;
  int stepsB = 0;
  bsgp = medianSeconds(
      [&] {
        bsgprt_memcpy_htod(a, h.data(), bytes);
        stepsB = loopDevice(a, n, iters, eps);
      },
      reps);
  bsgprt_memcpy_dtoh(gotB.data(), a, bytes);
  void *temp = nullptr;
  size_t tempBytes = 0;
  cub::DeviceReduce::Reduce(temp, tempBytes, chg, dmax, n, Max(), 0.0f);
  cudaMalloc(&temp, tempBytes);
  int stepsC = 0;
  cuda = medianSeconds(
      [&] {
        cudaMemcpy(x, h.data(), bytes, cudaMemcpyHostToDevice);
        float *p = x, *q = y;
        float change = eps + 1.0f;
        int i = 0;
        while (i < iters && change > eps) {
          stepChange<<<blocks, threads>>>(p, q, chg, n);
          cub::DeviceReduce::Reduce(temp, tempBytes, chg, dmax, n, Max(),
                                    0.0f);
          cudaMemcpy(&change, dmax, sizeof(float), cudaMemcpyDeviceToHost);
          std::swap(p, q);
          i = i + 1;
        }
        result = p;
        stepsC = i;
      },
      reps);
  cudaMemcpy(gotC.data(), result, bytes, cudaMemcpyDeviceToHost);
  same = gotB == gotC && stepsB == stepsC;
  std::printf("device condition n=%d steps=%d  bsgp %8.3f ms (%5.2f us/iter)  "
              "cuda+cub %8.3f ms (%5.2f us/iter)  ratio %.2f  %s\n",
              n, stepsB, bsgp * 1e3, bsgp * 1e6 / stepsB, cuda * 1e3,
              cuda * 1e6 / stepsC, cuda / bsgp,
              same ? "results agree" : "RESULTS DIFFER");
  bsgprt_dfree(a);
  return 0;
}
