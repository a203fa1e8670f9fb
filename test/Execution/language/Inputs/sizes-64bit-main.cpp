// Calls the functions of sizes-64bit.bsgp with an error handler that prints
// each runtime error and returns, so that one run shows them all.
#include "sizes-64bit.h"

#include <bsgp/runtime.h>

#include <cstdio>
#include <vector>

static void print(int code, const char *message, void *) {
  std::printf("error %d: %s\n", code, message);
}

int main() {
  bsgprt_set_error_handler(print, nullptr);
  std::printf("huge %s\n", dnew_huge() ? "allocated" : "null");
  std::printf("overflow %s\n", dnew_overflow() ? "allocated" : "null");
  std::printf("negative %s\n", dnew_negative(-5) ? "allocated" : "null");
  std::vector<int> out(8, 0);
  dtempnew_negative(-3, out.data());
  std::printf("dtempnew spawn ran %d %d %d %d\n", out[0], out[1], out[2],
              out[3]);
  out.assign(8, 0);
  spawn_count(-5, out.data());
  spawn_count64(4294967306LL, out.data());
  spawn_count64(-4294967286LL, out.data());
  spawn_count_uint(3000000000u, out.data());
  int ran = 0;
  for (int v : out)
    ran += v != 0;
  std::printf("bad spawns ran %d threads\n", ran);
  spawn_count64(3, out.data());
  spawn_count_uint(2, out.data());
  std::printf("good spawns %d %d %d %d\n", out[0], out[1], out[2], out[3]);
  std::vector<int> ranks(1000, -1);
  fill_ranks(1000, ranks.data());
  long long sum = 0;
  for (int v : ranks)
    sum += v;
  std::printf("sum of ranks %lld\n", sum);
  return 0;
}
