//===- MultiDevice.cpp - One backend over several devices -----------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The multi-device backend (docs/multi-device.md). Each device but the
// first has a worker thread of its own, which runs the device's part of
// every launch and list primitive, so that devices work at once; device 0
// runs its part on the calling thread. With CPU devices that thread is also
// the master of the device's own OpenMP team (its share of the threads).
// Launches and primitives return when every device is done.
//
// CPU devices share the host's memory, so every device can read every
// slice; the runtime still keeps the placement of each list (rank-aligned
// slices, or replicated) and counts the bytes a device reads or writes in
// another device's slice wherever it sees the access: copies and the list
// primitives. Kernels' own loads and stores are not seen.
//
// The list primitives are compositions of per-device work on the device's
// slice and a combine step, in the shape they take with NCCL on GPUs:
// per-device partials and an all-reduce or scan of them (reduce, scan,
// compact, partition, expand), and a local sort of each slice followed by
// an all-to-all of the pieces each device's output slice needs (sort).
//
//===----------------------------------------------------------------------===//

#include "MultiDevice.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace bsgprt {

uint64_t sliceBegin(uint64_t n, unsigned devices, unsigned d) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(n) * d) /
                               devices);
}

uint64_t sliceBegin(uint64_t n, unsigned devices, unsigned d,
                    uint64_t granule) {
  if (granule <= 1)
    return sliceBegin(n, devices, d);
  uint64_t units = n / granule + (n % granule != 0);
  return std::min(n, sliceBegin(units, devices, d) * granule);
}

unsigned sliceOwner(uint64_t n, unsigned devices, uint64_t i) {
  unsigned d = static_cast<unsigned>(
      (static_cast<unsigned __int128>(i) * devices) / (n ? n : 1));
  d = std::min(d, devices - 1);
  while (d + 1 < devices && sliceBegin(n, devices, d + 1) <= i)
    ++d;
  while (d > 0 && sliceBegin(n, devices, d) > i)
    --d;
  return d;
}

