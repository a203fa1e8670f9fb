//===- VulkanBackend.cpp - Vulkan compute backend loaded at run time ------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The loader is opened with dlopen("libvulkan.so.1") and every entry point is
// fetched through vkGetInstanceProcAddr / vkGetDeviceProcAddr, so libbsgprt
// builds and runs without Vulkan; <vulkan/vulkan.h> only provides the types.
//
// Kernels follow docs/spirv.md: one SPIR-V module per bsgprt_module_desc,
// one compute pipeline per entry point, all with one pipeline layout (16
// bytes of push constants {args_address, size}, no descriptor sets). Device
// lists are buffers with device addresses; BSGP pointers are those
// addresses.
//
// Launches and device-side copies are recorded into one command buffer,
// separated by memory barriers, and submitted only when the host needs a
// result (a copy to the host, a free, bsgprt_synchronize), like launches
// on one CUDA stream. Every submission is waited for, so at most one is in
// flight and the argument ring and staging buffers can be reused after it.
//
// BSGP_PROFILE times kernels with timestamp queries written around each
// dispatch in the same command buffer, read when the runtime collects them.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace bsgprt {
namespace {

/// A Vulkan structure with its sType set and everything else zero.
template <class T> T vkStruct(VkStructureType type) {
  T s{};
  s.sType = type;
  return s;
}

/// LocalSize of every entry point (bsgp::kSPIRVWorkgroupSize).
constexpr uint64_t WorkgroupSize = 256;
/// Launch arguments are placed at this alignment in the argument ring, enough
/// for any field of the packed struct (vectors of 4 doubles included).
constexpr uint64_t ArgsAlignment = 64;
constexpr uint64_t InitialArgsRing = uint64_t(1) << 20;
constexpr uint64_t AllocationAlignment = 256;
/// Copies from the host up to this size are staged in the argument ring.
constexpr uint64_t SmallCopy = 64 * 1024;
/// Staging buffers waiting for a submission before one is forced.
constexpr size_t MaxRetired = 64;
/// Timed launches (BSGP_PROFILE) whose timestamps the query pool holds at
/// once: two queries each. More than the runtime lets pile up before it
/// collects (1024), so the pool is full only when that many launches were
/// recorded without a submission.
constexpr uint32_t TimedCapacity = 2048;

// Entry points, fetched by name. Instance-level ones first.
#define BSGP_VK_INSTANCE_FUNCTIONS(X)                                          \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties)                                             \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkCreateDevice)                                                            \
  X(vkGetDeviceProcAddr)

#define BSGP_VK_DEVICE_FUNCTIONS(X)                                            \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkDeviceWaitIdle)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkGetBufferDeviceAddress)                                                  \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreatePipelineCache)                                                     \
  X(vkDestroyPipelineCache)                                                    \
  X(vkGetPipelineCacheData)                                                    \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkResetCommandBuffer)                                                      \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdPushConstants)                                                        \
  X(vkCmdDispatch)                                                             \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkCmdCopyBuffer)                                                           \
  X(vkCmdFillBuffer)                                                           \
  X(vkCreateQueryPool)                                                         \
  X(vkDestroyQueryPool)                                                        \
  X(vkCmdResetQueryPool)                                                       \
  X(vkCmdWriteTimestamp)                                                       \
  X(vkGetQueryPoolResults)                                                     \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkResetFences)                                                             \
  X(vkWaitForFences)                                                           \
  X(vkQueueSubmit)

struct VulkanAPI {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkCreateInstance vkCreateInstance = nullptr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion = nullptr;
#define X(name) PFN_##name name = nullptr;
  BSGP_VK_INSTANCE_FUNCTIONS(X)
  BSGP_VK_DEVICE_FUNCTIONS(X)
#undef X
};

const char *resultName(VkResult r) {
  switch (r) {
  case VK_SUCCESS:
    return "VK_SUCCESS";
  case VK_NOT_READY:
    return "VK_NOT_READY";
  case VK_TIMEOUT:
    return "VK_TIMEOUT";
  case VK_ERROR_OUT_OF_HOST_MEMORY:
    return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED:
    return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST:
    return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_MEMORY_MAP_FAILED:
    return "VK_ERROR_MEMORY_MAP_FAILED";
  case VK_ERROR_LAYER_NOT_PRESENT:
    return "VK_ERROR_LAYER_NOT_PRESENT";
  case VK_ERROR_EXTENSION_NOT_PRESENT:
    return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_FEATURE_NOT_PRESENT:
    return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_INCOMPATIBLE_DRIVER:
    return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_TOO_MANY_OBJECTS:
    return "VK_ERROR_TOO_MANY_OBJECTS";
  case VK_ERROR_INVALID_SHADER_NV:
    return "VK_ERROR_INVALID_SHADER_NV";
  default:
    return nullptr;
  }
}

std::string resultString(VkResult r) {
  if (const char *s = resultName(r))
    return s;
  return "VkResult " + std::to_string(static_cast<int>(r));
}

std::string versionString(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." +
         std::to_string(VK_API_VERSION_MINOR(v));
}

std::string hexPointer(const void *p) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIxPTR,
                reinterpret_cast<uintptr_t>(p));
  return buf;
}

/// The device features the backend enables, when the device has them.
struct Features {
  bool bufferDeviceAddress = false;
  bool shaderInt64 = false;
  bool shaderFloat64 = false;
  bool shaderInt16 = false;
  bool shaderInt8 = false;
  bool shaderFloat16 = false;
  bool storageBuffer8BitAccess = false;
  bool storageBuffer16BitAccess = false;
  bool shaderBufferInt64Atomics = false;
  /// The subgroup operations of compute shaders (properties, not features:
  /// nothing to enable, but a module using them needs them).
  bool subgroupBasic = false;
  bool subgroupVote = false;
  bool subgroupBallot = false;
  bool subgroupShuffle = false;
  bool subgroupArithmetic = false;
  /// Workgroups made of full subgroups on request (Vulkan 1.3); kernels
  /// with work-group operations number their invocations by subgroup.
  bool computeFullSubgroups = false;
};

