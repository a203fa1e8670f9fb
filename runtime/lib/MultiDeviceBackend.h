//===- MultiDeviceBackend.h - The backend over several devices --*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The class of MultiDevice.cpp, shared with the files that hold more of its
// members (MultiDeviceSort.cpp: the device scopes and the exchange of
// sorted runs). Private to the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_RUNTIME_LIB_MULTIDEVICEBACKEND_H
#define BSGP_RUNTIME_LIB_MULTIDEVICEBACKEND_H

#include "MultiDevice.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace bsgprt {

/// Device d's share of `threads` host threads over n devices: at least one.
inline int threadShare(int threads, unsigned n, unsigned d) {
  int count = static_cast<int>(n);
  int share = threads / count + (static_cast<int>(d) < threads % count);
  return std::max(1, share);
}

inline size_t elementSize(int type) {
  return type == BSGPRT_LIST_I64 || type == BSGPRT_LIST_U64 ||
                 type == BSGPRT_LIST_F64
             ? 8
             : 4;
}

/// A thread that runs one task at a time for its device.
class Worker {
public:
  explicit Worker(int ompThreads)
      : thread([this, ompThreads] { run(ompThreads); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      quit = true;
    }
    cv.notify_all();
    thread.join();
  }
  void post(std::function<void()> f) {
    std::lock_guard<std::mutex> lock(mutex);
    task = std::move(f);
    pending = true;
    cv.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return !pending; });
  }

private:
  void run(int ompThreads) {
    // The device's share of the host's threads: its OpenMP team and the
    // cpu list primitives it runs are that wide.
    omp_set_num_threads(ompThreads);
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      cv.wait(lock, [&] { return quit || (pending && task); });
      if (quit)
        return;
      std::function<void()> f = std::move(task);
      task = nullptr;
      lock.unlock();
      f();
      lock.lock();
      pending = false;
      cv.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable cv;
  std::function<void()> task;
  bool pending = false, quit = false;
  // Last: it starts running in the constructor.
  std::thread thread;
};

/// Where a list lives: `count` elements of `elementBytes`, in rank-aligned
/// slices unless replicated.
struct Placed {
  uint64_t count = 0, elementBytes = 1;
  bool replicated = false;
};

struct DeviceStats {
  uint64_t slices = 0, ranks = 0;
  double ms = 0;
  uint64_t remoteReadBytes = 0, remoteWriteBytes = 0, remoteAccesses = 0;
};

/// The order of keys as unsigned integers, as the cpu radix sort orders
/// them (CPUListPrimitives.cpp, toOrdered).
inline uint64_t orderedKey(int type, const char *p) {
  if (elementSize(type) == 4) {
    uint32_t u;
    std::memcpy(&u, p, 4);
    constexpr uint32_t Sign = 0x80000000u;
    if (type == BSGPRT_LIST_F32)
      return (u & Sign) ? uint32_t(~u) : uint32_t(u | Sign);
    return type == BSGPRT_LIST_I32 ? u ^ Sign : u;
  }
  uint64_t u;
  std::memcpy(&u, p, 8);
  constexpr uint64_t Sign = uint64_t(1) << 63;
  if (type == BSGPRT_LIST_F64)
    return (u & Sign) ? ~u : (u | Sign);
  return type == BSGPRT_LIST_I64 ? u ^ Sign : u;
}

/// split[p][r]: how many elements of run r (device r's slice of a list of
/// n, sorted) precede output position floor(n p / D) in the stable order
/// of the whole (by image, then run, then position), for p in [0, D].
/// `image(r, i)` is element i of run r as orderedKey orders it.
std::vector<std::vector<uint64_t>>
sortSplits(unsigned D, uint64_t n,
           const std::function<uint64_t(unsigned, uint64_t)> &image);

class MultiDeviceBackend final : public Backend {
public:
  MultiDeviceBackend(std::vector<std::unique_ptr<Backend>> children,
                     std::string name, std::unique_ptr<SpanMemory> memory)
      : devices(std::move(children)), memory(std::move(memory)),
        name(std::move(name)),
        numDevices(static_cast<unsigned>(devices.size())),
        stats(devices.size()) {
    int threads = omp_get_max_threads();
    firstShare = threadShare(threads, numDevices, 0);
    for (unsigned d = 1; d < numDevices; ++d)
      workers.push_back(
          std::make_unique<Worker>(threadShare(threads, numDevices, d)));
  }

