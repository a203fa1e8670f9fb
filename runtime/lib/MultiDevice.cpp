//===- MultiDevice.cpp - One backend over several devices -----------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The multi-device backend (docs/multi-device.md). Each device but the
// first has a worker thread of its own, which runs the device's part of
// every launch and list primitive, so that devices work at once; device 0
// runs its part on the calling thread. With CPU devices that thread is also
// the master of the device's own OpenMP team (its share of the threads).
// Launches and primitives return when every device is done.
//
// CPU devices share the host's memory, so every device can read every
// slice; the runtime still keeps the placement of each list (rank-aligned
// slices, or replicated) and counts the bytes a device reads or writes in
// another device's slice wherever it sees the access: copies and the list
// primitives. Kernels' own loads and stores are not seen.
//
// The list primitives are compositions of per-device work on the device's
// slice and a combine step, in the shape they take with NCCL on GPUs:
// per-device partials and an all-reduce or scan of them (reduce, scan,
// compact, partition, expand), and a local sort of each slice followed by
// an all-to-all of the pieces each device's output slice needs (sort).
//
//===----------------------------------------------------------------------===//

#include "MultiDeviceBackend.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace bsgprt {

uint64_t sliceBegin(uint64_t n, unsigned devices, unsigned d) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(n) * d) /
                               devices);
}

uint64_t sliceBegin(uint64_t n, unsigned devices, unsigned d,
                    uint64_t granule) {
  if (granule <= 1)
    return sliceBegin(n, devices, d);
  uint64_t units = n / granule + (n % granule != 0);
  return std::min(n, sliceBegin(units, devices, d) * granule);
}

unsigned sliceOwner(uint64_t n, unsigned devices, uint64_t i) {
  unsigned d = static_cast<unsigned>(
      (static_cast<unsigned __int128>(i) * devices) / (n ? n : 1));
  d = std::min(d, devices - 1);
  while (d + 1 < devices && sliceBegin(n, devices, d + 1) <= i)
    ++d;
  while (d > 0 && sliceBegin(n, devices, d) > i)
    --d;
  return d;
}

