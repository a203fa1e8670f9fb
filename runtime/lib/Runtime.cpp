//===- Runtime.cpp - libbsgprt C ABI: selection, memory, errors, profile --===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Everything above the backends: choosing one at first use, the table of live
// allocations (used to catch bad frees and overrunning copies), the pool of
// temporaries, error reporting through the user's handler, and per-kernel
// launch timing.
//
// The error handler is always called with the state lock released, so a
// handler may call back into the runtime, and the default handler's exit(1)
// can run the profile report (which takes the lock) from atexit.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "Messages.h"
#include "MultiDevice.h"
#include "Trace.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace bsgprt {

Backend::~Backend() = default;

namespace {

constexpr uint64_t DefaultPoolLimit = uint64_t(1) << 30;

enum class AllocKind { DNew, Temp };

struct Allocation {
  uint64_t size;     ///< Bytes the program asked for.
  uint64_t capacity; ///< Bytes actually allocated (a size class for Temp).
  AllocKind kind;
  std::string srcloc;
  int scope; ///< The device scope it was made in (Backend::deviceScope).
};

struct KernelStats {
  std::string srcloc;
  std::string name;
  uint64_t launches = 0;
  double totalMs = 0;
  uint64_t elements = 0;
};

/// An error to report once the lock is released.
struct Pending {
  int code = BSGPRT_SUCCESS;
  std::string message;
  /// What follows the message when a handler gets it and the program goes
  /// on (the backend it falls back to), and when the default handler
  /// prints it and stops (what to do instead): a message never says the
  /// program falls back and then stops.
  std::string ifHandled;
  std::string ifStopping;
  bool failed() const { return code != BSGPRT_SUCCESS; }
};

struct State {
  std::mutex mutex;
  std::unique_ptr<Backend> backend;
  bool backendChosen = false;
  /// Modules registered at start-up (bsgprt_register_module), prepared by
  /// each backend when it is chosen.
  std::vector<const bsgprt_module_desc *> registered;

  std::map<uintptr_t, Allocation> allocations;
  /// Freed temporaries by device scope and capacity, so that a scope's
  /// temporaries (on its device, maybe in use there) serve only it.
  std::multimap<std::pair<int, uint64_t>, void *> pool;
  uint64_t poolCached = 0;
  uint64_t poolLimit = DefaultPoolLimit;
  /// BSGP_POOL_LIMIT or bsgprt_set_pool_limit chose poolLimit.
  bool poolLimitChosen = false;

  /// Bytes held from the backend (live allocations' capacities plus the
  /// pool) and bytes the program asked for that are live, with their
  /// peaks since start or the last bsgprt_memory_reset_peak.
  uint64_t deviceBytes = 0, peakDeviceBytes = 0;
  uint64_t liveBytes = 0, peakLiveBytes = 0;

  bsgprt_error_handler handler = nullptr;
  void *handlerUser = nullptr;
  int lastError = BSGPRT_SUCCESS;
  std::string lastMessage;

  bool profiling = false;
  bool reportAtExitRegistered = false;
  std::map<LaunchSite, KernelStats> stats;
  /// Launches timed on the device whose times are not collected yet, in
  /// launch order. Guarded by timingMutex, which is held across a timed
  /// launch so that this order is the backend's.
  std::deque<LaunchSite> timedLaunches;
  std::mutex timingMutex;

