//===- ListPrimitives.cpp - C ABI of the list primitives --------*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The entry points the collective library calls from require blocks. They
// check the operator and element type, hand the work to the current backend
// and report failures through the runtime's error handler. The typed forms
// (bsgprt_list_reduce_add_i32, ...) exist so that BSGP code can declare them
// with its own types and get the result as a return value.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "Trace.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace bsgprt {

// The defaults bring the lists to the host, run the cpu implementations and
// copy the results back: correct on every backend, and what a backend
// without device implementations (cuda for now) uses.

namespace {
size_t elementSize(int type) {
  return type == BSGPRT_LIST_I64 || type == BSGPRT_LIST_U64 ||
                 type == BSGPRT_LIST_F64
             ? 8
             : 4;
}
} // namespace

Status Backend::listReduce(int op, int type, const void *in, uint64_t n,
                           void *result) {
  std::vector<char> h(n * elementSize(type));
  if (n)
    if (Status s = copyDeviceToHost(h.data(), in, h.size()); s.failed())
      return s;
  return cpu::listReduce(op, type, h.data(), n, result);
}
Status Backend::listScanExclusive(int op, int type, const void *in, void *out,
                                  uint64_t n, void *total) {
  std::vector<char> h(n * elementSize(type));
  if (n)
    if (Status s = copyDeviceToHost(h.data(), in, h.size()); s.failed())
      return s;
  if (Status s = cpu::listScanExclusive(op, type, h.data(), h.data(), n, total);
      s.failed())
    return s;
  return n ? copyHostToDevice(out, h.data(), h.size()) : Status::ok();
}
Status Backend::listScanExclusiveFrom(int op, int type, const void *in,
                                      void *out, uint64_t n, const void *init,
                                      void *total) {
  std::vector<char> h(n * elementSize(type));
  if (n)
    if (Status s = copyDeviceToHost(h.data(), in, h.size()); s.failed())
      return s;
  if (Status s =
          cpu::listScanExclusive(op, type, h.data(), h.data(), n, total, init);
      s.failed())
    return s;
  return n ? copyHostToDevice(out, h.data(), h.size()) : Status::ok();
}
Status Backend::listSortPairs(int type, void *keys, uint32_t *values,
                              uint64_t n) {
  if (!n)
    return Status::ok();
  std::vector<char> k(n * elementSize(type));
  std::vector<uint32_t> v(n);
  if (Status s = copyDeviceToHost(k.data(), keys, k.size()); s.failed())
    return s;
  if (Status s = copyDeviceToHost(v.data(), values, n * 4); s.failed())
    return s;
  if (Status s = cpu::listSortPairs(type, k.data(), v.data(), n); s.failed())
    return s;
  if (Status s = copyHostToDevice(keys, k.data(), k.size()); s.failed())
    return s;
  return copyHostToDevice(values, v.data(), n * 4);
}
Status Backend::listPartitionIndex(const uint32_t *flags, uint32_t *index,
                                   uint64_t n, uint64_t *zeros) {
  std::vector<uint32_t> f(n), i(n);
  if (n)
    if (Status s = copyDeviceToHost(f.data(), flags, n * 4); s.failed())
      return s;
  if (Status s = cpu::listPartitionIndex(f.data(), i.data(), n, zeros);
      s.failed())
    return s;
  return n ? copyHostToDevice(index, i.data(), n * 4) : Status::ok();
}
Status Backend::listCompactIndex(const uint32_t *flags, uint32_t *index,
                                 uint64_t n, uint64_t *kept) {
  std::vector<uint32_t> f(n), i(n);
  if (n)
    if (Status s = copyDeviceToHost(f.data(), flags, n * 4); s.failed())
      return s;
  if (Status s = cpu::listCompactIndex(f.data(), i.data(), n, kept); s.failed())
    return s;
  return *kept ? copyHostToDevice(index, i.data(), *kept * 4) : Status::ok();
}
Status Backend::listExpandIndex(const uint32_t *offsets, const uint32_t *counts,
                                uint32_t *parent, uint64_t n) {
  if (!n)
    return Status::ok();
  std::vector<uint32_t> o(n), c(n);
  if (Status s = copyDeviceToHost(o.data(), offsets, n * 4); s.failed())
    return s;
  if (Status s = copyDeviceToHost(c.data(), counts, n * 4); s.failed())
    return s;
  uint64_t total = uint64_t(o[n - 1]) + c[n - 1];
  std::vector<uint32_t> p(total);
  if (Status s = cpu::listExpandIndex(o.data(), c.data(), p.data(), n);
      s.failed())
    return s;
  return total ? copyHostToDevice(parent, p.data(), total * 4) : Status::ok();
}

} // namespace bsgprt

