//===- Backend.h - The device interface every backend implements-*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// All device memory and every launch of libbsgprt go through one Backend.
// Backends only talk to the device; allocation bookkeeping, the temporary
// pool, error reporting and profiling live in Runtime.cpp, above them.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_RUNTIME_LIB_BACKEND_H
#define BSGP_RUNTIME_LIB_BACKEND_H

#include "bsgp/runtime.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace bsgprt {

/// Outcome of a backend call: a BSGPRT_* code and, on failure, what went
/// wrong (without the srcloc prefix, which the caller adds).
struct Status {
  int code = BSGPRT_SUCCESS;
  std::string message;

  static Status ok() { return {}; }
  static Status error(int code, std::string message) {
    return {code, std::move(message)};
  }
  bool failed() const { return code != BSGPRT_SUCCESS; }
};

class Backend {
public:
  virtual ~Backend();

  /// "cpu", "cuda: <name>", "vulkan: <name>".
  virtual const char *deviceName() const = 0;

  /// bsgprt_zero_counter's ring of zeroed words on this device (null until
  /// first asked) and the next word it hands out.
  void *zeroCounters = nullptr;
  uint32_t nextZeroCounter = 0;

  /// The device's memory in bytes, or 0 when it has none of its own (the
  /// cpu backend); sizes the pool of temporaries.
  virtual uint64_t memoryBytes() const { return 0; }

  /// The start of the device allocation holding `p`, or 0 when the backend
  /// cannot tell; asked for memory the runtime did not allocate.
  virtual uintptr_t allocationBase(const void *p) {
    (void)p;
    return 0;
  }

  /// Returns null when the device is out of memory.
  virtual void *allocate(uint64_t bytes) = 0;
  virtual void deallocate(void *p) = 0;

  virtual Status copyHostToDevice(void *dst, const void *src,
                                  uint64_t bytes) = 0;
  virtual Status copyDeviceToHost(void *dst, const void *src,
                                  uint64_t bytes) = 0;
  virtual Status copyDeviceToDevice(void *dst, const void *src,
                                    uint64_t bytes) = 0;
  virtual Status memset(void *dst, int value, uint64_t bytes) = 0;

  /// Runs kernel `kernel` of `m` on ranks [0, n) and waits for it. The
  /// caller has checked that `kernel` is in range and n > 0.
  virtual Status launch(const bsgprt_module_desc &m, uint32_t kernel,
                        uint64_t n, const void *args) = 0;
  virtual Status synchronize() = 0;

