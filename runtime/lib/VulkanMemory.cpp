//===- VulkanMemory.cpp - Vulkan backend: allocations and copies ----------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Device lists are buffers with device addresses; a BSGP pointer is such an
// address. Memory that is device-local and host-visible is mapped and copied
// with memcpy; otherwise copies go through staging buffers (small ones
// through the argument ring) recorded in the command buffer.
//
//===----------------------------------------------------------------------===//

#include "VulkanBackend.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bsgprt {
namespace vulkan {

void *VulkanBackend::allocate(uint64_t bytes) {
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

void VulkanBackend::deallocate(void *p) {
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

Status VulkanBackend::copyHostToDevice(void *dst, const void *src,
                                       uint64_t bytes) {
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
    api.vkCmdCopyBuffer(commandBuffer, argsRing.buffer, b->buffer, 1, &region);
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

Status VulkanBackend::copyDeviceToHost(void *dst, const void *src,
                                       uint64_t bytes) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  if (!bytes)
    return Status::ok();
  const Buffer *b = nullptr;
  uint64_t offset = 0;
  if (Status s = find(src, bytes, "memcpy_dtoh source", b, offset); s.failed())
    return s;
  if (b->mapped) {
    if (Status s = flush(); s.failed())
      return s;
    std::memcpy(dst, static_cast<const char *>(b->mapped) + offset, bytes);
    return Status::ok();
  }
  // Small copies (a scan's total, a count) go through one buffer kept for
  // them: allocating device memory costs more than such a copy.
  bool small = bytes <= SmallCopy;
  if (small && !readback.buffer)
    if (std::string e = createBuffer(SmallCopy, hostMemoryType, true, readback);
        !e.empty())
      return outOfMemory(e, SmallCopy);
  Buffer staging;
  if (small)
    staging = readback;
  else if (std::string e = createBuffer(bytes, hostMemoryType, true, staging);
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
  if (!small)
    destroyBuffer(staging);
  return s;
}

Status VulkanBackend::copyDeviceToDevice(void *dst, const void *src,
                                         uint64_t bytes) {
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

Status VulkanBackend::memset(void *dst, int value, uint64_t bytes) {
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

void VulkanBackend::chooseMemoryTypes() {
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
  bool discrete = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
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
  // The launch arguments: every invocation reads them, so on a discrete
  // GPU they go to device-local memory the host can write (the BAR window)
  // where there is some; BSGP_VULKAN_HOST_ARGS=1 keeps them in host memory.
  argsMemoryType = -1;
  const char *hostArgs = std::getenv("BSGP_VULKAN_HOST_ARGS");
  if (discrete && !(hostArgs && std::atoi(hostArgs) != 0))
    argsMemoryType = first(local | host, 0);
  if (argsMemoryType < 0)
    argsMemoryType = hostMemoryType;
  VkMemoryPropertyFlags df =
      deviceMemoryType >= 0 ? mp.memoryTypes[deviceMemoryType].propertyFlags
                            : 0;
  directAccess = !forceStaging && (df & host) == host;
}

uint64_t VulkanBackend::memoryBytes() const {
  if (deviceMemoryType < 0 ||
      uint32_t(deviceMemoryType) >= memoryProperties.memoryTypeCount)
    return 0;
  uint32_t heap = memoryProperties.memoryTypes[deviceMemoryType].heapIndex;
  return memoryProperties.memoryHeaps[heap].size;
}

std::string VulkanBackend::createBuffer(uint64_t size, int type, bool map,
                                        Buffer &b) {
  b = Buffer();
  VkBufferCreateInfo bci = listBufferInfo(size);
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
    VkMemoryPropertyFlags need = map ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
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

void VulkanBackend::destroyBuffer(Buffer &b) {
  if (b.buffer)
    api.vkDestroyBuffer(device, b.buffer, nullptr);
  if (b.memory)
    api.vkFreeMemory(device, b.memory, nullptr);
  b = Buffer();
}

Status VulkanBackend::outOfMemory(const std::string &what, uint64_t bytes) {
  return Status::error(BSGPRT_ERROR_OUT_OF_MEMORY,
                       "cannot allocate a " + std::to_string(bytes) +
                           "-byte staging buffer (" + what + ")");
}

Status VulkanBackend::find(const void *p, uint64_t bytes, const char *role,
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

void VulkanBackend::releaseRetired() {
  for (Buffer &b : retired)
    destroyBuffer(b);
  retired.clear();
}

Status VulkanBackend::placeArgs(const void *args, uint64_t size,
                                uint64_t &addr) {
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
      std::string e = createBuffer(grown, argsMemoryType, true, b);
      if (!e.empty() && argsMemoryType != hostMemoryType)
        e = createBuffer(grown, hostMemoryType, true, b);
      if (!e.empty())
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

} // namespace vulkan
} // namespace bsgprt
