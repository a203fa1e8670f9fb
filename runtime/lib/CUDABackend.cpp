//===- CUDABackend.cpp - CUDA driver API backend loaded at run time -------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The driver is opened with dlopen("libcuda.so.1") so that libbsgprt neither
// needs the CUDA toolkit to build nor a GPU to run: without the driver this
// backend simply reports that there is no device. Only the handful of driver
// entry points used are declared here, with their documented C signatures.
//
// A module's PTX is JIT-loaded once, on its first launch. Kernels take four
// parameters, (.param .align 8 .b8 args[args_size], .param .u64 size,
// .param .u64 first, .param .u64 end): ranks [first, end) of a launch of
// size, [0, size) on one device.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <vector>

namespace bsgprt {
namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUoccupancyB2DSize = size_t (*)(int);

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_GENERATE_LINE_INFO = 13;

constexpr int DefaultBlockSize = 256;
/// Resident threads per multiprocessor on sm_75 and later (2048 on most,
/// 1024 on some): a cap on the grid of strided kernels, never a limit on
/// what runs.
constexpr uint64_t kMaxThreadsPerMultiprocessor = 2048;
/// How many times the resident threads a strided launch may have, unless
/// BSGP_CUDA_WAVES says otherwise (0: one thread per rank).
constexpr uint64_t kResidentWaves = 32;
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;

struct DriverAPI {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  /// Optional: sizes the pool of temporaries.
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  /// Optional: the number of multiprocessors sizes small launches.
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  /// Optional, all five: BSGP_PROFILE times kernels with events.
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventQuery)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  /// Optional: block size 256 is used without it.
  CUresult (*cuOccupancyMaxPotentialBlockSize)(int *, int *, CUfunction,
                                               CUoccupancyB2DSize, size_t, int);
  /// Optional, both: grid loops (bsgp-fuse-uniform-loops) run in one
  /// cooperative launch of as many blocks as are resident.
  CUresult (*cuLaunchCooperativeKernel)(CUfunction, unsigned, unsigned,
                                        unsigned, unsigned, unsigned, unsigned,
                                        unsigned, CUstream, void **);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction,
                                                          int, size_t);
  /// Optional: checks that a fixed work-group size fits the kernel.
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  /// Optional: the allocation a device pointer lies in, for
  /// bsgprt_distinct_allocations on memory the runtime did not allocate.
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
  /// Optional, for several devices (cuda:all): peer access and the virtual
  /// memory API that lays a list over them (CUDASpanMemory).
  CUresult (*cuDeviceCanAccessPeer)(int *, CUdevice, CUdevice);
  CUresult (*cuCtxEnablePeerAccess)(CUcontext, unsigned);
  CUresult (*cuMemGetAllocationGranularity)(size_t *, const void *, int);
  CUresult (*cuMemAddressReserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr,
                                  unsigned long long);
  CUresult (*cuMemAddressFree)(CUdeviceptr, size_t);
  CUresult (*cuMemCreate)(unsigned long long *, size_t, const void *,
                          unsigned long long);
  CUresult (*cuMemRelease)(unsigned long long);
  CUresult (*cuMemMap)(CUdeviceptr, size_t, size_t, unsigned long long,
                       unsigned long long);
  CUresult (*cuMemUnmap)(CUdeviceptr, size_t);
  CUresult (*cuMemSetAccess)(CUdeviceptr, size_t, const void *, size_t);
};

template <class Fn> bool lookup(void *lib, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  return fn != nullptr;
}

