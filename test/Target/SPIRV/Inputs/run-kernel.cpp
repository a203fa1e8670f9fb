//===- run-kernel.cpp - run one SPIR-V entry point with Vulkan ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A test driver for the SPIR-V target's ABI, independent of bsgprt:
//   run-kernel <module.spv> <entry> <n> <buffers>
// allocates <buffers> zeroed device buffers of n 32-bit words, passes their
// device addresses as the packed argument struct (8 bytes each), dispatches
// ceil(n / 256) workgroups with the push constants {args_address, n, 0, n} and
// prints every word as "b<k>[<i>] = <int> <float>".
//
//===----------------------------------------------------------------------===//

#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#define CHECK_VK(x)                                                            \
  do {                                                                         \
    VkResult r_ = (x);                                                         \
    if (r_ != VK_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s failed: %d\n", #x, (int)r_);                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

struct Buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *data;
  uint64_t address;
};

static Buffer makeBuffer(VkPhysicalDevice phys, VkDevice dev, size_t bytes) {
  Buffer b{};
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = bytes;
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  CHECK_VK(vkCreateBuffer(dev, &bi, nullptr, &b.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, b.buffer, &req);
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(phys, &props);
  uint32_t type = UINT32_MAX;
  VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((req.memoryTypeBits & (1u << i)) &&
        (props.memoryTypes[i].propertyFlags & want) == want) {
      type = i;
      break;
    }
  if (type == UINT32_MAX) {
    std::fprintf(stderr, "no host-visible memory\n");
    std::exit(1);
  }
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags};
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = type;
  CHECK_VK(vkAllocateMemory(dev, &ai, nullptr, &b.memory));
  CHECK_VK(vkBindBufferMemory(dev, b.buffer, b.memory, 0));
  CHECK_VK(vkMapMemory(dev, b.memory, 0, bytes, 0, &b.data));
  std::memset(b.data, 0, bytes);
  VkBufferDeviceAddressInfo addr{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  addr.buffer = b.buffer;
  b.address = vkGetBufferDeviceAddress(dev, &addr);
  return b;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s module.spv entry n buffers\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  const char *entry = argv[2];
  uint64_t n = std::strtoull(argv[3], nullptr, 10);
  int numBuffers = std::atoi(argv[4]);

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  CHECK_VK(vkCreateInstance(&ici, nullptr, &instance));
  uint32_t count = 1;
  VkPhysicalDevice phys;
  VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &phys);
  if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || !count) {
    std::fprintf(stderr, "no Vulkan device\n");
    return 1;
  }
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(phys, &families, nullptr);
  std::vector<VkQueueFamilyProperties> fp(families);
  vkGetPhysicalDeviceQueueFamilyProperties(phys, &families, fp.data());
  uint32_t family = 0;
  while (family < families && !(fp[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
    ++family;

  // Every feature the device has (buffer device addresses, Int64, 8-bit
  // storage...): the module asks for what it uses.
  VkPhysicalDeviceVulkan13Features f13{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13};
  VkPhysicalDeviceVulkan11Features f11{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
  vkGetPhysicalDeviceFeatures2(phys, &features);
  float priority = 1;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice dev;
  CHECK_VK(vkCreateDevice(phys, &dci, nullptr, &dev));
  VkQueue queue;
  vkGetDeviceQueue(dev, family, 0, &queue);

  std::vector<Buffer> buffers;
  for (int i = 0; i < numBuffers; ++i)
    buffers.push_back(makeBuffer(phys, dev, n * 4));
  Buffer args = makeBuffer(phys, dev, 8 * (numBuffers ? numBuffers : 1));
  for (int i = 0; i < numBuffers; ++i)
    std::memcpy(static_cast<char *>(args.data) + 8 * i, &buffers[i].address, 8);

  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smci.codeSize = bytes.size();
  smci.pCode = reinterpret_cast<const uint32_t *>(bytes.data());
  VkShaderModule shader;
  CHECK_VK(vkCreateShaderModule(dev, &smci, nullptr, &shader));
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 32};
  VkPipelineLayoutCreateInfo plci{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  CHECK_VK(vkCreatePipelineLayout(dev, &plci, nullptr, &layout));
  VkComputePipelineCreateInfo cpci{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = shader;
  cpci.stage.pName = entry;
  cpci.layout = layout;
  VkPipeline pipeline;
  CHECK_VK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr,
                                    &pipeline));

  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.queueFamilyIndex = family;
  VkCommandPool pool;
  CHECK_VK(vkCreateCommandPool(dev, &pci, nullptr, &pool));
  VkCommandBufferAllocateInfo cbai{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbai.commandPool = pool;
  cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbai.commandBufferCount = 1;
  VkCommandBuffer cmd;
  CHECK_VK(vkAllocateCommandBuffers(dev, &cbai, &cmd));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  CHECK_VK(vkBeginCommandBuffer(cmd, &begin));
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  uint64_t push[4] = {args.address, n, 0, n};
  vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 32, push);
  vkCmdDispatch(cmd, static_cast<uint32_t>((n + 255) / 256), 1, 1);
  CHECK_VK(vkEndCommandBuffer(cmd));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  CHECK_VK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
  CHECK_VK(vkQueueWaitIdle(queue));

  for (int b = 0; b < numBuffers; ++b)
    for (uint64_t i = 0; i < n; ++i) {
      int32_t v;
      float f;
      std::memcpy(&v, static_cast<char *>(buffers[b].data) + 4 * i, 4);
      std::memcpy(&f, &v, 4);
      std::printf("b%d[%llu] = %d %g\n", b, (unsigned long long)i, v, f);
    }
  vkDeviceWaitIdle(dev);
  vkDestroyDevice(dev, nullptr);
  vkDestroyInstance(instance, nullptr);
  return 0;
}
