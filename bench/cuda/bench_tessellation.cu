//===- bench_tessellation.cu - the tessellator against hand-written CUDA --===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The paper's adaptive tessellation (examples/apps/tessellation, compiled
// by bsgpc for the cuda target) in its two BSGP versions, without thread
// manipulation (one thread per input triangle) and with thread.fork (one
// thread per output triangle), against a CUDA twin of the fork version: a
// kernel computing each input triangle's level and count, CUB's exclusive
// sum for the output offsets, and one thread per output triangle that
// finds its input triangle by binary search in the offsets. Each side is
// timed as a whole call: levels, scan, the output's allocation, the
// triangles, and freeing the output (the twin keeps its per-input scratch
// between calls). Prints the median times at a low and a high detail, the
// ratios, the peak device memory of each, and checks that the twin's count
// and an order-independent checksum of its triangles equal BSGP's.
//
// Usage: bench_tessellation [map size (512)] [grid (8)]
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "CudaCheck.h"
#include "bsgp/runtime.h"

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../../examples/apps/tessellation/tessellation.h"

namespace {

constexpr int U = 720720; // lattice points per texel, as tessellation.bsgp

struct View {
  int size, grid, maxLevel, camX, camZ, dirX, dirZ, far, step;
  float invU, heightScale;
};

__device__ void corners(int t, int q, int g, int2 &a, int2 &b, int2 &c) {
  int x = (t / 2 % q) * g, z = (t / 2 / q) * g;
  if (t % 2 == 0) {
    a = make_int2(x, z), b = make_int2(x + g, z), c = make_int2(x, z + g);
  } else {
    a = make_int2(x + g, z + g), b = make_int2(x, z + g),
    c = make_int2(x + g, z);
  }
}

__device__ bool behind(int2 a, int2 b, int2 c, const View &v, int nx, int nz) {
  return (a.x - v.camX) * nx + (a.y - v.camZ) * nz < 0 &&
         (b.x - v.camX) * nx + (b.y - v.camZ) * nz < 0 &&
         (c.x - v.camX) * nx + (c.y - v.camZ) * nz < 0;
}

__device__ long long dist2(int2 p, const View &v) {
  long long dx = p.x - v.camX, dz = p.y - v.camZ;
  return dx * dx + dz * dz;
}

// Level and output count of each input triangle (0 when culled).
__global__ void levels(View v, int q, int n, int *level, int *count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int2 a, b, c;
  corners(t, q, v.grid, a, b, c);
  long long f2 = (long long)v.far * v.far;
  int L = 0;
  if (!behind(a, b, c, v, v.dirX - v.dirZ, v.dirX + v.dirZ) &&
      !behind(a, b, c, v, v.dirX + v.dirZ, v.dirZ - v.dirX) &&
      !(dist2(a, v) > f2 && dist2(b, v) > f2 && dist2(c, v) > f2)) {
    long long sx = a.x + b.x + c.x - 3 * v.camX;
    long long sz = a.y + b.y + c.y - 3 * v.camZ;
    long long d = sx * sx + sz * sz;
    L = v.maxLevel;
    for (int k = 1; k < v.maxLevel; ++k) {
      long long r = 3LL * k * v.step;
      if (d >= r * r)
        --L;
    }
  }
  level[t] = L;
  count[t] = L * L;
}

__device__ int heightAt(const int *map, int size, int x, int z) {
  int tx = x / U, tz = z / U;
  long long fx = x - tx * U, fz = z - tz * U, u = U;
  int tx1 = min(tx + 1, size - 1), tz1 = min(tz + 1, size - 1);
  long long h = (long long)map[tz * size + tx] * (u - fx) * (u - fz) +
                (long long)map[tz * size + tx1] * fx * (u - fz) +
                (long long)map[tz1 * size + tx] * (u - fx) * fz +
                (long long)map[tz1 * size + tx1] * fx * fz;
  return (int)(h / (u * u));
}

__device__ void put(float *o, const int *map, const View &v, int x, int z) {
  o[0] = (float)x * v.invU;
  o[1] = (float)heightAt(map, v.size, x, z) * v.heightScale;
  o[2] = (float)z * v.invU;
}

// One thread per output triangle r: its input triangle is the last whose
// offset is at most r (a culled one has the offset of the next).
__global__ void triangles(View v, int q, int n, const int *map,
                          const int *level, const int *offset, int total,
                          float *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= total)
    return;
  int lo = 0, hi = n; // offset[lo] <= r < offset[hi] (offset[n] = total)
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (offset[mid] <= r)
      lo = mid;
    else
      hi = mid;
  }
  int t = lo, L = level[t], child = r - offset[t];
  int2 a, b, c;
  corners(t, q, v.grid, a, b, c);
  int j = 0;
  while ((j + 1) * (2 * L - j - 1) <= child)
    ++j;
  int k = child - j * (2 * L - j), i = k / 2, s = U / L;
  int dux = (b.x - a.x) * s, duz = (b.y - a.y) * s;
  int dvx = (c.x - a.x) * s, dvz = (c.y - a.y) * s;
  int x = a.x * U + i * dux + j * dvx, z = a.y * U + i * duz + j * dvz;
  float *o = out + (size_t)r * 9;
  if (k % 2 == 0) {
    put(o, map, v, x, z);
    put(o + 3, map, v, x + dux, z + duz);
    put(o + 6, map, v, x + dvx, z + dvz);
  } else {
    put(o, map, v, x + dux, z + duz);
    put(o + 3, map, v, x + dux + dvx, z + duz + dvz);
    put(o + 6, map, v, x + dvx, z + dvz);
  }
}

