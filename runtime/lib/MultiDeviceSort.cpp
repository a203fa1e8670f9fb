//===- MultiDeviceSort.cpp - Device scopes and the sort across devices ----===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The collective library sorts a list across devices in three steps
// (docs/multi-device.md, "The sort across devices"): every device sorts its
// own slice with the library's radix sort, in a device scope; the runtime
// finds where each device's part of the output starts in every sorted run
// and exchanges the pieces (NCCL on GPUs); every device then sorts what it
// received, which orders the whole list. A device scope runs the library's
// launches, copies and temporaries on one device without waiting for the
// others, so that the devices sort at once while the host issues their work
// one after another.
//
//===----------------------------------------------------------------------===//

#include "MultiDeviceBackend.h"
#include "Trace.h"

#include <cstdlib>

namespace bsgprt {

std::vector<std::vector<uint64_t>>
sortSplits(unsigned D, uint64_t n,
           const std::function<uint64_t(unsigned, uint64_t)> &image) {
  auto runLength = [&](unsigned r) {
    return sliceBegin(n, D, r + 1) - sliceBegin(n, D, r);
  };
  // First position in run r whose image is > v (upper) or >= v (lower).
  auto bound = [&](unsigned r, uint64_t v, bool upper) {
    uint64_t lo = 0, hi = runLength(r);
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      uint64_t x = image(r, mid);
      if (upper ? x <= v : x < v)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  };
  std::vector<std::vector<uint64_t>> split(D + 1, std::vector<uint64_t>(D));
  for (unsigned p = 0; p <= D; ++p) {
    uint64_t pos = sliceBegin(n, D, p);
    if (pos == 0)
      continue;
    if (pos == n) {
      for (unsigned r = 0; r < D; ++r)
        split[p][r] = runLength(r);
      continue;
    }
    // The smallest v with at least pos images <= v.
    uint64_t lo = 0, hi = UINT64_MAX;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2, le = 0;
      for (unsigned r = 0; r < D; ++r)
        le += bound(r, mid, true);
      if (le >= pos)
        hi = mid;
      else
        lo = mid + 1;
    }
    uint64_t taken = 0;
    for (unsigned r = 0; r < D; ++r)
      taken += split[p][r] = bound(r, lo, false);
    // Keys equal to lo fill the rest, from the lowest run up.
    for (unsigned r = 0; r < D && taken < pos; ++r) {
      uint64_t more = std::min(pos - taken, bound(r, lo, true) - split[p][r]);
      split[p][r] += more;
      taken += more;
    }
  }
  return split;
}

Status Backend::beginDeviceScope(int device) {
  if (device == 0)
    return Status::ok();
  return Status::error(BSGPRT_ERROR_INVALID_VALUE,
                       "no device " + std::to_string(device) + " of 1");
}

Status Backend::exchangeSortedRuns(int, const void *, const uint32_t *, void *,
                                   uint32_t *, uint64_t) {
  return Status::error(BSGPRT_ERROR_BACKEND,
                       std::string(deviceName()) +
                           " runs on one device: no runs to exchange");
}

Status MultiDeviceBackend::beginDeviceScope(int device) {
  if (device < 0 || static_cast<unsigned>(device) >= numDevices)
    return Status::error(BSGPRT_ERROR_INVALID_VALUE,
                         "no device " + std::to_string(device) + " of " +
                             std::to_string(numDevices));
  scopeUsed.resize(numDevices);
  scope = device;
  scopeUsed[device] = 1;
  return Status::ok();
}

Status MultiDeviceBackend::endDeviceScope() {
  scope = -1;
  Status result;
  for (unsigned d = 0; d < scopeUsed.size(); ++d) {
    if (!scopeUsed[d])
      continue;
    scopeUsed[d] = 0;
    if (Status s = devices[d]->synchronize(); s.failed() && !result.failed())
      result = s;
  }
  return result;
}

/// Below this many pairs a sort runs as one radix sort over all devices:
/// the scopes' launches and the split points' reads cost more than the
/// exchange saves. BSGP_SORT_ACROSS_MIN sets it (tests use 2).
bool MultiDeviceBackend::sortAcrossDevices(uint64_t n) const {
  static const uint64_t minimum = [] {
    uint64_t n = uint64_t(1) << 20;
    if (const char *v = std::getenv("BSGP_SORT_ACROSS_MIN"))
      if (!parseByteCount(v, n))
        n = uint64_t(1) << 20;
    return n;
  }();
  return numDevices > 1 && n >= std::max<uint64_t>(minimum, 2);
}

void *MultiDeviceBackend::allocateInScope(uint64_t bytes) {
  unsigned d = static_cast<unsigned>(scope);
  void *p = devices[d]->allocate(bytes);
  if (p) {
    std::lock_guard<std::mutex> lock(mutex);
    scopedAllocations[reinterpret_cast<uintptr_t>(p)] = d;
  }
  return p;
}

bool MultiDeviceBackend::deallocateScoped(void *p) {
  unsigned d;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = scopedAllocations.find(reinterpret_cast<uintptr_t>(p));
    if (it == scopedAllocations.end())
      return false;
    d = it->second;
    scopedAllocations.erase(it);
  }
  devices[d]->deallocate(p);
  return true;
}