  State();
};

void printProfileAtExit();

bool envFlag(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

State::State() {
  if (const char *limit = std::getenv("BSGP_POOL_LIMIT")) {
    poolLimitChosen = true;
    if (!parseByteCount(limit, poolLimit)) {
      std::fprintf(stderr,
                   "bsgprt: warning: ignoring BSGP_POOL_LIMIT='%s' (expected "
                   "a byte count such as 536870912 or 512M)\n",
                   limit);
      poolLimit = DefaultPoolLimit;
    }
  }
  // The report at exit is registered once the backend exists (backend()):
  // exit runs handlers in reverse order, and the report must run before the
  // device driver's own clean-up, which the backend's start registered.
  profiling = envFlag("BSGP_PROFILE");
  setHostTimings(profiling);
}

/// Never destroyed: atexit handlers and late frees from static destructors
/// of the program must still find it.
State &state() {
  static State *s = new State();
  return *s;
}

Pending makeError(int code, const char *srcloc, const std::string &what) {
  Pending e;
  e.code = code;
  e.message = rangeStart(srcloc) + ": runtime error: " + what;
  return e;
}

void report(const Pending &e) {
  if (!e.failed())
    return;
  State &st = state();
  bsgprt_error_handler h;
  void *user;
  std::string handled = e.message + e.ifHandled;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    st.lastError = e.code;
    st.lastMessage = handled;
    h = st.handler;
    user = st.handlerUser;
  }
  if (h) {
    h(e.code, handled.c_str(), user);
    return;
  }
  std::fprintf(stderr, "%s%s\n", e.message.c_str(), e.ifStopping.c_str());
  std::fflush(stderr);
  std::exit(1);
}

/// Picks the backend for `request` ("cpu", "cuda", "vulkan", or empty for
/// the default order). Falls back to cpu, with an error when the request
/// named a device that is not there.
Pending chooseBackendLocked(State &st, const std::string &request,
                            const char *origin) {
  std::string why;
  st.backendChosen = true;
  st.backend.reset();
  if (request.empty()) {
    // cuda, then vulkan on a GPU (a Vulkan implementation on the CPU is
    // slower than the native cpu backend), then cpu.
    st.backend = createCUDABackend(why);
    if (!st.backend)
      st.backend = createVulkanBackend(why, /*allowCPUDevice=*/false);
    if (!st.backend)
      st.backend = createCPUBackend();
    return {};
  }
  if (request == "cpu") {
    st.backend = createCPUBackend();
    return {};
  }
  // A handler that returns gets the cpu backend; without one the program
  // stops, saying how to run it.
  auto fallBack = [&](Pending e) {
    st.backend = createCPUBackend();
    e.ifHandled = "; using the cpu backend";
    e.ifStopping = std::string(origin) == "BSGP_DEVICE="
                       ? "; set BSGP_DEVICE=cpu, or leave it unset, to run "
                         "on the cpu"
                       : "; choose device cpu to run on the cpu";
    return e;
  };
  if (request == "cuda" || request == "vulkan") {
    st.backend =
        request == "cuda" ? createCUDABackend(why) : createVulkanBackend(why);
    if (st.backend)
      return {};
    return fallBack(makeError(BSGPRT_ERROR_NO_DEVICE, nullptr,
                              std::string(origin) + request + ": no " +
                                  request + " device (" + why + ")"));
  }
  if ((st.backend = createMultiDeviceBackend(request, why)))
    return {};
  return fallBack(makeError(
      BSGPRT_ERROR_INVALID_VALUE, nullptr,
      std::string(origin) + request + ": " +
          (why.empty() ? "unknown device (expected cpu, cuda, vulkan, "
                         "cuda:all, cuda:N,M, vulkan:N or cpu:N)"
                       : why)));
}

/// Unless the user chose one, the pool may keep a quarter of a GPU's
/// memory: a program whose temporaries are larger than a fixed limit would
/// otherwise allocate and free them at every spawn (cuMemFree waits for
/// the device).
void applyDefaultPoolLimitLocked(State &st) {
  if (!st.poolLimitChosen && st.backend)
    st.poolLimit = std::max(DefaultPoolLimit, st.backend->memoryBytes() / 4);
}

/// Lets `b`, just chosen, prepare the registered modules. Outside the
/// state lock: JIT compilation takes a while, and the backend has its own.
void prepareRegistered(State &st, Backend *b) {
  std::vector<const bsgprt_module_desc *> modules;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    modules = st.registered;
  }
  for (const bsgprt_module_desc *m : modules)
    b->prepare(*m);
}

/// The current backend, chosen on first use; a backend chosen here
/// prepares the registered modules unless `prepare` is false.
Backend &backend(bool prepare = true) {
  State &st = state();
  Pending p;
  Backend *b;
  bool chosen = false;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    if (!st.backendChosen) {
      chosen = true;
      const char *env = std::getenv("BSGP_DEVICE");
      p = chooseBackendLocked(st, env ? env : "", "BSGP_DEVICE=");
      applyDefaultPoolLimitLocked(st);
      if (st.profiling && !st.reportAtExitRegistered &&
          envFlag("BSGP_PROFILE")) {
        st.reportAtExitRegistered = true;
        std::atexit(printProfileAtExit);
      }
    }
    b = st.backend.get();
  }
  report(p);
  if (chosen && prepare)
    prepareRegistered(st, b);
  return *b;
}