// The twin's scratch, sized for n input triangles and kept between calls.
struct Twin {
  int n = 0, q = 0;
  int *level = nullptr, *count = nullptr, *offset = nullptr;
  void *temp = nullptr;
  size_t tempBytes = 0;
  size_t scratchBytes() const {
    return tempBytes + sizeof(int) * (3 * (size_t)n + 2);
  }
};

Twin makeTwin(int size, int grid) {
  Twin w;
  w.q = (size - 1) / grid;
  w.n = 2 * w.q * w.q;
  CHECK(cudaMalloc(&w.level, sizeof(int) * w.n));
  CHECK(cudaMalloc(&w.count, sizeof(int) * (w.n + 1)));
  CHECK(cudaMalloc(&w.offset, sizeof(int) * (w.n + 1)));
  CHECK(cudaMemset(w.count, 0, sizeof(int) * (w.n + 1)));
  CHECK(cub::DeviceScan::ExclusiveSum(nullptr, w.tempBytes, w.count, w.offset,
                                      w.n + 1));
  CHECK(cudaMalloc(&w.temp, w.tempBytes));
  return w;
}

float *runTwin(Twin &w, const View &v, const int *map, int *total) {
  levels<<<(w.n + 255) / 256, 256>>>(v, w.q, w.n, w.level, w.count);
  // count[n] stays 0, so offset[n] is the total.
  CHECK(cub::DeviceScan::ExclusiveSum(w.temp, w.tempBytes, w.count, w.offset,
                                      w.n + 1));
  CHECK(cudaMemcpy(total, w.offset + w.n, sizeof(int), cudaMemcpyDeviceToHost));
  float *out = nullptr;
  CHECK(
      cudaMalloc(&out, sizeof(float) * 9 * (size_t)(*total > 0 ? *total : 1)));
  if (*total > 0)
    triangles<<<(*total + 255) / 256, 256>>>(v, w.q, w.n, map, w.level,
                                             w.offset, *total, out);
  CHECK(cudaGetLastError());
  return out;
}

// An order-independent checksum: the sum of a hash of each triangle.
uint64_t checksum(const std::vector<float> &t) {
  uint64_t sum = 0;
  for (size_t k = 0; k + 9 <= t.size(); k += 9) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 9; ++i) {
      uint32_t b;
      std::memcpy(&b, &t[k + i], 4);
      h = (h ^ b) * 1099511628211ull;
    }
    sum += h;
  }
  return sum;
}

std::vector<float> toHost(const float *list, int count) {
  std::vector<float> h((size_t)count * 9);
  if (count > 0)
    CHECK(cudaMemcpy(h.data(), list, h.size() * sizeof(float),
                     cudaMemcpyDeviceToHost));
  return h;
}

double mb(uint64_t bytes) { return bytes / (1024.0 * 1024.0); }

} // namespace

