//===- VulkanShared.cpp - Host memory shared by the devices of vulkan:N ---===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// BSGP_DEVICE=vulkan:N runs N vulkan backends, each with its own instance,
// device and queue, under one MultiDeviceBackend (docs/multi-device.md).
// Kernels address lists by device address, and separate Vulkan devices
// have no memory in common, so every list is one host allocation imported
// into every device (VK_EXT_external_memory_host) as a buffer with a device
// address. A BSGP pointer is one number for all devices, so the devices must
// map the host memory at the same device address: lavapipe does (its device
// addresses are host addresses); a real GPU pair would not, and vulkan:N
// then refuses to start rather than hand a kernel an address that means
// another device's memory.
//
//===----------------------------------------------------------------------===//

#include "VulkanBackend.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

namespace bsgprt {
namespace vulkan {

Status VulkanBackend::importHost(void *host, uint64_t bytes, uint64_t &addr) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  const VkExternalMemoryHandleTypeFlagBits handle =
      VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  auto fail = [&](const std::string &what, Buffer &b) {
    destroyBuffer(b);
    return Status::error(BSGPRT_ERROR_OUT_OF_MEMORY,
                         "cannot import " + std::to_string(bytes) +
                             " bytes of host memory into " + name + " (" +
                             what + ")");
  };
  Buffer b;
  if (!importAlignment)
    return fail("the device lacks VK_EXT_external_memory_host", b);
  auto hostProps = vkStruct<VkMemoryHostPointerPropertiesEXT>(
      VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT);
  if (VkResult r = api.vkGetMemoryHostPointerPropertiesEXT(device, handle, host,
                                                           &hostProps))
    return fail("vkGetMemoryHostPointerPropertiesEXT: " + resultString(r), b);
  auto external = vkStruct<VkExternalMemoryBufferCreateInfo>(
      VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
  external.handleTypes = handle;
  VkBufferCreateInfo bci = listBufferInfo(bytes);
  bci.pNext = &external;
  if (VkResult r = api.vkCreateBuffer(device, &bci, nullptr, &b.buffer)) {
    b.buffer = VK_NULL_HANDLE;
    return fail("vkCreateBuffer: " + resultString(r), b);
  }
  VkMemoryRequirements req;
  api.vkGetBufferMemoryRequirements(device, b.buffer, &req);
  uint32_t types = req.memoryTypeBits & hostProps.memoryTypeBits;
  if (!types)
    return fail("no memory type holds both the buffer and the host memory", b);
  // The type lists are allocated from when it can hold the memory.
  uint32_t type = 0;
  if (deviceMemoryType >= 0 && (types & (1u << deviceMemoryType)))
    type = static_cast<uint32_t>(deviceMemoryType);
  else
    while (!(types & (1u << type)))
      ++type;
  auto flags = vkStruct<VkMemoryAllocateFlagsInfo>(
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  auto import = vkStruct<VkImportMemoryHostPointerInfoEXT>(
      VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT);
  import.handleType = handle;
  import.pHostPointer = host;
  import.pNext = &flags;
  auto mai =
      vkStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  mai.pNext = &import;
  mai.allocationSize = bytes;
  mai.memoryTypeIndex = type;
  if (VkResult r = api.vkAllocateMemory(device, &mai, nullptr, &b.memory)) {
    b.memory = VK_NULL_HANDLE;
    return fail("vkAllocateMemory: " + resultString(r), b);
  }
  if (VkResult r = api.vkBindBufferMemory(device, b.buffer, b.memory, 0))
    return fail("vkBindBufferMemory: " + resultString(r), b);
  auto dai = vkStruct<VkBufferDeviceAddressInfo>(
      VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  dai.buffer = b.buffer;
  b.address = api.vkGetBufferDeviceAddress(device, &dai);
  b.size = bytes;
  // The memory is the host's: copies to and from it are plain memcpy.
  b.mapped = host;
  if (buffers.count(b.address))
    return fail("its device address " +
                    hexPointer(reinterpret_cast<void *>(uintptr_t(b.address))) +
                    " is taken",
                b);
  buffers[b.address] = b;
  addr = b.address;
  return Status::ok();
}

namespace {

/// The lists of vulkan:N: host allocations imported into every device.
class VulkanSharedMemory final : public SpanMemory {
public:
  VulkanSharedMemory(std::vector<VulkanBackend *> devices, uint64_t alignment)
      : devices(std::move(devices)), alignment(alignment) {}
  /// Runs before the devices go (MultiDeviceBackend holds it after them).
  ~VulkanSharedMemory() override {
    for (auto &[address, host] : hosts) {
      deallocateImports(address);
      std::free(host);
    }
  }

  void *allocate(uint64_t bytes) override {
    std::string why;
    return allocate(bytes, why);
  }

  /// As allocate, saying why it failed: a device could not import the
  /// memory, or mapped it at another address than device 0.
  void *allocate(uint64_t bytes, std::string &why) {
    uint64_t size = std::max<uint64_t>(bytes, 1);
    size = (size + alignment - 1) / alignment * alignment;
    if (size < bytes)
      return nullptr;
    void *host = std::aligned_alloc(alignment, size);
    if (!host) {
      why = "out of host memory";
      return nullptr;
    }
    std::vector<uint64_t> addresses;
    for (VulkanBackend *d : devices) {
      uint64_t a = 0;
      if (Status s = d->importHost(host, size, a); s.failed()) {
        why = s.message;
        break;
      }
      addresses.push_back(a);
      if ((why = sharedAddressMismatch(addresses)).size())
        break;
    }
    if (!why.empty()) {
      for (size_t d = 0; d < addresses.size(); ++d)
        devices[d]->deallocate(
            reinterpret_cast<void *>(uintptr_t(addresses[d])));
      std::free(host);
      return nullptr;
    }
    // Device addresses are at least as aligned as the host memory is on
    // lavapipe; the runtime promises 256 bytes.
    if (addresses[0] % 256) {
      why = "device address " +
            hexPointer(reinterpret_cast<void *>(uintptr_t(addresses[0]))) +
            " is not aligned to 256 bytes";
      deallocateImports(addresses[0]);
      std::free(host);
      return nullptr;
    }
    std::lock_guard<std::mutex> lock(mutex);
    hosts[addresses[0]] = host;
    return reinterpret_cast<void *>(uintptr_t(addresses[0]));
  }

  void deallocate(void *p) override {
    uint64_t a = uint64_t(reinterpret_cast<uintptr_t>(p));
    void *host = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = hosts.find(a);
      if (it == hosts.end())
        return;
      host = it->second;
      hosts.erase(it);
    }
    deallocateImports(a);
    std::free(host);
  }

  /// Every device reaches all of every list, and no list is spread: it
  /// lives in host memory.
  bool spansDevices() const override { return false; }

private:
  /// Each device's deallocate waits for its recorded work that may still
  /// use the buffer before it is destroyed.
  void deallocateImports(uint64_t a) {
    for (VulkanBackend *d : devices)
      d->deallocate(reinterpret_cast<void *>(uintptr_t(a)));
  }

  std::vector<VulkanBackend *> devices;
  uint64_t alignment;
  std::mutex mutex;
  /// The host allocation of each list, by the device address handed out.
  std::map<uint64_t, void *> hosts;
};

} // namespace
} // namespace vulkan

std::string sharedAddressMismatch(const std::vector<uint64_t> &addresses) {
  for (size_t d = 1; d < addresses.size(); ++d)
    if (addresses[d] != addresses[0])
      return "the vulkan devices do not share addresses of imported host "
             "memory (device " +
             std::to_string(d) + " maps it at " +
             vulkan::hexPointer(
                 reinterpret_cast<void *>(uintptr_t(addresses[d]))) +
             ", device 0 at " +
             vulkan::hexPointer(
                 reinterpret_cast<void *>(uintptr_t(addresses[0]))) +
             "; separate GPUs need VK_KHR_device_group)";
  return "";
}

bool createVulkanBackends(unsigned count,
                          std::vector<std::unique_ptr<Backend>> &devices,
                          std::unique_ptr<SpanMemory> &memory,
                          std::string &why) {
  devices.clear();
  std::vector<vulkan::VulkanBackend *> children;
  uint64_t alignment = 256;
  for (unsigned d = 0; d < count; ++d) {
    std::unique_ptr<Backend> b = createVulkanBackend(why);
    if (!b) {
      why = "no vulkan device (" + why + ")";
      return false;
    }
    auto *vb = static_cast<vulkan::VulkanBackend *>(b.get());
    if (!vb->hostImportAlignment()) {
      why = std::string("the vulkan device ") + vb->deviceName() +
            " cannot import host memory (it lacks "
            "VK_EXT_external_memory_host)";
      return false;
    }
    alignment = std::max(alignment, vb->hostImportAlignment());
    vb->submitEachCommand();
    children.push_back(vb);
    devices.push_back(std::move(b));
  }
  // One allocation tells whether the devices map host memory at one
  // address, before any program's list depends on it.
  auto shared =
      std::make_unique<vulkan::VulkanSharedMemory>(children, alignment);
  void *probe = shared->allocate(1, why);
  if (!probe)
    return false;
  shared->deallocate(probe);
  memory = std::move(shared);
  return true;
}

} // namespace bsgprt
