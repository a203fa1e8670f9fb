//===- bench_supersteps.cu - many small supersteps against CUDA -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Programs whose supersteps do little work each (issue #43: small supersteps
// are expensive), written the natural way in BSGP
// (bench/cuda/supersteps.bsgp, compiled by bsgpc for the cuda target), against
// what a CUDA programmer writes for the same problem, on the same data in the
// same run:
//
//   nw        Needleman-Wunsch, n x n: BSGP one superstep per anti-diagonal
//             of cells (2n - 1); CUDA a Rodinia-style tiled wavefront, 32 x 32
//             tiles in shared memory, one launch per anti-diagonal of tiles.
//   bfs       level-synchronous BFS of a random graph (CSR, average degree
//             8): BSGP with the frontier as the spawn's threads, in two
//             forms (claim the neighbours, then thread.fork a child per
//             claimed node; or thread.fork a child per edge, which claims
//             its node, and thread.kill the losers), and in the direct form
//             (every node, a reduce per level); CUDA one kernel per level
//             over every node and a flag read back each level.
//   path      Rodinia's pathfinder, rows x cols: BSGP one superstep per row;
//             CUDA one launch per row, and Rodinia's pyramid (several rows
//             per launch in shared memory).
//   backprop  16 iterations of a reduce(+) of 10^5 floats and an update
//             using the sum: CUDA CUB's DeviceReduce::Sum and a kernel per
//             iteration, the sum kept on the device.
//
// Each line gives the median times, each divided by its number of steps in
// microseconds (BSGP: supersteps, or BFS levels and backprop iterations,
// which are several supersteps each; CUDA: launches, levels or
// iterations), the ratio cuda_time / bsgp_time (above 1: BSGP is faster)
// and whether the results agree (NW: the whole score matrices; BFS: the
// level lists; pathfinder: the last row; backprop: the weights, bit for
// bit).
//
// Usage: bench_supersteps [name=value ...], with the names and defaults
//   nw=16384 bfs=1000000 rows=500 cols=1000000 pyramid=20 bp=100000
//   iters=16 reps=7
// A size of 0 skips that benchmark (nw=0, bfs=0, cols=0, bp=0).
//
//===----------------------------------------------------------------------===//

#include "../Hash.h"
#include "../Timing.h"
#include "CudaCheck.h"
#include "bsgp/runtime.h"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
void nwWavefront(int *m, const int *a, const int *b, int n);
void bfsFrontierFork(int *level, int *via, const int *start, const int *adj,
                     int n, int src);
void bfsFrontierKill(int *level, const int *start, const int *adj, int n,
                     int src);
void bfsDirect(int *level, const int *start, const int *adj, int n, int src);
void pathfinder(const int *wall, int *result, int rows, int cols);
void backprop(float *w, const float *x, int n, int iters);
}

namespace {

// As supersteps.bsgp.
constexpr int MATCH = 5, MISMATCH = -3, GAP = 4;

template <class T> T *deviceList(size_t n) {
  T *p = nullptr;
  CHECK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)));
  return p;
}

template <class T> T *upload(const std::vector<T> &h) {
  T *p = deviceList<T>(h.size());
  CHECK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}

template <class T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

int blocksFor(size_t n, int threads) {
  return int((n + threads - 1) / threads);
}

// One line: the times, each divided by its count of steps (`bsgpUnit`:
// superstep, or level where a step is several supersteps; `cudaUnit`:
// launch, level or iteration), and the ratio.
void report(const char *name, double bsgp, long bsgpSteps, const char *bsgpUnit,
            const char *cudaName, double cuda, long cudaSteps,
            const char *cudaUnit, bool same) {
  std::printf("%-28s bsgp %9.3f ms (%7.2f us/%-9s   %-10s %9.3f ms "
              "(%7.2f us/%-6s   ratio %5.2f   %s\n",
              name, bsgp * 1e3, bsgp * 1e6 / std::max(bsgpSteps, 1L),
              (std::string(bsgpUnit) + ")").c_str(), cudaName, cuda * 1e3,
              cuda * 1e6 / std::max(cudaSteps, 1L),
              (std::string(cudaUnit) + ")").c_str(), cuda / bsgp,
              same ? "results agree" : "RESULTS DIFFER");
  std::fflush(stdout);
}

// Compares two device lists without copying them to the host (the score
// matrices are a GiB each).
__global__ void countDifferences(const int *a, const int *b, size_t n,
                                 unsigned long long *count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n && a[i] != b[i])
    atomicAdd(count, 1ull);
}