  const char *deviceName() const override { return name.c_str(); }
  uint64_t memoryBytes() const override {
    // Lists that do not spread over the devices (vulkan:N's host memory)
    // are limited by the first device's memory.
    if (memory && !memory->spansDevices())
      return devices[0]->memoryBytes();
    uint64_t total = 0;
    for (const auto &d : devices)
      total += d->memoryBytes();
    return total;
  }
  uintptr_t allocationBase(const void *p) override {
    return devices[0]->allocationBase(p);
  }
  /// On GPUs the collective library runs its own list primitives, whose
  /// spawns split over the devices like any other and whose data stays on
  /// the GPUs; the runtime's below are host round trips there.
  bool nativeListPrimitives() const override {
    return !memory && devices[0]->nativeListPrimitives();
  }
  /// A look-back kernel's slices run one GPU after another: the
  /// two-level forms run on all at once.
  bool singlePassForms() const override { return !memory || numDevices == 1; }
  unsigned deviceCount() const override { return numDevices; }

  // CPU devices share the host's memory: the first device allocates for
  // all, and the placement table says which device owns which bytes. GPUs
  // allocate in the memory spread over them; copies and memsets go
  // through the first device, which reaches all of it.
  // In a device scope, GPUs with memories of their own allocate in the
  // scope's device (MultiDeviceSort.cpp).
  void *allocate(uint64_t bytes) override {
    if (scope >= 0 && memory && memory->spansDevices())
      return allocateInScope(bytes);
    return memory ? memory->allocate(bytes) : devices[0]->allocate(bytes);
  }
  void deallocate(void *p) override {
    if (deallocateScoped(p))
      return;
    if (memory)
      memory->deallocate(p);
    else
      devices[0]->deallocate(p);
  }
  Status copyHostToDevice(void *dst, const void *src, uint64_t bytes) override {
    if (scope >= 0)
      return devices[scope]->copyHostToDevice(dst, src, bytes);
    return onFirstDevice(devices[0]->copyHostToDevice(dst, src, bytes));
  }
  Status copyDeviceToHost(void *dst, const void *src, uint64_t bytes) override {
    return devices[scope >= 0 ? scope : 0]->copyDeviceToHost(dst, src, bytes);
  }
  Status copyDeviceToDevice(void *dst, const void *src,
                            uint64_t bytes) override {
    if (scope >= 0) {
      countAccess(scope, src, bytes, false);
      countAccess(scope, dst, bytes, true);
      return devices[scope]->copyDeviceToDevice(dst, src, bytes);
    }
    // Each device writes its own bytes of the destination (all of them, for
    // a replicated one: its copy), reading the source wherever it lives.
    std::vector<std::pair<uint64_t, uint64_t>> owned(numDevices);
    bool disjoint = true;
    for (unsigned d = 0; d < numDevices; ++d) {
      owned[d] = ownedRange(dst, bytes, d);
      auto [lo, hi] = owned[d];
      if (lo < hi)
        countAccess(d, static_cast<const char *>(src) + lo, hi - lo, false);
      if (d && lo < hi && lo < owned[d - 1].second)
        disjoint = false;
    }
    // On GPUs whose memory spans them, each copies its part of a
    // distributed list, where it lives: the first device copying all of it
    // moved the other devices' parts over NVLink twice.
    if (memory && memory->spansDevices() && disjoint)
      return forDevices([&](unsigned d) {
        auto [lo, hi] = owned[d];
        if (lo >= hi)
          return Status::ok();
        if (Status s = devices[d]->copyDeviceToDevice(
                static_cast<char *>(dst) + lo,
                static_cast<const char *>(src) + lo, hi - lo);
            s.failed())
          return s;
        return devices[d]->synchronize();
      });
    return onFirstDevice(devices[0]->copyDeviceToDevice(dst, src, bytes));
  }
  Status memset(void *dst, int value, uint64_t bytes) override {
    if (scope >= 0)
      return devices[scope]->memset(dst, value, bytes);
    return onFirstDevice(devices[0]->memset(dst, value, bytes));
  }
  /// A GPU's copies and memsets may still run when the call returns
  /// (cuMemsetD8, cuMemcpyDtoD and cuMemcpyHtoD from pageable memory are
  /// asynchronous to the host): ordered before the first device's next
  /// kernel by its stream, but not before the other devices' kernels,
  /// which would read the bytes early (a sort's ticket counters, reset by a
  /// memset, did). So on GPUs the first device finishes them first.
  Status onFirstDevice(Status s) {
    if (s.failed() || !memory)
      return s;
    return devices[0]->synchronize();
  }