class CUDABackend final : public Backend {
public:
  /// Opens the driver and device `ordinal`; returns false with `why` set
  /// when either is missing.
  bool init(std::string &why, int ordinal = 0) {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      why = "libcuda.so.1 could not be loaded";
      return false;
    }
    DriverAPI &d = api;
    bool ok =
        lookup(lib, "cuInit", d.cuInit) &&
        lookup(lib, "cuDeviceGetCount", d.cuDeviceGetCount) &&
        lookup(lib, "cuDeviceGet", d.cuDeviceGet) &&
        lookup(lib, "cuDeviceGetName", d.cuDeviceGetName) &&
        lookup(lib, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain) &&
        lookup(lib, "cuCtxSetCurrent", d.cuCtxSetCurrent) &&
        lookup(lib, "cuCtxSynchronize", d.cuCtxSynchronize) &&
        lookup(lib, "cuModuleLoadDataEx", d.cuModuleLoadDataEx) &&
        lookup(lib, "cuModuleGetFunction", d.cuModuleGetFunction) &&
        lookup(lib, "cuMemAlloc_v2", d.cuMemAlloc) &&
        lookup(lib, "cuMemFree_v2", d.cuMemFree) &&
        lookup(lib, "cuMemcpyHtoD_v2", d.cuMemcpyHtoD) &&
        lookup(lib, "cuMemcpyDtoH_v2", d.cuMemcpyDtoH) &&
        lookup(lib, "cuMemcpyDtoD_v2", d.cuMemcpyDtoD) &&
        lookup(lib, "cuMemsetD8_v2", d.cuMemsetD8) &&
        lookup(lib, "cuLaunchKernel", d.cuLaunchKernel) &&
        lookup(lib, "cuGetErrorString", d.cuGetErrorString);
    if (!ok) {
      why = "libcuda.so.1 lacks a required driver entry point";
      return false;
    }
    lookup(lib, "cuOccupancyMaxPotentialBlockSize",
           d.cuOccupancyMaxPotentialBlockSize);
    lookup(lib, "cuDeviceGetAttribute", d.cuDeviceGetAttribute);
    lookup(lib, "cuFuncGetAttribute", d.cuFuncGetAttribute);
    lookup(lib, "cuLaunchCooperativeKernel", d.cuLaunchCooperativeKernel);
    lookup(lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
           d.cuOccupancyMaxActiveBlocksPerMultiprocessor);
    lookup(lib, "cuPointerGetAttribute", d.cuPointerGetAttribute);
    lookup(lib, "cuDeviceTotalMem_v2", d.cuDeviceTotalMem);
    lookup(lib, "cuDeviceCanAccessPeer", d.cuDeviceCanAccessPeer);
    lookup(lib, "cuCtxEnablePeerAccess", d.cuCtxEnablePeerAccess);
    lookup(lib, "cuMemGetAllocationGranularity",
           d.cuMemGetAllocationGranularity);
    lookup(lib, "cuMemAddressReserve", d.cuMemAddressReserve);
    lookup(lib, "cuMemAddressFree", d.cuMemAddressFree);
    lookup(lib, "cuMemCreate", d.cuMemCreate);
    lookup(lib, "cuMemRelease", d.cuMemRelease);
    lookup(lib, "cuMemMap", d.cuMemMap);
    lookup(lib, "cuMemUnmap", d.cuMemUnmap);
    lookup(lib, "cuMemSetAccess", d.cuMemSetAccess);
    hasEvents = lookup(lib, "cuEventCreate", d.cuEventCreate) &&
                lookup(lib, "cuEventRecord", d.cuEventRecord) &&
                lookup(lib, "cuEventQuery", d.cuEventQuery) &&
                lookup(lib, "cuEventSynchronize", d.cuEventSynchronize) &&
                lookup(lib, "cuEventElapsedTime", d.cuEventElapsedTime);