bool sameOnDevice(const int *a, const int *b, size_t n) {
  unsigned long long *d = deviceList<unsigned long long>(1);
  CHECK(cudaMemset(d, 0, sizeof(*d)));
  countDifferences<<<blocksFor(n, 256), 256>>>(a, b, n, d);
  unsigned long long h = 0;
  CHECK(cudaMemcpy(&h, d, sizeof(h), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  return h == 0;
}

//===----------------------------------------------------------------------===//
// Needleman-Wunsch
//===----------------------------------------------------------------------===//

constexpr int TILE = 32;

__global__ void nwBorders(int *m, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k <= n) {
    m[k] = -k * GAP;
    m[(size_t)k * (n + 1)] = -k * GAP;
  }
}

// One TILE x TILE tile per block, on the tile anti-diagonal `k`: the block
// loads the row above and the column left of its tile into shared memory,
// runs the wavefront of the tile's 2 TILE - 1 cell anti-diagonals there
// (thread t owns column t) and stores the tile. Rows are TILE + 2 ints
// apart: with TILE + 1 (Rodinia's padding) the cells of one anti-diagonal,
// (d - t, t), would all sit in one bank.
__global__ void nwTile(int *m, const int *a, const int *b, int n, int k,
                       int tiles) {
  __shared__ int s[TILE + 1][TILE + 2];
  __shared__ int sa[TILE], sb[TILE];
  int ti = max(0, k - (tiles - 1)) + blockIdx.x, tj = k - ti;
  int i0 = ti * TILE, j0 = tj * TILE, t = threadIdx.x;
  size_t w = n + 1;
  bool col = j0 + t < n, row = i0 + t < n;
  s[0][t + 1] = col ? m[i0 * w + j0 + t + 1] : 0;
  s[t + 1][0] = row ? m[(i0 + t + 1) * w + j0] : 0;
  if (t == 0)
    s[0][0] = m[i0 * w + j0];
  sa[t] = row ? a[i0 + t] : 0;
  sb[t] = col ? b[j0 + t] : 0;
  __syncthreads();
  for (int d = 0; d < 2 * TILE - 1; ++d) {
    int r = d - t;
    if (r >= 0 && r < TILE && i0 + r < n && col) {
      int diag = s[r][t] + (sa[r] == sb[t] ? MATCH : MISMATCH);
      s[r + 1][t + 1] = max(diag, max(s[r][t + 1] - GAP, s[r + 1][t] - GAP));
    }
    __syncthreads();
  }
  for (int r = 0; r < TILE && i0 + r < n; ++r)
    if (col)
      m[(i0 + r + 1) * w + j0 + t + 1] = s[r + 1][t + 1];
}

void runNW(int n, int reps) {
  // BSGP indexes the matrix with ints.
  if ((int64_t)(n + 1) * (n + 1) > INT32_MAX) {
    std::printf("nw: n=%d is too large (at most 46339)\n", n);
    return;
  }
  std::vector<int> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = hash32(i) % 4;
    hb[i] = hash32(i + 0x9e3779b9U) % 4;
  }
  int *a = upload(ha), *b = upload(hb);
  size_t cells = (size_t)(n + 1) * (n + 1);
  int *mB = deviceList<int>(cells), *mC = deviceList<int>(cells);

  double bsgp = medianSeconds(
      [&] {
        nwWavefront(mB, a, b, n);
        bsgprt_synchronize();
      },
      reps);

  int tiles = (n + TILE - 1) / TILE;
  double cuda = medianSeconds(
      [&] {
        nwBorders<<<blocksFor(n + 1, 256), 256>>>(mC, n);
        for (int k = 0; k < 2 * tiles - 1; ++k) {
          int count = std::min(k, tiles - 1) - std::max(0, k - (tiles - 1)) + 1;
          nwTile<<<count, TILE>>>(mC, a, b, n, k, tiles);
        }
        CHECK(cudaDeviceSynchronize());
      },
      reps);

  int corner = 0;
  CHECK(
      cudaMemcpy(&corner, mB + cells - 1, sizeof(int), cudaMemcpyDeviceToHost));
  char name[64];
  std::snprintf(name, sizeof name, "nw n=%d (score %d)", n, corner);
  report(name, bsgp, 2L * n - 1, "superstep", "cuda tiled", cuda,
         2L * tiles - 1, "launch", sameOnDevice(mB, mC, cells));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(mB));
  CHECK(cudaFree(mC));
}