  Status launch(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                const void *args) override {
    if (scope >= 0)
      return launchInScope(m, kernel, n, args);
    const bsgprt_kernel_desc &k = m.kernels[kernel];
    std::vector<Slice> slices = plan(n, launchGranule(k));
    // A decoupled look-back's blocks wait for the blocks before them by
    // block number: on GPUs its slices run one device after another, so
    // that no block waits for another device. Other kernels, those whose
    // blocks take tickets in start order included, run on all at once.
    bool inOrder = memory && (k.flags & BSGPRT_KERNEL_LOOKBACK);
    return forDevices(inOrder, [&](unsigned d) -> Status {
      const Slice &s = slices[d];
      if (s.begin == s.end)
        return Status::ok();
      return timedSlice(d, s.end - s.begin, [&] {
        return devices[d]->launchSlice(m, kernel, s, args);
      });
    });
  }
  /// Runs device d's part of a launch, of `ranks` ranks, and adds it to
  /// the device's profile row.
  template <typename Launch>
  Status timedSlice(unsigned d, uint64_t ranks, Launch launch) {
    auto start = std::chrono::steady_clock::now();
    Status st = launch();
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    std::lock_guard<std::mutex> lock(mutex);
    ++stats[d].slices;
    stats[d].ranks += ranks;
    stats[d].ms += ms;
    return st;
  }
  Status synchronize() override {
    for (auto &d : devices)
      if (Status s = d->synchronize(); s.failed())
        return s;
    return Status::ok();
  }
  void prepare(const bsgprt_module_desc &m) override {
    for (auto &d : devices)
      d->prepare(m);
  }

  uint64_t cpuChunkCount(uint64_t n) const override {
    if (scope >= 0)
      return devices[scope]->cpuChunkCount(n);
    std::vector<Slice> slices = plan(n, 1);
    return slices.back().chunkBase + slices.back().chunks;
  }

  void placeList(void *p, uint64_t count, uint64_t elementBytes) override {
    // A scope's lists live on its device, not in slices: not placed.
    if (scope >= 0 && (count || elementBytes))
      return;
    std::lock_guard<std::mutex> lock(mutex);
    uintptr_t key = reinterpret_cast<uintptr_t>(p);
    if (!count && !elementBytes) {
      placed.erase(key);
      return;
    }
    Placed &pl = placed[key];
    pl.count = count;
    pl.elementBytes = elementBytes ? elementBytes : 1;
    pl.replicated = false;
  }
  Status setPlacement(const void *p, int placement) override;
  int ownerDevice(const void *p) override;
  uint64_t remoteBytes() const override {
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t total = 0;
    for (const DeviceStats &s : stats)
      total += s.remoteReadBytes + s.remoteWriteBytes;
    return total;
  }
  void printProfile(FILE *out) override;
  void resetProfile() override {
    std::lock_guard<std::mutex> lock(mutex);
    std::fill(stats.begin(), stats.end(), DeviceStats());
  }

  /// \name Device scopes and the sort across devices (MultiDeviceSort.cpp)
  /// @{
  int deviceScope() const override { return scope; }
  Status beginDeviceScope(int device) override;
  Status endDeviceScope() override;
  bool sortAcrossDevices(uint64_t n) const override;
  Status exchangeSortedRuns(int type, const void *keys, const uint32_t *values,
                            void *outKeys, uint32_t *outValues,
                            uint64_t n) override;
  uint64_t exchangedPiece(unsigned d, unsigned r) const override {
    if (d >= pieceStarts.size() || r >= pieceStarts[d].size())
      return 0;
    return pieceStarts[d][r];
  }
  /// @}

