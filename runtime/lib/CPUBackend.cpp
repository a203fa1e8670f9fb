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

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>

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

/// The barrier between the supersteps of a grid-loop kernel: a counter and
/// a generation, each on its own cache line. The last thread to arrive
/// resets the counter and starts the next generation; the others spin on
/// the generation, then yield their core, so that a team larger than the
/// cores it has (OMP_NUM_THREADS above them, or other processes) still
/// moves on. With 16 threads on the GPU machine a ring step took 16.8 µs
/// with OpenMP's barrier and 9.1 µs with this one (bench/README.md).
struct TeamBarrier {
  alignas(64) std::atomic<uint64_t> arrived{0};
  alignas(64) std::atomic<uint64_t> generation{0};

  void wait(uint64_t team) {
    uint64_t gen = generation.load(std::memory_order_relaxed);
    // acq_rel: the last thread's increment acquires every thread's writes
    // before the barrier; its release of the generation hands them on.
    if (arrived.fetch_add(1, std::memory_order_acq_rel) == team - 1) {
      arrived.store(0, std::memory_order_relaxed);
      generation.store(gen + 1, std::memory_order_release);
      return;
    }
    for (unsigned spins = 0; generation.load(std::memory_order_acquire) == gen;
         ++spins) {
      if (spins < 2048) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        std::this_thread::yield();
      }
    }
  }
};

/// The team running a grid-loop kernel (launchCooperative): the calling
/// thread's index, the team's size and its barrier; 0, 1 and none
/// elsewhere.
thread_local uint64_t TeamRank = 0;
thread_local uint64_t TeamSize = 1;
thread_local TeamBarrier *CurrentBarrier = nullptr;

/// The number of chunks a launch of `n` ranks made here and now runs in:
/// none for no ranks; one, on the calling thread, inside an OpenMP parallel
/// region; otherwise one per thread of the team (`threads`, or OpenMP's
/// choice when 0), but no more than ceil(n / MinRanksPerChunk) (so a launch
/// of at most MinRanksPerChunk ranks runs on the calling thread). Never
/// more than n, so that no chunk is empty.
uint64_t chunkCount(uint64_t n, int threads = 0) {
  if (n == 0)
    return 0;
  if (omp_in_parallel())
    return 1;
  uint64_t maxThreads =
      static_cast<uint64_t>(threads > 0 ? threads : omp_get_max_threads());
  uint64_t chunks = (n + MinRanksPerChunk - 1) / MinRanksPerChunk;
  if (chunks > maxThreads)
    chunks = maxThreads;
  return chunks ? chunks : 1;
}

/// Runs chunks [0, s.chunks) of slice `s`, chunk c covering ranks
/// [begin + len*c/chunks, begin + len*(c+1)/chunks) of the slice's len:
/// contiguous, disjoint, and sizes differ by at most one.
void runChunks(bsgprt_cpu_kernel_fn fn, const void *args,
               const Backend::Slice &s) {
  uint64_t len = s.end - s.begin;
  if (s.chunks == 0 || len == 0)
    return;
  if (s.chunks == 1) {
    CurrentChunk = s.chunkBase;
    fn(args, s.begin, s.end, s.n);
    return;
  }
  int64_t numChunks = static_cast<int64_t>(s.chunks);
#pragma omp parallel for schedule(static, 1) num_threads(numChunks)
  for (int64_t c = 0; c < numChunks; ++c) {
    // 128-bit products avoid overflow for any n.
    uint64_t uc = static_cast<uint64_t>(c);
    uint64_t begin =
        s.begin + static_cast<uint64_t>(
                      (static_cast<unsigned __int128>(len) * uc) / s.chunks);
    uint64_t end =
        s.begin +
        static_cast<uint64_t>((static_cast<unsigned __int128>(len) * (uc + 1)) /
                              s.chunks);
    // The chunk, not the OpenMP thread: a team smaller than asked for
    // runs several chunks on one thread.
    CurrentChunk = s.chunkBase + uc;
    fn(args, begin, end, s.n);
  }
}

