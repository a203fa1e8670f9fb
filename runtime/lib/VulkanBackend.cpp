//===- VulkanBackend.cpp - Placeholder for the Vulkan compute backend -----===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The Vulkan backend is not implemented yet. Asking for it (BSGP_DEVICE=vulkan)
// reports BSGPRT_ERROR_NO_DEVICE, and the default selection skips it, so a
// program never ends up half-running on a backend that cannot launch.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"

#include <dlfcn.h>

namespace bsgprt {

std::unique_ptr<Backend> createVulkanBackend(std::string &why) {
  void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why = "libvulkan.so.1 could not be loaded";
    return nullptr;
  }
  dlclose(lib);
  why = "the vulkan backend is not implemented in this build of libbsgprt";
  return nullptr;
}

} // namespace bsgprt
