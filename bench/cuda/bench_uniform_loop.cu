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
// The host-bound loop has two more CUDA competitors that take the host out
// of the loop: the same launches captured once into a CUDA graph and
// replayed per call, and one cooperative kernel running every iteration
// with grid.sync() between them.
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"

#include <cooperative_groups.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
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

// Every iteration in one launch: a grid-stride loop over the ring, then a
// grid-wide barrier before the next iteration reads what this one wrote.
// The result is in x after an even number of iterations, in y otherwise.
__global__ void loopCooperative(float *x, float *y, int n, int iters) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  float *p = x, *q = y;
  for (int it = 0; it < iters; ++it) {
    for (int i = grid.thread_rank(); i < n; i += grid.size()) {
      int r = i + 1 == n ? 0 : i + 1;
      q[i] = 0.5f * (p[i] + p[r]);
    }
    grid.sync();
    float *t = p;
    p = q;
    q = t;
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
  // One line per competitor of the host-bound loop; `note` follows the
  // verdict (an error of the launch).
  auto hostBound = [&](const char *name, double t, const char *note) {
    std::printf("host-bound loop  n=%d iters=%d  bsgp %8.3f ms (%5.2f "
                "us/iter)  %-10s %8.3f ms (%5.2f us/iter)  ratio %.2f  %s%s\n",
                n, iters, bsgp * 1e3, bsgp * 1e6 / iters, name, t * 1e3,
                t * 1e6 / iters, t / bsgp,
                same ? "results agree" : "RESULTS DIFFER", note);
  };
  hostBound("cuda", cuda, "");

  // CUDA: the same launches on the same ping-pong buffers, captured once
  // into a graph; each call replays it, so the host launches once a call.
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaGraph_t graph;
  cudaGraphExec_t graphExec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  {
    float *p = x, *q = y;
    for (int i = 0; i < iters; ++i) {
      step<<<blocks, threads, 0, stream>>>(p, q, n);
      std::swap(p, q);
    }
    result = p;
  }
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&graphExec, graph, 0);
  double cudaGraph = medianSeconds(
      [&] {
        cudaMemcpyAsync(x, h.data(), bytes, cudaMemcpyHostToDevice, stream);
        cudaGraphLaunch(graphExec, stream);
        cudaStreamSynchronize(stream);
      },
      reps);
  cudaMemcpy(gotC.data(), result, bytes, cudaMemcpyDeviceToHost);
  same = gotB == gotC;
  hostBound("cuda graph", cudaGraph, "");
  cudaGraphExecDestroy(graphExec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);

  // CUDA: one cooperative kernel, with no more blocks than can be resident
  // at once (grid.sync() needs every block running).
  int device = 0, sms = 0, perSM = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, loopCooperative,
                                                threads, 0);
  int coopBlocks = std::max(1, std::min(blocks, sms * perSM));
  double cudaCoop = medianSeconds(
      [&] {
        cudaMemcpy(x, h.data(), bytes, cudaMemcpyHostToDevice);
        int count = n, steps = iters;
        void *args[] = {&x, &y, &count, &steps};
        cudaLaunchCooperativeKernel((void *)loopCooperative, coopBlocks,
                                    threads, args, 0, 0);
        cudaDeviceSynchronize();
      },
      reps);
  cudaError_t coopError = cudaGetLastError();
  cudaMemcpy(gotC.data(), iters % 2 == 0 ? x : y, bytes,
             cudaMemcpyDeviceToHost);
  same = coopError == cudaSuccess && gotB == gotC;
  std::string coopNote =
      coopError == cudaSuccess
          ? ""
          : std::string(": ") + cudaGetErrorString(coopError);
  hostBound("cuda coop", cudaCoop, coopNote.c_str());

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