    int count = 0;
    if (CUresult r = d.cuInit(0)) {
      why = "cuInit failed: " + errorString(r);
      return false;
    }
    if (d.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
      why = "no CUDA device";
      return false;
    }
    if (ordinal < 0 || ordinal >= count) {
      why = "no CUDA device " + std::to_string(ordinal) + " (there are " +
            std::to_string(count) + ")";
      return false;
    }
    if (CUresult r = d.cuDeviceGet(&device, ordinal)) {
      why = "cuDeviceGet failed: " + errorString(r);
      return false;
    }
    if (CUresult r = d.cuDevicePrimaryCtxRetain(&context, device)) {
      why = "cannot create a CUDA context: " + errorString(r);
      return false;
    }
    d.cuCtxSetCurrent(context);
    // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    if (!d.cuDeviceGetAttribute ||
        d.cuDeviceGetAttribute(&multiprocessors, 16, device) != CUDA_SUCCESS)
      multiprocessors = 0;
    // CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH
    int coop = 0;
    cooperative = d.cuLaunchCooperativeKernel &&
                  d.cuOccupancyMaxActiveBlocksPerMultiprocessor &&
                  d.cuDeviceGetAttribute && multiprocessors > 0 &&
                  d.cuDeviceGetAttribute(&coop, 95, device) == CUDA_SUCCESS &&
                  coop != 0;
    // BSGP_SYNC=1 waits for every kernel, so that a fault is reported at
    // the launch that caused it (the profile waits too, to time kernels).
    if (const char *env = std::getenv("BSGP_SYNC"))
      syncEachLaunch = std::atoi(env) != 0;
    if (const char *env = std::getenv("BSGP_CUDA_WAVES")) {
      char *end = nullptr;
      unsigned long w = std::strtoul(env, &end, 10);
      if (end != env && *end == 0 && w <= 1024)
        residentWaves = w;
    }
    if (const char *env = std::getenv("BSGP_BLOCK_SIZE")) {
      int b = std::atoi(env);
      if (b >= 32 && b <= 1024 && b % 32 == 0)
        blockOverride = b;
    }
    char buf[256] = {0};
    if (d.cuDeviceGetName(buf, sizeof(buf) - 1, device) != CUDA_SUCCESS)
      std::strcpy(buf, "unknown device");
    name = std::string("cuda: ") + buf;
    return true;
  }

  const char *deviceName() const override { return name.c_str(); }

  uintptr_t allocationBase(const void *p) override {
    constexpr int RangeStartAddr = 11; // CU_POINTER_ATTRIBUTE_RANGE_START_ADDR
    CUdeviceptr base = 0;
    if (!api.cuPointerGetAttribute ||
        api.cuPointerGetAttribute(&base, RangeStartAddr,
                                  reinterpret_cast<CUdeviceptr>(p)) !=
            CUDA_SUCCESS)
      return 0;
    return static_cast<uintptr_t>(base);
  }

  uint64_t memoryBytes() const override {
    size_t bytes = 0;
    if (api.cuDeviceTotalMem &&
        api.cuDeviceTotalMem(&bytes, device) == CUDA_SUCCESS)
      return bytes;
    return 0;
  }

  void *allocate(uint64_t bytes) override {
    makeCurrent();
    CUdeviceptr p = 0;
    if (api.cuMemAlloc(&p, bytes ? bytes : 1) != CUDA_SUCCESS)
      return nullptr;
    return reinterpret_cast<void *>(static_cast<uintptr_t>(p));
  }
  void deallocate(void *p) override {
    makeCurrent();
    // A kernel still running may use the memory.
    if (pending)
      api.cuCtxSynchronize();
    pending = false;
    api.cuMemFree(ptr(p));
  }

  Status copyHostToDevice(void *dst, const void *src, uint64_t bytes) override {
    if (!bytes)
      return Status::ok();
    makeCurrent();
    return check(api.cuMemcpyHtoD(ptr(dst), src, bytes), "cuMemcpyHtoD");
  }
  Status copyDeviceToHost(void *dst, const void *src, uint64_t bytes) override {
    if (!bytes)
      return Status::ok();
    makeCurrent();
    return check(api.cuMemcpyDtoH(dst, ptr(src), bytes), "cuMemcpyDtoH");
  }
  Status copyDeviceToDevice(void *dst, const void *src,
                            uint64_t bytes) override {
    if (!bytes)
      return Status::ok();
    makeCurrent();
    return check(api.cuMemcpyDtoD(ptr(dst), ptr(src), bytes), "cuMemcpyDtoD");
  }
  Status memset(void *dst, int value, uint64_t bytes) override {
    if (!bytes)
      return Status::ok();
    makeCurrent();
    return check(
        api.cuMemsetD8(ptr(dst), static_cast<unsigned char>(value), bytes),
        "cuMemsetD8");
  }

  Status launch(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                const void *args) override {
    return launchRange(m, kernel, n, 0, n, args);
  }

  /// A device's slice of a launch across several (MultiDevice.cpp): the
  /// kernel runs ranks [begin, end) of n, and the launch waits for it.
  Status launchSlice(const bsgprt_module_desc &m, uint32_t kernel,
                     const Slice &slice, const void *args) override {
    if (slice.begin >= slice.end)
      return Status::ok();
    if (Status s =
            launchRange(m, kernel, slice.n, slice.begin, slice.end, args);
        s.failed())
      return s;
    return synchronize();
  }

  /// Kernels take (args, size, first, end) (ABI version 5) and run ranks
  /// [first, end) of a launch of `size`; the grid covers end - first ranks.
  Status launchRange(const bsgprt_module_desc &m, uint32_t kernel,
                     uint64_t size, uint64_t first, uint64_t last,
                     const void *args) {
    makeCurrent();
    uint64_t n = last - first;
    const bsgprt_kernel_desc &k = m.kernels[kernel];
    LoadedKernel *lk = nullptr;
    if (Status s = getKernel(m, kernel, lk); s.failed())
      return s;
    // Small launches use smaller blocks, down to two warps, so that every
    // multiprocessor gets work.
    uint64_t block = lk->blockSize;
    while (!lk->fixedBlock && !blockOverride && multiprocessors > 0 &&
           block > 64 &&
           (n + block - 1) / block < 2 * uint64_t(multiprocessors))
      block /= 2;
    uint64_t grid = (n + block - 1) / block;
    if (lk->fixedBlock && k.groups_per_block > 1) {
      // Full blocks of groups_per_block work groups, then one block for
      // each work group left (bsgprt_kernel_desc::groups_per_block).
      uint64_t perBlock = block * k.groups_per_block;
      uint64_t full = n / perBlock;
      grid = full + (n - full * perBlock + block - 1) / block;
      // A launch too small to give every multiprocessor a block runs a
      // block per work group instead (ABI version 7: the kernel tells the
      // two apart by the grid's size): on the H200 the sum of 10^5 values
      // took 391 work groups in 55 blocks.
      if (multiprocessors > 0 && grid < uint64_t(multiprocessors))
        grid = (n + block - 1) / block;
    }
    // Kernels without work-group operations loop over their ranks with the
    // grid's stride (ABI version 2): a few waves of resident blocks do, and
    // a launch of many cheap ranks no longer pays a block start for each
    // 256 of them.
    if (!lk->fixedBlock && multiprocessors > 0 && residentWaves > 0) {
      uint64_t cap = uint64_t(multiprocessors) *
                     (kMaxThreadsPerMultiprocessor / block) * residentWaves;
      if (cap > 0 && grid > cap)
        grid = cap;
    }
    if (grid > 0x7fffffffu)
      return Status::error(BSGPRT_ERROR_INVALID_VALUE,
                           "launch of " + std::to_string(n) +
                               " ranks exceeds the CUDA grid limit");
    // A kernel that captures nothing declares a one-byte argument struct;
    // the driver copies it from here.
    static const uint64_t kNoArgs = 0;
    if (!args)
      args = &kNoArgs;
    void *params[] = {const_cast<void *>(args), &size, &first, &last};
    // Launches are asynchronous: the default stream keeps supersteps in
    // order, and the host waits only where it needs results (copies,
    // frees, bsgprt_synchronize). The argument struct is copied at launch.
    CUresult r = api.cuLaunchKernel(lk->function, static_cast<unsigned>(grid),
                                    1, 1, static_cast<unsigned>(block), 1, 1, 0,
                                    nullptr, params, nullptr);
    if (r == CUDA_SUCCESS && syncEachLaunch)
      r = api.cuCtxSynchronize();
    if (r == CUDA_SUCCESS) {
      pending = true;
      lastLaunch =
          std::string(k.name) + "' (" + (k.srcloc ? k.srcloc : "?") + ")";
    }
    if (r != CUDA_SUCCESS)
      return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                           std::string("launch of kernel '") + k.name +
                               "' failed: " + errorString(r));
    return Status::ok();
  }

  Status synchronize() override {
    makeCurrent();
    return check(api.cuCtxSynchronize(), "cuCtxSynchronize");
  }

  bool canLaunchCooperative(const bsgprt_module_desc &m, uint32_t kernel,
                            uint64_t n) override {
    if (!cooperative || n == 0)
      return false;
    makeCurrent();
    LoadedKernel *lk = nullptr;
    return !getKernel(m, kernel, lk).failed() && !lk->fixedBlock &&
           residentBlocks(*lk, gridLoopBlock(*lk, n)) > 0;
  }

  Status launchCooperative(const bsgprt_module_desc &m, uint32_t kernel,
                           uint64_t n, const void *args) override {
    makeCurrent();
    const bsgprt_kernel_desc &k = m.kernels[kernel];
    LoadedKernel *lk = nullptr;
    if (Status s = getKernel(m, kernel, lk); s.failed())
      return s;
    int blockSize = gridLoopBlock(*lk, n);
    uint64_t block = uint64_t(blockSize);
    // Each grid barrier waits for every block: the fewest blocks that give
    // each rank a thread, and never more than are resident.
    uint64_t grid =
        std::min((n + block - 1) / block, residentBlocks(*lk, blockSize));
    if (grid == 0)
      return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                           std::string("kernel '") + k.name +
                               "' cannot run its blocks all at once");
    static const uint64_t kNoArgs = 0;
    if (!args)
      args = &kNoArgs;
    uint64_t size = n, first = 0, last = n;
    void *params[] = {const_cast<void *>(args), &size, &first, &last};
    CUresult r = api.cuLaunchCooperativeKernel(
        lk->function, static_cast<unsigned>(grid), 1, 1,
        static_cast<unsigned>(block), 1, 1, 0, nullptr, params);
    if (r == CUDA_SUCCESS && syncEachLaunch)
      r = api.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
      return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                           std::string("cooperative launch of kernel '") +
                               k.name + "' failed: " + errorString(r));
    pending = true;
    lastLaunch =
        std::string(k.name) + "' (" + (k.srcloc ? k.srcloc : "?") + ")";
    return Status::ok();
  }

  bool hasDeviceTimer() const override { return hasEvents; }

  Status launchTimed(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                     const void *args) override {
    makeCurrent();
    // Load the module first: its JIT compilation is host time, which the
    // start event would otherwise count as the first launch's.
    LoadedKernel *lk = nullptr;
    if (Status s = getKernel(m, kernel, lk); s.failed())
      return s;
    EventPair e;
    if (Status s = takeEvent(e.start); s.failed())
      return s;
    if (Status s = takeEvent(e.stop); s.failed()) {
      freeEvents.push_back(e.start);
      return s;
    }
    api.cuEventRecord(e.start, nullptr);
    Status s = launch(m, kernel, n, args);
    if (s.failed()) {
      freeEvents.push_back(e.start);
      freeEvents.push_back(e.stop);
      return s;
    }
    api.cuEventRecord(e.stop, nullptr);
    timed.push_back(e);
    return Status::ok();
  }

  Status collectTimes(bool wait, std::vector<double> &ms) override {
    makeCurrent();
    Status result;
    while (!timed.empty()) {
      EventPair e = timed.front();
      CUresult r =
          wait ? api.cuEventSynchronize(e.stop) : api.cuEventQuery(e.stop);
      if (r == CUDA_ERROR_NOT_READY)
        break;
      float t = 0;
      if (r == CUDA_SUCCESS)
        r = api.cuEventElapsedTime(&t, e.start, e.stop);
      timed.pop_front();
      freeEvents.push_back(e.start);
      freeEvents.push_back(e.stop);
      if (r != CUDA_SUCCESS) {
        result = check(r, "cuEventElapsedTime");
        // The runtime forgets all its launches not collected on an error;
        // their events would otherwise time its next launches.
        for (const EventPair &rest : timed) {
          freeEvents.push_back(rest.start);
          freeEvents.push_back(rest.stop);
        }
        timed.clear();
        break;
      }
      ms.push_back(t);
    }
    return result;
  }

  /// \name For CUDASpanMemory and createCUDABackends
  /// @{
  const DriverAPI &driver() const { return api; }
  CUdevice cuDevice() const { return device; }
  CUcontext cuContext() const { return context; }
  void makeCurrent() { api.cuCtxSetCurrent(context); }
  /// Lets this device's kernels read and write memory of `peer` allocated
  /// with cuMemAlloc (cuda:all places small lists there).
  void enablePeerAccess(const CUDABackend &peer) {
    int can = 0;
    if (!api.cuDeviceCanAccessPeer || !api.cuCtxEnablePeerAccess ||
        api.cuDeviceCanAccessPeer(&can, device, peer.device) != CUDA_SUCCESS ||
        !can)
      return;
    makeCurrent();
    // CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED (704) is fine.
    (void)api.cuCtxEnablePeerAccess(peer.context, 0);
  }
  /// @}

