//===- CPUBackend.cpp - Host backend running kernels with OpenMP ----------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Device memory is host memory and a launch runs the kernel's native version
// over contiguous chunks of ranks, one chunk per OpenMP thread. Ranks of one
// superstep are independent (barriers only separate supersteps, i.e.
// launches), so any split of [0, n) is a valid schedule. Kernels that
// accumulate over their chunk (the collective library's reduce and scan)
// depend on the split, though: the number of chunks is one rule,
// chunkCount(), which the launch and bsgprt_cpu_chunk_count() share, and
// each chunk learns its index through bsgprt_cpu_chunk_index().
//
//===----------------------------------------------------------------------===//

#include "Backend.h"

#include <omp.h>

#include <cstdlib>
#include <cstring>

namespace bsgprt {
namespace {

/// Below this many ranks per thread, waking the thread team costs more than
/// it saves.
constexpr uint64_t MinRanksPerChunk = 256;

/// Device allocations are aligned like cuMemAlloc's so that the code
/// generator may assume the same alignment on every backend.
constexpr size_t Alignment = 256;

/// The chunk the calling thread runs, set by launch() before each call of a
/// native kernel. Thread-local rather than a kernel argument, so that the
/// kernel ABI stays as it is; kernels read it once per chunk.
thread_local uint64_t CurrentChunk = 0;

/// The number of chunks a launch of `n` ranks made here and now runs in:
/// none for no ranks; one, on the calling thread, inside an OpenMP parallel
/// region; otherwise one per thread of the team, but no more than
/// ceil(n / MinRanksPerChunk) (so a launch of at most MinRanksPerChunk
/// ranks runs on the calling thread). Never more than n, so that no chunk
/// is empty.
uint64_t chunkCount(uint64_t n) {
  if (n == 0)
    return 0;
  if (omp_in_parallel())
    return 1;
  uint64_t maxThreads = static_cast<uint64_t>(omp_get_max_threads());
  uint64_t chunks = (n + MinRanksPerChunk - 1) / MinRanksPerChunk;
  if (chunks > maxThreads)
    chunks = maxThreads;
  return chunks ? chunks : 1;
}

class CPUBackend final : public Backend {
public:
  const char *deviceName() const override { return "cpu"; }
  bool nativeListPrimitives() const override { return true; }

  void *allocate(uint64_t bytes) override {
    if (bytes > SIZE_MAX - Alignment)
      return nullptr;
    void *p = nullptr;
    if (posix_memalign(&p, Alignment, bytes ? bytes : 1) != 0)
      return nullptr;
    return p;
  }
  void deallocate(void *p) override { std::free(p); }

  Status copyHostToDevice(void *dst, const void *src, uint64_t bytes) override {
    return copy(dst, src, bytes);
  }
  Status copyDeviceToHost(void *dst, const void *src, uint64_t bytes) override {
    return copy(dst, src, bytes);
  }
  Status copyDeviceToDevice(void *dst, const void *src,
                            uint64_t bytes) override {
    return copy(dst, src, bytes);
  }
  Status memset(void *dst, int value, uint64_t bytes) override {
    if (bytes)
      std::memset(dst, value, bytes);
    return Status::ok();
  }

  Status launch(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                const void *args) override {
    const bsgprt_kernel_desc &k = m.kernels[kernel];
    if (!k.cpu)
      return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                           std::string("kernel '") + (k.name ? k.name : "?") +
                               "' has no native version for the cpu backend");
    bsgprt_cpu_kernel_fn fn = k.cpu;
    uint64_t chunks = chunkCount(n);
    if (chunks == 0)
      return Status::ok();
    if (chunks == 1) {
      CurrentChunk = 0;
      fn(args, 0, n, n);
      return Status::ok();
    }
    // Chunk c covers [n*c/chunks, n*(c+1)/chunks): contiguous, disjoint, and
    // sizes differ by at most one. 128-bit products avoid overflow for any n.
    int64_t numChunks = static_cast<int64_t>(chunks);
#pragma omp parallel for schedule(static, 1) num_threads(numChunks)
    for (int64_t c = 0; c < numChunks; ++c) {
      uint64_t begin = static_cast<uint64_t>(
          (static_cast<unsigned __int128>(n) * static_cast<uint64_t>(c)) /
          chunks);
      uint64_t end = static_cast<uint64_t>(
          (static_cast<unsigned __int128>(n) * static_cast<uint64_t>(c + 1)) /
          chunks);
      // The chunk, not the OpenMP thread: a team smaller than asked for
      // runs several chunks on one thread.
      CurrentChunk = static_cast<uint64_t>(c);
      fn(args, begin, end, n);
    }
    return Status::ok();
  }

  Status synchronize() override { return Status::ok(); }

  Status listReduce(int op, int type, const void *in, uint64_t n,
                    void *result) override {
    return cpu::listReduce(op, type, in, n, result);
  }
  Status listScanExclusive(int op, int type, const void *in, void *out,
                           uint64_t n, void *total) override {
    return cpu::listScanExclusive(op, type, in, out, n, total);
  }
  Status listSortPairs(int type, void *keys, uint32_t *values,
                       uint64_t n) override {
    return cpu::listSortPairs(type, keys, values, n);
  }
  Status listPartitionIndex(const uint32_t *flags, uint32_t *index, uint64_t n,
                            uint64_t *zeros) override {
    return cpu::listPartitionIndex(flags, index, n, zeros);
  }
  Status listCompactIndex(const uint32_t *flags, uint32_t *index, uint64_t n,
                          uint64_t *kept) override {
    return cpu::listCompactIndex(flags, index, n, kept);
  }
  Status listExpandIndex(const uint32_t *offsets, const uint32_t *counts,
                         uint32_t *parent, uint64_t n) override {
    return cpu::listExpandIndex(offsets, counts, parent, n);
  }

private:
  static Status copy(void *dst, const void *src, uint64_t bytes) {
    // memmove: a dtod copy inside one list may overlap.
    if (bytes)
      std::memmove(dst, src, bytes);
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createCPUBackend() {
  return std::make_unique<CPUBackend>();
}

} // namespace bsgprt

extern "C" {

uint64_t bsgprt_cpu_chunk_count(uint64_t nthreads) {
  return bsgprt::chunkCount(nthreads);
}

uint64_t bsgprt_cpu_chunk_index(void) { return bsgprt::CurrentChunk; }

} // extern "C"
