//===- ProfileTest.cpp - BSGP_PROFILE launch timing, and the clock --------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

using bsgp::test::profileRow;
using bsgp::test::RuntimeTest;

namespace {

void nopKernel(const void *, uint64_t, uint64_t, uint64_t) {}

const bsgprt_kernel_desc kernels[] = {
    {"find_k0", nopKernel, "find.bsgp:12:3-20:5", 0, 0, 0},
    {"find_k1", nopKernel, "find.bsgp:22:3-25:1", 0, 0, 0},
};
const bsgprt_module_desc module = {
    BSGPRT_ABI_VERSION, 2, kernels, nullptr, 0, nullptr, 0, "find.bsgp"};

TEST_F(RuntimeTest, ProfileCountsLaunchesAndElements) {
  bsgprt_profile_reset();
  bsgprt_profile_enable(1);
  bsgprt_launch(&module, 0, 10, nullptr);
  bsgprt_launch(&module, 0, 20, nullptr);
  bsgprt_launch(&module, 0, 30, nullptr);
  bsgprt_launch(&module, 1, 0, nullptr);
  bsgprt_profile_enable(0);
  bsgprt_launch(&module, 1, 1000, nullptr);
  std::string text = bsgp::test::profileReportText();
  bsgprt_profile_reset();

  EXPECT_NE(text.find("srcloc"), std::string::npos) << text;
  EXPECT_NE(text.find("mean ms"), std::string::npos) << text;
  std::vector<std::string> k0 = profileRow(text, "find.bsgp:12:3-20:5");
  ASSERT_EQ(k0.size(), 6u) << text;
  EXPECT_EQ(k0[1], "find_k0");
  EXPECT_EQ(k0[2], "3");
  EXPECT_EQ(k0[5], "60");
  EXPECT_GE(std::atof(k0[3].c_str()), 0.0);
  // Launched once while profiling (with no ranks); the later launch is not
  // counted.
  std::vector<std::string> k1 = profileRow(text, "find.bsgp:22:3-25:1");
  ASSERT_EQ(k1.size(), 6u) << text;
  EXPECT_EQ(k1[2], "1");
  EXPECT_EQ(k1[5], "0");
  EXPECT_TRUE(errors.empty());
}

// BSGP_PROFILE is read at first use, so these run in a fresh process.
TEST(RuntimeProfileDeathTest, EnvironmentEnablesProfiling) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("BSGP_PROFILE", "1", 1);
        setenv("BSGP_DEVICE", "cpu", 1);
        bsgprt_launch(&module, 0, 5, nullptr);
        bsgprt_profile_report(stderr);
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0),
      "find.bsgp:12:3-20:5 +find_k0 +1 +[0-9.]+ +[0-9.]+ +5");
}

TEST(RuntimeProfileDeathTest, ReportIsPrintedAtExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("BSGP_PROFILE", "1", 1);
        setenv("BSGP_DEVICE", "cpu", 1);
        bsgprt_launch(&module, 1, 7, nullptr);
        bsgprt_launch(&module, 1, 8, nullptr);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0),
      "bsgprt profile.*\n.*\nfind.bsgp:22:3-25:1 +find_k1 +2 +[0-9.]+ +[0-9.]+ "
      "+15");
}

// bsgprt_time_ms, the clock programs time spawns with: it runs forward by
// at least the time slept (sleep_for waits at least that long on the
// steady clock).
TEST(ClockTest, TimeMsFollowsTheWallClock) {
  double t0 = bsgprt_time_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  double t1 = bsgprt_time_ms();
  EXPECT_GT(t0, 0.0);
  EXPECT_GE(t1 - t0, 19.0);
}

} // namespace