/// Size classes: 256-byte granules up to 1 KiB, then four classes per power
/// of two, so a reused buffer wastes at most a quarter of its size.
uint64_t sizeClass(uint64_t bytes) {
  if (bytes <= 1024)
    return bytes <= 256 ? 256 : (bytes + 255) & ~uint64_t(255);
  if (bytes > (uint64_t(1) << 62))
    return bytes;
  unsigned log2 = 63 - static_cast<unsigned>(__builtin_clzll(bytes));
  uint64_t granule = uint64_t(1) << (log2 - 2);
  return (bytes + granule - 1) & ~(granule - 1);
}

/// Every device allocation and free of the runtime goes through these two,
/// so that the memory statistics see them all.
void *backendAllocateLocked(State &st, uint64_t capacity) {
  void *p = st.backend->allocate(capacity);
  if (p) {
    st.deviceBytes += capacity;
    st.peakDeviceBytes = std::max(st.peakDeviceBytes, st.deviceBytes);
  }
  return p;
}

void backendDeallocateLocked(State &st, void *p, uint64_t capacity) {
  st.backend->deallocate(p);
  st.deviceBytes -= std::min(st.deviceBytes, capacity);
}

void trimPoolLocked(State &st) {
  for (auto &entry : st.pool)
    backendDeallocateLocked(st, entry.second, entry.first.second);
  st.pool.clear();
  st.poolCached = 0;
}

void shrinkPoolLocked(State &st) {
  // Largest buffers go first: they free the most memory per driver call.
  while (st.poolCached > st.poolLimit && !st.pool.empty()) {
    auto last = std::prev(st.pool.end());
    backendDeallocateLocked(st, last->second, last->first.second);
    st.poolCached -= last->first.second;
    st.pool.erase(last);
  }
}

void *allocate(uint64_t bytes, const char *srcloc, AllocKind kind) {
  State &st = state();
  backend(); // chooses the backend on first use
  HostStep step(kind == AllocKind::DNew ? "dnew" : "temporary list", bytes);
  Pending err;
  void *p = nullptr;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    uint64_t capacity = bytes;
    int scope = st.backend->deviceScope();
    if (kind == AllocKind::Temp) {
      capacity = sizeClass(bytes);
      auto it = st.pool.lower_bound({scope, capacity});
      // Best fit, but never hand out a buffer twice the class or more.
      if (it != st.pool.end() && it->first.first == scope &&
          it->first.second / 2 < capacity) {
        p = it->second;
        capacity = it->first.second;
        st.poolCached -= capacity;
        st.pool.erase(it);
      }
    }
    if (!p) {
      p = backendAllocateLocked(st, capacity);
      if (!p && !st.pool.empty()) {
        trimPoolLocked(st);
        p = backendAllocateLocked(st, capacity);
      }
    }
    if (p) {
      st.allocations[reinterpret_cast<uintptr_t>(p)] = {
          bytes, capacity, kind, srcloc ? srcloc : "", scope};
      st.backend->placeList(p, bytes, 1);
      st.liveBytes += bytes;
      st.peakLiveBytes = std::max(st.peakLiveBytes, st.liveBytes);
      traceMemory(st.deviceBytes, st.liveBytes);
    } else
      err = makeError(BSGPRT_ERROR_OUT_OF_MEMORY, srcloc,
                      "out of device memory allocating " +
                          std::to_string(bytes) + " bytes for " +
                          (kind == AllocKind::DNew ? "dnew" : "dtempnew"));
  }
  report(err);
  return p;
}

/// dnew[count]T: the count is the program's (a signed 64-bit int), so it
/// is checked here, where the message can name the source line, rather than
/// wrapped into a byte count by the compiled code.
void *allocateElements(int64_t count, uint64_t elementBytes, const char *srcloc,
                       AllocKind kind) {
  const char *what = kind == AllocKind::DNew ? "dnew" : "dtempnew";
  uint64_t bytes;
  if (count < 0) {
    report(makeError(BSGPRT_ERROR_INVALID_VALUE, srcloc,
                     std::string(what) + " of a negative number of elements (" +
                         std::to_string(count) + ")"));
    return nullptr;
  }
  if (__builtin_mul_overflow(static_cast<uint64_t>(count), elementBytes,
                             &bytes)) {
    report(makeError(BSGPRT_ERROR_INVALID_VALUE, srcloc,
                     std::string(what) + " of " + std::to_string(count) +
                         " elements of " + std::to_string(elementBytes) +
                         " bytes: the size does not fit in 64 bits"));
    return nullptr;
  }
  void *p = allocate(bytes, srcloc, kind);
  if (p && count)
    backend().placeList(p, static_cast<uint64_t>(count), elementBytes);
  return p;
}

