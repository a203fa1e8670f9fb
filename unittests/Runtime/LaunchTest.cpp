//===- LaunchTest.cpp - Tests for bsgprt_launch on the cpu backend --------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <thread>

using bsgp::test::Chunk;
using bsgp::test::chunks;
using bsgp::test::recordKernel;
using bsgp::test::RuntimeTest;

namespace {

/// The packed argument struct the code generator would emit for
/// `y[rank] = a * x[rank] + y[rank]`.
struct SaxpyArgs {
  float a;
  const float *x;
  float *y;
};

void saxpyKernel(const void *args, uint64_t begin, uint64_t end,
                 uint64_t size) {
  const auto *a = static_cast<const SaxpyArgs *>(args);
  for (uint64_t i = begin; i < end && i < size; ++i)
    a->y[i] = a->a * a->x[i] + a->y[i];
}

const bsgprt_kernel_desc kernels[] = {
    {"saxpy", saxpyKernel, "saxpy.bsgp:4:3-6:5", sizeof(SaxpyArgs), 0, 0},
    {"record", recordKernel, "record.bsgp:1:1-2:1", 0, 0, 0},
    {"gpu_only", nullptr, "gpu.bsgp:7:9-8:1", 0, 0, 0},
};
const bsgprt_module_desc module = {
    BSGPRT_ABI_VERSION, 3, kernels, nullptr, 0, nullptr, 0, "launch-test.bsgp"};

const uint64_t sizes[] = {0,   1,   2,    3,    7,    255,   256,
                          257, 511, 1000, 1023, 4097, 65537, 100003};

TEST_F(RuntimeTest, SaxpyMatchesSequentialLoop) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  for (uint64_t n : sizes) {
    // Small integers keep every product and sum exact, so the expected
    // values do not depend on evaluation order or contraction.
    std::vector<float> x(n), y(n), expected(n);
    for (uint64_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 97);
      y[i] = static_cast<float>(i % 13) - 6;
    }
    const float a = 3;
    for (uint64_t i = 0; i < n; ++i)
      expected[i] = a * x[i] + y[i];

    auto *dx = static_cast<float *>(bsgprt_dnew(n * sizeof(float), "x"));
    auto *dy = static_cast<float *>(bsgprt_dnew(n * sizeof(float), "y"));
    ASSERT_NE(dx, nullptr);
    ASSERT_NE(dy, nullptr);
    bsgprt_memcpy_htod(dx, x.data(), n * sizeof(float));
    bsgprt_memcpy_htod(dy, y.data(), n * sizeof(float));
    SaxpyArgs args{a, dx, dy};
    bsgprt_launch(&module, 0, n, &args);
    std::vector<float> got(n, -1000);
    bsgprt_memcpy_dtoh(got.data(), dy, n * sizeof(float));
    bsgprt_dfree(dx);
    bsgprt_dfree(dy);
    EXPECT_EQ(got, expected) << "n = " << n;
  }
  EXPECT_TRUE(errors.empty());
}

TEST_F(RuntimeTest, ChunksPartitionTheRanks) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  size_t maxChunks = 0;
  for (uint64_t n : sizes) {
    chunks().clear();
    bsgprt_launch(&module, 1, n, nullptr);
    std::sort(chunks().begin(), chunks().end(),
              [](const Chunk &a, const Chunk &b) { return a.begin < b.begin; });
    if (n == 0) {
      EXPECT_TRUE(chunks().empty());
      continue;
    }
    ASSERT_FALSE(chunks().empty()) << "n = " << n;
    uint64_t next = 0;
    for (const Chunk &c : chunks()) {
      EXPECT_EQ(c.size, n);
      EXPECT_EQ(c.begin, next) << "gap or overlap at n = " << n;
      EXPECT_LT(c.begin, c.end) << "empty chunk at n = " << n;
      next = c.end;
    }
    EXPECT_EQ(next, n);
    maxChunks = std::max(maxChunks, chunks().size());
  }
  // With several hardware threads, a launch of 100003 ranks is split.
  if (std::thread::hardware_concurrency() > 1 &&
      !std::getenv("OMP_NUM_THREADS"))
    EXPECT_GT(maxChunks, 1u);
  EXPECT_TRUE(errors.empty());
}

// Kernels that accumulate per chunk (the collective library's reduce and
// scan) size their partials with bsgprt_cpu_chunk_count in host code and
// store to their chunk's index: both must be the launch's.
TEST_F(RuntimeTest, ChunkCountAndIndexAreTheLaunchs) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  for (uint64_t n : sizes) {
    chunks().clear();
    uint64_t count = bsgprt_cpu_chunk_count(n);
    bsgprt_launch(&module, 1, n, nullptr);
    ASSERT_EQ(chunks().size(), count) << "n = " << n;
    std::sort(chunks().begin(), chunks().end(),
              [](const Chunk &a, const Chunk &b) { return a.begin < b.begin; });
    for (uint64_t c = 0; c < count; ++c) {
      EXPECT_EQ(chunks()[c].index, c) << "n = " << n;
      EXPECT_EQ(chunks()[c].begin, n * c / count) << "n = " << n;
    }
  }
  EXPECT_EQ(bsgprt_cpu_chunk_count(0), 0u);
  EXPECT_EQ(bsgprt_cpu_chunk_count(1), 1u);
  EXPECT_EQ(bsgprt_cpu_chunk_count(256), 1u);
  EXPECT_TRUE(errors.empty());
}

