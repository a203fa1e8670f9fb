//===- NCCLExchange.cpp - Pieces between GPUs through NCCL ----------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The all-to-all exchange of the sort across GPUs (MultiDeviceSort.cpp) as
// NCCL point-to-point sends and receives in one group. NCCL is loaded at
// run time, like the CUDA driver, so that libbsgprt and programs build and
// run without it: where it does not load, the runtime copies the pieces
// through peer access instead. NVLink multicast (NVLS) is kept off.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace bsgprt {

namespace {

using ncclComm_t = struct ncclComm *;
using ncclResult_t = int;
constexpr int ncclInt8 = 0;

class NCCLExchange final : public PeerExchange {
public:
  ~NCCLExchange() override {
    for (ncclComm_t c : comms)
      if (c)
        (void)commDestroy(c);
    // The library stays loaded: its threads may outlive the communicators.
  }

  bool init(const std::vector<int> &ordinals, std::string &why) {
    const char *named = std::getenv("BSGP_NCCL_LIBRARY");
    const char *candidates[] = {named, "libnccl.so.2",
                                "/usr/local/cuda/lib/libnccl.so.2",
                                "/usr/local/cuda/lib64/libnccl.so.2"};
    for (const char *c : candidates)
      if (c && *c && (lib = dlopen(c, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!lib) {
      why = "libnccl.so.2 not found";
      return false;
    }
    if (!sym("ncclCommInitAll", commInitAll) ||
        !sym("ncclCommDestroy", commDestroy) ||
        !sym("ncclGroupStart", groupStart) || !sym("ncclGroupEnd", groupEnd) ||
        !sym("ncclSend", send) || !sym("ncclRecv", recv) ||
        !sym("ncclGetErrorString", errorString)) {
      why = "libnccl.so.2 lacks ncclSend or ncclRecv (NCCL 2.7 or later)";
      return false;
    }
    // Multicast objects over NVLink switches hold memory on every GPU and
    // are not needed for point-to-point traffic.
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    comms.assign(ordinals.size(), nullptr);
    if (ncclResult_t r =
            commInitAll(comms.data(), int(ordinals.size()), ordinals.data())) {
      why = std::string("ncclCommInitAll: ") + errorString(r);
      comms.clear();
      return false;
    }
    return true;
  }

  Status run(const std::vector<SpanMemory::PeerCopy> &pieces) override {
    // Sends and receives of one pair of devices match in the order they
    // are posted: the same order on both sides.
    if (ncclResult_t r = groupStart())
      return fail("ncclGroupStart", r);
    ncclResult_t posted = 0;
    for (const SpanMemory::PeerCopy &c : pieces) {
      if (!posted)
        posted =
            send(c.src, c.bytes, ncclInt8, int(c.to), comms[c.from], nullptr);
      if (!posted)
        posted =
            recv(c.dst, c.bytes, ncclInt8, int(c.from), comms[c.to], nullptr);
    }
    ncclResult_t ended = groupEnd();
    if (posted)
      return fail("ncclSend/ncclRecv", posted);
    if (ended)
      return fail("ncclGroupEnd", ended);
    return Status::ok();
  }

private:
  template <class Fn> bool sym(const char *name, Fn &fn) {
    fn = reinterpret_cast<Fn>(dlsym(lib, name));
    return fn != nullptr;
  }
  Status fail(const char *what, ncclResult_t r) {
    return Status::error(BSGPRT_ERROR_BACKEND,
                         std::string(what) + " failed: " + errorString(r));
  }

  void *lib = nullptr;
  std::vector<ncclComm_t> comms;
  ncclResult_t (*commInitAll)(ncclComm_t *, int, const int *) = nullptr;
  ncclResult_t (*commDestroy)(ncclComm_t) = nullptr;
  ncclResult_t (*groupStart)() = nullptr;
  ncclResult_t (*groupEnd)() = nullptr;
  ncclResult_t (*send)(const void *, size_t, int, int, ncclComm_t,
                       void *) = nullptr;
  ncclResult_t (*recv)(void *, size_t, int, int, ncclComm_t, void *) = nullptr;
  const char *(*errorString)(ncclResult_t) = nullptr;
};

} // namespace

PeerExchange::~PeerExchange() = default;

std::unique_ptr<PeerExchange>
createNCCLExchange(const std::vector<int> &ordinals, std::string &why) {
  auto x = std::make_unique<NCCLExchange>();
  if (!x->init(ordinals, why))
    return nullptr;
  return x;
}

} // namespace bsgprt