private:
  struct EventPair {
    CUevent start = nullptr, stop = nullptr;
  };

  Status takeEvent(CUevent &e) {
    if (!freeEvents.empty()) {
      e = freeEvents.back();
      freeEvents.pop_back();
      return Status::ok();
    }
    return check(api.cuEventCreate(&e, /*CU_EVENT_DEFAULT=*/0),
                 "cuEventCreate");
  }

  struct LoadedKernel {
    CUfunction function = nullptr;
    int blockSize = DefaultBlockSize;
    /// The kernel was compiled for work groups of exactly blockSize
    /// threads (bsgprt_kernel_desc::group_size): no heuristic may change it.
    bool fixedBlock = false;
    /// Blocks a multiprocessor holds at once, by block size (grid loops).
    std::map<int, int> residentPerMultiprocessor;
  };
  struct LoadedModule {
    CUmodule module = nullptr;
    std::vector<LoadedKernel> kernels;
    std::vector<bool> resolved;
  };

  void prepare(const bsgprt_module_desc &m) override {
    if (!m.ptx)
      return;
    makeCurrent();
    std::lock_guard<std::mutex> lock(mutex);
    // A failure is reported by the first launch, which tries again.
    (void)loadModuleLocked(m, modules[&m]);
  }

  /// JIT-compiles the PTX of `m` into `lm` unless that was done.
  Status loadModuleLocked(const bsgprt_module_desc &m, LoadedModule &lm) {
    if (!lm.module) {
      if (!m.ptx)
        return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                             "module has no PTX for the cuda backend");
      std::vector<char> log(8192, '\0');
      // PTX compiled with -g has .loc directives; the JIT keeps them (as
      // ptxas -lineinfo does) only when asked, and then Nsight Compute's
      // source view and compute-sanitizer's reports name BSGP lines.
      bool lineInfo = std::strstr(m.ptx, "\t.loc\t") != nullptr;
      int opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                    CU_JIT_GENERATE_LINE_INFO};
      void *vals[] = {log.data(), reinterpret_cast<void *>(log.size() - 1),
                      reinterpret_cast<void *>(uintptr_t(1))};
      CUresult r = api.cuModuleLoadDataEx(&lm.module, m.ptx, lineInfo ? 3 : 2,
                                          opts, vals);
      if (r != CUDA_SUCCESS) {
        lm.module = nullptr;
        std::string msg = "cannot load the module's PTX: " + errorString(r);
        if (log[0])
          msg += std::string("\n") + log.data();
        return Status::error(BSGPRT_ERROR_LAUNCH_FAILED, msg);
      }
      lm.kernels.resize(m.num_kernels);
      lm.resolved.assign(m.num_kernels, false);
    }
    return Status::ok();
  }

  /// The blocks of `block` threads of `lk` that fit the device at once, 0
  /// if unknown.
  uint64_t residentBlocks(LoadedKernel &lk, int block) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = lk.residentPerMultiprocessor.find(block);
    if (it == lk.residentPerMultiprocessor.end()) {
      int blocks = 0;
      if (api.cuOccupancyMaxActiveBlocksPerMultiprocessor(
              &blocks, lk.function, block, 0) != CUDA_SUCCESS)
        blocks = 0;
      it = lk.residentPerMultiprocessor.emplace(block, blocks).first;
    }
    return uint64_t(it->second) * uint64_t(multiprocessors);
  }

  /// The block size of a grid loop of n threads: one block per
  /// multiprocessor where n allows. A grid barrier costs more with each
  /// block that arrives (one atomic each, on one word), and less with each
  /// multiprocessor that shares a small launch's memory latency.
  int gridLoopBlock(LoadedKernel &lk, uint64_t n) {
    int maxThreads = 1024;
    int allowed = 0;
    if (api.cuFuncGetAttribute &&
        api.cuFuncGetAttribute(&allowed,
                               CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                               lk.function) == CUDA_SUCCESS &&
        allowed > 0)
      maxThreads = std::min(maxThreads, allowed & ~31);
    if (blockOverride)
      return std::min(blockOverride, maxThreads);
    uint64_t perSM =
        (n + uint64_t(multiprocessors) - 1) / uint64_t(multiprocessors);
    uint64_t block = std::max<uint64_t>(64, (perSM + 31) / 32 * 32);
    return int(std::min<uint64_t>(block, uint64_t(maxThreads)));
  }

  Status getKernel(const bsgprt_module_desc &m, uint32_t kernel,
                   LoadedKernel *&out) {
    std::lock_guard<std::mutex> lock(mutex);
    LoadedModule &lm = modules[&m];
    if (Status s = loadModuleLocked(m, lm); s.failed())
      return s;
    LoadedKernel &lk = lm.kernels[kernel];
    if (!lm.resolved[kernel]) {
      const char *kname = m.kernels[kernel].name;
      if (!kname || api.cuModuleGetFunction(&lk.function, lm.module, kname) !=
                        CUDA_SUCCESS)
        return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                             std::string("kernel '") + (kname ? kname : "?") +
                                 "' is not in the module's PTX");
      // 256 threads (or BSGP_BLOCK_SIZE), fewer if the kernel's registers
      // do not allow that many. The occupancy API's own choice is often
      // 1024, which leaves most multiprocessors idle on launches of a few
      // thousand threads.
      int minGrid = 0, block = 0;
      uint32_t groupSize = m.kernels[kernel].group_size;
      if (groupSize != 0) {
        // Work-group operations (group.*, local arrays) were compiled for
        // this block size; BSGP_BLOCK_SIZE does not apply.
        lk.blockSize = static_cast<int>(groupSize);
        lk.fixedBlock = true;
        int maxThreads = 0;
        if (api.cuFuncGetAttribute &&
            api.cuFuncGetAttribute(&maxThreads,
                                   CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                   lk.function) == CUDA_SUCCESS &&
            maxThreads > 0 && maxThreads < lk.blockSize)
          return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                               std::string("kernel '") + kname +
                                   "' uses work-group operations and needs "
                                   "blocks of " +
                                   std::to_string(groupSize) +
                                   " threads, but its registers allow only " +
                                   std::to_string(maxThreads));
        lm.resolved[kernel] = true;
        out = &lk;
        return Status::ok();
      }
      lk.blockSize = blockOverride ? blockOverride : DefaultBlockSize;
      if (api.cuOccupancyMaxPotentialBlockSize &&
          api.cuOccupancyMaxPotentialBlockSize(&minGrid, &block, lk.function,
                                               nullptr, 0, 0) == CUDA_SUCCESS &&
          block > 0 && block < lk.blockSize)
        lk.blockSize = block;
      lm.resolved[kernel] = true;
    }
    out = &lk;
    return Status::ok();
  }

  static CUdeviceptr ptr(const void *p) {
    return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
  }

  std::string errorString(CUresult r) const {
    const char *s = nullptr;
    if (api.cuGetErrorString && api.cuGetErrorString(r, &s) == CUDA_SUCCESS &&
        s)
      return s;
    return "CUDA error " + std::to_string(r);
  }

  Status check(CUresult r, const char *what) const {
    if (r == CUDA_SUCCESS)
      return Status::ok();
    std::string message = std::string(what) + " failed: " + errorString(r);
    // A fault of an asynchronous kernel (illegal address 700, timeout 702,
    // hardware stack 714, illegal instruction 715, misaligned address 716,
    // invalid pc 718, launch failure 719) shows up at the next call that
    // waits; name the kernel most likely to blame.
    bool kernelFault = r == 700 || r == 702 || (r >= 714 && r <= 719);
    if (kernelFault && !lastLaunch.empty())
      message += " (after the launch of kernel '" + lastLaunch + ")";
    return Status::error(r == CUDA_ERROR_OUT_OF_MEMORY
                             ? BSGPRT_ERROR_OUT_OF_MEMORY
                         : kernelFault ? BSGPRT_ERROR_LAUNCH_FAILED
                                       : BSGPRT_ERROR_BACKEND,
                         message);
  }

  void *lib = nullptr;
  DriverAPI api = {};
  CUdevice device = 0;
  int multiprocessors = 0;
  /// The device runs cooperative launches (grid loops).
  bool cooperative = false;
  int blockOverride = 0;
  uint64_t residentWaves = kResidentWaves;
  bool syncEachLaunch = false;
  /// Kernels were launched since the host last waited.
  bool pending = false;
  bool hasEvents = false;
  /// Launches timed by launchTimed whose times are not collected yet, in
  /// launch order; events are recycled, never destroyed while the
  /// context lives.
  std::deque<EventPair> timed;
  std::vector<CUevent> freeEvents;
  /// "name' (srcloc)" of the latest launch, for late-reported faults.
  std::string lastLaunch;
  CUcontext context = nullptr;
  std::string name;
  std::mutex mutex;
  std::map<const bsgprt_module_desc *, LoadedModule> modules;
};

