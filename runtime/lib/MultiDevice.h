//===- MultiDevice.h - One backend over several devices ---------*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// BSGP_DEVICE=cpu:N (and vulkan:N, cuda:all, cuda:0,1) gives the
// runtime a MultiDeviceBackend: a Backend that owns N child backends and
// presents them as one (docs/multi-device.md). A launch of n ranks runs one
// contiguous slice of ranks per device, all at once, and returns when every
// device is done: that is the barrier across devices. Lists are placed in
// rank-aligned slices; the list primitives run per device on its slice and
// combine the devices' partials.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_RUNTIME_LIB_MULTIDEVICE_H
#define BSGP_RUNTIME_LIB_MULTIDEVICE_H

#include "Backend.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bsgprt {

/// The first rank of device d's slice of [0, n) over `devices` devices:
/// floor(n * d / devices). Slices are contiguous, in device order, and
/// their sizes differ by at most one; with n < devices some are empty.
/// Element i of a distributed list of n elements lives on the device whose
/// slice of a spawn of n threads holds rank i.
uint64_t sliceBegin(uint64_t n, unsigned devices, unsigned d);
/// The first rank of device d's slice of [0, n) when slices are whole
/// granules of `granule` ranks (GPU work groups), but for the last, which
/// ends at n: floor(ceil(n / granule) d / devices) granules, at most n.
/// granule 1 is sliceBegin above.
uint64_t sliceBegin(uint64_t n, unsigned devices, unsigned d, uint64_t granule);
/// The device whose slice of [0, n) holds rank i (i < n).
unsigned sliceOwner(uint64_t n, unsigned devices, uint64_t i);

/// A parsed BSGP_DEVICE value naming several devices.
struct MultiDeviceRequest {
  std::string kind; ///< "cpu", "cuda" or "vulkan".
  /// cpu:N and vulkan:N: N devices. cuda:0,1: the ordinals; cuda:all
  /// leaves it empty with `all` set.
  std::vector<int> ordinals;
  unsigned count = 0;
  bool all = false;
};

/// True when `request` has the form kind:spec (cpu:4, cuda:all, cuda:0,1,
/// vulkan:2). Parses it into `out`; `why` says what is wrong with a
/// malformed one, which then returns true with `why` set.
bool parseMultiDeviceRequest(const std::string &request,
                             MultiDeviceRequest &out, std::string &why);

/// The backend for a parsed request, or null with `why` set when it cannot
/// be had (a device missing, or vulkan devices that cannot share memory).
std::unique_ptr<Backend>
createMultiDeviceBackend(const MultiDeviceRequest &request, std::string &why);

/// The backend for a BSGP_DEVICE value of the form kind:spec, or null:
/// with `why` empty when `request` has no such form, else saying why.
std::unique_ptr<Backend> createMultiDeviceBackend(const std::string &request,
                                                  std::string &why);

/// Makes a multi-device backend of the given children directly (tests).
/// With `memory`, the children have memories of their own (GPUs): lists
/// are allocated in it, launches run slices of whole work groups, and the
/// list primitives bring lists to the host.
std::unique_ptr<Backend>
createMultiDeviceBackend(std::vector<std::unique_ptr<Backend>> children,
                         std::string name,
                         std::unique_ptr<SpanMemory> memory = nullptr);

} // namespace bsgprt

#endif // BSGP_RUNTIME_LIB_MULTIDEVICE_H
