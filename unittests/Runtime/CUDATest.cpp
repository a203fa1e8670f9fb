//===- CUDATest.cpp - Tests for the cuda backend, where a GPU exists ------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The PTX below is what the code generator's calling convention asks for:
// parameters (.param .align 8 .b8 args[args_size], .param .u64 size), one
// rank per thread, ranks >= size doing nothing. Without a CUDA driver and
// device these tests are skipped.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <string>

using bsgp::test::RuntimeTest;

namespace {

const char saxpyPTX[] = R"(
.version 7.0
.target sm_50
.address_size 64

.visible .entry saxpy(
  .param .align 8 .b8 args[24],
  .param .u64 size
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<11>;
  .reg .f32 %f<5>;

  // A kernel without work-group operations strides over its ranks by the
  // grid's size (ABI version 2): the runtime may launch fewer blocks.
  ld.param.u64 %rd1, [size];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd2, %r1, %r2;
  cvt.u64.u32 %rd3, %r3;
  add.u64 %rd4, %rd2, %rd3;
  mul.wide.u32 %rd10, %r4, %r2;
  ld.param.f32 %f1, [args];
  ld.param.u64 %rd5, [args+8];
  ld.param.u64 %rd6, [args+16];
  cvta.to.global.u64 %rd5, %rd5;
  cvta.to.global.u64 %rd6, %rd6;
LOOP:
  setp.ge.u64 %p1, %rd4, %rd1;
  @%p1 bra DONE;
  shl.b64 %rd7, %rd4, 2;
  add.u64 %rd8, %rd5, %rd7;
  add.u64 %rd9, %rd6, %rd7;
  ld.global.f32 %f2, [%rd8];
  ld.global.f32 %f3, [%rd9];
  mul.rn.f32 %f4, %f1, %f2;
  add.rn.f32 %f4, %f4, %f3;
  st.global.f32 [%rd9], %f4;
  add.u64 %rd4, %rd4, %rd10;
  bra.uni LOOP;
DONE:
  ret;
}

.visible .entry blockdim(
  .param .align 8 .b8 args[8],
  .param .u64 size
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;

  ld.param.u64 %rd1, [size];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd2, %r1, %r2;
  cvt.u64.u32 %rd3, %r3;
  add.u64 %rd4, %rd2, %rd3;
  setp.ge.u64 %p1, %rd4, %rd1;
  @%p1 bra BLOCKDIM_DONE;
  ld.param.u64 %rd5, [args];
  cvta.to.global.u64 %rd5, %rd5;
  shl.b64 %rd6, %rd4, 2;
  add.u64 %rd7, %rd5, %rd6;
  st.global.u32 [%rd7], %r2;
BLOCKDIM_DONE:
  ret;
}
)";

struct SaxpyArgs {
  float a;
  const float *x;
  float *y;
};
static_assert(sizeof(SaxpyArgs) == 24, "matches args[24] in the PTX");

const bsgprt_kernel_desc kernels[] = {
    {"saxpy", nullptr, "saxpy.bsgp:4:3-6:5", sizeof(SaxpyArgs), 0, 0},
    {"missing", nullptr, "missing.bsgp:1:1-1:9", 0, 0, 0},
    // Compiled for work groups of 256 threads (group.*, local arrays).
    {"blockdim", nullptr, "blockdim.bsgp:1:1-1:9", 8, 256, 0},
    // The same PTX described as running 4 work groups per block: the
    // runtime launches n / 1024 blocks, then one per remaining work group.
    {"blockdim", nullptr, "blockdim.bsgp:1:1-1:9", 8, 256, 4},
};
const bsgprt_module_desc module = {
    BSGPRT_ABI_VERSION, 4,       kernels, saxpyPTX,
    sizeof(saxpyPTX),   nullptr, 0,       "saxpy.bsgp"};

class CUDATest : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    if (bsgprt_select_device("cuda") != BSGPRT_SUCCESS) {
      ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
      GTEST_SKIP() << "no CUDA device";
    }
  }
  void TearDown() override {
    bsgprt_pool_trim();
    EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
    RuntimeTest::TearDown();
  }
};