/// The CUDA virtual memory API's structures, as the driver's cuda.h
/// declares them (CUmemLocation, CUmemAllocationProp, CUmemAccessDesc).
struct MemLocation {
  int type; ///< CU_MEM_LOCATION_TYPE_DEVICE = 1
  int id;
};
struct MemAllocationProp {
  int type;                 ///< CU_MEM_ALLOCATION_TYPE_PINNED = 1
  int requestedHandleTypes; ///< 0: none
  MemLocation location;
  void *win32HandleMetaData;
  struct {
    unsigned char compressionType, gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
};
struct MemAccessDesc {
  MemLocation location;
  int flags; ///< CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3
};

/// Lists over several CUDA devices (docs/multi-device.md): one reserved
/// range of addresses per list, device d's part of it backed by memory
/// created on device d and mapped readable and writable by every device,
/// so that any device's kernel reads any element through P2P. Parts are
/// whole granules of the driver (2 MiB on current GPUs): device d gets
/// granules [floor(g d / D), floor(g (d+1) / D)) of g. Allocations smaller
/// than D granules go to device 0 with cuMemAlloc, which the other devices
/// reach through peer access.
class CUDASpanMemory final : public SpanMemory {
public:
  explicit CUDASpanMemory(std::vector<CUDABackend *> devices)
      : devices(std::move(devices)) {
    const DriverAPI &d = this->devices[0]->driver();
    usable = d.cuMemGetAllocationGranularity && d.cuMemAddressReserve &&
             d.cuMemAddressFree && d.cuMemCreate && d.cuMemRelease &&
             d.cuMemMap && d.cuMemUnmap && d.cuMemSetAccess;
    for (CUDABackend *b : this->devices) {
      size_t g = 0;
      MemAllocationProp prop = propFor(b);
      if (!usable || d.cuMemGetAllocationGranularity(&g, &prop, 0) || g == 0) {
        usable = false;
        break;
      }
      granule = std::max<uint64_t>(granule, g);
    }
  }

