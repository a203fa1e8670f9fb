//===- RuntimeTestUtil.h - Shared fixture for libbsgprt tests ---*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The runtime is process-wide state and lit may run several tests in one
// process, so every test records errors instead of exiting and leaves no
// allocation behind (bsgprt_select_device needs none to be live).
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
#define BSGP_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H

#include "bsgp/runtime.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace bsgp::test {

struct RecordedError {
  int code;
  std::string message;
};

class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    bsgprt_set_error_handler(&RuntimeTest::record, &errors);
    bsgprt_clear_last_error();
    // Tests run on the cpu backend unless they choose another; a machine
    // with a GPU would otherwise pick cuda by default.
    ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  }
  void TearDown() override { bsgprt_set_error_handler(nullptr, nullptr); }

  static void record(int code, const char *message, void *user) {
    static_cast<std::vector<RecordedError> *>(user)->push_back({code, message});
  }

  std::vector<RecordedError> errors;
};

/// What bsgprt_profile_report prints now.
inline std::string profileReportText() {
  FILE *f = std::tmpfile();
  bsgprt_profile_report(f);
  std::rewind(f);
  std::string text;
  char buf[512];
  while (size_t n = std::fread(buf, 1, sizeof(buf), f))
    text.append(buf, n);
  std::fclose(f);
  return text;
}

/// The whitespace-separated fields of the report's line that starts with
/// `srcloc`: srcloc, kernel, launches, total ms, mean ms, elements.
inline std::vector<std::string> profileRow(const std::string &text,
                                           const std::string &srcloc) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(srcloc, 0) != 0)
      continue;
    std::istringstream fields(line);
    std::vector<std::string> out;
    std::string f;
    while (fields >> f)
      out.push_back(f);
    return out;
  }
  return {};
}

/// A CPU kernel that records every chunk a launch is split into, with the
/// index the runtime gives it (bsgprt_cpu_chunk_index); tests clear
/// `chunks()` before a launch and read it after.
struct Chunk {
  uint64_t begin, end, size, index;
};
inline std::vector<Chunk> &chunks() {
  static std::vector<Chunk> recorded;
  return recorded;
}
inline void recordKernel(const void *, uint64_t begin, uint64_t end,
                         uint64_t size) {
  static std::mutex lock;
  uint64_t index = bsgprt_cpu_chunk_index();
  std::lock_guard<std::mutex> guard(lock);
  chunks().push_back({begin, end, size, index});
}

/// Copies 100003 words first, first + 1, ... from the host to a dnew list,
/// from it to a temporary and back to the host, and expects them back;
/// returns the dnew list's address (freed by then) for checks of its own.
inline uintptr_t expectCopiesRoundTrip(uint32_t first) {
  const uint64_t n = 100003;
  std::vector<uint32_t> in(n), out(n, 0);
  std::iota(in.begin(), in.end(), first);
  auto *a = static_cast<uint32_t *>(bsgprt_dnew(n * 4, "a"));
  auto *b = static_cast<uint32_t *>(bsgprt_temp_alloc(n * 4, "b"));
  bsgprt_memcpy_htod(a, in.data(), n * 4);
  bsgprt_memcpy_dtod(b, a, n * 4);
  bsgprt_memcpy_dtoh(out.data(), b, n * 4);
  EXPECT_EQ(out, in);
  bsgprt_dfree(a);
  bsgprt_temp_free(b);
  return reinterpret_cast<uintptr_t>(a);
}

} // namespace bsgp::test

#endif // BSGP_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