using namespace bsgprt;

namespace {

bool isFloatType(int type) {
  return type == BSGPRT_LIST_F32 || type == BSGPRT_LIST_F64;
}

/// Reports and returns false when \p op or \p type is out of range, or \p op
/// is a bitwise operator on floats.
bool checkOpType(int op, int type, const char *what) {
  std::string why;
  if (type < BSGPRT_LIST_I32 || type > BSGPRT_LIST_F64)
    why = "unknown element type " + std::to_string(type);
  else if (op < BSGPRT_LIST_ADD || op > BSGPRT_LIST_XOR)
    why = "unknown operator " + std::to_string(op);
  else if (op > BSGPRT_LIST_MAX && isFloatType(type))
    why = "bitwise operator on floating-point elements";
  if (why.empty())
    return true;
  reportStatus(Status::error(BSGPRT_ERROR_INVALID_VALUE, why), what);
  return false;
}

bool checkNull(const void *p, uint64_t n, const char *what) {
  if (p || !n)
    return true;
  reportStatus(Status::error(BSGPRT_ERROR_INVALID_POINTER, "null list"), what);
  return false;
}

} // namespace

extern "C" {

void bsgprt_list_reduce(int op, int type, const void *in, uint64_t n,
                        void *result) {
  const char *what = "bsgprt_list_reduce";
  HostStep step("list reduce", n * elementSize(type));
  if (!checkOpType(op, type, what) || !checkNull(in, n, what))
    return;
  reportStatus(currentBackend().listReduce(op, type, in, n, result), what);
}

void bsgprt_list_scan_exclusive(int op, int type, const void *in, void *out,
                                uint64_t n, void *total) {
  const char *what = "bsgprt_list_scan_exclusive";
  HostStep step("list scan", n * elementSize(type));
  if (!checkOpType(op, type, what) || !checkNull(in, n, what) ||
      !checkNull(out, n, what))
    return;
  reportStatus(currentBackend().listScanExclusive(op, type, in, out, n, total),
               what);
}

void bsgprt_list_sort_pairs(int type, void *keys, uint32_t *values,
                            uint64_t n) {
  const char *what = "bsgprt_list_sort_pairs";
  HostStep step("list sort", n * (elementSize(type) + 4));
  if (!checkOpType(BSGPRT_LIST_ADD, type, what) || !checkNull(keys, n, what) ||
      !checkNull(values, n, what))
    return;
  reportStatus(currentBackend().listSortPairs(type, keys, values, n), what);
}

uint64_t bsgprt_list_partition_index(const uint32_t *flags, uint32_t *index,
                                     uint64_t n) {
  const char *what = "bsgprt_list_partition_index";
  HostStep step("list partition", n * 4);
  uint64_t zeros = 0;
  if (checkNull(flags, n, what) && checkNull(index, n, what))
    reportStatus(currentBackend().listPartitionIndex(flags, index, n, &zeros),
                 what);
  return zeros;
}

uint64_t bsgprt_list_compact_index(const uint32_t *flags, uint32_t *index,
                                   uint64_t n) {
  const char *what = "bsgprt_list_compact_index";
  HostStep step("list compact", n * 4);
  uint64_t kept = 0;
  if (checkNull(flags, n, what) && checkNull(index, n, what))
    reportStatus(currentBackend().listCompactIndex(flags, index, n, &kept),
                 what);
  return kept;
}

void bsgprt_list_expand_index(const uint32_t *offsets, const uint32_t *counts,
                              uint32_t *parent, uint64_t n) {
  const char *what = "bsgprt_list_expand_index";
  HostStep step("list expand", n * 4);
  if (checkNull(offsets, n, what) && checkNull(counts, n, what))
    reportStatus(currentBackend().listExpandIndex(offsets, counts, parent, n),
                 what);
}

int bsgprt_list_primitives_native(void) {
  // BSGP_LIST_PRIMITIVES=bsgp makes the cpu backend run the collective
  // library's BSGP versions too, so that they are tested without a GPU.
  static const bool forceBSGP = [] {
    const char *v = std::getenv("BSGP_LIST_PRIMITIVES");
    return v && std::string(v) == "bsgp";
  }();
  return !forceBSGP && currentBackend().nativeListPrimitives();
}

int bsgprt_single_pass_forms(void) {
  return currentBackend().singlePassForms();
}

uint32_t *bsgprt_zero_counter(void) {
  // Zeroed once, instead of a memset before each kernel: a memset is one
  // more command for the device and one more driver call for the host in
  // every iteration of a loop of small reduces.
  constexpr uint32_t Words = 1024;
  Backend &b = currentBackend();
  if (!b.zeroCounters) {
    void *ring = b.allocate(Words * sizeof(uint32_t));
    if (!ring) {
      reportStatus(Status::error(BSGPRT_ERROR_OUT_OF_MEMORY,
                                 "no device memory for the zero counters"),
                   "bsgprt_zero_counter");
      return nullptr;
    }
    if (Status s = b.memset(ring, 0, Words * sizeof(uint32_t)); s.failed()) {
      reportStatus(s, "bsgprt_zero_counter");
      b.deallocate(ring);
      return nullptr;
    }
    b.zeroCounters = ring;
  }
  uint32_t *word = static_cast<uint32_t *>(b.zeroCounters) + b.nextZeroCounter;
  b.nextZeroCounter = (b.nextZeroCounter + 1) % Words;
  return word;
}

// The typed forms. A failed call returns zero (after reporting).
#define BSGPRT_LIST_DEFINE_OP(OP, ENUMOP, SUFFIX, ENUMTYPE, T)                 \
  T bsgprt_list_reduce_##OP##_##SUFFIX(const T *in, uint64_t n) {              \
    T r{};                                                                     \
    bsgprt_list_reduce(ENUMOP, ENUMTYPE, in, n, &r);                           \
    return r;                                                                  \
  }                                                                            \
  T bsgprt_list_scan_exclusive_##OP##_##SUFFIX(const T *in, T *out,            \
                                               uint64_t n) {                   \
    T r{};                                                                     \
    bsgprt_list_scan_exclusive(ENUMOP, ENUMTYPE, in, out, n, &r);              \
    return r;                                                                  \
  }