  /// \name Grid loops (bsgp-fuse-uniform-loops)
  /// A kernel made of a whole uniform loop waits at grid-wide barriers, so
  /// all its blocks must run at once. A backend that can launch it so says
  /// so for a launch of n threads; the program runs the loop's supersteps
  /// one launch each where it cannot.
  /// @{
  virtual bool canLaunchCooperative(const bsgprt_module_desc &m,
                                    uint32_t kernel, uint64_t n) {
    (void)m;
    (void)kernel;
    (void)n;
    return false;
  }
  /// Launches the grid-loop kernel with as many blocks as are resident at
  /// once, at most those n threads need; asynchronous, as launch.
  virtual Status launchCooperative(const bsgprt_module_desc &m, uint32_t kernel,
                                   uint64_t n, const void *args) {
    (void)m;
    (void)kernel;
    (void)n;
    (void)args;
    return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                         "this backend has no cooperative launch");
  }
  /// @}

  /// \name Devices of a multi-device backend (MultiDevice.h)
  /// @{
  /// Ranks [begin, end) of a launch of n ranks, run as `chunks` contiguous
  /// chunks numbered chunkBase, chunkBase + 1, ... (bsgprt_cpu_chunk_index):
  /// the part of a spawn one device of several runs.
  struct Slice {
    uint64_t begin = 0, end = 0, n = 0;
    uint64_t chunks = 1, chunkBase = 0;
  };
  /// Runs one slice of a launch and waits for it. Backends that cannot run
  /// a slice (their kernels take no first rank yet) report so.
  virtual Status launchSlice(const bsgprt_module_desc &m, uint32_t kernel,
                             const Slice &slice, const void *args);
  /// How many chunks a slice of `ranks` ranks launched from the calling
  /// thread runs in (0 for none). The cpu backend's rule; see CPUBackend.cpp.
  virtual uint64_t sliceChunkCount(uint64_t ranks) const;
  /// bsgprt_cpu_chunk_count: the chunks of a whole launch of n ranks. A
  /// multi-device backend adds up its devices' chunks.
  virtual uint64_t cpuChunkCount(uint64_t n) const {
    return sliceChunkCount(n);
  }
  /// A dnew or dtempnew list of `count` elements of `elementBytes` bytes
  /// was just allocated at `p` (or freed, with count 0): a multi-device
  /// backend places it in rank-aligned slices.
  virtual void placeList(void *p, uint64_t count, uint64_t elementBytes) {
    (void)p;
    (void)count;
    (void)elementBytes;
  }
  /// bsgprt_list_set_placement; a single device accepts every placement.
  virtual Status setPlacement(const void *p, int placement) {
    (void)p;
    (void)placement;
    return Status::ok();
  }
  /// How many devices the backend runs on (bsgprt_device_count).
  virtual unsigned deviceCount() const { return 1; }
  /// The device holding the byte at `p` of a placed list; -1 when it is
  /// replicated or not a list of the runtime; 0 on a single device.
  virtual int ownerDevice(const void *p) {
    (void)p;
    return 0;
  }
  /// Bytes the runtime saw a device read or write in another device's
  /// slice since start or resetProfile (bsgprt_remote_bytes).
  virtual uint64_t remoteBytes() const { return 0; }
  /// Appends the backend's own lines to the BSGP_PROFILE report (a
  /// multi-device backend: per-device times and remote accesses), and
  /// forgets them (bsgprt_profile_reset).
  virtual void printProfile(FILE *out) { (void)out; }
  virtual void resetProfile() {}
  /// The device of the scope open now (bsgprt_device_scope_begin), or -1:
  /// no scope, or a single device, whose scopes change nothing. The
  /// runtime keeps a scope's temporaries in a pool of their own.
  virtual int deviceScope() const { return -1; }
  /// Until endDeviceScope, launches, copies, memsets and allocations go to
  /// `device` alone, launches over all their ranks and without waiting for
  /// the other devices (MultiDeviceSort.cpp). Device 0 of one is accepted.
  virtual Status beginDeviceScope(int device);
  /// Waits for every device that ran work in a scope since the last end.
  virtual Status endDeviceScope() { return Status::ok(); }
  /// bsgprt_sort_across_devices: whether the collective library sorts n
  /// pairs as sorted runs per device exchanged by exchangeSortedRuns.
  virtual bool sortAcrossDevices(uint64_t n) const {
    (void)n;
    return false;
  }
  /// Device d's slice [floor(n d / D), floor(n (d+1) / D)) of keys and
  /// values is sorted (stably) for every device d: writes to each device's
  /// slice of outKeys and outValues the pieces of every run that its part
  /// of the stable order of the whole takes, run after run, so that a
  /// stable sort of each slice then orders the whole list.
  virtual Status exchangeSortedRuns(int type, const void *keys,
                                    const uint32_t *values, void *outKeys,
                                    uint32_t *outValues, uint64_t n);
  /// After exchangeSortedRuns: where run r's piece starts in device d's
  /// output slice (r == D: the slice's length).
  virtual uint64_t exchangedPiece(unsigned d, unsigned r) const {
    (void)d;
    (void)r;
    return 0;
  }
  /// @}

  /// Prepares the device code of a module registered at start-up
  /// (bsgprt_register_module) before its first launch: the cuda backend
  /// JIT-compiles its PTX. Best effort: a failure here is reported by the
  /// module's first launch, which tries again.
  virtual void prepare(const bsgprt_module_desc &m) { (void)m; }

  /// \name Device timing (BSGP_PROFILE)
  /// A backend that times kernels on the device without making the host
  /// wait (CUDA events, Vulkan timestamp queries) says so in
  /// hasDeviceTimer; the runtime then launches through launchTimed while
  /// profiling and later collects the kernel times in launch order. Others
  /// are timed on the host around a launch followed by synchronize.
  /// @{
  virtual bool hasDeviceTimer() const { return false; }
  /// As launch, and records the kernel's device time for collectTimes.
  virtual Status launchTimed(const bsgprt_module_desc &m, uint32_t kernel,
                             uint64_t n, const void *args) {
    return launch(m, kernel, n, args);
  }
  /// Appends to `ms` the times of the oldest timed launches not collected
  /// yet, in launch order: those that have finished, or all when `wait`.
  /// A failure means the times not collected yet are lost: the runtime
  /// forgets its launches not collected, and the backend its times.
  virtual Status collectTimes(bool wait, std::vector<double> &ms) {
    (void)wait;
    (void)ms;
    return Status::ok();
  }
  /// @}

  /// True when the list primitives below run on the backend's own device
  /// (the cpu backend's OpenMP versions). The collective library then calls
  /// them; otherwise it runs its own BSGP versions of those it has, which
  /// run on the device instead of the defaults' host round trips.
  virtual bool nativeListPrimitives() const { return false; }
  /// bsgprt_single_pass_forms: whether a look-back inside a superstep pays
  /// (not where its slices would run one device after another).
  virtual bool singlePassForms() const { return true; }

  /// \name List primitives (docs/collectives.md)
  /// Device-wide operations on lists in device memory, called from the
  /// require blocks of the collective library. The defaults report that the
  /// backend has none, so a backend can add them one at a time. `type` is a
  /// bsgprt_list_type, `op` a bsgprt_list_op; the C ABI has checked both.
  /// @{
  /// *result = op-reduction of in[0, n) (the identity when n == 0).
  virtual Status listReduce(int op, int type, const void *in, uint64_t n,
                            void *result);
  /// out[i] = op-reduction of in[0, i); *total = of in[0, n). in may be out.
  virtual Status listScanExclusive(int op, int type, const void *in, void *out,
                                   uint64_t n, void *total);
  /// As listScanExclusive, starting from *init instead of the identity:
  /// out[i] = init op in[0] op ... op in[i-1]; *total includes init. One
  /// device's part of a scan across devices.
  virtual Status listScanExclusiveFrom(int op, int type, const void *in,
                                       void *out, uint64_t n, const void *init,
                                       void *total);
  /// Stable ascending sort of keys[0, n), permuting values alike.
  virtual Status listSortPairs(int type, void *keys, uint32_t *values,
                               uint64_t n);
  /// Stable partition of the ranks [0, n) by flags[i] != 0: index receives
  /// the ranks with a zero flag, then the others; *zeros = how many zeros.
  virtual Status listPartitionIndex(const uint32_t *flags, uint32_t *index,
                                    uint64_t n, uint64_t *zeros);
  /// index[0, *kept) = the ranks i with flags[i] != 0, ascending.
  virtual Status listCompactIndex(const uint32_t *flags, uint32_t *index,
                                  uint64_t n, uint64_t *kept);
  /// parent[offsets[i] + j] = i for j < counts[i]: the inverse of an
  /// exclusive scan of counts (thread.fork).
  virtual Status listExpandIndex(const uint32_t *offsets,
                                 const uint32_t *counts, uint32_t *parent,
                                 uint64_t n);
  /// @}
};