/// SPIR-V capabilities a module may declare that need an optional device
/// feature, for a message naming what the device lacks.
struct CapabilityFeature {
  uint32_t capability;
  const char *capabilityName;
  bool Features::*feature;
  const char *featureName;
};
constexpr CapabilityFeature CapabilityFeatures[] = {
    {9, "Float16", &Features::shaderFloat16, "shaderFloat16"},
    {10, "Float64", &Features::shaderFloat64, "shaderFloat64"},
    {11, "Int64", &Features::shaderInt64, "shaderInt64"},
    {12, "Int64Atomics", &Features::shaderBufferInt64Atomics,
     "shaderBufferInt64Atomics"},
    {22, "Int16", &Features::shaderInt16, "shaderInt16"},
    {39, "Int8", &Features::shaderInt8, "shaderInt8"},
    {4433, "StorageBuffer16BitAccess", &Features::storageBuffer16BitAccess,
     "storageBuffer16BitAccess"},
    {4448, "StorageBuffer8BitAccess", &Features::storageBuffer8BitAccess,
     "storageBuffer8BitAccess"},
    {5347, "PhysicalStorageBufferAddresses", &Features::bufferDeviceAddress,
     "bufferDeviceAddress"},
    {61, "GroupNonUniform", &Features::subgroupBasic,
     "subgroupSupportedOperations BASIC"},
    {62, "GroupNonUniformVote", &Features::subgroupVote,
     "subgroupSupportedOperations VOTE"},
    {64, "GroupNonUniformBallot", &Features::subgroupBallot,
     "subgroupSupportedOperations BALLOT"},
    {65, "GroupNonUniformShuffle", &Features::subgroupShuffle,
     "subgroupSupportedOperations SHUFFLE"},
    {63, "GroupNonUniformArithmetic", &Features::subgroupArithmetic,
     "subgroupSupportedOperations ARITHMETIC"},
};

/// Creates each directory of \p path that does not exist; failures are left
/// to the open that follows.
void makeDirectories(const std::string &path) {
  for (size_t i = 1; i <= path.size(); ++i)
    if (i == path.size() || path[i] == '/')
      ::mkdir(path.substr(0, i).c_str(), 0755);
}

class VulkanBackend;

/// Live backends, whose pipeline caches are written at exit: the runtime
/// never destroys its state (late frees from static destructors must find
/// it), so the destructor alone would not save them.
std::mutex liveMutex;
std::set<VulkanBackend *> &liveBackends() {
  static auto *s = new std::set<VulkanBackend *>();
  return *s;
}
void savePipelineCachesAtExit();

class VulkanBackend final : public Backend {
public:
  ~VulkanBackend() override {
    {
      std::lock_guard<std::mutex> lock(liveMutex);
      liveBackends().erase(this);
    }
    if (!api.vkQueueSubmit) {
      // init() failed before the device's entry points were all found.
      if (device && api.vkDestroyDevice)
        api.vkDestroyDevice(device, nullptr);
      if (instance)
        api.vkDestroyInstance(instance, nullptr);
      return;
    }
    api.vkDeviceWaitIdle(device);
    savePipelineCache();
    for (auto &entry : buffers)
      destroyBuffer(entry.second);
    for (Buffer &b : retired)
      destroyBuffer(b);
    destroyBuffer(argsRing);
    for (auto &entry : modules) {
      for (VkPipeline p : entry.second.pipelines)
        if (p)
          api.vkDestroyPipeline(device, p, nullptr);
      api.vkDestroyShaderModule(device, entry.second.module, nullptr);
    }
    if (pipelineCache)
      api.vkDestroyPipelineCache(device, pipelineCache, nullptr);
    if (queryPool)
      api.vkDestroyQueryPool(device, queryPool, nullptr);
    if (layout)
      api.vkDestroyPipelineLayout(device, layout, nullptr);
    if (fence)
      api.vkDestroyFence(device, fence, nullptr);
    if (commandPool)
      api.vkDestroyCommandPool(device, commandPool, nullptr);
    api.vkDestroyDevice(device, nullptr);
    api.vkDestroyInstance(instance, nullptr);
    // The loader stays open: drivers may keep exit handlers in it.
  }

  /// Opens the loader, picks a device and creates what every launch needs.
  /// Returns false with `why` set when there is no usable device; with
  /// \p allowCPU false, a device of type CPU (lavapipe) does not count.
  /// The optional features named in \p withoutFeatures are not enabled.
  bool init(std::string &why, bool allowCPU,
            const std::vector<std::string> &withoutFeatures) {
    lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      why = "libvulkan.so.1 could not be loaded";
      return false;
    }
    api.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
        dlsym(lib, "vkGetInstanceProcAddr"));
    if (!api.vkGetInstanceProcAddr) {
      why = "libvulkan.so.1 has no vkGetInstanceProcAddr";
      return false;
    }
    api.vkCreateInstance = reinterpret_cast<PFN_vkCreateInstance>(
        api.vkGetInstanceProcAddr(nullptr, "vkCreateInstance"));
    api.vkEnumerateInstanceVersion =
        reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
            api.vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
    uint32_t loaderVersion = VK_API_VERSION_1_0;
    if (api.vkEnumerateInstanceVersion)
      api.vkEnumerateInstanceVersion(&loaderVersion);
    if (!api.vkCreateInstance || loaderVersion < VK_API_VERSION_1_2) {
      why = "the Vulkan loader implements Vulkan " +
            versionString(loaderVersion) + "; the backend needs 1.2";
      return false;
    }

    auto app = vkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "bsgprt";
    app.pEngineName = "bsgprt";
    app.apiVersion = std::min<uint32_t>(loaderVersion, VK_API_VERSION_1_3);
    auto ici =
        vkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ici.pApplicationInfo = &app;
    if (VkResult r = api.vkCreateInstance(&ici, nullptr, &instance)) {
      instance = VK_NULL_HANDLE;
      why = r == VK_ERROR_INCOMPATIBLE_DRIVER
                ? "no Vulkan driver is installed (vkCreateInstance: "
                  "VK_ERROR_INCOMPATIBLE_DRIVER)"
                : "vkCreateInstance failed: " + resultString(r);
      return false;
    }