bool parseMultiDeviceRequest(const std::string &request,
                             MultiDeviceRequest &out, std::string &why) {
  size_t colon = request.find(':');
  if (colon == std::string::npos)
    return false;
  out = MultiDeviceRequest();
  out.kind = request.substr(0, colon);
  std::string spec = request.substr(colon + 1);
  if (out.kind != "cpu" && out.kind != "cuda" && out.kind != "vulkan") {
    why = "unknown device kind '" + out.kind + "'";
    return true;
  }
  if (spec == "all") {
    out.all = true;
    return true;
  }
  // cpu:N and vulkan:N count devices; cuda:0,1 lists ordinals.
  bool list = out.kind == "cuda";
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    std::string item = spec.substr(
        pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (item.empty() || item.size() > 4 ||
        item.find_first_not_of("0123456789") != std::string::npos) {
      why = "expected " +
            std::string(list ? "device ordinals such as cuda:0,1 or cuda:all"
                             : "a device count such as " + out.kind + ":4") +
            ", not '" + spec + "'";
      return true;
    }
    out.ordinals.push_back(std::stoi(item));
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  if (!list) {
    if (out.ordinals.size() != 1 || out.ordinals[0] < 1) {
      why = "expected a device count of at least 1, not '" + spec + "'";
      return true;
    }
    out.count = static_cast<unsigned>(out.ordinals[0]);
    out.ordinals.clear();
  } else {
    out.count = static_cast<unsigned>(out.ordinals.size());
  }
  return true;
}

namespace {

/// Device d's share of `threads` host threads over n devices: at least one.
int threadShare(int threads, unsigned n, unsigned d) {
  int count = static_cast<int>(n);
  int share = threads / count + (static_cast<int>(d) < threads % count);
  return std::max(1, share);
}

size_t elementSize(int type) {
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
uint64_t orderedKey(int type, const char *p) {
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
  void *allocate(uint64_t bytes) override {
    return memory ? memory->allocate(bytes) : devices[0]->allocate(bytes);
  }
  void deallocate(void *p) override {
    if (memory)
      memory->deallocate(p);
    else
      devices[0]->deallocate(p);
  }
  Status copyHostToDevice(void *dst, const void *src, uint64_t bytes) override {
    return onFirstDevice(devices[0]->copyHostToDevice(dst, src, bytes));
  }
  Status copyDeviceToHost(void *dst, const void *src, uint64_t bytes) override {
    return devices[0]->copyDeviceToHost(dst, src, bytes);
  }
  Status copyDeviceToDevice(void *dst, const void *src,
                            uint64_t bytes) override {
    // Each device writes its own bytes of the destination (all of them, for
    // a replicated one: its copy), reading the source wherever it lives.
    for (unsigned d = 0; d < numDevices; ++d) {
      auto [lo, hi] = ownedRange(dst, bytes, d);
      if (lo < hi)
        countAccess(d, static_cast<const char *>(src) + lo, hi - lo, false);
    }
    return onFirstDevice(devices[0]->copyDeviceToDevice(dst, src, bytes));
  }
  Status memset(void *dst, int value, uint64_t bytes) override {
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
      auto start = std::chrono::steady_clock::now();
      Status st = devices[d]->launchSlice(m, kernel, s, args);
      double ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - start)
                      .count();
      std::lock_guard<std::mutex> lock(mutex);
      ++stats[d].slices;
      stats[d].ranks += s.end - s.begin;
      stats[d].ms += ms;
      return st;
    });
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
    std::vector<Slice> slices = plan(n, 1);
    return slices.back().chunkBase + slices.back().chunks;
  }

  void placeList(void *p, uint64_t count, uint64_t elementBytes) override {
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

Status MultiDeviceBackend::setPlacement(const void *p, int placement) {
  if (placement != BSGPRT_PLACEMENT_DISTRIBUTED &&
      placement != BSGPRT_PLACEMENT_REPLICATED)
    return Status::error(BSGPRT_ERROR_INVALID_VALUE,
                         "unknown placement " + std::to_string(placement));
  std::lock_guard<std::mutex> lock(mutex);
  auto it = placed.find(reinterpret_cast<uintptr_t>(p));
  if (it == placed.end())
    return Status::error(BSGPRT_ERROR_INVALID_POINTER,
                         "the list is not the start of a live dnew list");
  it->second.replicated = placement == BSGPRT_PLACEMENT_REPLICATED;
  return Status::ok();
}

int MultiDeviceBackend::ownerDevice(const void *p) {
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t base = 0;
  const Placed *pl = findLocked(p, base);
  if (!pl || pl->replicated)
    return -1;
  uint64_t element = (reinterpret_cast<uintptr_t>(p) - base) / pl->elementBytes;
  return static_cast<int>(sliceOwner(pl->count, numDevices, element));
}

void MultiDeviceBackend::printProfile(FILE *out) {
  std::lock_guard<std::mutex> lock(mutex);
  std::fprintf(out,
               "devices of %s (kernel slices; bytes read or written in "
               "another device's slice, as the runtime sees them):\n",
               name.c_str());
  std::fprintf(out, "%-8s  %10s  %12s  %12s  %14s  %14s  %10s\n", "device",
               "slices", "ranks", "kernel ms", "remote read", "remote write",
               "accesses");
  for (unsigned d = 0; d < numDevices; ++d) {
    const DeviceStats &s = stats[d];
    std::fprintf(out,
                 "%-8u  %10" PRIu64 "  %12" PRIu64 "  %12.3f  %14" PRIu64
                 "  %14" PRIu64 "  %10" PRIu64 "\n",
                 d, s.slices, s.ranks, s.ms, s.remoteReadBytes,
                 s.remoteWriteBytes, s.remoteAccesses);
  }
}

//===----------------------------------------------------------------------===//
// List primitives across devices
//===----------------------------------------------------------------------===//

Status MultiDeviceBackend::listReduce(int op, int type, const void *in,
                                      uint64_t n, void *result) {
  if (memory)
    return Backend::listReduce(op, type, in, n, result);
  size_t es = elementSize(type);
  const char *bytes = static_cast<const char *>(in);
  std::vector<char> partials(numDevices * es);
  if (Status s = forDevices([&](unsigned d) {
        uint64_t b = begin(n, d), e = begin(n, d + 1);
        countAccess(d, bytes + b * es, (e - b) * es, false);
        return devices[d]->listReduce(op, type, bytes + b * es, e - b,
                                      partials.data() + d * es);
      });
      s.failed())
    return s;
  // The all-reduce of the partials, in device order.
  return cpu::listReduce(op, type, partials.data(), numDevices, result);
}

Status MultiDeviceBackend::listScanExclusiveFrom(int op, int type,
                                                 const void *in, void *out,
                                                 uint64_t n, const void *init,
                                                 void *total) {
  if (memory)
    return Backend::listScanExclusiveFrom(op, type, in, out, n, init, total);
  size_t es = elementSize(type);
  const char *src = static_cast<const char *>(in);
  char *dst = static_cast<char *>(out);
  std::vector<char> partials(numDevices * es), prefixes(numDevices * es),
      totals(numDevices * es);
  // Each device reduces its slice; an exclusive scan of the partials gives
  // each device its prefix; each device scans its slice from there. The
  // partials are all taken before any slice is written (in may be out).
  if (Status s = forDevices([&](unsigned d) {
        uint64_t b = begin(n, d), e = begin(n, d + 1);
        countAccess(d, src + b * es, (e - b) * es, false);
        return devices[d]->listReduce(op, type, src + b * es, e - b,
                                      partials.data() + d * es);
      });
      s.failed())
    return s;
  if (Status s = cpu::listScanExclusive(
          op, type, partials.data(), prefixes.data(), numDevices, total, init);
      s.failed())
    return s;
  return forDevices([&](unsigned d) {
    uint64_t b = begin(n, d), e = begin(n, d + 1);
    countAccess(d, dst + b * es, (e - b) * es, true);
    return devices[d]->listScanExclusiveFrom(
        op, type, src + b * es, dst + b * es, e - b, prefixes.data() + d * es,
        totals.data() + d * es);
  });
}

Status MultiDeviceBackend::listSortPairs(int type, void *keys, uint32_t *values,
                                         uint64_t n) {
  if (memory)
    return Backend::listSortPairs(type, keys, values, n);
  if (n < 2)
    return Status::ok();
  size_t ks = elementSize(type);
  char *k = static_cast<char *>(keys);
  // Each device sorts its slice (stable); sortMerge then gives each device
  // its slice of the result.
  if (Status s = forDevices([&](unsigned d) {
        uint64_t b = begin(n, d), e = begin(n, d + 1);
        return devices[d]->listSortPairs(type, k + b * ks, values + b, e - b);
      });
      s.failed())
    return s;
  return sortMerge(type, k, values, n);
}

/// The all-to-all of the sort. Device d's output slice [begin(d),
/// begin(d+1)) of the sorted list takes, from each device r's sorted run,
/// the elements that rank there in the order (key, r, position), which is
/// the stable order of the whole list since runs are in rank order. The
/// split points are found by a binary search on the keys' ordered images;
/// each device then merges its pieces.
Status MultiDeviceBackend::sortMerge(int type, char *keys, uint32_t *values,
                                     uint64_t n) {
  size_t ks = elementSize(type);
  unsigned D = numDevices;
  auto image = [&](unsigned r, uint64_t i) {
    return orderedKey(type, keys + (begin(n, r) + i) * ks);
  };
  auto runLength = [&](unsigned r) { return begin(n, r + 1) - begin(n, r); };
  // First position in run r whose image is > v (upper) or >= v (lower).
  auto bound = [&](unsigned r, uint64_t v, bool upper) {
    uint64_t lo = 0, hi = runLength(r);
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      uint64_t x = image(r, mid);
      if (upper ? x <= v : x < v)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  };
  // split[p][r]: how many of run r's elements precede output position
  // begin(n, p).
  std::vector<std::vector<uint64_t>> split(D + 1, std::vector<uint64_t>(D));
  for (unsigned p = 0; p <= D; ++p) {
    uint64_t pos = begin(n, p);
    if (pos == 0)
      continue;
    if (pos == n) {
      for (unsigned r = 0; r < D; ++r)
        split[p][r] = runLength(r);
      continue;
    }
    // The smallest v with at least pos images <= v.
    uint64_t lo = 0, hi = UINT64_MAX;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2, le = 0;
      for (unsigned r = 0; r < D; ++r)
        le += bound(r, mid, true);
      if (le >= pos)
        hi = mid;
      else
        lo = mid + 1;
    }
    uint64_t taken = 0;
    for (unsigned r = 0; r < D; ++r)
      taken += split[p][r] = bound(r, lo, false);
    // Keys equal to lo fill the rest, from the lowest run up.
    for (unsigned r = 0; r < D && taken < pos; ++r) {
      uint64_t more = std::min(pos - taken, bound(r, lo, true) - split[p][r]);
      split[p][r] += more;
      taken += more;
    }
  }
  std::vector<char> outKeys(n * ks);
  std::vector<uint32_t> outValues(n);
  if (Status s = forDevices([&](unsigned d) {
        std::vector<uint64_t> cur(split[d]), end(split[d + 1]);
        for (unsigned r = 0; r < D; ++r)
          if (r != d)
            countAccess(d, keys + (begin(n, r) + cur[r]) * ks,
                        (end[r] - cur[r]) * ks, false);
        for (uint64_t o = begin(n, d); o < begin(n, d + 1); ++o) {
          unsigned best = D;
          uint64_t bestImage = 0;
          for (unsigned r = 0; r < D; ++r) {
            if (cur[r] == end[r])
              continue;
            uint64_t x = image(r, cur[r]);
            if (best == D || x < bestImage) {
              best = r;
              bestImage = x;
            }
          }
          uint64_t from = begin(n, best) + cur[best]++;
          std::memcpy(&outKeys[o * ks], keys + from * ks, ks);
          outValues[o] = values[from];
        }
        return Status::ok();
      });
      s.failed())
    return s;
  return forDevices([&](unsigned d) {
    uint64_t b = begin(n, d), e = begin(n, d + 1);
    if (e > b) {
      std::memcpy(keys + b * ks, &outKeys[b * ks], (e - b) * ks);
      std::memcpy(values + b, &outValues[b], (e - b) * 4);
    }
    return Status::ok();
  });
}

/// Runs an index primitive (partition or compact) of each device on its
/// slice of `flags`, into `local[d]` with local ranks, its count in
/// `counts[d]`.
template <typename Primitive>
Status
MultiDeviceBackend::localIndexRuns(const uint32_t *flags, uint64_t n,
                                   std::vector<std::vector<uint32_t>> &local,
                                   std::vector<uint64_t> &counts,
                                   Primitive primitive) {
  return forDevices([&](unsigned d) {
    uint64_t b = begin(n, d), e = begin(n, d + 1);
    local[d].resize(e - b);
    countAccess(d, flags + b, (e - b) * 4, false);
    return primitive(*devices[d], flags + b, local[d].data(), e - b,
                     &counts[d]);
  });
}

Status MultiDeviceBackend::listPartitionIndex(const uint32_t *flags,
                                              uint32_t *index, uint64_t n,
                                              uint64_t *zeros) {
  if (memory)
    return Backend::listPartitionIndex(flags, index, n, zeros);
  // Each device partitions its slice; a scan of the devices' counts of
  // zeros and ones places each device's two runs.
  std::vector<std::vector<uint32_t>> local(numDevices);
  std::vector<uint64_t> z(numDevices);
  if (Status s = localIndexRuns(
          flags, n, local, z,
          [](Backend &dev, const uint32_t *f, uint32_t *i, uint64_t m,
             uint64_t *c) { return dev.listPartitionIndex(f, i, m, c); });
      s.failed())
    return s;
  uint64_t totalZeros = 0;
  for (uint64_t c : z)
    totalZeros += c;
  std::vector<uint64_t> zeroAt(numDevices), oneAt(numDevices);
  uint64_t zpos = 0, opos = totalZeros;
  for (unsigned d = 0; d < numDevices; ++d) {
    zeroAt[d] = zpos;
    oneAt[d] = opos;
    zpos += z[d];
    opos += local[d].size() - z[d];
  }
  *zeros = totalZeros;
  return forDevices([&](unsigned d) {
    const std::vector<uint32_t> &l = local[d];
    writeRun(d, n, index, zeroAt[d], l.data(), z[d]);
    writeRun(d, n, index, oneAt[d], l.data() + z[d], l.size() - z[d]);
    return Status::ok();
  });
}

Status MultiDeviceBackend::listCompactIndex(const uint32_t *flags,
                                            uint32_t *index, uint64_t n,
                                            uint64_t *kept) {
  if (memory)
    return Backend::listCompactIndex(flags, index, n, kept);
  std::vector<std::vector<uint32_t>> local(numDevices);
  std::vector<uint64_t> k(numDevices);
  if (Status s = localIndexRuns(
          flags, n, local, k,
          [](Backend &dev, const uint32_t *f, uint32_t *i, uint64_t m,
             uint64_t *c) { return dev.listCompactIndex(f, i, m, c); });
      s.failed())
    return s;
  std::vector<uint64_t> at(numDevices);
  uint64_t pos = 0;
  for (unsigned d = 0; d < numDevices; ++d) {
    at[d] = pos;
    pos += k[d];
  }
  *kept = pos;
  return forDevices([&](unsigned d) {
    writeRun(d, n, index, at[d], local[d].data(), k[d]);
    return Status::ok();
  });
}

Status MultiDeviceBackend::listExpandIndex(const uint32_t *offsets,
                                           const uint32_t *counts,
                                           uint32_t *parent, uint64_t n) {
  if (memory)
    return Backend::listExpandIndex(offsets, counts, parent, n);
  // The device expands its slice with local indices, then adds its first
  // rank to every entry it wrote. offsets is the exclusive scan of counts,
  // so those entries are the contiguous run [offsets[b], offsets[e-1] +
  // counts[e-1]) of parent, which is what the remote count assumes; the
  // fix-up itself visits each parent's entries, whatever the offsets.
  return forDevices([&](unsigned d) {
    uint64_t b = begin(n, d), e = begin(n, d + 1);
    if (b == e)
      return Status::ok();
    countAccess(d, offsets + b, (e - b) * 4, false);
    countAccess(d, counts + b, (e - b) * 4, false);
    if (Status s =
            devices[d]->listExpandIndex(offsets + b, counts + b, parent, e - b);
        s.failed())
      return s;
    uint64_t lo = offsets[b], hi = uint64_t(offsets[e - 1]) + counts[e - 1];
    if (hi > lo)
      countAccess(d, parent + lo, (hi - lo) * 4, true);
    for (uint64_t i = b; i < e; ++i)
      for (uint32_t j = 0; j < counts[i]; ++j)
        parent[uint64_t(offsets[i]) + j] += static_cast<uint32_t>(b);
    return Status::ok();
  });
}

} // namespace