  Status listReduce(int op, int type, const void *in, uint64_t n,
                    void *result) override;
  Status listScanExclusive(int op, int type, const void *in, void *out,
                           uint64_t n, void *total) override {
    return listScanExclusiveFrom(op, type, in, out, n, nullptr, total);
  }
  Status listScanExclusiveFrom(int op, int type, const void *in, void *out,
                               uint64_t n, const void *init,
                               void *total) override;
  Status listSortPairs(int type, void *keys, uint32_t *values,
                       uint64_t n) override;
  Status listPartitionIndex(const uint32_t *flags, uint32_t *index, uint64_t n,
                            uint64_t *zeros) override;
  Status listCompactIndex(const uint32_t *flags, uint32_t *index, uint64_t n,
                          uint64_t *kept) override;
  Status listExpandIndex(const uint32_t *offsets, const uint32_t *counts,
                         uint32_t *parent, uint64_t n) override;

private:
  template <typename Primitive>
  Status localIndexRuns(const uint32_t *flags, uint64_t n,
                        std::vector<std::vector<uint32_t>> &local,
                        std::vector<uint64_t> &counts, Primitive primitive);
  /// Device d writes `count` ranks of its slice, numbered from 0 in
  /// `from`, to index[at, at + count) as ranks of the whole list.
  void writeRun(unsigned d, uint64_t n, uint32_t *index, uint64_t at,
                const uint32_t *from, uint64_t count) {
    uint32_t first = static_cast<uint32_t>(begin(n, d));
    countAccess(d, index + at, count * 4, true);
    for (uint64_t i = 0; i < count; ++i)
      index[at + i] = from[i] + first;
  }
  /// The ranks a GPU slice is a multiple of: the kernel's thread block
  /// when it is fixed (work groups, numbered as on one device, and the
  /// blocks of a coarsened kernel), else a work group of 256; 1 on CPUs.
  uint64_t launchGranule(const bsgprt_kernel_desc &k) const {
    if (!memory)
      return 1;
    if (!k.group_size)
      return 256;
    return uint64_t(k.group_size) * std::max<uint32_t>(1, k.groups_per_block);
  }

  /// Each device's slice of a launch of n ranks, whole granules but for
  /// the last, with its chunks numbered after those of the devices before
  /// it, so that chunk order is rank order across devices (the collective
  /// library's chunk partials).
  std::vector<Slice> plan(uint64_t n, uint64_t granule) const {
    std::vector<Slice> slices(numDevices);
    uint64_t base = 0;
    for (unsigned d = 0; d < numDevices; ++d) {
      Slice &s = slices[d];
      s.begin = sliceBegin(n, numDevices, d, granule);
      s.end = sliceBegin(n, numDevices, d + 1, granule);
      s.n = n;
      s.chunks = devices[d]->sliceChunkCount(s.end - s.begin);
      s.chunkBase = base;
      base += s.chunks;
    }
    return slices;
  }

  /// Runs fn(d) for every device, each on its worker, and waits for all:
  /// the barrier across devices. Inside an OpenMP parallel region (a
  /// launch from a program's own parallel code) the devices run one after
  /// another on the calling thread, as one device would, and so they do
  /// `inOrder`.
  Status forDevices(const std::function<Status(unsigned)> &fn) {
    return forDevices(false, fn);
  }
  Status forDevices(bool inOrder, const std::function<Status(unsigned)> &fn) {
    std::vector<Status> results(numDevices);
    if (numDevices == 1 || inOrder || omp_in_parallel()) {
      for (unsigned d = 0; d < numDevices; ++d)
        results[d] = fn(d);
    } else {
      // Device 0 runs on the calling thread, with its share of the OpenMP
      // threads: one hand-off fewer per launch.
      for (unsigned d = 1; d < numDevices; ++d)
        workers[d - 1]->post([&, d] { results[d] = fn(d); });
      int callerThreads = omp_get_max_threads();
      omp_set_num_threads(firstShare);
      results[0] = fn(0);
      omp_set_num_threads(callerThreads);
      for (unsigned d = 1; d < numDevices; ++d)
        workers[d - 1]->wait();
    }
    for (Status &s : results)
      if (s.failed())
        return s;
    return Status::ok();
  }

  /// The placed list holding p, or null. Called with `mutex` held.
  const Placed *findLocked(const void *p, uintptr_t &base) const {
    uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    auto it = placed.upper_bound(addr);
    if (it == placed.begin())
      return nullptr;
    --it;
    if (addr - it->first >= it->second.count * it->second.elementBytes)
      return nullptr;
    base = it->first;
    return &it->second;
  }

