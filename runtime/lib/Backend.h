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

#include <memory>
#include <string>

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
};

/// Each factory returns null and sets `why` when its device is unusable.
std::unique_ptr<Backend> createCPUBackend();
std::unique_ptr<Backend> createCUDABackend(std::string &why);
std::unique_ptr<Backend> createVulkanBackend(std::string &why);

} // namespace bsgprt

#endif // BSGP_RUNTIME_LIB_BACKEND_H
