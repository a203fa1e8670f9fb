//===- bench_backends.cpp - one program on the cuda and vulkan backends ---===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// SAXPY, the 5-point stencil and thread.sortby (the collective library's
// radix sort) of bench/cpu/kernels.bsgp, and the three level-synchronous
// BFS loops of bench/cuda/supersteps.bsgp (claim + fork, fork + kill, the
// direct form; a random graph of 10^6 nodes, as bench_supersteps makes
// it), compiled once with --target=cpu,cuda,spirv, run on the same GPU
// through the cuda backend
// (PTX) and through the vulkan backend (SPIR-V), switching with
// bsgprt_select_device. Prints the median time of each and the ratio
// cuda_time / vulkan_time (above 1: Vulkan is faster), and whether the two
// backends computed the same results (the BFS levels also against a
// sequential BFS on the host). With BSGP_PROFILE set, each
// backend's kernel profile is printed after its runs.
//
//===----------------------------------------------------------------------===//

#include "../Hash.h"
#include "../Timing.h"
#include "bsgp/runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <string>
#include <vector>

extern "C" {
void saxpy(int n, float a, float *x, float *y);
void stencil(int w, int h, float *src, float *dst);
void sortKeys(unsigned *key, unsigned *sorted, int *old, int n);
// bench/cuda/supersteps.bsgp
void bfsFrontierFork(int *level, int *via, const int *start, const int *adj,
                     int n, int src);
void bfsFrontierKill(int *level, const int *start, const int *adj, int n,
                     int src);
void bfsDirect(int *level, const int *start, const int *adj, int n, int src);
}

namespace {

struct Result {
  double seconds = 0;
  std::vector<float> out;
  /// The sort's keys and old ranks, to compare the backends.
  std::vector<unsigned> keys;
  std::vector<int> ranks;
};

float *upload(const std::vector<float> &h) {
  auto *d = static_cast<float *>(bsgprt_dnew(h.size() * 4, "bench"));
  bsgprt_memcpy_htod(d, h.data(), h.size() * 4);
  return d;
}

std::vector<float> download(const float *d, size_t n) {
  std::vector<float> h(n);
  bsgprt_memcpy_dtoh(h.data(), d, n * 4);
  return h;
}

Result runSaxpy(int n, int reps) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 100);
    y[i] = float(i % 7);
  }
  float *dx = upload(x), *dy = upload(y);
  Result r;
  r.seconds = medianSeconds(
      [&] {
        saxpy(n, 1.0001f, dx, dy);
        bsgprt_synchronize();
      },
      reps);
  // The result of one call on fresh data, to compare the backends.
  bsgprt_memcpy_htod(dy, y.data(), size_t(n) * 4);
  saxpy(n, 1.0001f, dx, dy);
  r.out = download(dy, n);
  bsgprt_dfree(dx);
  bsgprt_dfree(dy);
  return r;
}

Result runStencil(int w, int h, int reps) {
  std::vector<float> g(size_t(w) * h);
  for (size_t i = 0; i < g.size(); ++i)
    g[i] = float(i % 17);
  float *src = upload(g), *dst = upload(g);
  Result r;
  r.seconds = medianSeconds(
      [&] {
        stencil(w, h, src, dst);
        bsgprt_synchronize();
      },
      reps);
  r.out = download(dst, g.size());
  bsgprt_dfree(src);
  bsgprt_dfree(dst);
  return r;
}

/// 32-bit keys from a linear congruential generator: every byte varies,
/// so no pass is skipped.
std::vector<unsigned> sortKeysInput(int n) {
  std::vector<unsigned> k(n);
  uint32_t x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    k[i] = x;
  }
  return k;
}

Result runSort(int n, int reps) {
  std::vector<unsigned> k = sortKeysInput(n);
  auto *key = static_cast<unsigned *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  auto *sorted = static_cast<unsigned *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  auto *old = static_cast<int *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  bsgprt_memcpy_htod(key, k.data(), size_t(n) * 4);
  Result r;
  r.seconds = medianSeconds(
      [&] {
        sortKeys(key, sorted, old, n);
        bsgprt_synchronize();
      },
      reps);
  r.keys.resize(n);
  r.ranks.resize(n);
  bsgprt_memcpy_dtoh(r.keys.data(), sorted, size_t(n) * 4);
  bsgprt_memcpy_dtoh(r.ranks.data(), old, size_t(n) * 4);
  bsgprt_dfree(key);
  bsgprt_dfree(sorted);
  bsgprt_dfree(old);
  return r;
}

/// The random graph of bench_supersteps (CSR, 0 to 16 edges a node).
struct Graph {
  std::vector<int> start, adj;
};

Graph randomGraph(int n) {
  Graph g;
  g.start.assign(n + 1, 0);
  for (int u = 0; u < n; ++u)
    g.start[u + 1] = g.start[u] + int(hash32(2 * u + 1) % 17);
  g.adj.resize(g.start[n]);
  for (int u = 0; u < n; ++u)
    for (int e = g.start[u]; e < g.start[u + 1]; ++e)
      g.adj[e] = int(hash32(0x12345U + e) % n);
  return g;
}

/// Every node's level from node 0 (-1 where it does not reach).
std::vector<int> hostLevels(const Graph &g, int n) {
  std::vector<int> level(n, -1);
  std::queue<int> q;
  level[0] = 0;
  q.push(0);
  while (!q.empty()) {
    int u = q.front();
    q.pop();
    for (int e = g.start[u]; e < g.start[u + 1]; ++e)
      if (level[g.adj[e]] < 0) {
        level[g.adj[e]] = level[u] + 1;
        q.push(g.adj[e]);
      }
  }
  return level;
}