#define BSGPRT_LIST_DEFINE_TYPE(SUFFIX, ENUMTYPE, T)                           \
  BSGPRT_LIST_DEFINE_OP(add, BSGPRT_LIST_ADD, SUFFIX, ENUMTYPE, T)             \
  BSGPRT_LIST_DEFINE_OP(mul, BSGPRT_LIST_MUL, SUFFIX, ENUMTYPE, T)             \
  BSGPRT_LIST_DEFINE_OP(min, BSGPRT_LIST_MIN, SUFFIX, ENUMTYPE, T)             \
  BSGPRT_LIST_DEFINE_OP(max, BSGPRT_LIST_MAX, SUFFIX, ENUMTYPE, T)             \
  void bsgprt_list_sort_pairs_##SUFFIX(T *keys, uint32_t *values,              \
                                       uint64_t n) {                           \
    bsgprt_list_sort_pairs(ENUMTYPE, keys, values, n);                         \
  }
#define BSGPRT_LIST_DEFINE_INT_TYPE(SUFFIX, ENUMTYPE, T)                       \
  BSGPRT_LIST_DEFINE_TYPE(SUFFIX, ENUMTYPE, T)                                 \
  BSGPRT_LIST_DEFINE_OP(and, BSGPRT_LIST_AND, SUFFIX, ENUMTYPE, T)             \
  BSGPRT_LIST_DEFINE_OP(or, BSGPRT_LIST_OR, SUFFIX, ENUMTYPE, T)               \
  BSGPRT_LIST_DEFINE_OP(xor, BSGPRT_LIST_XOR, SUFFIX, ENUMTYPE, T)

BSGPRT_LIST_DEFINE_INT_TYPE(i32, BSGPRT_LIST_I32, int32_t)
BSGPRT_LIST_DEFINE_INT_TYPE(u32, BSGPRT_LIST_U32, uint32_t)
BSGPRT_LIST_DEFINE_TYPE(f32, BSGPRT_LIST_F32, float)
BSGPRT_LIST_DEFINE_INT_TYPE(i64, BSGPRT_LIST_I64, int64_t)
BSGPRT_LIST_DEFINE_INT_TYPE(u64, BSGPRT_LIST_U64, uint64_t)
BSGPRT_LIST_DEFINE_TYPE(f64, BSGPRT_LIST_F64, double)

} // extern "C"