/// The scope's device runs all n ranks; the launch does not wait for it
/// (on GPUs), so that the next device's work is issued at once.
Status MultiDeviceBackend::launchInScope(const bsgprt_module_desc &m,
                                         uint32_t kernel, uint64_t n,
                                         const void *args) {
  unsigned d = static_cast<unsigned>(scope);
  return timedSlice(d, n,
                    [&] { return devices[d]->launch(m, kernel, n, args); });
}

Status MultiDeviceBackend::exchangeSortedRuns(int type, const void *keys,
                                              const uint32_t *values,
                                              void *outKeys,
                                              uint32_t *outValues, uint64_t n) {
  if (Status s = endDeviceScope(); s.failed())
    return s;
  size_t ks = elementSize(type);
  unsigned D = numDevices;
  const char *k = static_cast<const char *>(keys);
  // The split search reads a few hundred keys of each run, by binary
  // search: blocks of them are read from the device once and kept.
  constexpr uint64_t Block = 2048;
  std::map<std::pair<unsigned, uint64_t>, std::vector<char>> blocks;
  Status readStatus;
  auto image = [&](unsigned r, uint64_t i) -> uint64_t {
    uint64_t first = begin(n, r), length = begin(n, r + 1) - first;
    std::vector<char> &b = blocks[{r, i / Block}];
    if (b.empty()) {
      uint64_t lo = i / Block * Block, count = std::min(Block, length - lo);
      b.resize(count * ks);
      Status s = devices[0]->copyDeviceToHost(b.data(), k + (first + lo) * ks,
                                              count * ks);
      if (s.failed() && !readStatus.failed())
        readStatus = s;
    }
    return orderedKey(type, b.data() + (i % Block) * ks);
  };
  std::vector<std::vector<uint64_t>> split;
  {
    HostStep step("split points of sorted runs", 0);
    split = sortSplits(D, n, image);
  }
  if (readStatus.failed())
    return readStatus;
  // Device d's output slice takes split[d][r] .. split[d + 1][r] of every
  // run r, run after run.
  std::vector<SpanMemory::PeerCopy> pieces;
  pieceStarts.assign(D, std::vector<uint64_t>(D + 1));
  for (unsigned d = 0; d < D; ++d) {
    uint64_t at = begin(n, d);
    for (unsigned r = 0; r < D; ++r) {
      pieceStarts[d][r] = at - begin(n, d);
      uint64_t from = begin(n, r) + split[d][r];
      uint64_t count = split[d + 1][r] - split[d][r];
      if (!count)
        continue;
      pieces.push_back({r, d, k + from * ks,
                        static_cast<char *>(outKeys) + at * ks, count * ks});
      pieces.push_back({r, d, values + from, outValues + at, count * 4});
      if (r != d)
        countAccess(d, k + from * ks, count * (ks + 4), false);
      at += count;
    }
    pieceStarts[d][D] = at - begin(n, d);
  }
  bool done = false;
  if (memory && memory->spansDevices())
    if (Status s = memory->exchange(pieces, done); s.failed())
      return s;
  if (done)
    return Status::ok();
  // Without a transport of its own each piece is a copy by its receiving
  // device (on GPUs, through peer access), or by the first device where
  // the memory is one.
  bool byReceiver = memory && memory->spansDevices();
  for (const SpanMemory::PeerCopy &c : pieces)
    if (Status s = devices[byReceiver ? c.to : 0]->copyDeviceToDevice(
            c.dst, c.src, c.bytes);
        s.failed())
      return s;
  return synchronize();
}

} // namespace bsgprt

using namespace bsgprt;

extern "C" {

int bsgprt_device_scope_begin(int device) {
  Status s = currentBackend().beginDeviceScope(device);
  reportStatus(s, "bsgprt_device_scope_begin");
  return s.code;
}

int bsgprt_device_scope_end(void) {
  HostStep step("device scopes' wait", 0);
  Status s = currentBackend().endDeviceScope();
  reportStatus(s, "bsgprt_device_scope_end");
  return s.code;
}

int bsgprt_sort_across_devices(uint64_t n) {
  return !bsgprt_list_primitives_native() &&
         currentBackend().sortAcrossDevices(n);
}

int bsgprt_list_exchange_runs(int type, const void *keys,
                              const uint32_t *values, void *outKeys,
                              uint32_t *outValues, uint64_t n) {
  Status s = Status::ok();
  if (type < BSGPRT_LIST_I32 || type > BSGPRT_LIST_F64)
    s = Status::error(BSGPRT_ERROR_INVALID_VALUE,
                      "unknown list type " + std::to_string(type));
  else {
    HostStep step("exchange of sorted runs", n);
    s = currentBackend().exchangeSortedRuns(type, keys, values, outKeys,
                                            outValues, n);
  }
  reportStatus(s, "bsgprt_list_exchange_runs");
  return s.code;
}

uint64_t bsgprt_list_exchange_piece(int device, int run) {
  if (device < 0 || run < 0)
    return 0;
  return currentBackend().exchangedPiece(static_cast<unsigned>(device),
                                         static_cast<unsigned>(run));
}

} // extern "C"