/// Describes a pointer passed to a free that the runtime cannot free.
Pending badFreeLocked(State &st, void *p, const char *fn, const char *srcloc) {
  uintptr_t addr = reinterpret_cast<uintptr_t>(p);
  auto it = st.allocations.upper_bound(addr);
  if (it != st.allocations.begin()) {
    --it;
    if (addr < it->first + std::max<uint64_t>(it->second.size, 1))
      return makeError(BSGPRT_ERROR_INVALID_POINTER, it->second.srcloc.c_str(),
                       std::string(fn) + " of " + hexPointer(p) +
                           ", which points " +
                           std::to_string(addr - it->first) +
                           " bytes into the allocation made here");
  }
  return makeError(BSGPRT_ERROR_INVALID_POINTER, srcloc,
                   std::string(fn) + " of " + hexPointer(p) +
                       ", which the runtime did not allocate or has "
                       "already freed");
}

void release(void *p, AllocKind kind, const char *srcloc = nullptr) {
  if (!p)
    return;
  State &st = state();
  backend(); // chooses the backend on first use
  HostStep step(kind == AllocKind::DNew ? "ddelete" : "free temporary", 0);
  Pending err;
  const char *fn = kind == AllocKind::DNew ? "dfree" : "temp_free";
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    auto it = st.allocations.find(reinterpret_cast<uintptr_t>(p));
    if (it == st.allocations.end()) {
      err = badFreeLocked(st, p, fn, srcloc);
    } else if (it->second.kind != kind) {
      err = makeError(BSGPRT_ERROR_INVALID_POINTER, it->second.srcloc.c_str(),
                      std::string(fn) + " of " + hexPointer(p) +
                          ", which was allocated " +
                          (it->second.kind == AllocKind::DNew ? "by dnew"
                                                              : "as a "
                                                                "temporary") +
                          " here");
    } else {
      uint64_t capacity = it->second.capacity;
      int scope = it->second.scope;
      st.liveBytes -= std::min(st.liveBytes, it->second.size);
      st.allocations.erase(it);
      st.backend->placeList(p, 0, 0);
      traceMemory(st.deviceBytes, st.liveBytes);
      if (kind == AllocKind::Temp && capacity <= st.poolLimit) {
        st.pool.emplace(std::make_pair(scope, capacity), p);
        st.poolCached += capacity;
        shrinkPoolLocked(st);
      } else {
        backendDeallocateLocked(st, p, capacity);
      }
    }
  }
  report(err);
}

/// When [p, p+bytes) starts inside a runtime allocation it must end inside
/// it too. Addresses outside every allocation are not checked: on the cpu
/// backend they are ordinary host memory.
Pending checkRangeLocked(State &st, const void *p, uint64_t bytes,
                         const char *fn, const char *role) {
  if (!bytes)
    return {};
  uintptr_t addr = reinterpret_cast<uintptr_t>(p);
  auto it = st.allocations.upper_bound(addr);
  if (it == st.allocations.begin())
    return {};
  --it;
  uint64_t base = it->first, size = it->second.size;
  if (addr > base + size)
    return {};
  uint64_t offset = addr - base;
  if (bytes <= size - offset)
    return {};
  return makeError(
      BSGPRT_ERROR_INVALID_POINTER, it->second.srcloc.c_str(),
      std::string(fn) + " of " + std::to_string(bytes) +
          " bytes overruns the " + role + ", a " + std::to_string(size) +
          "-byte allocation made here, at offset " + std::to_string(offset));
}

enum class CopyKind { HtoD, DtoH, DtoD };

void copy(void *dst, const void *src, uint64_t bytes, CopyKind kind) {
  if (!bytes)
    return;
  State &st = state();
  Backend &b = backend();
  static const char *const names[] = {"memcpy_htod", "memcpy_dtoh",
                                      "memcpy_dtod"};
  const char *fn = names[static_cast<int>(kind)];
  HostStep step(fn, bytes);
  Pending err;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    err = checkRangeLocked(st, dst, bytes, fn, "destination");
    if (!err.failed())
      err = checkRangeLocked(st, src, bytes, fn, "source");
  }
  if (!err.failed()) {
    Status s = kind == CopyKind::HtoD   ? b.copyHostToDevice(dst, src, bytes)
               : kind == CopyKind::DtoH ? b.copyDeviceToHost(dst, src, bytes)
                                        : b.copyDeviceToDevice(dst, src, bytes);
    if (s.failed())
      err = makeError(s.code, nullptr, s.message);
  }
  report(err);
}