#define X(name)                                                                \
  api.name = reinterpret_cast<PFN_##name>(                                     \
      api.vkGetInstanceProcAddr(instance, #name));                             \
  if (!api.name) {                                                             \
    why = "the Vulkan loader lacks " #name;                                    \
    return false;                                                              \
  }
    BSGP_VK_INSTANCE_FUNCTIONS(X)
#undef X

    if (!pickDevice(why, allowCPU))
      return false;
    for (const std::string &f : withoutFeatures) {
      const CapabilityFeature *cf = std::find_if(
          std::begin(CapabilityFeatures), std::end(CapabilityFeatures),
          [&](const CapabilityFeature &c) { return f == c.featureName; });
      // The backend cannot run without the features it requires.
      if (cf == std::end(CapabilityFeatures) ||
          cf->feature == &Features::bufferDeviceAddress ||
          cf->feature == &Features::shaderInt64) {
        why = "'" + f + "' is not an optional feature of the backend";
        return false;
      }
      features.*(cf->feature) = false;
    }
    if (!createDevice(why))
      return false;

    if (const char *env = std::getenv("BSGP_SYNC"))
      syncEachLaunch = std::atoi(env) != 0;
    if (const char *env = std::getenv("BSGP_VULKAN_STAGING"))
      forceStaging = std::atoi(env) != 0;
    chooseMemoryTypes();
    if (deviceMemoryType < 0 || hostMemoryType < 0) {
      why = "the device has no device-local or no host-visible coherent "
            "memory type";
      return false;
    }
    if (!createCommandObjects(why))
      return false;
    createQueryPool();
    loadPipelineCache();
    {
      std::lock_guard<std::mutex> lock(liveMutex);
      static bool registered = false;
      if (!registered) {
        registered = true;
        std::atexit(savePipelineCachesAtExit);
      }
      liveBackends().insert(this);
    }
    return true;
  }

  const char *deviceName() const override { return name.c_str(); }

  void *allocate(uint64_t bytes) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    uint64_t size = std::max<uint64_t>((bytes + AllocationAlignment - 1) &
                                           ~(AllocationAlignment - 1),
                                       AllocationAlignment);
    if (size < bytes)
      return nullptr;
    Buffer b;
    if (!createBuffer(size, deviceMemoryType, directAccess, b).empty())
      return nullptr;
    // Device addresses are only as aligned as the driver makes them; the
    // runtime promises 256 bytes, so pad and start inside when needed.
    if (b.address % AllocationAlignment) {
      destroyBuffer(b);
      if (!createBuffer(size + AllocationAlignment, deviceMemoryType,
                        directAccess, b)
               .empty())
        return nullptr;
      b.offset = AllocationAlignment - b.address % AllocationAlignment;
      b.address += b.offset;
      if (b.mapped)
        b.mapped = static_cast<char *>(b.mapped) + b.offset;
    }
    b.size = size;
    buffers[b.address] = b;
    return reinterpret_cast<void *>(static_cast<uintptr_t>(b.address));
  }

  void deallocate(void *p) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    auto it = buffers.find(address(p));
    if (it == buffers.end()) {
      // The runtime only frees what it allocated; the interface has no
      // error path here (the runtime's lock is held).
      std::fprintf(stderr,
                   "bsgprt: runtime error: vulkan: free of %s, which is not "
                   "a vulkan allocation\n",
                   hexPointer(p).c_str());
      return;
    }
    // Recorded work may still use the buffer. A failure cannot be reported
    // from here; the next call that waits reports it.
    if (hasWork)
      if (Status s = flush(); s.failed() && !deferred.failed())
        deferred = s;
    destroyBuffer(it->second);
    buffers.erase(it);
  }

  Status copyHostToDevice(void *dst, const void *src, uint64_t bytes) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    if (!bytes)
      return Status::ok();
    const Buffer *b = nullptr;
    uint64_t offset = 0;
    if (Status s = find(dst, bytes, "memcpy_htod destination", b, offset);
        s.failed())
      return s;
    if (b->mapped) {
      if (Status s = flush(); s.failed())
        return s;
      std::memcpy(static_cast<char *>(b->mapped) + offset, src, bytes);
      return Status::ok();
    }
    // Through a staging buffer, in order with the recorded launches. Small
    // copies are staged in the argument ring; larger ones get a buffer of
    // their own, which lives until the next submission completes (and not
    // too many of them: drivers limit the number of allocations).
    if (bytes <= SmallCopy) {
      uint64_t at = 0;
      if (Status s = placeArgs(src, bytes, at); s.failed())
        return s;
      if (Status s = begin(); s.failed())
        return s;
      VkBufferCopy region = {at - argsRing.address, b->offset + offset, bytes};
      api.vkCmdCopyBuffer(commandBuffer, argsRing.buffer, b->buffer, 1,
                          &region);
      return syncEachLaunch ? flush() : Status::ok();
    }
    if (retired.size() >= MaxRetired)
      if (Status s = flush(); s.failed())
        return s;
    Buffer staging;
    if (std::string e = createBuffer(bytes, hostMemoryType, true, staging);
        !e.empty())
      return outOfMemory(e, bytes);
    std::memcpy(staging.mapped, src, bytes);
    retired.push_back(staging);
    if (Status s = begin(); s.failed())
      return s;
    VkBufferCopy region = {0, b->offset + offset, bytes};
    api.vkCmdCopyBuffer(commandBuffer, staging.buffer, b->buffer, 1, &region);
    return syncEachLaunch ? flush() : Status::ok();
  }

  Status copyDeviceToHost(void *dst, const void *src, uint64_t bytes) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    if (!bytes)
      return Status::ok();
    const Buffer *b = nullptr;
    uint64_t offset = 0;
    if (Status s = find(src, bytes, "memcpy_dtoh source", b, offset);
        s.failed())
      return s;
    if (b->mapped) {
      if (Status s = flush(); s.failed())
        return s;
      std::memcpy(dst, static_cast<const char *>(b->mapped) + offset, bytes);
      return Status::ok();
    }
    Buffer staging;
    if (std::string e = createBuffer(bytes, hostMemoryType, true, staging);
        !e.empty())
      return outOfMemory(e, bytes);
    Status s = begin();
    if (!s.failed()) {
      VkBufferCopy region = {b->offset + offset, 0, bytes};
      api.vkCmdCopyBuffer(commandBuffer, b->buffer, staging.buffer, 1, &region);
      s = flush();
    }
    if (!s.failed())
      std::memcpy(dst, staging.mapped, bytes);
    destroyBuffer(staging);
    return s;
  }

  Status copyDeviceToDevice(void *dst, const void *src,
                            uint64_t bytes) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    if (!bytes)
      return Status::ok();
    const Buffer *d = nullptr, *s = nullptr;
    uint64_t dOffset = 0, sOffset = 0;
    if (Status st = find(dst, bytes, "memcpy_dtod destination", d, dOffset);
        st.failed())
      return st;
    if (Status st = find(src, bytes, "memcpy_dtod source", s, sOffset);
        st.failed())
      return st;
    if (Status st = begin(); st.failed())
      return st;
    VkBufferCopy region = {s->offset + sOffset, d->offset + dOffset, bytes};
    api.vkCmdCopyBuffer(commandBuffer, s->buffer, d->buffer, 1, &region);
    return syncEachLaunch ? flush() : Status::ok();
  }

  Status memset(void *dst, int value, uint64_t bytes) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    if (!bytes)
      return Status::ok();
    const Buffer *b = nullptr;
    uint64_t offset = 0;
    if (Status s = find(dst, bytes, "memset_d destination", b, offset);
        s.failed())
      return s;
    uint64_t start = b->offset + offset;
    // vkCmdFillBuffer writes whole words at word offsets; anything else goes
    // through an ordinary host-to-device copy of the filled bytes.
    if (start % 4 || bytes % 4) {
      std::vector<unsigned char> fill(bytes, static_cast<unsigned char>(value));
      return copyHostToDevice(dst, fill.data(), bytes);
    }
    uint32_t word = static_cast<unsigned char>(value) * 0x01010101u;
    if (Status s = begin(); s.failed())
      return s;
    api.vkCmdFillBuffer(commandBuffer, b->buffer, start, bytes, word);
    return syncEachLaunch ? flush() : Status::ok();
  }

  Status launch(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                const void *args) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    return dispatch(m, kernel, n, args, /*timed=*/false);
  }

  Status synchronize() override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    return flush();
  }

  bool hasDeviceTimer() const override { return queryPool != VK_NULL_HANDLE; }

  Status launchTimed(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                     const void *args) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    return dispatch(m, kernel, n, args, /*timed=*/true);
  }

  Status collectTimes(bool wait, std::vector<double> &ms) override {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    if (timesLost) {
      // The runtime forgets what it has not collected on an error, so the
      // launches recorded since the failure go as well.
      dropTimes();
      return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                           "kernel timestamps were lost with a failed "
                           "submission");
    }
    // submitAndWait, not flush: an error a free deferred belongs to the
    // next call of the program that waits, not to the profile.
    if (wait && unsubmittedTimed)
      if (Status s = submitAndWait(); s.failed()) {
        dropTimes();
        return s;
      }
    ms.insert(ms.end(), readyMs.begin(), readyMs.end());
    readyMs.clear();
    if (Status s = readOldestTimes(unsubmittedTimed, ms); s.failed()) {
      dropTimes();
      return s;
    }
    return Status::ok();
  }

  /// Writes the pipeline cache where the next run finds it; silent on
  /// failure (a missing cache only costs compile time).
  void savePipelineCache() {
    std::unique_lock<std::recursive_mutex> lock(mutex, std::try_to_lock);
    if (!lock.owns_lock() || !pipelineCache || cachePath.empty() ||
        !pipelinesCreated)
      return;
    size_t size = 0;
    if (api.vkGetPipelineCacheData(device, pipelineCache, &size, nullptr) !=
            VK_SUCCESS ||
        !size)
      return;
    std::vector<char> data(size);
    if (api.vkGetPipelineCacheData(device, pipelineCache, &size, data.data()) !=
        VK_SUCCESS)
      return;
    makeDirectories(cachePath.substr(0, cachePath.rfind('/')));
    // Concurrent programs write the same file: each writes its own and
    // renames it into place, so a reader never sees half a cache.
    std::string tmp = cachePath + ".tmp." + std::to_string(::getpid());
    FILE *f = std::fopen(tmp.c_str(), "wb");
    if (!f)
      return;
    bool ok = std::fwrite(data.data(), 1, size, f) == size;
    ok = std::fclose(f) == 0 && ok;
    if (!ok || std::rename(tmp.c_str(), cachePath.c_str()) != 0)
      std::remove(tmp.c_str());
    pipelinesCreated = false;
  }