  /// The bytes [lo, hi) of [p, p + bytes), relative to p, that device d
  /// owns. Memory outside every placed list belongs to device 0; a
  /// replicated list to every device.
  std::pair<uint64_t, uint64_t> ownedRange(const void *p, uint64_t bytes,
                                           unsigned d) const {
    std::lock_guard<std::mutex> lock(mutex);
    uintptr_t base = 0;
    const Placed *pl = findLocked(p, base);
    if (!pl)
      return d == 0 ? std::make_pair(uint64_t(0), bytes)
                    : std::make_pair(uint64_t(0), uint64_t(0));
    if (pl->replicated)
      return {0, bytes};
    uint64_t offset = reinterpret_cast<uintptr_t>(p) - base;
    uint64_t sliceLo = sliceBegin(pl->count, numDevices, d) * pl->elementBytes;
    uint64_t sliceHi =
        sliceBegin(pl->count, numDevices, d + 1) * pl->elementBytes;
    uint64_t lo = std::max(offset, sliceLo),
             hi = std::min(offset + bytes, sliceHi);
    if (lo >= hi)
      return {0, 0};
    return {lo - offset, hi - offset};
  }

  /// Records that device d reads (or writes) [p, p + bytes): the bytes
  /// outside its own slice are remote. Writing a replicated list updates
  /// every other device's copy.
  void countAccess(unsigned d, const void *p, uint64_t bytes, bool write) {
    if (!bytes)
      return;
    uint64_t remote;
    {
      std::lock_guard<std::mutex> lock(mutex);
      uintptr_t base = 0;
      const Placed *pl = findLocked(p, base);
      if (!pl)
        return;
      if (pl->replicated) {
        remote = write ? bytes * (numDevices - 1) : 0;
      } else {
        remote = bytes;
        uint64_t offset = reinterpret_cast<uintptr_t>(p) - base;
        uint64_t sliceLo =
            sliceBegin(pl->count, numDevices, d) * pl->elementBytes;
        uint64_t sliceHi =
            sliceBegin(pl->count, numDevices, d + 1) * pl->elementBytes;
        uint64_t lo = std::max(offset, sliceLo);
        uint64_t hi = std::min(offset + bytes, sliceHi);
        if (lo < hi)
          remote -= hi - lo;
      }
      if (!remote)
        return;
      DeviceStats &s = stats[d];
      (write ? s.remoteWriteBytes : s.remoteReadBytes) += remote;
      ++s.remoteAccesses;
    }
  }

  /// The first of device d's elements of a list of n.
  uint64_t begin(uint64_t n, unsigned d) const {
    return sliceBegin(n, numDevices, d);
  }

  Status sortMerge(int type, char *keys, uint32_t *values, uint64_t n);
  void *allocateInScope(uint64_t bytes);
  /// Frees p where it was allocated in a scope; false if it was not.
  bool deallocateScoped(void *p);
  Status launchInScope(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                       const void *args);

  /// The device of the open scope, or -1; and the devices that ran work in
  /// scopes since the last endDeviceScope.
  int scope = -1;
  std::vector<char> scopeUsed;
  /// The last exchange's pieces: where run r's starts in device d's slice.
  std::vector<std::vector<uint64_t>> pieceStarts;
  /// Allocations made in a scope on GPUs: their device.
  std::map<uintptr_t, unsigned> scopedAllocations;

  std::vector<std::unique_ptr<Backend>> devices;
  /// The memory over GPU devices; null for CPU devices. After `devices`,
  /// so that it is released before them.
  std::unique_ptr<SpanMemory> memory;
  /// The workers of devices 1, 2, ...; device 0 runs on the calling thread
  /// with firstShare OpenMP threads.
  std::vector<std::unique_ptr<Worker>> workers;
  int firstShare = 1;
  std::string name;
  unsigned numDevices;
  mutable std::mutex mutex;
  std::map<uintptr_t, Placed> placed;
  std::vector<DeviceStats> stats;
};

} // namespace bsgprt

#endif // BSGP_RUNTIME_LIB_MULTIDEVICEBACKEND_H