//===----------------------------------------------------------------------===//
// BFS
//===----------------------------------------------------------------------===//

// A random directed graph: node u has hash(u) % 17 edges (8 on average) to
// nodes picked by a hash of the edge's index.
void randomGraph(int n, std::vector<int> &start, std::vector<int> &adj) {
  start.assign(n + 1, 0);
  for (int u = 0; u < n; ++u)
    start[u + 1] = start[u] + int(hash32(2 * u + 1) % 17);
  adj.resize(start[n]);
  for (int u = 0; u < n; ++u)
    for (int e = start[u]; e < start[u + 1]; ++e)
      adj[e] = int(hash32(0x12345U + e) % n);
}

__global__ void bfsInitLevels(int *level, int n, int src) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u < n)
    level[u] = u == src ? 0 : -1;
}

// The nodes of level `depth` mark their unvisited neighbours; racing
// stores all store depth + 1.
__global__ void bfsLevel(const int *start, const int *adj, int *level, int n,
                         int depth, int *changed) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u < n && level[u] == depth) {
    for (int e = start[u]; e < start[u + 1]; ++e) {
      int v = adj[e];
      if (level[v] == -1) {
        level[v] = depth + 1;
        *changed = 1;
      }
    }
  }
}

void runBFS(int n, int reps) {
  std::vector<int> hstart, hadj;
  randomGraph(n, hstart, hadj);
  int *start = upload(hstart), *adj = upload(hadj);
  int *levelF = deviceList<int>(n), *levelK = deviceList<int>(n),
      *levelD = deviceList<int>(n), *levelC = deviceList<int>(n),
      *via = deviceList<int>(n), *changed = deviceList<int>(1);

  double fork = medianSeconds(
      [&] {
        bfsFrontierFork(levelF, via, start, adj, n, 0);
        bsgprt_synchronize();
      },
      reps);
  double kill = medianSeconds(
      [&] {
        bfsFrontierKill(levelK, start, adj, n, 0);
        bsgprt_synchronize();
      },
      reps);
  double direct = medianSeconds(
      [&] {
        bfsDirect(levelD, start, adj, n, 0);
        bsgprt_synchronize();
      },
      reps);
  int levels = 0;
  double cuda = medianSeconds(
      [&] {
        bfsInitLevels<<<blocksFor(n, 256), 256>>>(levelC, n, 0);
        int depth = 0, more = 1;
        while (more) {
          CHECK(cudaMemset(changed, 0, sizeof(int)));
          bfsLevel<<<blocksFor(n, 256), 256>>>(start, adj, levelC, n, depth,
                                               changed);
          CHECK(
              cudaMemcpy(&more, changed, sizeof(int), cudaMemcpyDeviceToHost));
          ++depth;
        }
        levels = depth;
      },
      reps);

  std::vector<int> f = download(levelF, n), k = download(levelK, n),
                   d = download(levelD, n), c = download(levelC, n);
  long reached =
      std::count_if(c.begin(), c.end(), [](int l) { return l >= 0; });
  char name[96];
  std::snprintf(name, sizeof name, "bfs claim+fork n=%d", n);
  report(name, fork, levels, "level", "cuda", cuda, levels, "level", f == c);
  std::snprintf(name, sizeof name, "bfs fork+kill n=%d", n);
  report(name, kill, levels, "level", "cuda", cuda, levels, "level", k == c);
  std::snprintf(name, sizeof name, "bfs direct n=%d", n);
  report(name, direct, levels, "level", "cuda", cuda, levels, "level", d == c);
  std::printf("  (%d levels, %ld of %d nodes reached, %zu edges)\n", levels,
              reached, n, hadj.size());
  for (int *p : {start, adj, levelF, levelK, levelD, levelC, via, changed})
    CHECK(cudaFree(p));
}

//===----------------------------------------------------------------------===//
// Pathfinder
//===----------------------------------------------------------------------===//

// Costs 0 to 9, as Rodinia's rand() % 10, from a hash of the cell's index.
__global__ void fillWall(int *wall, size_t cells) {
  size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (k < cells)
    wall[k] = int(hash32(uint32_t(k) ^ 0xabcdefU) % 10);
}

// One row: the cheapest of the (up to) three cells above, edge columns
// counting themselves for the missing neighbour.
__global__ void pathRow(const int *wallRow, const int *src, int *dst,
                        int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    int l = src[c > 0 ? c - 1 : c], r = src[c + 1 < cols ? c + 1 : c];
    dst[c] = wallRow[c] + min(src[c], min(l, r));
  }
}