/// Adds the device times of finished timed launches (all when `wait`) to
/// the statistics.
void collectDeviceTimes(bool wait) {
  State &st = state();
  std::lock_guard<std::mutex> timing(st.timingMutex);
  Backend *b;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    b = st.backend.get();
    if (!b || st.timedLaunches.empty())
      return;
  }
  std::vector<double> ms;
  Status s = b->collectTimes(wait, ms);
  std::lock_guard<std::mutex> lock(st.mutex);
  for (double t : ms) {
    if (st.timedLaunches.empty())
      break;
    auto it = st.stats.find(st.timedLaunches.front());
    if (it != st.stats.end())
      it->second.totalMs += t;
    st.timedLaunches.pop_front();
  }
  // Times that cannot be had (a failed kernel) are dropped, not waited for.
  if (s.failed())
    st.timedLaunches.clear();
}

void printProfile(FILE *out) {
  State &st = state();
  collectDeviceTimes(/*wait=*/true);
  std::vector<KernelStats> rows;
  std::string device;
  uint64_t peakDevice, peakLive;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    for (auto &entry : st.stats)
      rows.push_back(entry.second);
    device = st.backend ? st.backend->deviceName() : "none";
    peakDevice = st.peakDeviceBytes;
    peakLive = st.peakLiveBytes;
  }
  std::sort(rows.begin(), rows.end(),
            [](const KernelStats &a, const KernelStats &b) {
              if (a.totalMs != b.totalMs)
                return a.totalMs > b.totalMs;
              return a.srcloc < b.srcloc;
            });
  size_t locWidth = 6, nameWidth = 6;
  for (const KernelStats &r : rows) {
    locWidth = std::max(locWidth, r.srcloc.size());
    nameWidth = std::max(nameWidth, r.name.size());
  }
  int lw = static_cast<int>(locWidth), nw = static_cast<int>(nameWidth);
  std::fprintf(out, "=== bsgprt profile (device: %s) ===\n", device.c_str());
  std::fprintf(out, "%-*s  %-*s  %10s  %12s  %12s  %14s\n", lw, "srcloc", nw,
               "kernel", "launches", "total ms", "mean ms", "elements");
  for (const KernelStats &r : rows)
    std::fprintf(
        out, "%-*s  %-*s  %10" PRIu64 "  %12.3f  %12.3f  %14" PRIu64 "\n", lw,
        r.srcloc.c_str(), nw, r.name.c_str(), r.launches, r.totalMs,
        r.launches ? r.totalMs / r.launches : 0.0, r.elements);
  printHostTimings(out);
  if (Backend *b = st.backend.get())
    b->printProfile(out);
  std::fprintf(out,
               "peak device memory: %" PRIu64 " bytes held (%" PRIu64
               " bytes in live lists and temporaries)\n",
               peakDevice, peakLive);
  std::fflush(out);
}

void printProfileAtExit() { printProfile(stderr); }

} // namespace

Backend &currentBackend() { return backend(); }

void reportStatus(const Status &s, const char *what) {
  if (s.failed())
    report(makeError(s.code, nullptr, std::string(what) + ": " + s.message));
}

/// A module compiled for another runtime ABI cannot be launched.
Pending checkABIVersion(const bsgprt_module_desc &m) {
  if (m.abi_version == BSGPRT_ABI_VERSION)
    return {};
  return makeError(BSGPRT_ERROR_INVALID_VALUE, m.source_file,
                   "module was compiled for runtime ABI version " +
                       std::to_string(m.abi_version) +
                       ", this runtime implements " +
                       std::to_string(BSGPRT_ABI_VERSION));
}

} // namespace bsgprt

using namespace bsgprt;

extern "C" {

void bsgprt_register_module(const bsgprt_module_desc *m) {
  if (!m)
    return report(makeError(BSGPRT_ERROR_INVALID_VALUE, nullptr,
                            "registration of a null module"));
  if (Pending p = checkABIVersion(*m); p.failed())
    return report(p);
  State &st = state();
  Backend *b = nullptr;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    st.registered.push_back(m);
    if (st.backendChosen)
      b = st.backend.get();
  }
  // A library loaded after the backend started.
  if (b)
    b->prepare(*m);
}