  void *allocate(uint64_t bytes) override {
    unsigned D = static_cast<unsigned>(devices.size());
    if (!usable || bytes < uint64_t(D) * granule)
      return devices[0]->allocate(bytes);
    const DriverAPI &api = devices[0]->driver();
    uint64_t g = (bytes + granule - 1) / granule, total = g * granule;
    devices[0]->makeCurrent();
    Span span;
    span.bytes = total;
    if (api.cuMemAddressReserve(&span.base, total, granule, 0, 0))
      return nullptr;
    std::vector<MemAccessDesc> access;
    for (CUDABackend *b : devices)
      access.push_back({{1, b->cuDevice()}, 3});
    for (unsigned d = 0; d < D; ++d) {
      uint64_t lo = g * d / D * granule, hi = g * (d + 1) / D * granule;
      if (lo == hi)
        continue;
      MemAllocationProp prop = propFor(devices[d]);
      unsigned long long handle = 0;
      if (api.cuMemCreate(&handle, hi - lo, &prop, 0)) {
        release(span);
        return nullptr;
      }
      span.handles.push_back(handle);
      span.parts.push_back({lo, hi});
      if (api.cuMemMap(span.base + lo, hi - lo, 0, handle, 0) ||
          api.cuMemSetAccess(span.base + lo, hi - lo, access.data(),
                             access.size())) {
        release(span);
        return nullptr;
      }
    }
    void *p = reinterpret_cast<void *>(static_cast<uintptr_t>(span.base));
    std::lock_guard<std::mutex> lock(mutex);
    spans[span.base] = std::move(span);
    return p;
  }