/// Parses "<digits>[K|M|G]" (binary multiples) as BSGP_POOL_LIMIT and
/// BSGP_SORT_ACROSS_MIN take it; false on anything else (Env.cpp).
bool parseByteCount(const char *s, uint64_t &out);
/// The backend in use, chosen at first use (Runtime.cpp).
Backend &currentBackend();
/// Reports a failed \p s through the user's error handler, as "<what>:
/// <message>"; does nothing for success.
void reportStatus(const Status &s, const char *what);

/// The OpenMP implementations of the list primitives (CPUListPrimitives.cpp),
/// used by the cpu backend.
namespace cpu {
Status listReduce(int op, int type, const void *in, uint64_t n, void *result);
Status listScanExclusive(int op, int type, const void *in, void *out,
                         uint64_t n, void *total, const void *init = nullptr);
Status listSortPairs(int type, void *keys, uint32_t *values, uint64_t n);
Status listPartitionIndex(const uint32_t *flags, uint32_t *index, uint64_t n,
                          uint64_t *zeros);
Status listCompactIndex(const uint32_t *flags, uint32_t *index, uint64_t n,
                        uint64_t *kept);
Status listExpandIndex(const uint32_t *offsets, const uint32_t *counts,
                       uint32_t *parent, uint64_t n);
} // namespace cpu