private:
  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    /// Device address of the usable start (buffer start + offset).
    uint64_t address = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
    /// Host view of the usable start when the memory is mapped.
    void *mapped = nullptr;
  };
  struct LoadedModule {
    VkShaderModule module = VK_NULL_HANDLE;
    std::vector<VkPipeline> pipelines;
  };

  /// Records kernel `kernel` of `m` on ranks [0, n) into the command buffer,
  /// between two timestamps when \p timed.
  Status dispatch(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                  const void *args, bool timed) {
    const bsgprt_kernel_desc &k = m.kernels[kernel];
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (Status s = getPipeline(m, kernel, pipeline); s.failed())
      return s;

    uint64_t groups = (n + WorkgroupSize - 1) / WorkgroupSize;
    uint64_t gx = groups, gy = 1;
    if (groups > maxGroups[0]) {
      gx = maxGroups[0];
      gy = (groups + gx - 1) / gx;
      if (gy > maxGroups[1])
        return Status::error(BSGPRT_ERROR_INVALID_VALUE,
                             "launch of " + std::to_string(n) +
                                 " ranks exceeds the device's workgroup "
                                 "count limits");
    }

    // Every query of the pool holds a time not collected yet: wait for
    // them and keep the times on the host, so the queries can be reused.
    if (timed && timedQueries.size() == TimedCapacity)
      if (Status s = readTimesEarly(); s.failed())
        return s;
    uint64_t argsAddress = 0;
    if (Status s = placeArgs(args, k.args_size, argsAddress); s.failed())
      return s;
    if (Status s = begin(); s.failed())
      return s;
    uint32_t query = 0;
    if (timed) {
      query = nextQuery;
      nextQuery = (nextQuery + 2) % (2 * TimedCapacity);
      // Query commands run in submission order, so the reset is done
      // before the write that follows it in the same command buffer.
      // Both timestamps are written at the bottom of the pipe, once all
      // earlier commands have completed: the start is not taken while the
      // previous kernel still runs.
      api.vkCmdResetQueryPool(commandBuffer, queryPool, query, 2);
      api.vkCmdWriteTimestamp(commandBuffer,
                              VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queryPool,
                              query);
    }
    struct {
      uint64_t argsAddress;
      uint64_t size;
    } push = {argsAddress, n};
    api.vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE,
                          pipeline);
    api.vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_COMPUTE_BIT,
                           0, sizeof(push), &push);
    api.vkCmdDispatch(commandBuffer, static_cast<uint32_t>(gx),
                      static_cast<uint32_t>(gy), 1);
    if (timed) {
      api.vkCmdWriteTimestamp(commandBuffer,
                              VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queryPool,
                              query + 1);
      timedQueries.push_back(query);
      ++unsubmittedTimed;
    }
    lastLaunch = std::string(k.name ? k.name : "?") + "' (" +
                 (k.srcloc ? k.srcloc : "?") + ")";
    if (syncEachLaunch) {
      if (Status s = flush(); s.failed()) {
        // The runtime does not count a failed launch; this one's queries
        // must not be taken for the next launch's.
        if (timed)
          loseTimes();
        return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                             std::string("launch of kernel '") +
                                 (k.name ? k.name : "?") +
                                 "' failed: " + s.message);
      }
    }
    return Status::ok();
  }

  static uint64_t address(const void *p) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
  }

  bool pickDevice(std::string &why, bool allowCPU) {
    uint32_t count = 0;
    api.vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    if (count)
      api.vkEnumeratePhysicalDevices(instance, &count, devices.data());
    if (!count) {
      why = "no Vulkan physical device";
      return false;
    }
    auto rank = [](VkPhysicalDeviceType t) {
      switch (t) {
      case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 4;
      case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 3;
      case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
      case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 1;
      default:
        return 0;
      }
    };
    int best = -1;
    std::vector<std::string> rejected;
    for (VkPhysicalDevice pd : devices) {
      VkPhysicalDeviceProperties props;
      api.vkGetPhysicalDeviceProperties(pd, &props);
      std::string missing;
      auto lack = [&](const char *what) {
        missing += missing.empty() ? "lacks " : ", ";
        missing += what;
      };
      Features f = queryFeatures(pd, props.apiVersion);
      if (props.apiVersion < VK_API_VERSION_1_2)
        lack(("Vulkan 1.2 (it implements " + versionString(props.apiVersion) +
              ")")
                 .c_str());
      if (!f.bufferDeviceAddress)
        lack("bufferDeviceAddress");
      if (!f.shaderInt64)
        lack("shaderInt64");
      if (computeQueueFamily(pd) < 0)
        lack("a compute queue");
      if (!allowCPU && props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        missing = "is a CPU implementation (the cpu backend is faster)";
      if (!missing.empty()) {
        rejected.push_back(std::string(props.deviceName) + " " + missing);
        continue;
      }
      if (rank(props.deviceType) > best) {
        best = rank(props.deviceType);
        physicalDevice = pd;
        properties = props;
        features = f;
      }
    }
    if (!physicalDevice) {
      why.clear();
      for (const std::string &r : rejected)
        why += (why.empty() ? "" : "; ") + r;
      return false;
    }
    return true;
  }

  Features queryFeatures(VkPhysicalDevice pd, uint32_t apiVersion) const {
    auto v12 = vkStruct<VkPhysicalDeviceVulkan12Features>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    auto v11 = vkStruct<VkPhysicalDeviceVulkan11Features>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    v11.pNext = &v12;
    auto sizeControl = vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
    if (apiVersion >= VK_API_VERSION_1_3)
      v12.pNext = &sizeControl;
    auto f2 = vkStruct<VkPhysicalDeviceFeatures2>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    f2.pNext = &v11;
    api.vkGetPhysicalDeviceFeatures2(pd, &f2);
    auto subgroup = vkStruct<VkPhysicalDeviceSubgroupProperties>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    auto props2 = vkStruct<VkPhysicalDeviceProperties2>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    props2.pNext = &subgroup;
    api.vkGetPhysicalDeviceProperties2(pd, &props2);
    Features f;
    f.bufferDeviceAddress = v12.bufferDeviceAddress;
    f.shaderInt64 = f2.features.shaderInt64;
    f.shaderFloat64 = f2.features.shaderFloat64;
    f.shaderInt16 = f2.features.shaderInt16;
    f.shaderInt8 = v12.shaderInt8;
    f.shaderFloat16 = v12.shaderFloat16;
    f.storageBuffer8BitAccess = v12.storageBuffer8BitAccess;
    f.storageBuffer16BitAccess = v11.storageBuffer16BitAccess;
    f.shaderBufferInt64Atomics = v12.shaderBufferInt64Atomics;
    bool compute = subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT;
    auto ops = subgroup.supportedOperations;
    f.subgroupBasic = compute && (ops & VK_SUBGROUP_FEATURE_BASIC_BIT);
    f.subgroupVote = compute && (ops & VK_SUBGROUP_FEATURE_VOTE_BIT);
    f.subgroupBallot = compute && (ops & VK_SUBGROUP_FEATURE_BALLOT_BIT);
    f.subgroupShuffle = compute && (ops & VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
    f.subgroupArithmetic =
        compute && (ops & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
    f.computeFullSubgroups = apiVersion >= VK_API_VERSION_1_3 &&
                             sizeControl.computeFullSubgroups;
    return f;
  }

  int computeQueueFamily(VkPhysicalDevice pd) const {
    uint32_t count = 0;
    api.vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    api.vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, families.data());
    for (uint32_t i = 0; i < count; ++i)
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
        return static_cast<int>(i);
    return -1;
  }

  bool createDevice(std::string &why) {
    queueFamily = static_cast<uint32_t>(computeQueueFamily(physicalDevice));
    float priority = 1.0f;
    auto qci = vkStruct<VkDeviceQueueCreateInfo>(
        VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qci.queueFamilyIndex = queueFamily;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;

    // Everything the device has of what kernels may use is enabled;
    // getPipeline() names what a module needs and the device lacks.
    auto v12 = vkStruct<VkPhysicalDeviceVulkan12Features>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    v12.bufferDeviceAddress = VK_TRUE;
    v12.shaderInt8 = features.shaderInt8;
    v12.shaderFloat16 = features.shaderFloat16;
    v12.storageBuffer8BitAccess = features.storageBuffer8BitAccess;
    // 64-bit atomics on buffer device addresses (Int64Atomics).
    v12.shaderBufferInt64Atomics = features.shaderBufferInt64Atomics;
    auto sizeControl = vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
    sizeControl.computeFullSubgroups = VK_TRUE;
    if (features.computeFullSubgroups)
      v12.pNext = &sizeControl;
    auto v11 = vkStruct<VkPhysicalDeviceVulkan11Features>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    v11.storageBuffer16BitAccess = features.storageBuffer16BitAccess;
    v11.pNext = &v12;
    auto f2 = vkStruct<VkPhysicalDeviceFeatures2>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    f2.features.shaderInt64 = VK_TRUE;
    f2.features.shaderFloat64 = features.shaderFloat64;
    f2.features.shaderInt16 = features.shaderInt16;
    f2.pNext = &v11;

    auto dci =
        vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    dci.pNext = &f2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    if (VkResult r =
            api.vkCreateDevice(physicalDevice, &dci, nullptr, &device)) {
      device = VK_NULL_HANDLE;
      why = std::string("vkCreateDevice failed on ") + properties.deviceName +
            ": " + resultString(r);
      return false;
    }
    auto getDeviceProcAddr = api.vkGetDeviceProcAddr;
#define X(fn)                                                                  \
  api.fn = reinterpret_cast<PFN_##fn>(getDeviceProcAddr(device, #fn));         \
  if (!api.fn) {                                                               \
    why = "the Vulkan driver lacks " #fn;                                      \
    return false;                                                              \
  }
    BSGP_VK_DEVICE_FUNCTIONS(X)
#undef X
    api.vkGetDeviceQueue(device, queueFamily, 0, &queue);
    uint32_t familyCount = 0;
    api.vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount,
                                                 nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    api.vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount,
                                                 families.data());
    timestampBits = families[queueFamily].timestampValidBits;
    timestampPeriod = properties.limits.timestampPeriod;
    maxGroups[0] = properties.limits.maxComputeWorkGroupCount[0];
    maxGroups[1] = properties.limits.maxComputeWorkGroupCount[1];
    name = std::string("vulkan: ") + properties.deviceName;
    return true;
  }

  void chooseMemoryTypes() {
    VkPhysicalDeviceMemoryProperties mp;
    api.vkGetPhysicalDeviceMemoryProperties(physicalDevice, &mp);
    memoryProperties = mp;
    const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    auto first = [&](VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid) {
      for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = mp.memoryTypes[i].propertyFlags;
        if ((f & want) == want && !(f & avoid))
          return static_cast<int>(i);
      }
      return -1;
    };
    // Discrete GPUs: plain video memory (their host-visible device memory
    // is a small window); elsewhere memory the host can map as well.
    bool discrete =
        properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    deviceMemoryType = -1;
    if (discrete)
      deviceMemoryType = first(local, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    else
      deviceMemoryType = first(local | host, 0);
    if (deviceMemoryType < 0)
      deviceMemoryType = first(local, 0);
    if (deviceMemoryType < 0)
      deviceMemoryType = first(0, 0);
    hostMemoryType = first(host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0);
    if (hostMemoryType < 0)
      hostMemoryType = first(host, 0);
    VkMemoryPropertyFlags df =
        deviceMemoryType >= 0 ? mp.memoryTypes[deviceMemoryType].propertyFlags
                              : 0;
    directAccess = !forceStaging && (df & host) == host;
  }

  bool createCommandObjects(std::string &why) {
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
    auto lci = vkStruct<VkPipelineLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    lci.pushConstantRangeCount = 1;
    lci.pPushConstantRanges = &range;
    auto pci = vkStruct<VkCommandPoolCreateInfo>(
        VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = queueFamily;
    auto fci = vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    VkResult r = api.vkCreatePipelineLayout(device, &lci, nullptr, &layout);
    if (!r)
      r = api.vkCreateCommandPool(device, &pci, nullptr, &commandPool);
    if (!r) {
      auto ai = vkStruct<VkCommandBufferAllocateInfo>(
          VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
      ai.commandPool = commandPool;
      ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      ai.commandBufferCount = 1;
      r = api.vkAllocateCommandBuffers(device, &ai, &commandBuffer);
    }
    if (!r)
      r = api.vkCreateFence(device, &fci, nullptr, &fence);
    if (r) {
      why = "cannot create the command objects: " + resultString(r);
      return false;
    }
    std::string e =
        createBuffer(InitialArgsRing, hostMemoryType, true, argsRing);
    if (!e.empty()) {
      why = "cannot allocate the launch argument buffer: " + e;
      return false;
    }
    argsRing.size = InitialArgsRing;
    return true;
  }

  /// Creates a buffer with a device address on memory type \p type, mapped
  /// when \p map; returns an empty string or what failed.
  std::string createBuffer(uint64_t size, int type, bool map, Buffer &b) {
    b = Buffer();
    auto bci =
        vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bci.size = size;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (VkResult r = api.vkCreateBuffer(device, &bci, nullptr, &b.buffer)) {
      b.buffer = VK_NULL_HANDLE;
      return "vkCreateBuffer: " + resultString(r);
    }
    VkMemoryRequirements req;
    api.vkGetBufferMemoryRequirements(device, b.buffer, &req);
    if (!(req.memoryTypeBits & (1u << type))) {
      // The chosen type does not suit buffers: take any that does, with
      // the same host visibility.
      int alt = -1;
      VkMemoryPropertyFlags need =
          map ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
              : 0;
      for (uint32_t i = 0; i < memoryProperties.memoryTypeCount && alt < 0; ++i)
        if ((req.memoryTypeBits & (1u << i)) &&
            (memoryProperties.memoryTypes[i].propertyFlags & need) == need)
          alt = static_cast<int>(i);
      if (alt < 0) {
        destroyBuffer(b);
        return "no memory type suits a buffer";
      }
      type = alt;
    }
    auto flags = vkStruct<VkMemoryAllocateFlagsInfo>(
        VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    auto mai =
        vkStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    mai.pNext = &flags;
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = static_cast<uint32_t>(type);
    if (VkResult r = api.vkAllocateMemory(device, &mai, nullptr, &b.memory)) {
      b.memory = VK_NULL_HANDLE;
      destroyBuffer(b);
      return "vkAllocateMemory: " + resultString(r);
    }
    VkResult r = api.vkBindBufferMemory(device, b.buffer, b.memory, 0);
    if (!r && map)
      r = api.vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped);
    if (r) {
      destroyBuffer(b);
      return "cannot bind or map a buffer: " + resultString(r);
    }
    auto dai = vkStruct<VkBufferDeviceAddressInfo>(
        VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
    dai.buffer = b.buffer;
    b.address = api.vkGetBufferDeviceAddress(device, &dai);
    b.size = size;
    return "";
  }

  void destroyBuffer(Buffer &b) {
    if (b.buffer)
      api.vkDestroyBuffer(device, b.buffer, nullptr);
    if (b.memory)
      api.vkFreeMemory(device, b.memory, nullptr);
    b = Buffer();
  }

  static Status outOfMemory(const std::string &what, uint64_t bytes) {
    return Status::error(BSGPRT_ERROR_OUT_OF_MEMORY,
                         "cannot allocate a " + std::to_string(bytes) +
                             "-byte staging buffer (" + what + ")");
  }

  /// Finds the allocation holding [p, p + bytes).
  Status find(const void *p, uint64_t bytes, const char *role,
              const Buffer *&out, uint64_t &offset) const {
    uint64_t a = address(p);
    auto it = buffers.upper_bound(a);
    if (it != buffers.begin()) {
      --it;
      if (a - it->first < it->second.size &&
          bytes <= it->second.size - (a - it->first)) {
        out = &it->second;
        offset = a - it->first;
        return Status::ok();
      }
    }
    return Status::error(BSGPRT_ERROR_INVALID_POINTER,
                         std::string(role) + " " + hexPointer(p) + " (" +
                             std::to_string(bytes) +
                             " bytes) is not inside one vulkan allocation");
  }

  /// Makes the command buffer ready for one more command, with a barrier
  /// after what is already recorded: every launch and copy may read what
  /// the previous ones wrote.
  Status begin() {
    if (!recording) {
      auto bi = vkStruct<VkCommandBufferBeginInfo>(
          VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
      bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      if (VkResult r = api.vkBeginCommandBuffer(commandBuffer, &bi))
        return failure(r, "vkBeginCommandBuffer");
      recording = true;
    } else if (hasWork) {
      barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                  VK_PIPELINE_STAGE_TRANSFER_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                  VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    }
    hasWork = true;
    return Status::ok();
  }

  void barrier(VkPipelineStageFlags dstStage, VkAccessFlags dstAccess) {
    auto mb = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask =
        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = dstAccess;
    api.vkCmdPipelineBarrier(commandBuffer,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                                 VK_PIPELINE_STAGE_TRANSFER_BIT,
                             dstStage, 0, 1, &mb, 0, nullptr, 0, nullptr);
  }

  /// Submits what is recorded and waits for it; then the argument ring and
  /// the staging buffers of recorded copies are free again.
  Status flush() {
    Status earlier = deferred;
    deferred = Status::ok();
    Status s = submitAndWait();
    return earlier.failed() ? earlier : s;
  }

  Status submitAndWait() {
    if (!hasWork)
      return Status::ok();
    // Device writes become visible to the host after the fence.
    barrier(VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    recording = false;
    hasWork = false;
    argsUsed = 0;
    if (VkResult r = api.vkEndCommandBuffer(commandBuffer))
      return failure(r, "vkEndCommandBuffer");
    auto si = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.commandBufferCount = 1;
    si.pCommandBuffers = &commandBuffer;
    VkResult r = api.vkQueueSubmit(queue, 1, &si, fence);
    if (r)
      return failure(r, "vkQueueSubmit");
    r = api.vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
    api.vkResetFences(device, 1, &fence);
    api.vkResetCommandBuffer(commandBuffer, 0);
    releaseRetired();
    if (r)
      return failure(r, "vkWaitForFences");
    // The timestamps of every timed launch are written now.
    unsubmittedTimed = 0;
    return Status::ok();
  }

  void releaseRetired() {
    for (Buffer &b : retired)
      destroyBuffer(b);
    retired.clear();
  }

  Status failure(VkResult r, const char *what) {
    // The recorded work is lost; start over with an empty command buffer.
    recording = false;
    hasWork = false;
    argsUsed = 0;
    api.vkResetCommandBuffer(commandBuffer, 0);
    releaseRetired();
    // So are the timestamps not written yet.
    if (!timedQueries.empty() || !readyMs.empty())
      loseTimes();
    std::string message = std::string(what) + " failed: " + resultString(r);
    bool lost = r == VK_ERROR_DEVICE_LOST;
    if (lost && !lastLaunch.empty())
      message += " (after the launch of kernel '" + lastLaunch + ")";
    return Status::error(r == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
                                 r == VK_ERROR_OUT_OF_HOST_MEMORY
                             ? BSGPRT_ERROR_OUT_OF_MEMORY
                         : lost ? BSGPRT_ERROR_LAUNCH_FAILED
                                : BSGPRT_ERROR_BACKEND,
                         message);
  }

  /// Copies the launch arguments (or a small copy's bytes) into the ring,
  /// returning their device address; a full ring is emptied by
  /// waiting for the submission that reads it, or grown when one struct is
  /// larger than all of it.
  Status placeArgs(const void *args, uint64_t size, uint64_t &addr) {
    uint64_t start = (argsUsed + ArgsAlignment - 1) & ~(ArgsAlignment - 1);
    if (start + size > argsRing.size) {
      if (Status s = flush(); s.failed())
        return s;
      start = 0;
      if (size > argsRing.size) {
        uint64_t grown = argsRing.size;
        while (grown < size)
          grown *= 2;
        Buffer b;
        if (std::string e = createBuffer(grown, hostMemoryType, true, b);
            !e.empty())
          return outOfMemory(e, grown);
        destroyBuffer(argsRing);
        argsRing = b;
      }
    }
    if (size && args)
      std::memcpy(static_cast<char *>(argsRing.mapped) + start, args, size);
    argsUsed = start + std::max<uint64_t>(size, 1);
    addr = argsRing.address + start;
    return Status::ok();
  }

  /// Creates the query pool of kernel timestamps where the queue can write
  /// them; without it (timestampValidBits 0) profiling times launches on
  /// the host.
  void createQueryPool() {
    if (!timestampBits || !(timestampPeriod > 0))
      return;
    auto qci = vkStruct<VkQueryPoolCreateInfo>(
        VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2 * TimedCapacity;
    if (api.vkCreateQueryPool(device, &qci, nullptr, &queryPool))
      queryPool = VK_NULL_HANDLE;
  }

  /// The time in milliseconds between the two timestamps from \p query,
  /// which a completed submission wrote.
  Status readTime(uint32_t query, double &ms) {
    uint64_t ticks[2] = {0, 0};
    // No VK_QUERY_RESULT_WAIT_BIT: the submission was waited for, and a
    // timestamp that is still missing must fail rather than hang.
    if (VkResult r =
            api.vkGetQueryPoolResults(device, queryPool, query, 2,
                                      sizeof(ticks), ticks, sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT))
      return Status::error(BSGPRT_ERROR_BACKEND,
                           "vkGetQueryPoolResults failed: " + resultString(r));
    // Only the low timestampValidBits bits count; the difference modulo
    // that many bits survives the counter wrapping around between them.
    uint64_t mask =
        timestampBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << timestampBits) - 1;
    uint64_t elapsed = (ticks[1] - ticks[0]) & mask;
    ms = static_cast<double>(elapsed) * timestampPeriod * 1e-6;
    return Status::ok();
  }

  /// Submits what is recorded and reads every timestamp into readyMs,
  /// freeing all the queries.
  Status readTimesEarly() {
    if (Status s = submitAndWait(); s.failed())
      return s;
    if (Status s = readOldestTimes(0, readyMs); s.failed()) {
      loseTimes();
      return s;
    }
    return Status::ok();
  }

  /// Reads the oldest timed queries, in launch order, into \p ms until
  /// \p keep are left (those of launches not submitted yet).
  Status readOldestTimes(size_t keep, std::vector<double> &ms) {
    while (timedQueries.size() > keep) {
      double t = 0;
      if (Status s = readTime(timedQueries.front(), t); s.failed())
        return s;
      timedQueries.pop_front();
      ms.push_back(t);
    }
    return Status::ok();
  }

  void dropTimes() {
    timedQueries.clear();
    readyMs.clear();
    unsubmittedTimed = 0;
    timesLost = false;
  }

  /// Forgets the times not collected yet and has the next collectTimes
  /// fail, which makes the runtime forget the launches it has not
  /// collected: both lists stay in step.
  void loseTimes() {
    dropTimes();
    timesLost = true;
  }

  /// Names the first capability of \p m that the device cannot run, or
  /// returns an empty string.
  std::string missingCapability(const bsgprt_module_desc &m) const {
    const uint32_t *w = m.spirv;
    uint64_t words = m.spirv_size / 4;
    for (uint64_t i = 5; i < words;) {
      uint32_t count = w[i] >> 16, opcode = w[i] & 0xffff;
      if (!count)
        break;
      if (opcode == 17 && count >= 2) // OpCapability
        for (const CapabilityFeature &cf : CapabilityFeatures)
          if (cf.capability == w[i + 1] && !(features.*cf.feature))
            return std::string(cf.capabilityName) + " (" + cf.featureName + ")";
      i += count;
    }
    return "";
  }

  Status getPipeline(const bsgprt_module_desc &m, uint32_t kernel,
                     VkPipeline &out) {
    LoadedModule &lm = modules[&m];
    if (!lm.module) {
      if (!m.spirv || m.spirv_size < 20)
        return Status::error(
            BSGPRT_ERROR_LAUNCH_FAILED,
            std::string("module ") + (m.source_file ? m.source_file : "?") +
                " has no SPIR-V for the vulkan backend; compile it with "
                "--target=cpu,spirv (spirv among the targets)");
      if (std::string cap = missingCapability(m); !cap.empty())
        return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                             "the module's kernels need " + cap + ", which " +
                                 properties.deviceName + " does not support");
      auto sci = vkStruct<VkShaderModuleCreateInfo>(
          VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
      sci.codeSize = m.spirv_size;
      sci.pCode = m.spirv;
      if (VkResult r =
              api.vkCreateShaderModule(device, &sci, nullptr, &lm.module)) {
        lm.module = VK_NULL_HANDLE;
        return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                             "cannot load the module's SPIR-V: " +
                                 resultString(r));
      }
      lm.pipelines.assign(m.num_kernels, VK_NULL_HANDLE);
    }
    VkPipeline &p = lm.pipelines[kernel];
    if (!p) {
      const char *kname = m.kernels[kernel].name;
      if (!kname)
        return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                             "kernel " + std::to_string(kernel) +
                                 " has no name");
      auto cpi = vkStruct<VkComputePipelineCreateInfo>(
          VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
      cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      cpi.stage.module = lm.module;
      cpi.stage.pName = kname;
      // Group ranks are SubgroupId * SubgroupSize + lane, a numbering of
      // the 256 invocations only when every subgroup is full; 256 is a
      // multiple of every subgroup size, so devices make them full in
      // practice, and this makes it a promise where the device can.
      if (features.computeFullSubgroups)
        cpi.stage.flags =
            VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
      cpi.layout = layout;
      if (VkResult r = api.vkCreateComputePipelines(device, pipelineCache, 1,
                                                    &cpi, nullptr, &p)) {
        p = VK_NULL_HANDLE;
        return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                             std::string("cannot create the pipeline of "
                                         "kernel '") +
                                 kname + "': " + resultString(r));
      }
      pipelinesCreated = true;
    }
    out = p;
    return Status::ok();
  }

  /// $BSGP_CACHE_DIR, else $XDG_CACHE_HOME/bsgp, else $HOME/.cache/bsgp.
  static std::string cacheDirectory() {
    const char *e = std::getenv("BSGP_CACHE_DIR");
    if (e && *e)
      return e;
    e = std::getenv("XDG_CACHE_HOME");
    if (e && *e)
      return std::string(e) + "/bsgp";
    e = std::getenv("HOME");
    if (e && *e)
      return std::string(e) + "/.cache/bsgp";
    return "";
  }

  void loadPipelineCache() {
    std::string dir = cacheDirectory();
    if (!dir.empty()) {
      char id[32];
      std::snprintf(id, sizeof(id), "%04x-%04x", properties.vendorID,
                    properties.deviceID);
      std::string uuid;
      for (uint8_t byte : properties.pipelineCacheUUID) {
        char h[3];
        std::snprintf(h, sizeof(h), "%02x", byte);
        uuid += h;
      }
      cachePath = dir + "/vulkan-pipelines-" + id + "-" + uuid + ".bin";
    }
    std::vector<char> data;
    if (!cachePath.empty())
      if (FILE *f = std::fopen(cachePath.c_str(), "rb")) {
        char buf[65536];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
          data.insert(data.end(), buf, buf + n);
        std::fclose(f);
      }
    auto ci = vkStruct<VkPipelineCacheCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    ci.initialDataSize = data.size();
    ci.pInitialData = data.empty() ? nullptr : data.data();
    // The driver checks the header and ignores data that is not its own;
    // if it still refuses, start with an empty cache.
    if (api.vkCreatePipelineCache(device, &ci, nullptr, &pipelineCache)) {
      ci.initialDataSize = 0;
      ci.pInitialData = nullptr;
      if (api.vkCreatePipelineCache(device, &ci, nullptr, &pipelineCache))
        pipelineCache = VK_NULL_HANDLE;
    }
  }

  void *lib = nullptr;
  VulkanAPI api;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties = {};
  VkPhysicalDeviceMemoryProperties memoryProperties = {};
  Features features;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkQueue queue = VK_NULL_HANDLE;
  uint64_t maxGroups[2] = {1, 1};
  std::string name;

  int deviceMemoryType = -1;
  int hostMemoryType = -1;
  /// Allocations are mapped and copies are plain memcpy (the memory is
  /// device-local and host-visible, and BSGP_VULKAN_STAGING is not set).
  bool directAccess = false;
  bool forceStaging = false;
  bool syncEachLaunch = false;

  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  std::string cachePath;
  /// Pipelines were created since the cache was last written.
  bool pipelinesCreated = false;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  /// The command buffer is between begin and end.
  bool recording = false;
  /// It holds commands not yet submitted.
  bool hasWork = false;

  Buffer argsRing;
  uint64_t argsUsed = 0;
  /// Staging buffers of recorded copies, freed after the submission.
  std::vector<Buffer> retired;
  /// A failed submission of deallocate(), reported by the next flush().
  Status deferred;
  /// "name' (srcloc)" of the latest launch, for a device lost later.
  std::string lastLaunch;

  /// \name Kernel timestamps (BSGP_PROFILE)
  /// @{
  VkQueryPool queryPool = VK_NULL_HANDLE;
  /// The queue family's timestampValidBits; 0: it cannot write timestamps.
  uint32_t timestampBits = 0;
  /// Nanoseconds per timestamp tick (VkPhysicalDeviceLimits).
  double timestampPeriod = 0;
  /// The first of the two queries of each timed launch whose time is not
  /// collected yet, in launch order; the pool is used as a ring.
  std::deque<uint32_t> timedQueries;
  /// How many at the end of timedQueries are in the command buffer being
  /// recorded, whose timestamps are not written yet.
  size_t unsubmittedTimed = 0;
  uint32_t nextQuery = 0;
  /// Times read before collectTimes, to free the queries of a full pool;
  /// older than all of timedQueries.
  std::vector<double> readyMs;
  /// A failed submission lost timestamps not collected yet.
  bool timesLost = false;
  /// @}

  std::recursive_mutex mutex;
  /// Allocations by the device address handed out.
  std::map<uint64_t, Buffer> buffers;
  std::map<const bsgprt_module_desc *, LoadedModule> modules;
};

void savePipelineCachesAtExit() {
  std::lock_guard<std::mutex> lock(liveMutex);
  for (VulkanBackend *b : liveBackends())
    b->savePipelineCache();
}

} // namespace

std::unique_ptr<Backend>
createVulkanBackend(std::string &why, bool allowCPUDevice,
                    const std::vector<std::string> &withoutFeatures) {
  auto b = std::make_unique<VulkanBackend>();
  if (!b->init(why, allowCPUDevice, withoutFeatures))
    return nullptr;
  return b;
}

} // namespace bsgprt