  void deallocate(void *p) override {
    CUdeviceptr key = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
    Span span;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = spans.find(key);
      if (it == spans.end()) {
        devices[0]->deallocate(p);
        return;
      }
      span = std::move(it->second);
      spans.erase(it);
    }
    // Kernels of any device may still use the memory.
    for (CUDABackend *b : devices)
      (void)b->synchronize();
    release(span);
  }

  bool spansDevices() const override { return usable; }

  /// Through NCCL where it loads (BSGP_NCCL=0: never; =1: an error where it
  /// does not); the pieces a device keeps are its own copies.
  Status exchange(const std::vector<PeerCopy> &pieces, bool &done) override {
    done = false;
    const char *env = std::getenv("BSGP_NCCL");
    std::string mode = env ? env : "";
    if (mode == "0")
      return Status::ok();
    if (!ncclTried) {
      ncclTried = true;
      std::vector<int> ordinals;
      for (CUDABackend *b : devices)
        ordinals.push_back(static_cast<int>(b->cuDevice()));
      nccl = createNCCLExchange(ordinals, ncclWhy);
    }
    if (!nccl)
      return mode == "1" ? Status::error(BSGPRT_ERROR_BACKEND,
                                         "BSGP_NCCL=1: " + ncclWhy)
                         : Status::ok();
    std::vector<PeerCopy> between;
    for (const PeerCopy &c : pieces)
      if (c.from != c.to)
        between.push_back(c);
      else if (Status s =
                   devices[c.to]->copyDeviceToDevice(c.dst, c.src, c.bytes);
               s.failed())
        return s;
    Status s = nccl->run(between);
    for (CUDABackend *b : devices)
      if (Status w = b->synchronize(); w.failed() && !s.failed())
        s = w;
    done = !s.failed();
    return s;
  }

private:
  struct Span {
    CUdeviceptr base = 0;
    uint64_t bytes = 0;
    std::vector<unsigned long long> handles;
    std::vector<std::pair<uint64_t, uint64_t>> parts;
  };