class CPUBackend final : public Backend {
public:
  explicit CPUBackend(int threads) : threads(threads) {}
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
    Slice all;
    all.end = all.n = n;
    all.chunks = sliceChunkCount(n);
    return launchSlice(m, kernel, all, args);
  }

  Status launchSlice(const bsgprt_module_desc &m, uint32_t kernel,
                     const Slice &slice, const void *args) override {
    const bsgprt_kernel_desc &k = m.kernels[kernel];
    if (!k.cpu)
      return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                           std::string("kernel '") + (k.name ? k.name : "?") +
                               "' has no native version for the cpu backend");
    runChunks(k.cpu, args, slice);
    return Status::ok();
  }

  /// A grid loop runs on a team of threads: any kernel compiled for the CPU.
  bool canLaunchCooperative(const bsgprt_module_desc &m, uint32_t kernel,
                            uint64_t n) override {
    (void)n;
    return m.kernels[kernel].cpu != nullptr;
  }
  /// One parallel region for the whole loop: each thread runs the kernel,
  /// which splits every superstep's ranks by the team (the team's actual
  /// size, which OpenMP may make smaller than asked) and waits at the team
  /// barrier between them. The team is as large as a launch of the loop's
  /// largest superstep (`n`) would use: a loop of at most 256 threads, or
  /// one inside a parallel region, runs on the calling thread.
  Status launchCooperative(const bsgprt_module_desc &m, uint32_t kernel,
                           uint64_t n, const void *args) override {
    bsgprt_cpu_kernel_fn fn = m.kernels[kernel].cpu;
    if (!fn)
      return launchSlice(m, kernel, Slice(), args);
    uint64_t team = chunkCount(n, threads);
    if (team <= 1) {
      CurrentChunk = 0;
      fn(args, 0, n, n);
      return Status::ok();
    }
    TeamBarrier barrier;
#pragma omp parallel num_threads(static_cast<int>(team))
    {
      TeamRank = static_cast<uint64_t>(omp_get_thread_num());
      TeamSize = static_cast<uint64_t>(omp_get_num_threads());
      CurrentBarrier = &barrier;
      CurrentChunk = TeamRank;
      fn(args, 0, n, n);
      TeamRank = 0;
      TeamSize = 1;
      CurrentBarrier = nullptr;
    }
    return Status::ok();
  }

  uint64_t sliceChunkCount(uint64_t ranks) const override {
    return chunkCount(ranks, threads);
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
  Status listScanExclusiveFrom(int op, int type, const void *in, void *out,
                               uint64_t n, const void *init,
                               void *total) override {
    return cpu::listScanExclusive(op, type, in, out, n, total, init);
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
  /// OpenMP threads of this device; 0 for OpenMP's choice.
  int threads;

  static Status copy(void *dst, const void *src, uint64_t bytes) {
    // memmove: a dtod copy inside one list may overlap.
    if (bytes)
      std::memmove(dst, src, bytes);
    return Status::ok();
  }
};

} // namespace

Status Backend::launchSlice(const bsgprt_module_desc &m, uint32_t kernel,
                            const Slice &slice, const void *args) {
  (void)slice;
  (void)args;
  const bsgprt_kernel_desc &k = m.kernels[kernel];
  return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                       std::string("kernel '") + (k.name ? k.name : "?") +
                           "': the " + deviceName() +
                           " backend cannot run a slice of a launch");
}

uint64_t Backend::sliceChunkCount(uint64_t ranks) const {
  return chunkCount(ranks);
}

std::unique_ptr<Backend> createCPUBackend(int threads) {
  return std::make_unique<CPUBackend>(threads);
}

} // namespace bsgprt

extern "C" {

uint64_t bsgprt_cpu_chunk_count(uint64_t nthreads) {
  // The backend's rule: a multi-device backend runs more chunks, one set
  // per device.
  return bsgprt::currentBackend().cpuChunkCount(nthreads);
}

uint64_t bsgprt_cpu_chunk_index(void) { return bsgprt::CurrentChunk; }

uint64_t bsgprt_cpu_team_rank(void) { return bsgprt::TeamRank; }

uint64_t bsgprt_cpu_team_size(void) { return bsgprt::TeamSize; }

void bsgprt_cpu_team_barrier(void) {
  // Every thread of the team reaches it the same number of times: the
  // loop's control flow is uniform.
  if (bsgprt::TeamSize > 1 && bsgprt::CurrentBarrier)
    bsgprt::CurrentBarrier->wait(bsgprt::TeamSize);
}

} // extern "C"
