//===- VulkanBackend.cpp - Vulkan compute backend loaded at run time ------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Setting up: the loader is opened with dlopen, the instance and the device
// are created and the command objects made; also createVulkanBackend and
// the names of results and versions. VulkanBackend.h describes the
// backend.
//
//===----------------------------------------------------------------------===//

#include "VulkanBackend.h"

#include <dlfcn.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

namespace bsgprt {
namespace vulkan {

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

VulkanBackend::~VulkanBackend() {
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
  destroyBuffer(readback);
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

/// Sets `out` to the environment variable `name` where it is a decimal
/// count; leaves it otherwise.
static void envCount(const char *name, uint64_t &out) {
  const char *env = std::getenv(name);
  if (!env)
    return;
  char *end = nullptr;
  unsigned long long v = std::strtoull(env, &end, 10);
  if (end != env && *end == 0)
    out = v;
}

bool VulkanBackend::init(std::string &why, bool allowCPU,
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
  envCount("BSGP_VULKAN_SPIN_US", spinMicroseconds);
  envCount("BSGP_VULKAN_GROUPS", strideGroups);
  gridGroups = residentGroups();
  envCount("BSGP_VULKAN_GRID_GROUPS", gridGroups);
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

bool VulkanBackend::pickDevice(std::string &why, bool allowCPU) {
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
      lack(
          ("Vulkan 1.2 (it implements " + versionString(props.apiVersion) + ")")
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

Features VulkanBackend::queryFeatures(VkPhysicalDevice pd,
                                      uint32_t apiVersion) const {
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
  f.subgroupArithmetic = compute && (ops & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
  f.computeFullSubgroups =
      apiVersion >= VK_API_VERSION_1_3 && sizeControl.computeFullSubgroups;
  return f;
}

int VulkanBackend::computeQueueFamily(VkPhysicalDevice pd) const {
  uint32_t count = 0;
  api.vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  api.vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, families.data());
  for (uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      return static_cast<int>(i);
  return -1;
}

uint64_t VulkanBackend::residentGroups() const {
  // Vulkan promises no forward progress to a workgroup that waits for
  // another. NVIDIA's devices run every workgroup of a dispatch that fits
  // on them at once, and VK_NV_shader_sm_builtins says how many
  // multiprocessors they have: one 256-invocation workgroup (8 warps) on
  // each fits beside anything else of the program, which runs in order.
  if (properties.vendorID != 0x10DE ||
      !hasExtension(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME))
    return 0;
  auto sm = vkStruct<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
  auto props2 = vkStruct<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  props2.pNext = &sm;
  api.vkGetPhysicalDeviceProperties2(physicalDevice, &props2);
  if (sm.shaderWarpsPerSM < WorkgroupSize / 32)
    return 0;
  return sm.shaderSMCount;
}

bool VulkanBackend::hasExtension(const char *extension) const {
  uint32_t count = 0;
  api.vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count,
                                           nullptr);
  std::vector<VkExtensionProperties> all(count);
  api.vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count,
                                           all.data());
  for (uint32_t i = 0; i < count; ++i)
    if (std::strcmp(all[i].extensionName, extension) == 0)
      return true;
  return false;
}

bool VulkanBackend::createDevice(std::string &why) {
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

  // Host memory imported into several devices is how vulkan:N shares its
  // lists (VulkanShared.cpp); the extension costs nothing where unused.
  const char *hostMemory = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
  bool canImport = hasExtension(hostMemory);
  auto dci = vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  dci.pNext = &f2;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = canImport ? 1 : 0;
  dci.ppEnabledExtensionNames = &hostMemory;
  if (VkResult r = api.vkCreateDevice(physicalDevice, &dci, nullptr, &device)) {
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
  if (canImport) {
    api.vkGetMemoryHostPointerPropertiesEXT =
        reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
            getDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT"));
    auto host = vkStruct<VkPhysicalDeviceExternalMemoryHostPropertiesEXT>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT);
    auto props2 = vkStruct<VkPhysicalDeviceProperties2>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    props2.pNext = &host;
    api.vkGetPhysicalDeviceProperties2(physicalDevice, &props2);
    if (api.vkGetMemoryHostPointerPropertiesEXT)
      importAlignment = host.minImportedHostPointerAlignment;
  }
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

bool VulkanBackend::createCommandObjects(std::string &why) {
  // {args address, size, first, end}: 32 of the at least 128 bytes.
  VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 32};
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
  std::string e = createBuffer(InitialArgsRing, argsMemoryType, true, argsRing);
  if (!e.empty() && argsMemoryType != hostMemoryType) {
    // The device-local window may be small or taken: host memory works too.
    argsMemoryType = hostMemoryType;
    e = createBuffer(InitialArgsRing, argsMemoryType, true, argsRing);
  }
  if (!e.empty()) {
    why = "cannot allocate the launch argument buffer: " + e;
    return false;
  }
  argsRing.size = InitialArgsRing;
  return true;
}

void savePipelineCachesAtExit() {
  std::lock_guard<std::mutex> lock(liveMutex);
  for (VulkanBackend *b : liveBackends())
    b->savePipelineCache();
}

} // namespace vulkan

std::unique_ptr<Backend>
createVulkanBackend(std::string &why, bool allowCPUDevice,
                    const std::vector<std::string> &withoutFeatures) {
  auto b = std::make_unique<vulkan::VulkanBackend>();
  if (!b->init(why, allowCPUDevice, withoutFeatures))
    return nullptr;
  return b;
}

} // namespace bsgprt