// Inside an OpenMP parallel region a launch runs on the calling thread, as
// one chunk, and the count says so.
TEST_F(RuntimeTest, OneChunkInsideAParallelRegion) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  chunks().clear();
  uint64_t count = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    {
      count = bsgprt_cpu_chunk_count(100003);
      bsgprt_launch(&module, 1, 100003, nullptr);
    }
  }
  EXPECT_EQ(count, 1u);
  ASSERT_EQ(chunks().size(), 1u);
  EXPECT_EQ(chunks()[0].index, 0u);
  EXPECT_EQ(chunks()[0].begin, 0u);
  EXPECT_EQ(chunks()[0].end, 100003u);
  EXPECT_TRUE(errors.empty());
}

TEST_F(RuntimeTest, KernelWithoutNativeVersionFailsToLaunch) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  bsgprt_launch(&module, 2, 10, nullptr);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_LAUNCH_FAILED);
  EXPECT_EQ(errors[0].message.rfind("gpu.bsgp:7:9: runtime error: ", 0), 0u)
      << errors[0].message;
  EXPECT_NE(errors[0].message.find("gpu_only"), std::string::npos);
  EXPECT_EQ(bsgprt_get_last_error(), BSGPRT_ERROR_LAUNCH_FAILED);
  EXPECT_EQ(errors[0].message, bsgprt_get_last_error_message());
  bsgprt_clear_last_error();
  EXPECT_EQ(bsgprt_get_last_error(), BSGPRT_SUCCESS);
}

// Ranks are 32-bit ints in BSGP: INT32_MAX threads run, one more does not
// start, and the error names the superstep.
TEST_F(RuntimeTest, ThreadCountAboveInt32MaxIsRejected) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  chunks().clear();
  const uint64_t max = INT32_MAX;
  bsgprt_launch(&module, 1, max, nullptr);
  uint64_t ranks = 0;
  for (const Chunk &c : chunks())
    ranks += c.end - c.begin;
  EXPECT_EQ(ranks, max);
  EXPECT_TRUE(errors.empty());

  chunks().clear();
  bsgprt_profile_reset();
  bsgprt_profile_enable(1);
  bsgprt_launch(&module, 1, max + 1, nullptr);
  bsgprt_launch(&module, 1, UINT64_MAX, nullptr);
  bsgprt_profile_enable(0);
  std::string text = bsgp::test::profileReportText();
  bsgprt_profile_reset();
  EXPECT_TRUE(chunks().empty());
  // Launches that did not start are not in the profile.
  EXPECT_EQ(text.find("record.bsgp"), std::string::npos) << text;
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_EQ(errors[0].message,
            "record.bsgp:1:1: runtime error: launch of kernel 'record' with "
            "2147483648 threads; BSGP ranks are 32-bit ints, so a spawn has "
            "at most 2147483647 threads");
  // Compiled code sign-extends the spawn's int count: a count with the top
  // bit set is a negative one, as spawn (-1) makes.
  EXPECT_EQ(errors[1].code, BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_EQ(errors[1].message,
            "record.bsgp:1:1: runtime error: launch of kernel 'record' with "
            "a negative thread count (-1)");
}

TEST_F(RuntimeTest, BadModuleOrKernelIndexIsInvalidValue) {
  bsgprt_launch(&module, 3, 10, nullptr);
  bsgprt_module_desc old = module;
  old.abi_version = BSGPRT_ABI_VERSION + 1;
  bsgprt_launch(&old, 0, 10, nullptr);
  bsgprt_launch(nullptr, 0, 10, nullptr);
  ASSERT_EQ(errors.size(), 3u);
  for (const auto &e : errors)
    EXPECT_EQ(e.code, BSGPRT_ERROR_INVALID_VALUE) << e.message;
  EXPECT_NE(errors[0].message.find("kernel 3 of a module with 3 kernels"),
            std::string::npos)
      << errors[0].message;
  EXPECT_EQ(errors[1].message.rfind("launch-test.bsgp: runtime error: ", 0), 0u)
      << errors[1].message;
}

// Objects with GPU code register their module before main. A module of
// another ABI version is reported then; a good one changes nothing on the
// cpu backend, and its kernels launch as before.
TEST_F(RuntimeTest, RegisterModuleChecksTheABIVersion) {
  bsgprt_module_desc old = module;
  old.abi_version = BSGPRT_ABI_VERSION - 1;
  bsgprt_register_module(&old);
  bsgprt_register_module(nullptr);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_EQ(errors[0].message,
            "launch-test.bsgp: runtime error: module was compiled for "
            "runtime ABI version " +
                std::to_string(BSGPRT_ABI_VERSION - 1) +
                ", this runtime implements " +
                std::to_string(BSGPRT_ABI_VERSION));
  EXPECT_EQ(errors[1].code, BSGPRT_ERROR_INVALID_VALUE);
  errors.clear();
  bsgprt_register_module(&module);
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

} // namespace