/// bsgprt_launch, and with `cooperative` bsgprt_launch_cooperative: a
/// grid-loop kernel, timed on the host (its blocks wait for each other).
static void launchKernel(const bsgprt_module_desc *m, uint32_t kernel,
                         uint64_t nthreads, const void *args,
                         bool cooperative) {
  if (!m)
    return report(makeError(BSGPRT_ERROR_INVALID_VALUE, nullptr,
                            "launch of a null module"));
  if (Pending p = checkABIVersion(*m); p.failed())
    return report(p);
  if (kernel >= m->num_kernels || !m->kernels)
    return report(makeError(BSGPRT_ERROR_INVALID_VALUE, m->source_file,
                            "launch of kernel " + std::to_string(kernel) +
                                " of a module with " +
                                std::to_string(m->num_kernels) + " kernels"));
  const bsgprt_kernel_desc &k = m->kernels[kernel];
  // Compiled code sign-extends the spawn's int count, so `spawn (-5)`
  // arrives as -5 rather than as 4294967291 threads.
  if (static_cast<int64_t>(nthreads) < 0)
    return report(
        makeError(BSGPRT_ERROR_INVALID_VALUE, k.srcloc,
                  "launch of kernel '" + std::string(k.name ? k.name : "?") +
                      "' with a negative thread count (" +
                      std::to_string(static_cast<int64_t>(nthreads)) + ")"));
  // thread.rank and thread.size are ints in BSGP: past INT32_MAX ranks the
  // kernels' ranks would wrap around, so such a launch never starts.
  if (nthreads > static_cast<uint64_t>(INT32_MAX))
    return report(makeError(
        BSGPRT_ERROR_INVALID_VALUE, k.srcloc,
        "launch of kernel '" + std::string(k.name ? k.name : "?") + "' with " +
            std::to_string(nthreads) +
            " threads; BSGP ranks are 32-bit ints, so a spawn has at most " +
            std::to_string(INT32_MAX) + " threads"));
  State &st = state();
  Backend &b = backend();
  bool profiling;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    profiling = st.profiling;
  }
  Status s;
  double ms = 0;
  // A trace wants each kernel's start and end on the host's clock.
  bool deviceTimed = profiling && nthreads && b.hasDeviceTimer() &&
                     !traceEnabled() && !cooperative;
  auto record = [&] {
    std::lock_guard<std::mutex> lock(st.mutex);
    const char *callsite = currentCallSite();
    KernelStats &ks = st.stats[{m, kernel, callsite}];
    if (!ks.launches) {
      ks.srcloc = describeLaunchSite(k.srcloc, callsite);
      ks.name = k.name ? k.name : "?";
    }
    ++ks.launches;
    ks.totalMs += ms;
    ks.elements += nthreads;
    if (deviceTimed && !s.failed())
      st.timedLaunches.push_back({m, kernel, callsite});
  };
  if (deviceTimed) {
    // Timed by the device: the host does not wait, so the profile shows
    // the kernels as they run in the program, overlapped with host work.
    size_t backlog;
    {
      std::lock_guard<std::mutex> timing(st.timingMutex);
      s = b.launchTimed(*m, kernel, nthreads, args);
      record();
      std::lock_guard<std::mutex> lock(st.mutex);
      backlog = st.timedLaunches.size();
    }
    if (backlog >= 1024)
      collectDeviceTimes(/*wait=*/false);
  } else {
    if (nthreads) {
      auto start = std::chrono::steady_clock::now();
      double traceStart = traceNow();
      s = cooperative ? b.launchCooperative(*m, kernel, nthreads, args)
                      : b.launch(*m, kernel, nthreads, args);
      // Asynchronous backends are timed to the kernel's end.
      if ((profiling || traceEnabled()) && !s.failed())
        s = b.synchronize();
      auto stop = std::chrono::steady_clock::now();
      traceKernel(k.name, k.srcloc, nthreads, traceStart, traceNow());
      ms = std::chrono::duration<double, std::milli>(stop - start).count();
    }
    if (profiling)
      record();
  }
  if (s.failed())
    report(makeError(s.code, k.srcloc, s.message));
}