  static MemAllocationProp propFor(CUDABackend *b) {
    MemAllocationProp prop = {};
    prop.type = 1;
    prop.location = {1, b->cuDevice()};
    return prop;
  }

  void release(const Span &span) {
    const DriverAPI &api = devices[0]->driver();
    devices[0]->makeCurrent();
    for (auto [lo, hi] : span.parts)
      (void)api.cuMemUnmap(span.base + lo, hi - lo);
    for (unsigned long long h : span.handles)
      (void)api.cuMemRelease(h);
    (void)api.cuMemAddressFree(span.base, span.bytes);
  }

  std::vector<CUDABackend *> devices;
  bool usable = false;
  uint64_t granule = 0;
  std::mutex mutex;
  std::map<CUdeviceptr, Span> spans;
  bool ncclTried = false;
  std::unique_ptr<PeerExchange> nccl;
  std::string ncclWhy;
};

} // namespace

SpanMemory::~SpanMemory() = default;

std::unique_ptr<Backend> createCUDABackend(std::string &why) {
  auto b = std::make_unique<CUDABackend>();
  if (!b->init(why))
    return nullptr;
  return b;
}

bool createCUDABackends(const std::vector<int> &ordinals, bool all,
                        std::vector<std::unique_ptr<Backend>> &devices,
                        std::unique_ptr<SpanMemory> &memory, std::string &why) {
  std::vector<int> list = ordinals;
  if (all) {
    // The device count, from a backend on device 0.
    auto first = std::make_unique<CUDABackend>();
    if (!first->init(why))
      return false;
    int count = 0;
    if (first->driver().cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1)
      count = 1;
    for (int d = 0; d < count; ++d)
      list.push_back(d);
  }
  if (list.empty()) {
    why = "no CUDA device named";
    return false;
  }
  for (size_t i = 0; i < list.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (list[j] == list[i]) {
        why = "CUDA device " + std::to_string(list[i]) + " is named twice";
        return false;
      }
  std::vector<CUDABackend *> raw;
  for (size_t i = 0; i < list.size(); ++i) {
    auto b = std::make_unique<CUDABackend>();
    if (!b->init(why, list[i]))
      return false;
    raw.push_back(b.get());
    devices.push_back(std::move(b));
  }
  for (CUDABackend *a : raw)
    for (CUDABackend *b : raw)
      if (a != b)
        a->enablePeerAccess(*b);
  memory = std::make_unique<CUDASpanMemory>(raw);
  return true;
}

} // namespace bsgprt