/// Memory laid over the devices of a multi-device backend whose devices
/// have memories of their own (cuda:all): one range of addresses per
/// allocation, whose parts live on different devices and which every
/// device's kernels can read and write.
class SpanMemory {
public:
  virtual ~SpanMemory();
  /// Null when out of memory.
  virtual void *allocate(uint64_t bytes) = 0;
  virtual void deallocate(void *p) = 0;
  /// False when large allocations are not spread: the driver lacks the
  /// virtual memory API and everything lives on the first device (cuda),
  /// or every list is host memory all devices map (vulkan:N). The first
  /// device's memory then bounds the lists.
  virtual bool spansDevices() const = 0;
  /// A piece of an exchange between devices: `bytes` from `src` in device
  /// `from`'s memory to `dst` in device `to`'s.
  struct PeerCopy {
    unsigned from = 0, to = 0;
    const void *src = nullptr;
    void *dst = nullptr;
    uint64_t bytes = 0;
  };
  /// Moves every piece at once with a transport of its own (NCCL on
  /// GPUs), and waits for them; `done` false when it has none, and the
  /// backend then copies them itself.
  virtual Status exchange(const std::vector<PeerCopy> &pieces, bool &done) {
    (void)pieces;
    done = false;
    return Status::ok();
  }
};

/// A transport that moves the pieces of an exchange between GPUs at once.
class PeerExchange {
public:
  virtual ~PeerExchange();
  /// Posts every piece between two different devices; the caller then
  /// waits for the devices.
  virtual Status run(const std::vector<SpanMemory::PeerCopy> &pieces) = 0;
};
/// NCCL's point-to-point calls over the CUDA devices of these ordinals
/// (NCCLExchange.cpp), or null with `why` set where libnccl does not load.
std::unique_ptr<PeerExchange>
createNCCLExchange(const std::vector<int> &ordinals, std::string &why);

/// Each factory returns null and sets `why` when its device is unusable.
/// \p threads > 0 gives the device that many OpenMP threads (a cpu device
/// of several); 0 lets OpenMP choose.
std::unique_ptr<Backend> createCPUBackend(int threads = 0);
std::unique_ptr<Backend> createCUDABackend(std::string &why);
/// cuda:0,1 (the ordinals) or cuda:all: one backend per device, each with
/// its device's primary context, peer access between every pair, and
/// `memory` over all of them. False with `why` set when a device is
/// missing.
bool createCUDABackends(const std::vector<int> &ordinals, bool all,
                        std::vector<std::unique_ptr<Backend>> &devices,
                        std::unique_ptr<SpanMemory> &memory, std::string &why);
/// vulkan:N: \p count vulkan backends, each with its own instance, device
/// and queue, and `memory` over them: every list is host memory imported
/// into every device at one device address (VulkanShared.cpp). False with
/// `why` set when a device is missing, cannot import host memory, or maps
/// it at another address than the first device.
bool createVulkanBackends(unsigned count,
                          std::vector<std::unique_ptr<Backend>> &devices,
                          std::unique_ptr<SpanMemory> &memory,
                          std::string &why);
/// Empty when every device imported a host allocation at the device
/// address the first did (`addresses`, one per device); else why vulkan:N
/// cannot run on them.
std::string sharedAddressMismatch(const std::vector<uint64_t> &addresses);
/// With \p allowCPUDevice false, a Vulkan implementation on the CPU
/// (lavapipe) does not count as a device: the default order prefers the cpu
/// backend to it. \p withoutFeatures names optional device features
/// ("shaderFloat64", ...) to leave disabled as if the device lacked them,
/// so that tests see on any device what a device without them does.
std::unique_ptr<Backend>
createVulkanBackend(std::string &why, bool allowCPUDevice = true,
                    const std::vector<std::string> &withoutFeatures = {});

} // namespace bsgprt

#endif // BSGP_RUNTIME_LIB_BACKEND_H