constexpr int PYRAMID_BLOCK = 256;

// Rodinia's pyramid: each block reads PYRAMID_BLOCK columns of the row
// before `firstRow` and computes `steps` rows in shared memory; each row
// loses a valid column on either side, so the block writes the middle
// PYRAMID_BLOCK - 2 steps columns of the last row. Blocks overlap by
// `steps` columns on each side.
__global__ void pathPyramid(const int *wall, const int *src, int *dst, int cols,
                            int firstRow, int steps) {
  __shared__ int prev[PYRAMID_BLOCK];
  int tx = threadIdx.x;
  int x0 = blockIdx.x * (PYRAMID_BLOCK - 2 * steps) - steps;
  int x = x0 + tx;
  // The lanes holding columns of the grid; at its edges a cell's missing
  // neighbour is the cell itself.
  int lo = max(0, -x0), hi = min(PYRAMID_BLOCK - 1, cols - 1 - x0);
  bool inside = tx >= lo && tx <= hi;
  int west = max(tx - 1, lo), east = min(tx + 1, hi);
  if (inside)
    prev[tx] = src[x];
  __syncthreads();
  bool computed = false;
  int v = 0;
  for (int i = 0; i < steps; ++i) {
    // After row i, lanes i + 1 .. PYRAMID_BLOCK - 2 - i are valid.
    computed = inside && tx >= i + 1 && tx <= PYRAMID_BLOCK - 2 - i;
    if (computed)
      v = wall[(size_t)(firstRow + i) * cols + x] +
          min(prev[tx], min(prev[west], prev[east]));
    __syncthreads();
    if (computed)
      prev[tx] = v;
    __syncthreads();
  }
  if (computed)
    dst[x] = v;
}

void runPath(int rows, int cols, int pyramid, int reps) {
  size_t cells = (size_t)rows * cols;
  int *wall = deviceList<int>(cells);
  fillWall<<<blocksFor(cells, 256), 256>>>(wall, cells);
  CHECK(cudaDeviceSynchronize());
  int *resultB = deviceList<int>(cols);
  int *buf[2] = {deviceList<int>(cols), deviceList<int>(cols)};

  double bsgp = medianSeconds(
      [&] {
        pathfinder(wall, resultB, rows, cols);
        bsgprt_synchronize();
      },
      reps);

  // The first row is read where it lies; the rows after it ping-pong.
  const int *rowResult = wall;
  double perRow = medianSeconds(
      [&] {
        const int *src = wall;
        for (int r = 1; r < rows; ++r) {
          int *dst = buf[r & 1];
          pathRow<<<blocksFor(cols, 256), 256>>>(wall + (size_t)r * cols, src,
                                                 dst, cols);
          src = dst;
        }
        CHECK(cudaDeviceSynchronize());
        rowResult = src;
      },
      reps);
  std::vector<int> hB = download(resultB, cols),
                   hRow = download(rowResult, cols);

  const int *pyramidResult = wall;
  int launches = 0;
  double pyr = medianSeconds(
      [&] {
        const int *src = wall;
        launches = 0;
        for (int r = 1; r < rows; r += pyramid) {
          int steps = std::min(pyramid, rows - r);
          int *dst = buf[launches & 1];
          pathPyramid<<<blocksFor(cols, PYRAMID_BLOCK - 2 * steps),
                        PYRAMID_BLOCK>>>(wall, src, dst, cols, r, steps);
          src = dst;
          ++launches;
        }
        CHECK(cudaDeviceSynchronize());
        pyramidResult = src;
      },
      reps);
  std::vector<int> hPyr = download(pyramidResult, cols);

  char name[96];
  std::snprintf(name, sizeof name, "path %dx%d", rows, cols);
  report(name, bsgp, rows - 1, "superstep", "cuda rows", perRow, rows - 1,
         "launch", hB == hRow);
  std::snprintf(name, sizeof name, "path %dx%d pyramid %d", rows, cols,
                pyramid);
  report(name, bsgp, rows - 1, "superstep", "cuda pyr.", pyr, launches,
         "launch", hB == hPyr);
  for (int *p : {wall, resultB, buf[0], buf[1]})
    CHECK(cudaFree(p));
}

//===----------------------------------------------------------------------===//
// Backprop-style loop
//===----------------------------------------------------------------------===//