TEST_F(CUDATest, SaxpyMatchesSequentialLoop) {
  EXPECT_EQ(std::strncmp(bsgprt_device_name(), "cuda: ", 6), 0);
  for (uint64_t n :
       {0ull, 1ull, 255ull, 256ull, 257ull, 1000ull, 100003ull, 3000017ull}) {
    std::vector<float> x(n), y(n), expected(n);
    for (uint64_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 97);
      y[i] = static_cast<float>(i % 13) - 6;
      expected[i] = 3 * x[i] + y[i];
    }
    auto *dx = static_cast<float *>(bsgprt_dnew(n * sizeof(float), "x"));
    auto *dy = static_cast<float *>(bsgprt_temp_alloc(n * sizeof(float), "y"));
    bsgprt_memcpy_htod(dx, x.data(), n * sizeof(float));
    bsgprt_memcpy_htod(dy, y.data(), n * sizeof(float));
    SaxpyArgs args{3, dx, dy};
    bsgprt_launch(&module, 0, n, &args);
    std::vector<float> got(n, -1000);
    bsgprt_memcpy_dtoh(got.data(), dy, n * sizeof(float));
    bsgprt_dfree(dx);
    bsgprt_temp_free(dy);
    EXPECT_EQ(got, expected) << "n = " << n;
  }
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

