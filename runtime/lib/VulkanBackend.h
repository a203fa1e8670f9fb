//===- VulkanBackend.h - the Vulkan compute backend's class -----*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The VulkanBackend class, private to the runtime and shared by its files:
// VulkanBackend.cpp (the loader, instance, device and command objects),
// VulkanMemory.cpp (allocations, copies, staging and the argument ring),
// VulkanPipelines.cpp (shader modules, pipelines and the pipeline cache),
// VulkanLaunch.cpp (dispatches, submissions and timestamp queries) and
// VulkanShared.cpp (host memory imported by the devices of vulkan:N).
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

#ifndef BSGPRT_LIB_VULKANBACKEND_H
#define BSGPRT_LIB_VULKANBACKEND_H

#include "Backend.h"
#include "Messages.h"

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace bsgprt {
namespace vulkan {

/// A Vulkan structure with its sType set and everything else zero.
template <class T> T vkStruct(VkStructureType type) {
  T s{};
  s.sType = type;
  return s;
}

/// A buffer that holds a list: storage with a device address, copied to
/// and from, owned by one queue family.
inline VkBufferCreateInfo listBufferInfo(uint64_t bytes) {
  auto bci = vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bci.size = bytes;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
              VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
              VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
              VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  return bci;
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
/// Workgroups a launch of a grid-stride kernel gets at most, unless
/// BSGP_VULKAN_GROUPS says otherwise (0: one invocation per rank). 32 waves
/// of an H100's resident invocations (132 multiprocessors of 2048), as the
/// cuda backend launches (docs/cuda.md).
constexpr uint64_t DefaultStrideGroups = 32768;
/// How long a wait for a submission polls its fence before it blocks,
/// unless BSGP_VULKAN_SPIN_US says otherwise: a blocked thread wakes tens of
/// microseconds after the GPU is done, which a short kernel feels (the
/// cuda backend's waits spin too).
constexpr uint64_t DefaultSpinMicroseconds = 5000;
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
  X(vkEnumerateDeviceExtensionProperties)                                      \
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
  X(vkGetFenceStatus)                                                          \
  X(vkQueueSubmit)

struct VulkanAPI {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkCreateInstance vkCreateInstance = nullptr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion = nullptr;
#define X(name) PFN_##name name = nullptr;
  BSGP_VK_INSTANCE_FUNCTIONS(X)
  BSGP_VK_DEVICE_FUNCTIONS(X)
#undef X
  /// VK_EXT_external_memory_host, null where the device lacks it.
  PFN_vkGetMemoryHostPointerPropertiesEXT vkGetMemoryHostPointerPropertiesEXT =
      nullptr;
};

/// The name of a VkResult (VK_ERROR_DEVICE_LOST), or null for one it does
/// not know.
const char *resultName(VkResult r);
/// The name of \p r, or its number.
std::string resultString(VkResult r);
/// "major.minor" of a Vulkan version.
std::string versionString(uint32_t v);
/// Messages name pointers as the runtime's core does.
using bsgprt::hexPointer;

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
inline constexpr CapabilityFeature CapabilityFeatures[] = {
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

class VulkanBackend final : public Backend {
public:
  ~VulkanBackend() override;

  /// Opens the loader, picks a device and creates what every launch needs.
  /// Returns false with `why` set when there is no usable device; with
  /// \p allowCPU false, a device of type CPU (lavapipe) does not count.
  /// The optional features named in \p withoutFeatures are not enabled.
  bool init(std::string &why, bool allowCPU,
            const std::vector<std::string> &withoutFeatures);
  const char *deviceName() const override { return name.c_str(); }
  /// The size of the heap device lists come from: the runtime's pool of
  /// temporaries may keep a quarter of it.
  uint64_t memoryBytes() const override;

  void *allocate(uint64_t bytes) override;
  void deallocate(void *p) override;
  Status copyHostToDevice(void *dst, const void *src, uint64_t bytes) override;
  Status copyDeviceToHost(void *dst, const void *src, uint64_t bytes) override;
  Status copyDeviceToDevice(void *dst, const void *src,
                            uint64_t bytes) override;
  Status memset(void *dst, int value, uint64_t bytes) override;
  Status launchSlice(const bsgprt_module_desc &m, uint32_t kernel,
                     const Slice &slice, const void *args) override;
  Status launch(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                const void *args) override;
  Status synchronize() override;
  bool hasDeviceTimer() const override { return queryPool != VK_NULL_HANDLE; }

  Status launchTimed(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                     const void *args) override;
  Status collectTimes(bool wait, std::vector<double> &ms) override;

  /// Grid loops: where the device's workgroups are known to run at once
  /// (NVIDIA's, by VK_NV_shader_sm_builtins: one workgroup per
  /// multiprocessor), or BSGP_VULKAN_GRID_GROUPS names how many may.
  bool canLaunchCooperative(const bsgprt_module_desc &m, uint32_t kernel,
                            uint64_t n) override;
  Status launchCooperative(const bsgprt_module_desc &m, uint32_t kernel,
                           uint64_t n, const void *args) override;

  /// Writes the pipeline cache where the next run finds it; silent on
  /// failure (a missing cache only costs compile time).
  void savePipelineCache();

  /// \name Host memory shared by the devices of vulkan:N (VulkanShared.cpp)
  /// @{
  /// The alignment of host memory the device can import
  /// (VK_EXT_external_memory_host's minImportedHostPointerAlignment), or 0
  /// when it cannot import host memory.
  uint64_t hostImportAlignment() const { return importAlignment; }
  /// Imports [host, host + bytes) (aligned to hostImportAlignment, bytes a
  /// multiple of it) as an allocation of this device: a buffer with a
  /// device address, returned in \p addr, mapped at \p host. deallocate
  /// of that address forgets it and leaves the host memory alone.
  Status importHost(void *host, uint64_t bytes, uint64_t &addr);
  /// Submits every copy and fill as it is recorded, as BSGP_SYNC does: on
  /// several devices a copy through device 0 must be done before another
  /// device's next kernel reads its destination.
  void submitEachCommand() { syncEachLaunch = true; }
  /// @}

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
    /// Per kernel: its entry point is a grid-stride loop over the ranks
    /// (docs/spirv.md), so a launch may have fewer workgroups than ranks.
    std::vector<bool> strided;
  };

  /// A grid-loop kernel's dispatch: exactly `groups` workgroups, and the
  /// barrier's word where other kernels take their slice's first rank.
  struct GridDispatch {
    uint64_t groups;
    uint64_t word;
  };
  /// Records kernel `kernel` of `m` on ranks [first, end) of a launch of
  /// n ([0, n) unless a device of several runs a slice) into the command
  /// buffer, between two timestamps when \p timed. The push constants are
  /// {args address, n, first, end} (ABI version 5); `grid` makes it a
  /// grid-loop kernel's dispatch.
  Status dispatch(const bsgprt_module_desc &m, uint32_t kernel, uint64_t n,
                  const void *args, bool timed, uint64_t first = 0,
                  uint64_t end = UINT64_MAX,
                  const GridDispatch *grid = nullptr);
  /// The workgroups the device keeps resident at once, for grid loops; 0:
  /// unknown, and grid loops run as the host's loop.
  uint64_t residentGroups() const;

  static uint64_t address(const void *p) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
  }

  bool pickDevice(std::string &why, bool allowCPU);
  Features queryFeatures(VkPhysicalDevice pd, uint32_t apiVersion) const;
  int computeQueueFamily(VkPhysicalDevice pd) const;
  bool createDevice(std::string &why);
  /// The physical device offers the device extension \p extension.
  bool hasExtension(const char *extension) const;
  void chooseMemoryTypes();
  bool createCommandObjects(std::string &why);

  /// Creates a buffer with a device address on memory type \p type, mapped
  /// when \p map; returns an empty string or what failed.
  std::string createBuffer(uint64_t size, int type, bool map, Buffer &b);
  void destroyBuffer(Buffer &b);
  static Status outOfMemory(const std::string &what, uint64_t bytes);

  /// Finds the allocation holding [p, p + bytes).
  Status find(const void *p, uint64_t bytes, const char *role,
              const Buffer *&out, uint64_t &offset) const;

  /// Makes the command buffer ready for one more command, with a barrier
  /// after what is already recorded: every launch and copy may read what
  /// the previous ones wrote.
  Status begin();
  void barrier(VkPipelineStageFlags dstStage, VkAccessFlags dstAccess);

  /// Submits what is recorded and waits for it; then the argument ring and
  /// the staging buffers of recorded copies are free again.
  Status flush();
  Status submitAndWait();
  /// Waits for the fence: polls it for spinMicroseconds, then blocks.
  VkResult waitForFence();
  void releaseRetired();
  Status failure(VkResult r, const char *what);

  /// Copies the launch arguments (or a small copy's bytes) into the ring,
  /// returning their device address; a full ring is emptied by
  /// waiting for the submission that reads it, or grown when one struct is
  /// larger than all of it.
  Status placeArgs(const void *args, uint64_t size, uint64_t &addr);

  /// Creates the query pool of kernel timestamps where the queue can write
  /// them; without it (timestampValidBits 0) profiling times launches on
  /// the host.
  void createQueryPool();

  /// The time in milliseconds between the two timestamps from \p query,
  /// which a completed submission wrote.
  Status readTime(uint32_t query, double &ms);

  /// Submits what is recorded and reads every timestamp into readyMs,
  /// freeing all the queries.
  Status readTimesEarly();

  /// Reads the oldest timed queries, in launch order, into \p ms until
  /// \p keep are left (those of launches not submitted yet).
  Status readOldestTimes(size_t keep, std::vector<double> &ms);
  void dropTimes();

  /// Forgets the times not collected yet and has the next collectTimes
  /// fail, which makes the runtime forget the launches it has not
  /// collected: both lists stay in step.
  void loseTimes();

  /// Names the first capability of \p m that the device cannot run, or
  /// returns an empty string.
  std::string missingCapability(const bsgprt_module_desc &m) const;
  /// Marks the kernels of \p m whose entry points loop over the ranks with
  /// the grid's stride: those whose interface lists GlobalInvocationId.
  static void findStridedKernels(const bsgprt_module_desc &m, LoadedModule &lm);
  /// The pipeline of \p kernel, created on first use; \p strided tells
  /// whether it is a grid-stride loop.
  Status getPipeline(const bsgprt_module_desc &m, uint32_t kernel,
                     VkPipeline &out, bool &strided);

  /// $BSGP_CACHE_DIR, else $XDG_CACHE_HOME/bsgp, else $HOME/.cache/bsgp.
  static std::string cacheDirectory();
  void loadPipelineCache();

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
  /// The argument ring's memory: device-local and host-visible where the
  /// device has such memory (every thread of a launch reads the
  /// arguments; from host memory they cross the bus), else hostMemoryType.
  int argsMemoryType = -1;
  /// Allocations are mapped and copies are plain memcpy (the memory is
  /// device-local and host-visible, and BSGP_VULKAN_STAGING is not set).
  bool directAccess = false;
  bool forceStaging = false;
  bool syncEachLaunch = false;
  /// minImportedHostPointerAlignment; 0 without VK_EXT_external_memory_host.
  uint64_t importAlignment = 0;
  /// Most workgroups of a strided kernel's launch; 0: one invocation per
  /// rank.
  uint64_t strideGroups = DefaultStrideGroups;
  /// Most workgroups of a grid loop's dispatch (all resident at once); 0:
  /// no grid loops.
  uint64_t gridGroups = 0;
  /// The 32-bit arrival word of the grid loops' barrier, made at the first.
  void *gridWord = nullptr;
  uint64_t spinMicroseconds = DefaultSpinMicroseconds;

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
  /// Host memory that small copies to the host go through (made at the
  /// first), instead of a staging buffer allocated for each.
  Buffer readback;
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

} // namespace vulkan
} // namespace bsgprt

#endif // BSGPRT_LIB_VULKANBACKEND_H
