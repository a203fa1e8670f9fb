//===- ConstLists.cpp - global constant arrays on the device --------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// bsgprt_const_list: the device list holding a global constant array of
/// the program (docs/language.md, "Constants"), which compiled code asks
/// for before each spawn that reads the array. The first call uploads the
/// contents; later calls return the same list, which lives as long as the
/// runtime.
///
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <mutex>
#include <unordered_map>

namespace {

struct ConstLists {
  std::mutex mutex;
  std::unordered_map<const void *, void *> lists;
};

ConstLists &constLists() {
  // Never destroyed: kernels may still run while static destructors do.
  static ConstLists *c = new ConstLists;
  return *c;
}

} // namespace

void *bsgprt_const_list(const void *host, uint64_t bytes) {
  ConstLists &c = constLists();
  std::lock_guard<std::mutex> lock(c.mutex);
  void *&list = c.lists[host];
  if (!list) {
    list = bsgprt_dnew(bytes, "a global constant array");
    if (list)
      bsgprt_memcpy_htod(list, host, bytes);
  }
  return list;
}