std::unique_ptr<Backend>
createMultiDeviceBackend(std::vector<std::unique_ptr<Backend>> children,
                         std::string name, std::unique_ptr<SpanMemory> memory) {
  return std::make_unique<MultiDeviceBackend>(
      std::move(children), std::move(name), std::move(memory));
}

std::unique_ptr<Backend>
createMultiDeviceBackend(const MultiDeviceRequest &request, std::string &why) {
  if (request.kind == "cuda") {
    std::vector<std::unique_ptr<Backend>> children;
    std::unique_ptr<SpanMemory> memory;
    if (!createCUDABackends(request.ordinals, request.all, children, memory,
                            why)) {
      why = "no such cuda devices (" + why + ")";
      return nullptr;
    }
    std::string name = "cuda:";
    for (size_t i = 0; i < request.ordinals.size(); ++i)
      name += (i ? "," : "") + std::to_string(request.ordinals[i]);
    if (request.all)
      name += "all";
    return createMultiDeviceBackend(std::move(children), name,
                                    std::move(memory));
  }
  if (request.kind == "vulkan") {
    std::vector<std::unique_ptr<Backend>> children;
    std::unique_ptr<SpanMemory> memory;
    if (request.all || request.count < 1 || request.count > 64)
      why = "expected vulkan:N with 1 <= N <= 64";
    else if (createVulkanBackends(request.count, children, memory, why))
      return createMultiDeviceBackend(std::move(children),
                                      "vulkan:" + std::to_string(request.count),
                                      std::move(memory));
    return nullptr;
  }
  if (request.all || request.count < 1 || request.count > 1024) {
    why = "expected cpu:N with 1 <= N <= 1024";
    return nullptr;
  }
  int threads = omp_get_max_threads();
  unsigned n = request.count;
  std::vector<std::unique_ptr<Backend>> children;
  for (unsigned d = 0; d < n; ++d)
    children.push_back(createCPUBackend(threadShare(threads, n, d)));
  return createMultiDeviceBackend(std::move(children),
                                  "cpu:" + std::to_string(n));
}

std::unique_ptr<Backend> createMultiDeviceBackend(const std::string &request,
                                                  std::string &why) {
  MultiDeviceRequest parsed;
  why.clear();
  if (!parseMultiDeviceRequest(request, parsed, why) || !why.empty())
    return nullptr;
  return createMultiDeviceBackend(parsed, why);
}

} // namespace bsgprt

using namespace bsgprt;

extern "C" {

int bsgprt_device_count(void) {
  return static_cast<int>(currentBackend().deviceCount());
}

int bsgprt_list_set_placement(const void *list, int placement) {
  Status s = currentBackend().setPlacement(list, placement);
  reportStatus(s, "bsgprt_list_set_placement");
  return s.code;
}

int bsgprt_list_device(const void *p) {
  return currentBackend().ownerDevice(p);
}

uint64_t bsgprt_remote_bytes(void) { return currentBackend().remoteBytes(); }

} // extern "C"