int main(int argc, char **argv) {
  int size = argc > 1 ? std::atoi(argv[1]) : 512;
  int grid = argc > 2 ? std::atoi(argv[2]) : 8;
  int reps = 9;
  int *map = tessHeightMap(size, 2008);
  bsgprt_synchronize();
  Twin twin = makeTwin(size, grid);
  std::printf("tessellation: %s, map %dx%d, %d input triangles\n",
              bsgprt_device_name(), size, size, twin.n);
  // A side view from the middle of one edge, as the paper's Fig. 9(a).
  struct {
    const char *name;
    int maxLevel, step;
  } details[] = {{"low", 4, 32}, {"high", 16, 96}};
  int failures = 0;
  for (auto &d : details) {
    View v;
    v.size = size, v.grid = grid, v.maxLevel = d.maxLevel, v.step = d.step;
    v.camX = 0, v.camZ = size / 2, v.dirX = 1, v.dirZ = 0, v.far = size;
    v.invU = 1.0f / (float)U;
    v.heightScale = (float)size * 0.08f / 61380.0f; // as main.cpp
    int nNoFork = 0, nFork = 0, nTwin = 0;
    auto call = [&](bool fork) {
      return (fork ? tessFork : tessNoFork)(
          map, v.size, v.grid, v.maxLevel, v.camX, v.camZ, v.dirX, v.dirZ,
          v.far, v.step, v.invU, v.heightScale, fork ? &nFork : &nNoFork);
    };
    bsgprt_memory_stats_t m;
    bsgprt_memory_reset_peak();
    bsgprt_memory_stats(&m);
    uint64_t base = m.live_bytes;
    double tNoFork = medianSeconds(
        [&] {
          float *o = call(false);
          bsgprt_synchronize();
          bsgprt_dfree(o);
        },
        reps);
    bsgprt_memory_stats(&m);
    uint64_t peakNoFork = m.peak_live_bytes - base;
    bsgprt_memory_reset_peak();
    double tFork = medianSeconds(
        [&] {
          float *o = call(true);
          bsgprt_synchronize();
          bsgprt_dfree(o);
        },
        reps);
    bsgprt_memory_stats(&m);
    uint64_t peakFork = m.peak_live_bytes - base;
    double tTwin = medianSeconds(
        [&] {
          float *o = runTwin(twin, v, map, &nTwin);
          CHECK(cudaDeviceSynchronize());
          CHECK(cudaFree(o));
        },
        reps);
    // The results, once more, kept for the checks.
    float *oNoFork = call(false), *oFork = call(true);
    bsgprt_synchronize();
    float *oTwin = runTwin(twin, v, map, &nTwin);
    CHECK(cudaDeviceSynchronize());
    uint64_t cNoFork = checksum(toHost(oNoFork, nNoFork));
    uint64_t cFork = checksum(toHost(oFork, nFork));
    uint64_t cTwin = checksum(toHost(oTwin, nTwin));
    bool ok = nNoFork == nFork && nFork == nTwin && cNoFork == cFork &&
              cFork == cTwin;
    failures += !ok;
    std::printf("%s detail (max level %d, %d texels per level): %d triangles "
                "(no-fork %d, cuda %d), checksums %016llx %016llx %016llx: "
                "%s\n",
                d.name, d.maxLevel, d.step, nFork, nNoFork, nTwin,
                (unsigned long long)cNoFork, (unsigned long long)cFork,
                (unsigned long long)cTwin, ok ? "match" : "MISMATCH");
    std::printf("  bsgp no-fork %8.3f ms   bsgp fork %8.3f ms   cuda twin "
                "%8.3f ms\n",
                tNoFork * 1e3, tFork * 1e3, tTwin * 1e3);
    std::printf("  fork speed-up over no-fork %.2fx; cuda/bsgp-fork time "
                "ratio %.2f (above 1: BSGP is faster)\n",
                tNoFork / tFork, tTwin / tFork);
    uint64_t twinBytes =
        twin.scratchBytes() + sizeof(float) * 9 * (uint64_t)nTwin;
    std::printf("  peak device memory: bsgp no-fork %.2f MiB, bsgp fork "
                "%.2f MiB (live lists, bsgprt_memory_stats), cuda twin %.2f "
                "MiB (its allocations)\n",
                mb(peakNoFork), mb(peakFork), mb(twinBytes));
    bsgprt_dfree(oNoFork);
    bsgprt_dfree(oFork);
    CHECK(cudaFree(oTwin));
  }
  bsgprt_dfree(map);
  return failures != 0;
}
