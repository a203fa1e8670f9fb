//===- DeferredFrees.cpp - temporary lists freed when a spawn ends --------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A spawn cut into segments at uniform branches and loops frees its
/// dtempnew lists when the whole spawn ends, not when the segment that
/// allocated them does (docs/language.md, "Memory"). The host code marks
/// the stack at the spawn's start, defers each list, and frees back to the
/// mark at its end.
///
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <vector>

namespace {
/// The calling host thread's deferred frees (bsgprt_temp_defer_free): a
/// stack, so that a spawn in host code that a require of another spawn
/// calls keeps its marks nested in that spawn's.
std::vector<void *> &deferredFrees() {
  thread_local std::vector<void *> lists;
  return lists;
}
} // namespace

uint64_t bsgprt_temp_defer_mark(void) { return deferredFrees().size(); }

void bsgprt_temp_defer_free(void *p) {
  if (p)
    deferredFrees().push_back(p);
}

void bsgprt_temp_free_deferred(uint64_t mark) {
  std::vector<void *> &lists = deferredFrees();
  while (lists.size() > mark) {
    void *p = lists.back();
    lists.pop_back();
    bsgprt_temp_free(p);
  }
}