// A kernel that needs work groups of 256 threads gets blocks of 256 even
// where the launch is small enough for the runtime to shrink its blocks.
TEST_F(CUDATest, FixedGroupSizeIsHonoured) {
  for (uint64_t n : {1ull, 100ull, 1000ull, 70001ull}) {
    auto *d = static_cast<uint32_t *>(bsgprt_dnew(n * 4, "d"));
    void *args[] = {d};
    bsgprt_launch(&module, 2, n, args);
    std::vector<uint32_t> got(n, 0);
    bsgprt_memcpy_dtoh(got.data(), d, n * 4);
    bsgprt_dfree(d);
    EXPECT_EQ(got, std::vector<uint32_t>(n, 256)) << "n = " << n;
  }
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

// The kernel writes 256 at rank ctaid.x * 256 + tid.x, so the ranks it
// reaches show the grid: full blocks of 4 work groups, then one block per
// remaining work group.
TEST_F(CUDATest, GroupsPerBlockShrinksTheGrid) {
  for (uint64_t n : {1ull, 1024ull, 1025ull, 70001ull}) {
    uint64_t full = n / 1024;
    uint64_t blocks = full + (n - full * 1024 + 255) / 256;
    auto *d = static_cast<uint32_t *>(bsgprt_dnew(n * 4, "d"));
    bsgprt_memset_d(d, 0, n * 4);
    void *args[] = {d};
    bsgprt_launch(&module, 3, n, args);
    std::vector<uint32_t> got(n, 7), want(n, 0);
    for (uint64_t i = 0; i < n && i < blocks * 256; ++i)
      want[i] = 256;
    bsgprt_memcpy_dtoh(got.data(), d, n * 4);
    bsgprt_dfree(d);
    EXPECT_EQ(got, want) << "n = " << n;
  }
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

// A module registered after the backend started is JIT-compiled at once;
// its kernels then launch as usual.
TEST_F(CUDATest, RegisteredModuleLaunches) {
  bsgprt_register_module(&module);
  auto *d = static_cast<uint32_t *>(bsgprt_dnew(300 * 4, "d"));
  void *args[] = {d};
  bsgprt_launch(&module, 2, 300, args);
  std::vector<uint32_t> got(300, 0);
  bsgprt_memcpy_dtoh(got.data(), d, 300 * 4);
  bsgprt_dfree(d);
  EXPECT_EQ(got, std::vector<uint32_t>(300, 256));
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

TEST_F(CUDATest, MemsetAndDeviceCopies) {
  unsigned char out[64];
  void *a = bsgprt_dnew(64, "a");
  void *b = bsgprt_dnew(64, "b");
  bsgprt_memset_d(a, 0x5c, 64);
  bsgprt_memset_d(b, 0, 64);
  bsgprt_memcpy_dtod(b, a, 32);
  bsgprt_synchronize();
  bsgprt_memcpy_dtoh(out, b, 64);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(out[i], i < 32 ? 0x5c : 0) << "byte " << i;
  bsgprt_dfree(a);
  bsgprt_dfree(b);
  EXPECT_TRUE(errors.empty());
}

TEST_F(CUDATest, DistinctAllocationsPlacesForeignDeviceMemory) {
  // Device memory from the driver itself, as cudaMalloc gives it.
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr);
  using MemAlloc = int (*)(unsigned long long *, size_t);
  using MemFree = int (*)(unsigned long long);
  auto memAlloc = reinterpret_cast<MemAlloc>(dlsym(lib, "cuMemAlloc_v2"));
  auto memFree = reinterpret_cast<MemFree>(dlsym(lib, "cuMemFree_v2"));
  ASSERT_TRUE(memAlloc && memFree);
  char *ours = static_cast<char *>(bsgprt_dnew(4096, "ours"));
  unsigned long long f1 = 0, f2 = 0;
  ASSERT_EQ(memAlloc(&f1, 4096), 0);
  ASSERT_EQ(memAlloc(&f2, 4096), 0);
  char *a = reinterpret_cast<char *>(f1), *b = reinterpret_cast<char *>(f2);
  EXPECT_EQ(bsgprt_distinct_allocations(a, b), 1);
  EXPECT_EQ(bsgprt_distinct_allocations(a + 100, ours), 1);
  EXPECT_EQ(bsgprt_distinct_allocations(a, a + 4000), 0);
  int host = 0;
  EXPECT_EQ(bsgprt_distinct_allocations(&host, a), 0);
  memFree(f1);
  memFree(f2);
  bsgprt_dfree(ours);
  dlclose(lib);
  EXPECT_TRUE(errors.empty());
}

TEST_F(CUDATest, ProfileTimesKernelsWithEventsWithoutWaiting) {
  const uint64_t n = 1 << 24;
  auto *dx = static_cast<float *>(bsgprt_dnew(n * sizeof(float), "x"));
  auto *dy = static_cast<float *>(bsgprt_dnew(n * sizeof(float), "y"));
  bsgprt_memset_d(dx, 0, n * sizeof(float));
  bsgprt_memset_d(dy, 0, n * sizeof(float));
  bsgprt_profile_reset();
  bsgprt_profile_enable(1);
  SaxpyArgs args{2, dx, dy};
  for (int i = 0; i < 5; ++i)
    bsgprt_launch(&module, 0, n, &args);
  bsgprt_profile_enable(0);
  std::string text = bsgp::test::profileReportText();
  bsgprt_profile_reset();
  bsgprt_dfree(dx);
  bsgprt_dfree(dy);
  // One row: 5 launches of 2^24 ranks, each a few tens of microseconds
  // of device time at least.
  size_t row = text.find("saxpy.bsgp:4:3-6:5");
  ASSERT_NE(row, std::string::npos) << text;
  char loc[64], name[64];
  unsigned long long launches = 0, elements = 0;
  double total = 0, mean = 0;
  ASSERT_EQ(std::sscanf(text.c_str() + row, "%63s %63s %llu %lf %lf %llu", loc,
                        name, &launches, &total, &mean, &elements),
            6)
      << text;
  EXPECT_EQ(launches, 5u);
  EXPECT_EQ(elements, 5ull * n);
  // 2^24 ranks read 128 MiB and write 64 MiB: far above 0.01 ms each on
  // any GPU, and far below a second.
  EXPECT_GT(mean, 0.01) << text;
  EXPECT_LT(mean, 1000.0) << text;
  EXPECT_TRUE(errors.empty());
}

TEST_F(CUDATest, MissingKernelAndOutOfMemoryAreReported) {
  bsgprt_launch(&module, 1, 10, nullptr);
  EXPECT_EQ(bsgprt_dnew(uint64_t(1) << 50, "big.bsgp:2:2"), nullptr);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_LAUNCH_FAILED);
  EXPECT_EQ(errors[0].message.rfind("missing.bsgp:1:1: runtime error: ", 0), 0u)
      << errors[0].message;
  EXPECT_EQ(errors[1].code, BSGPRT_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(errors[1].message.rfind("big.bsgp:2:2: runtime error: out of "
                                    "device memory",
                                    0),
            0u)
      << errors[1].message;
}

} // namespace