void bsgprt_launch(const bsgprt_module_desc *m, uint32_t kernel,
                   uint64_t nthreads, const void *args) {
  launchKernel(m, kernel, nthreads, args, /*cooperative=*/false);
}

int bsgprt_can_launch_cooperative(const bsgprt_module_desc *m, uint32_t kernel,
                                  uint64_t nthreads) {
  if (!m || kernel >= m->num_kernels || !m->kernels ||
      checkABIVersion(*m).failed())
    return 0;
  // BSGP_GRID_LOOPS=0 runs every uniform loop one launch per superstep.
  static const bool on =
      !std::getenv("BSGP_GRID_LOOPS") || envFlag("BSGP_GRID_LOOPS");
  return on && static_cast<int64_t>(nthreads) > 0 &&
         backend().canLaunchCooperative(*m, kernel, nthreads);
}
void bsgprt_launch_cooperative(const bsgprt_module_desc *m, uint32_t kernel,
                               uint64_t nthreads, const void *args) {
  launchKernel(m, kernel, nthreads, args, /*cooperative=*/true);
}

int32_t bsgprt_spawn_count(int64_t n, const char *srcloc) {
  if (n >= 0 && n <= INT32_MAX)
    return static_cast<int32_t>(n);
  if (n < 0)
    report(makeError(BSGPRT_ERROR_INVALID_VALUE, srcloc,
                     "spawn with a negative thread count (" +
                         std::to_string(n) + ")"));
  else
    report(makeError(BSGPRT_ERROR_INVALID_VALUE, srcloc,
                     "spawn of " + std::to_string(n) +
                         " threads; BSGP ranks are 32-bit ints, so a spawn "
                         "has at most " +
                         std::to_string(INT32_MAX) + " threads"));
  return 0;
}

void *bsgprt_dnew(uint64_t bytes, const char *srcloc) {
  return allocate(bytes, srcloc, AllocKind::DNew);
}

void bsgprt_dfree(void *p) { release(p, AllocKind::DNew); }

void bsgprt_dfree_at(void *p, const char *srcloc) {
  release(p, AllocKind::DNew, srcloc);
}

void *bsgprt_temp_alloc(uint64_t bytes, const char *srcloc) {
  return allocate(bytes, srcloc, AllocKind::Temp);
}

void bsgprt_temp_free(void *p) { release(p, AllocKind::Temp); }

void *bsgprt_dnew_elements(int64_t count, uint64_t elementBytes,
                           const char *srcloc) {
  return allocateElements(count, elementBytes, srcloc, AllocKind::DNew);
}

void *bsgprt_temp_alloc_elements(int64_t count, uint64_t elementBytes,
                                 const char *srcloc) {
  return allocateElements(count, elementBytes, srcloc, AllocKind::Temp);
}

void bsgprt_fork_size_error(uint64_t total) {
  report(makeError(BSGPRT_ERROR_INVALID_VALUE, currentCallSite(),
                   "thread.fork makes " + std::to_string(total) +
                       " threads; BSGP ranks are 32-bit ints, so a spawn "
                       "has at most 2147483647 threads"));
}

int bsgprt_distinct_allocations(const void *a, const void *b) {
  State &st = state();
  Backend &dev = backend();
  std::lock_guard<std::mutex> lock(st.mutex);
  // The start of the live allocation holding `p`, or 0. Memory the runtime
  // did not allocate (cudaMalloc'd lists passed in, say) is the backend's
  // to place.
  auto baseOf = [&](const void *p) -> uintptr_t {
    uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    auto it = st.allocations.upper_bound(addr);
    if (it != st.allocations.begin()) {
      --it;
      if (addr - it->first < std::max<uint64_t>(it->second.size, 1))
        return it->first;
    }
    return p ? dev.allocationBase(p) : 0;
  };
  uintptr_t baseA = baseOf(a), baseB = baseOf(b);
  return baseA && baseB && baseA != baseB;
}

void bsgprt_memcpy_htod(void *dst, const void *src, uint64_t bytes) {
  copy(dst, src, bytes, CopyKind::HtoD);
}

void bsgprt_memcpy_dtoh(void *dst, const void *src, uint64_t bytes) {
  copy(dst, src, bytes, CopyKind::DtoH);
}

void bsgprt_memcpy_dtod(void *dst, const void *src, uint64_t bytes) {
  copy(dst, src, bytes, CopyKind::DtoD);
}