bool parseMultiDeviceRequest(const std::string &request,
                             MultiDeviceRequest &out, std::string &why) {
  size_t colon = request.find(':');
  if (colon == std::string::npos)
    return false;
  out = MultiDeviceRequest();
  out.kind = request.substr(0, colon);
  std::string spec = request.substr(colon + 1);
  if (out.kind != "cpu" && out.kind != "cuda" && out.kind != "vulkan") {
    why = "unknown device kind '" + out.kind + "'";
    return true;
  }
  if (spec == "all") {
    out.all = true;
    return true;
  }
  // cpu:N and vulkan:N count devices; cuda:0,1 lists ordinals.
  bool list = out.kind == "cuda";
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    std::string item = spec.substr(
        pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (item.empty() || item.size() > 4 ||
        item.find_first_not_of("0123456789") != std::string::npos) {
      why = "expected " +
            std::string(list ? "device ordinals such as cuda:0,1 or cuda:all"
                             : "a device count such as " + out.kind + ":4") +
            ", not '" + spec + "'";
      return true;
    }
    out.ordinals.push_back(std::stoi(item));
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  if (!list) {
    if (out.ordinals.size() != 1 || out.ordinals[0] < 1) {
      why = "expected a device count of at least 1, not '" + spec + "'";
      return true;
    }
    out.count = static_cast<unsigned>(out.ordinals[0]);
    out.ordinals.clear();
  } else {
    out.count = static_cast<unsigned>(out.ordinals.size());
  }
  return true;
}

Status MultiDeviceBackend::setPlacement(const void *p, int placement) {
  if (placement != BSGPRT_PLACEMENT_DISTRIBUTED &&
      placement != BSGPRT_PLACEMENT_REPLICATED)
    return Status::error(BSGPRT_ERROR_INVALID_VALUE,
                         "unknown placement " + std::to_string(placement));
  std::lock_guard<std::mutex> lock(mutex);
  auto it = placed.find(reinterpret_cast<uintptr_t>(p));
  if (it == placed.end())
    return Status::error(BSGPRT_ERROR_INVALID_POINTER,
                         "the list is not the start of a live dnew list");
  it->second.replicated = placement == BSGPRT_PLACEMENT_REPLICATED;
  return Status::ok();
}

int MultiDeviceBackend::ownerDevice(const void *p) {
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t base = 0;
  const Placed *pl = findLocked(p, base);
  if (!pl || pl->replicated)
    return -1;
  uint64_t element = (reinterpret_cast<uintptr_t>(p) - base) / pl->elementBytes;
  return static_cast<int>(sliceOwner(pl->count, numDevices, element));
}

void MultiDeviceBackend::printProfile(FILE *out) {
  std::lock_guard<std::mutex> lock(mutex);
  std::fprintf(out,
               "devices of %s (kernel slices; bytes read or written in "
               "another device's slice, as the runtime sees them):\n",
               name.c_str());
  std::fprintf(out, "%-8s  %10s  %12s  %12s  %14s  %14s  %10s\n", "device",
               "slices", "ranks", "kernel ms", "remote read", "remote write",
               "accesses");
  for (unsigned d = 0; d < numDevices; ++d) {
    const DeviceStats &s = stats[d];
    std::fprintf(out,
                 "%-8u  %10" PRIu64 "  %12" PRIu64 "  %12.3f  %14" PRIu64
                 "  %14" PRIu64 "  %10" PRIu64 "\n",
                 d, s.slices, s.ranks, s.ms, s.remoteReadBytes,
                 s.remoteWriteBytes, s.remoteAccesses);
  }
}

//===----------------------------------------------------------------------===//
// List primitives across devices
//===----------------------------------------------------------------------===//

Status MultiDeviceBackend::listReduce(int op, int type, const void *in,
                                      uint64_t n, void *result) {
  if (memory)
    return Backend::listReduce(op, type, in, n, result);
  size_t es = elementSize(type);
  const char *bytes = static_cast<const char *>(in);
  std::vector<char> partials(numDevices * es);
  if (Status s = forDevices([&](unsigned d) {
        uint64_t b = begin(n, d), e = begin(n, d + 1);
        countAccess(d, bytes + b * es, (e - b) * es, false);
        return devices[d]->listReduce(op, type, bytes + b * es, e - b,
                                      partials.data() + d * es);
      });
      s.failed())
    return s;
  // The all-reduce of the partials, in device order.
  return cpu::listReduce(op, type, partials.data(), numDevices, result);
}

Status MultiDeviceBackend::listScanExclusiveFrom(int op, int type,
                                                 const void *in, void *out,
                                                 uint64_t n, const void *init,
                                                 void *total) {
  if (memory)
    return Backend::listScanExclusiveFrom(op, type, in, out, n, init, total);
  size_t es = elementSize(type);
  const char *src = static_cast<const char *>(in);
  char *dst = static_cast<char *>(out);
  std::vector<char> partials(numDevices * es), prefixes(numDevices * es),
      totals(numDevices * es);
  // Each device reduces its slice; an exclusive scan of the partials gives
  // each device its prefix; each device scans its slice from there. The
  // partials are all taken before any slice is written (in may be out).
  if (Status s = forDevices([&](unsigned d) {
        uint64_t b = begin(n, d), e = begin(n, d + 1);
        countAccess(d, src + b * es, (e - b) * es, false);
        return devices[d]->listReduce(op, type, src + b * es, e - b,
                                      partials.data() + d * es);
      });
      s.failed())
    return s;
  if (Status s = cpu::listScanExclusive(
          op, type, partials.data(), prefixes.data(), numDevices, total, init);
      s.failed())
    return s;
  return forDevices([&](unsigned d) {
    uint64_t b = begin(n, d), e = begin(n, d + 1);
    countAccess(d, dst + b * es, (e - b) * es, true);
    return devices[d]->listScanExclusiveFrom(
        op, type, src + b * es, dst + b * es, e - b, prefixes.data() + d * es,
        totals.data() + d * es);
  });
}

Status MultiDeviceBackend::listSortPairs(int type, void *keys, uint32_t *values,
                                         uint64_t n) {
  if (memory)
    return Backend::listSortPairs(type, keys, values, n);
  if (n < 2)
    return Status::ok();
  size_t ks = elementSize(type);
  char *k = static_cast<char *>(keys);
  // Each device sorts its slice (stable); sortMerge then gives each device
  // its slice of the result.
  if (Status s = forDevices([&](unsigned d) {
        uint64_t b = begin(n, d), e = begin(n, d + 1);
        return devices[d]->listSortPairs(type, k + b * ks, values + b, e - b);
      });
      s.failed())
    return s;
  return sortMerge(type, k, values, n);
}

/// The all-to-all of the sort. Device d's output slice [begin(d),
/// begin(d+1)) of the sorted list takes, from each device r's sorted run,
/// the elements that rank there in the order (key, r, position), which is
/// the stable order of the whole list since runs are in rank order. The
/// split points are found by a binary search on the keys' ordered images;
/// each device then merges its pieces.
Status MultiDeviceBackend::sortMerge(int type, char *keys, uint32_t *values,
                                     uint64_t n) {
  size_t ks = elementSize(type);
  unsigned D = numDevices;
  auto image = [&](unsigned r, uint64_t i) {
    return orderedKey(type, keys + (begin(n, r) + i) * ks);
  };
  std::vector<std::vector<uint64_t>> split = sortSplits(D, n, image);
  std::vector<char> outKeys(n * ks);
  std::vector<uint32_t> outValues(n);
  if (Status s = forDevices([&](unsigned d) {
        std::vector<uint64_t> cur(split[d]), end(split[d + 1]);
        for (unsigned r = 0; r < D; ++r)
          if (r != d)
            countAccess(d, keys + (begin(n, r) + cur[r]) * ks,
                        (end[r] - cur[r]) * ks, false);
        for (uint64_t o = begin(n, d); o < begin(n, d + 1); ++o) {
          unsigned best = D;
          uint64_t bestImage = 0;
          for (unsigned r = 0; r < D; ++r) {
            if (cur[r] == end[r])
              continue;
            uint64_t x = image(r, cur[r]);
            if (best == D || x < bestImage) {
              best = r;
              bestImage = x;
            }
          }
          uint64_t from = begin(n, best) + cur[best]++;
          std::memcpy(&outKeys[o * ks], keys + from * ks, ks);
          outValues[o] = values[from];
        }
        return Status::ok();
      });
      s.failed())
    return s;
  return forDevices([&](unsigned d) {
    uint64_t b = begin(n, d), e = begin(n, d + 1);
    if (e > b) {
      std::memcpy(keys + b * ks, &outKeys[b * ks], (e - b) * ks);
      std::memcpy(values + b, &outValues[b], (e - b) * 4);
    }
    return Status::ok();
  });
}

/// Runs an index primitive (partition or compact) of each device on its
/// slice of `flags`, into `local[d]` with local ranks, its count in
/// `counts[d]`.
template <typename Primitive>
Status
MultiDeviceBackend::localIndexRuns(const uint32_t *flags, uint64_t n,
                                   std::vector<std::vector<uint32_t>> &local,
                                   std::vector<uint64_t> &counts,
                                   Primitive primitive) {
  return forDevices([&](unsigned d) {
    uint64_t b = begin(n, d), e = begin(n, d + 1);
    local[d].resize(e - b);
    countAccess(d, flags + b, (e - b) * 4, false);
    return primitive(*devices[d], flags + b, local[d].data(), e - b,
                     &counts[d]);
  });
}

Status MultiDeviceBackend::listPartitionIndex(const uint32_t *flags,
                                              uint32_t *index, uint64_t n,
                                              uint64_t *zeros) {
  if (memory)
    return Backend::listPartitionIndex(flags, index, n, zeros);
  // Each device partitions its slice; a scan of the devices' counts of
  // zeros and ones places each device's two runs.
  std::vector<std::vector<uint32_t>> local(numDevices);
  std::vector<uint64_t> z(numDevices);
  if (Status s = localIndexRuns(
          flags, n, local, z,
          [](Backend &dev, const uint32_t *f, uint32_t *i, uint64_t m,
             uint64_t *c) { return dev.listPartitionIndex(f, i, m, c); });
      s.failed())
    return s;
  uint64_t totalZeros = 0;
  for (uint64_t c : z)
    totalZeros += c;
  std::vector<uint64_t> zeroAt(numDevices), oneAt(numDevices);
  uint64_t zpos = 0, opos = totalZeros;
  for (unsigned d = 0; d < numDevices; ++d) {
    zeroAt[d] = zpos;
    oneAt[d] = opos;
    zpos += z[d];
    opos += local[d].size() - z[d];
  }
  *zeros = totalZeros;
  return forDevices([&](unsigned d) {
    const std::vector<uint32_t> &l = local[d];
    writeRun(d, n, index, zeroAt[d], l.data(), z[d]);
    writeRun(d, n, index, oneAt[d], l.data() + z[d], l.size() - z[d]);
    return Status::ok();
  });
}

Status MultiDeviceBackend::listCompactIndex(const uint32_t *flags,
                                            uint32_t *index, uint64_t n,
                                            uint64_t *kept) {
  if (memory)
    return Backend::listCompactIndex(flags, index, n, kept);
  std::vector<std::vector<uint32_t>> local(numDevices);
  std::vector<uint64_t> k(numDevices);
  if (Status s = localIndexRuns(
          flags, n, local, k,
          [](Backend &dev, const uint32_t *f, uint32_t *i, uint64_t m,
             uint64_t *c) { return dev.listCompactIndex(f, i, m, c); });
      s.failed())
    return s;
  std::vector<uint64_t> at(numDevices);
  uint64_t pos = 0;
  for (unsigned d = 0; d < numDevices; ++d) {
    at[d] = pos;
    pos += k[d];
  }
  *kept = pos;
  return forDevices([&](unsigned d) {
    writeRun(d, n, index, at[d], local[d].data(), k[d]);
    return Status::ok();
  });
}

Status MultiDeviceBackend::listExpandIndex(const uint32_t *offsets,
                                           const uint32_t *counts,
                                           uint32_t *parent, uint64_t n) {
  if (memory)
    return Backend::listExpandIndex(offsets, counts, parent, n);
  // The device expands its slice with local indices, then adds its first
  // rank to every entry it wrote. offsets is the exclusive scan of counts,
  // so those entries are the contiguous run [offsets[b], offsets[e-1] +
  // counts[e-1]) of parent, which is what the remote count assumes; the
  // fix-up itself visits each parent's entries, whatever the offsets.
  return forDevices([&](unsigned d) {
    uint64_t b = begin(n, d), e = begin(n, d + 1);
    if (b == e)
      return Status::ok();
    countAccess(d, offsets + b, (e - b) * 4, false);
    countAccess(d, counts + b, (e - b) * 4, false);
    if (Status s =
            devices[d]->listExpandIndex(offsets + b, counts + b, parent, e - b);
        s.failed())
      return s;
    uint64_t lo = offsets[b], hi = uint64_t(offsets[e - 1]) + counts[e - 1];
    if (hi > lo)
      countAccess(d, parent + lo, (hi - lo) * 4, true);
    for (uint64_t i = b; i < e; ++i)
      for (uint32_t j = 0; j < counts[i]; ++j)
        parent[uint64_t(offsets[i]) + j] += static_cast<uint32_t>(b);
    return Status::ok();
  });
}

std::unique_ptr<Backend>
createMultiDeviceBackend(std::vector<std::unique_ptr<Backend>> children,
                         std::string name, std::unique_ptr<SpanMemory> memory) {
  return std::make_unique<MultiDeviceBackend>(
      std::move(children), std::move(name), std::move(memory));
}

std::unique_ptr<Backend>
createMultiDeviceBackend(const MultiDeviceRequest &request, std::string &why) {
  if (request.kind == "cuda") {
    std::vector<std::unique_ptr<Backend>> children;
    std::unique_ptr<SpanMemory> memory;
    if (!createCUDABackends(request.ordinals, request.all, children, memory,
                            why)) {
      why = "no such cuda devices (" + why + ")";
      return nullptr;
    }
    std::string name = "cuda:";
    for (size_t i = 0; i < request.ordinals.size(); ++i)
      name += (i ? "," : "") + std::to_string(request.ordinals[i]);
    if (request.all)
      name += "all";
    return createMultiDeviceBackend(std::move(children), name,
                                    std::move(memory));
  }
  if (request.kind == "vulkan") {
    std::vector<std::unique_ptr<Backend>> children;
    std::unique_ptr<SpanMemory> memory;
    if (request.all || request.count < 1 || request.count > 64)
      why = "expected vulkan:N with 1 <= N <= 64";
    else if (createVulkanBackends(request.count, children, memory, why))
      return createMultiDeviceBackend(std::move(children),
                                      "vulkan:" + std::to_string(request.count),
                                      std::move(memory));
    return nullptr;
  }
  if (request.all || request.count < 1 || request.count > 1024) {
    why = "expected cpu:N with 1 <= N <= 1024";
    return nullptr;
  }
  int threads = omp_get_max_threads();
  unsigned n = request.count;
  std::vector<std::unique_ptr<Backend>> children;
  for (unsigned d = 0; d < n; ++d)
    children.push_back(createCPUBackend(threadShare(threads, n, d)));
  return createMultiDeviceBackend(std::move(children),
                                  "cpu:" + std::to_string(n));
}

std::unique_ptr<Backend> createMultiDeviceBackend(const std::string &request,
                                                  std::string &why) {
  MultiDeviceRequest parsed;
  why.clear();
  if (!parseMultiDeviceRequest(request, parsed, why) || !why.empty())
    return nullptr;
  return createMultiDeviceBackend(parsed, why);
}

} // namespace bsgprt

using namespace bsgprt;

extern "C" {

int bsgprt_device_count(void) {
  return static_cast<int>(currentBackend().deviceCount());
}

int bsgprt_list_set_placement(const void *list, int placement) {
  Status s = currentBackend().setPlacement(list, placement);
  reportStatus(s, "bsgprt_list_set_placement");
  return s.code;
}

int bsgprt_list_device(const void *p) {
  return currentBackend().ownerDevice(p);
}

uint64_t bsgprt_remote_bytes(void) { return currentBackend().remoteBytes(); }

} // extern "C"
