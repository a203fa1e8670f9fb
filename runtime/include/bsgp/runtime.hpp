//===- runtime.hpp - C++ conveniences over the libbsgprt C ABI --*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Host programs that call bsgpc-compiled spawns pass device lists around;
// bsgp::buffer<T> owns one (bsgprt_dnew / bsgprt_dfree) so that it cannot
// leak or be freed twice.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_RUNTIME_HPP
#define BSGP_RUNTIME_HPP

#include "bsgp/runtime.h"

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace bsgp {

/// Name of the device the runtime runs on: "cpu", "cuda: <name>", ...
inline const char *device_name() { return bsgprt_device_name(); }

/// A device list of `size()` elements of T, freed when the buffer dies.
/// Move-only: a device allocation has exactly one owner.
template <class T> class buffer {
  static_assert(std::is_trivially_copyable<T>::value,
                "device buffers hold trivially copyable elements");

public:
  buffer() = default;
  /// Uninitialised device memory for `n` elements. `srcloc` names the
  /// allocation in runtime error messages.
  explicit buffer(std::size_t n, const char *srcloc = "bsgp::buffer")
      : ptr(static_cast<T *>(bsgprt_dnew(n * sizeof(T), srcloc))),
        count(ptr ? n : 0) {}
  explicit buffer(const std::vector<T> &host,
                  const char *srcloc = "bsgp::buffer")
      : buffer(host.size(), srcloc) {
    if (ptr)
      copy_from_host(host.data(), host.size());
  }
  buffer(buffer &&other) noexcept
      : ptr(std::exchange(other.ptr, nullptr)),
        count(std::exchange(other.count, 0)) {}
  buffer &operator=(buffer &&other) noexcept {
    if (this != &other) {
      reset();
      ptr = std::exchange(other.ptr, nullptr);
      count = std::exchange(other.count, 0);
    }
    return *this;
  }
  buffer(const buffer &) = delete;
  buffer &operator=(const buffer &) = delete;
  ~buffer() { reset(); }

  std::size_t size() const { return count; }
  bool empty() const { return count == 0; }
  /// The device pointer, to pass to a spawn.
  T *data() const { return ptr; }

  /// Copies `n` elements from the host to the start of the buffer; the
  /// runtime reports an overrun when n > size().
  void copy_from_host(const T *src, std::size_t n) {
    bsgprt_memcpy_htod(ptr, src, n * sizeof(T));
  }
  /// Copies the whole buffer to `dst`, which holds size() elements.
  void copy_to_host(T *dst) const {
    bsgprt_memcpy_dtoh(dst, ptr, count * sizeof(T));
  }
  std::vector<T> to_vector() const {
    std::vector<T> host(count);
    copy_to_host(host.data());
    return host;
  }

  /// Frees the device memory now.
  void reset() {
    if (ptr)
      bsgprt_dfree(ptr);
    ptr = nullptr;
    count = 0;
  }

private:
  T *ptr = nullptr;
  std::size_t count = 0;
};

} // namespace bsgp

#endif // BSGP_RUNTIME_HPP