int *uploadInts(const std::vector<int> &h) {
  auto *d = static_cast<int *>(bsgprt_dnew(h.size() * 4, "bench"));
  bsgprt_memcpy_htod(d, h.data(), h.size() * 4);
  return d;
}

/// The three BFS forms on the current backend; out holds each one's
/// levels (as floats, exact below 2^24) one after the other.
void runBFS(const Graph &g, int n, int reps, Result r[3]) {
  int *start = uploadInts(g.start), *adj = uploadInts(g.adj);
  auto *level = static_cast<int *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  auto *via = static_cast<int *>(bsgprt_dnew(size_t(n) * 4, "bench"));
  for (int form = 0; form < 3; ++form) {
    auto call = [&] {
      if (form == 0)
        bfsFrontierFork(level, via, start, adj, n, 0);
      else if (form == 1)
        bfsFrontierKill(level, start, adj, n, 0);
      else
        bfsDirect(level, start, adj, n, 0);
      bsgprt_synchronize();
    };
    r[form].seconds = medianSeconds(call, reps);
    std::vector<int> h(n);
    bsgprt_memcpy_dtoh(h.data(), level, size_t(n) * 4);
    r[form].out.assign(h.begin(), h.end());
  }
  for (int *p : {start, adj, level, via})
    bsgprt_dfree(p);
}

} // namespace

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int reps = 21;
  int n = int(200'000'000 * scale);
  int w = 8192, h = int(8192 * scale);
  int keys = int(100'000'000 * scale);
  int nodes = std::max(2, int(1'000'000 * scale));
  Graph graph = randomGraph(nodes);
  Result saxpyOn[2], stencilOn[2], sortOn[2], bfsOn[3][2];
  bool profiling = std::getenv("BSGP_PROFILE") != nullptr;
  const char *backends[2] = {"cuda", "vulkan"};
  for (int b = 0; b < 2; ++b) {
    if (bsgprt_select_device(backends[b]) != BSGPRT_SUCCESS) {
      std::printf("no %s device\n", backends[b]);
      return 1;
    }
    std::printf("%s: %s\n", backends[b], bsgprt_device_name());
    saxpyOn[b] = runSaxpy(n, reps);
    stencilOn[b] = runStencil(w, h, reps);
    sortOn[b] = runSort(keys, 5);
    Result bfs[3];
    runBFS(graph, nodes, reps, bfs);
    for (int form = 0; form < 3; ++form)
      bfsOn[form][b] = bfs[form];
    if (profiling) {
      bsgprt_profile_report(stdout);
      bsgprt_profile_reset();
    }
  }
  bool ok = true;
  auto report = [&](const char *name, const Result *r, double bytes) {
    bool same = r[0].out == r[1].out && r[0].keys == r[1].keys &&
                r[0].ranks == r[1].ranks;
    ok &= same;
    std::printf("%-8s cuda %8.3f ms (%6.0f GB/s)   vulkan %8.3f ms (%6.0f "
                "GB/s)   ratio %.2f   %s\n",
                name, r[0].seconds * 1e3, bytes / r[0].seconds / 1e9,
                r[1].seconds * 1e3, bytes / r[1].seconds / 1e9,
                r[0].seconds / r[1].seconds,
                same ? "results agree" : "RESULTS DIFFER");
  };
  report("saxpy", saxpyOn, 12.0 * n);
  report("stencil", stencilOn, 8.0 * w * h);
  // Keys and ranks read and written once a pass, four passes.
  report("sortby", sortOn, 4 * 16.0 * keys);
  // The cuda backend's sort is a stable sort of the keys: sorted keys,
  // each the key at its old rank, equal keys in the order of their ranks.
  std::vector<unsigned> k = sortKeysInput(keys);
  const Result &c = sortOn[0];
  bool sorted = c.keys.size() == size_t(keys) && c.ranks.size() == size_t(keys);
  for (int i = 0; i < keys && sorted; ++i) {
    int o = c.ranks[i];
    sorted = o >= 0 && o < keys && k[o] == c.keys[i] &&
             (i == 0 || c.keys[i - 1] < c.keys[i] ||
              (c.keys[i - 1] == c.keys[i] && c.ranks[i - 1] < o));
  }
  std::printf("sortby   %s\n", sorted ? "stable order" : "NOT SORTED");
  ok &= sorted;
  // BFS: µs per level; the levels against the host's.
  std::vector<int> levels = hostLevels(graph, nodes);
  int depth = 0;
  for (int l : levels)
    depth = std::max(depth, l + 1);
  std::vector<float> expect(levels.begin(), levels.end());
  const char *forms[3] = {"bfs claim+fork", "bfs fork+kill", "bfs direct"};
  for (int form = 0; form < 3; ++form) {
    const Result *r = bfsOn[form];
    bool right = r[0].out == expect && r[1].out == expect;
    ok &= right;
    std::printf("%-15s n=%d cuda %8.3f ms (%7.2f us/level)   vulkan %8.3f ms "
                "(%7.2f us/level)   ratio %.2f   %s\n",
                forms[form], nodes, r[0].seconds * 1e3,
                r[0].seconds * 1e6 / depth, r[1].seconds * 1e3,
                r[1].seconds * 1e6 / depth, r[0].seconds / r[1].seconds,
                right ? "levels right" : "LEVELS WRONG");
  }
  return ok ? 0 : 1;
}
