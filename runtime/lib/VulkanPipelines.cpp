//===- VulkanPipelines.cpp - Vulkan backend: modules, pipelines, cache ----===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// One SPIR-V module per bsgprt_module_desc and one compute pipeline per
// entry point, created on first launch through a pipeline cache that is
// read at start-up and written back (at exit or when the backend goes) to
// $BSGP_CACHE_DIR, $XDG_CACHE_HOME/bsgp or ~/.cache/bsgp.
//
//===----------------------------------------------------------------------===//

#include "VulkanBackend.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bsgprt {
namespace vulkan {

/// Creates each directory of \p path that does not exist; failures are left
/// to the open that follows.
static void makeDirectories(const std::string &path) {
  for (size_t i = 1; i <= path.size(); ++i)
    if (i == path.size() || path[i] == '/')
      ::mkdir(path.substr(0, i).c_str(), 0755);
}

void VulkanBackend::savePipelineCache() {
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

std::string
VulkanBackend::missingCapability(const bsgprt_module_desc &m) const {
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

void VulkanBackend::findStridedKernels(const bsgprt_module_desc &m,
                                       LoadedModule &lm) {
  enum : uint32_t {
    OpEntryPoint = 15,
    OpDecorate = 71,
    DecorationBuiltIn = 11,
    BuiltInGlobalInvocationId = 28,
  };
  const uint32_t *w = m.spirv;
  uint64_t words = m.spirv_size / 4;
  // Decorations follow the entry points in a module's layout: first the
  // variable, then the entry points that list it.
  std::vector<uint32_t> gid;
  for (uint64_t i = 5; i < words;) {
    uint32_t count = w[i] >> 16, opcode = w[i] & 0xffff;
    if (!count || i + count > words)
      break;
    if (opcode == OpDecorate && count >= 4 && w[i + 2] == DecorationBuiltIn &&
        w[i + 3] == BuiltInGlobalInvocationId)
      gid.push_back(w[i + 1]);
    i += count;
  }
  lm.strided.assign(m.num_kernels, false);
  if (gid.empty())
    return;
  for (uint64_t i = 5; i < words;) {
    uint32_t count = w[i] >> 16, opcode = w[i] & 0xffff;
    if (!count || i + count > words)
      break;
    if (opcode == OpEntryPoint && count >= 4) {
      // The name: a NUL-terminated literal string from the third word.
      const char *name = reinterpret_cast<const char *>(&w[i + 3]);
      size_t limit = (count - 3) * 4;
      size_t len = strnlen(name, limit);
      uint64_t iface = i + 3 + len / 4 + 1;
      bool lists = false;
      for (uint64_t j = iface; j < i + count && !lists; ++j)
        lists = std::find(gid.begin(), gid.end(), w[j]) != gid.end();
      if (lists && len < limit)
        for (uint32_t k = 0; k < m.num_kernels; ++k)
          if (m.kernels[k].name && std::strlen(m.kernels[k].name) == len &&
              std::memcmp(m.kernels[k].name, name, len) == 0)
            lm.strided[k] = true;
    }
    i += count;
  }
}

Status VulkanBackend::getPipeline(const bsgprt_module_desc &m, uint32_t kernel,
                                  VkPipeline &out, bool &strided) {
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
    findStridedKernels(m, lm);
  }
  VkPipeline &p = lm.pipelines[kernel];
  if (!p) {
    const char *kname = m.kernels[kernel].name;
    if (!kname)
      return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                           "kernel " + std::to_string(kernel) + " has no name");
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
  strided = lm.strided[kernel];
  return Status::ok();
}

std::string VulkanBackend::cacheDirectory() {
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

void VulkanBackend::loadPipelineCache() {
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

} // namespace vulkan
} // namespace bsgprt