__global__ void weigh(const float *w, const float *x, float *prod, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    prod[i] = w[i] * x[i];
}

// The update from the sum, which stays on the device, and the next
// iteration's weighted values.
__global__ void update(float *w, const float *x, const float *sum, float *prod,
                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float delta = fmodf(*sum, 8.0f);
    float wi = fmodf(w[i] + delta * x[i] + 1.0f, 8.0f);
    w[i] = wi;
    prod[i] = wi * x[i];
  }
}

void runBackprop(int n, int iters, int reps) {
  std::vector<float> hw(n), hx(n);
  for (int i = 0; i < n; ++i) {
    hw[i] = float(hash32(3 * i) % 8);
    hx[i] = float(hash32(3 * i + 1) % 8);
  }
  float *w0 = upload(hw), *x = upload(hx);
  float *wB = deviceList<float>(n), *wC = deviceList<float>(n),
        *prod = deviceList<float>(n), *sum = deviceList<float>(1);
  size_t bytes = (size_t)n * sizeof(float);

  double bsgp = medianSeconds(
      [&] {
        bsgprt_memcpy_dtod(wB, w0, bytes);
        backprop(wB, x, n, iters);
        bsgprt_synchronize();
      },
      reps);

  size_t tempBytes = 0;
  cub::DeviceReduce::Sum(nullptr, tempBytes, prod, sum, n);
  void *temp = deviceList<char>(tempBytes);
  double cuda = medianSeconds(
      [&] {
        CHECK(cudaMemcpy(wC, w0, bytes, cudaMemcpyDeviceToDevice));
        weigh<<<blocksFor(n, 256), 256>>>(wC, x, prod, n);
        for (int it = 0; it < iters; ++it) {
          cub::DeviceReduce::Sum(temp, tempBytes, prod, sum, n);
          update<<<blocksFor(n, 256), 256>>>(wC, x, sum, prod, n);
        }
        CHECK(cudaDeviceSynchronize());
      },
      reps);

  char name[96];
  std::snprintf(name, sizeof name, "backprop n=%d iters=%d", n, iters);
  report(name, bsgp, iters, "iteration", "cuda+cub", cuda, iters, "iter",
         download(wB, n) == download(wC, n));
  for (float *p : {w0, x, wB, wC, prod, sum})
    CHECK(cudaFree(p));
  CHECK(cudaFree(temp));
}

} // namespace

int main(int argc, char **argv) {
  int nw = 16384, bfs = 1000000, rows = 500, cols = 1000000, pyramid = 20,
      bp = 100000, iters = 16, reps = 7;
  struct Option {
    const char *name;
    int *value;
  } options[] = {{"nw", &nw},       {"bfs", &bfs},         {"rows", &rows},
                 {"cols", &cols},   {"pyramid", &pyramid}, {"bp", &bp},
                 {"iters", &iters}, {"reps", &reps}};
  for (int k = 1; k < argc; ++k) {
    const char *eq = std::strchr(argv[k], '=');
    Option *o = nullptr;
    for (Option &c : options)
      if (eq && std::string(argv[k], eq - argv[k]) == c.name)
        o = &c;
    if (!o) {
      std::fprintf(stderr,
                   "usage: %s [nw=N] [bfs=N] [rows=N] [cols=N] [pyramid=N] "
                   "[bp=N] [iters=N] [reps=N]\n",
                   argv[0]);
      return 2;
    }
    *o->value = std::atoi(eq + 1);
  }
  // The pyramid keeps at least one column of each block.
  pyramid = std::max(1, std::min(pyramid, (PYRAMID_BLOCK - 1) / 2));
  CHECK(cudaFree(nullptr));
  std::printf("device: %s\n", bsgprt_device_name());
  // Both sides share lists allocated with cudaMalloc, which only the cuda
  // backend can read (another backend would take them for its own).
  if (std::strncmp(bsgprt_device_name(), "cuda", 4) != 0) {
    std::fprintf(stderr,
                 "%s: the BSGP side runs on the cuda backend only "
                 "(bench_backends runs the BFS on cuda and vulkan)\n",
                 argv[0]);
    return 2;
  }
  if (nw > 0)
    runNW(nw, reps);
  if (bfs > 0)
    runBFS(bfs, reps);
  if (rows > 0 && cols > 0)
    runPath(rows, cols, pyramid, reps);
  if (bp > 0 && iters > 0)
    runBackprop(bp, iters, reps);
  return 0;
}