void bsgprt_memset_d(void *dst, int value, uint64_t bytes) {
  if (!bytes)
    return;
  HostStep step("memset_d", bytes);
  State &st = state();
  Backend &b = backend();
  Pending err;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    err = checkRangeLocked(st, dst, bytes, "memset_d", "destination");
  }
  if (!err.failed()) {
    Status s = b.memset(dst, value, bytes);
    if (s.failed())
      err = makeError(s.code, nullptr, s.message);
  }
  report(err);
}

void bsgprt_synchronize(void) {
  Status s = backend().synchronize();
  if (s.failed())
    report(makeError(s.code, nullptr, s.message));
}

const char *bsgprt_device_name(void) { return backend().deviceName(); }

int bsgprt_target(void) {
  // deviceName() is "cpu", "cuda: <name>" or "vulkan: <name>".
  const char *name = backend().deviceName();
  if (std::strncmp(name, "cuda", 4) == 0)
    return BSGPRT_TARGET_CUDA;
  if (std::strncmp(name, "vulkan", 6) == 0)
    return BSGPRT_TARGET_VULKAN;
  return BSGPRT_TARGET_CPU;
}

void bsgprt_set_error_handler(bsgprt_error_handler h, void *user) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  st.handler = h;
  st.handlerUser = user;
}

int bsgprt_get_last_error(void) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  return st.lastError;
}

const char *bsgprt_get_last_error_message(void) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  return st.lastMessage.c_str();
}

void bsgprt_clear_last_error(void) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  st.lastError = BSGPRT_SUCCESS;
  st.lastMessage.clear();
}

void bsgprt_profile_report(FILE *out) { printProfile(out ? out : stderr); }

void bsgprt_profile_enable(int on) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  st.profiling = on != 0;
  setHostTimings(on != 0);
}

void bsgprt_profile_reset(void) {
  State &st = state();
  collectDeviceTimes(/*wait=*/true);
  std::lock_guard<std::mutex> lock(st.mutex);
  st.stats.clear();
  resetHostTimings();
  if (st.backend)
    st.backend->resetProfile();
}

void bsgprt_memory_stats(bsgprt_memory_stats_t *out) {
  if (!out)
    return;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  out->device_bytes = st.deviceBytes;
  out->peak_device_bytes = st.peakDeviceBytes;
  out->live_bytes = st.liveBytes;
  out->peak_live_bytes = st.peakLiveBytes;
}

void bsgprt_memory_reset_peak(void) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  st.peakDeviceBytes = st.deviceBytes;
  st.peakLiveBytes = st.liveBytes;
}

void bsgprt_set_pool_limit(uint64_t bytes) {
  State &st = state();
  backend();
  std::lock_guard<std::mutex> lock(st.mutex);
  st.poolLimit = bytes;
  st.poolLimitChosen = true;
  shrinkPoolLocked(st);
}

uint64_t bsgprt_get_pool_limit(void) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  return st.poolLimit;
}

uint64_t bsgprt_pool_cached_bytes(void) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  return st.poolCached;
}

void bsgprt_pool_trim(void) {
  State &st = state();
  backend();
  std::lock_guard<std::mutex> lock(st.mutex);
  trimPoolLocked(st);
}

int bsgprt_select_device(const char *name) {
  State &st = state();
  // The backend about to be replaced need not prepare anything.
  backend(/*prepare=*/false);
  // Times the old backend still holds would otherwise be matched with the
  // new backend's launches.
  collectDeviceTimes(/*wait=*/true);
  Pending err;
  Backend *chosen = nullptr;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    trimPoolLocked(st);
    if (!st.allocations.empty()) {
      err = makeError(BSGPRT_ERROR_INVALID_VALUE, nullptr,
                      "cannot switch device while " +
                          std::to_string(st.allocations.size()) +
                          " runtime allocations are live");
    } else if (name) {
      err = chooseBackendLocked(st, name, "device ");
      applyDefaultPoolLimitLocked(st);
      chosen = st.backend.get();
    } else {
      const char *env = std::getenv("BSGP_DEVICE");
      err = chooseBackendLocked(st, env ? env : "", "BSGP_DEVICE=");
      applyDefaultPoolLimitLocked(st);
      chosen = st.backend.get();
    }
  }
  report(err);
  if (chosen)
    prepareRegistered(st, chosen);
  return err.code;
}

} // extern "C"
