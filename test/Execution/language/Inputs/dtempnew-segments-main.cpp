// Calls the spawns of dtempnew-segments.bsgp (compiled without its main)
// and reads the runtime's memory statistics: each spawn frees every list it
// allocates, and a loop frees each round's lists in that round, so that
// the peak of live bytes does not grow with the number of rounds.
#include "dtempnew-segments.h"

#include <bsgp/runtime.h>

#include <cstdio>

static bsgprt_memory_stats_t stats() {
  bsgprt_memory_stats_t s;
  bsgprt_memory_stats(&s);
  return s;
}

int main() {
  const int n = 1000;
  int *out = static_cast<int *>(bsgprt_dnew(n * sizeof(int), "out"));
  uint64_t base = stats().live_bytes;
  uint64_t peak[2];
  const int rounds[2] = {4, 20};
  for (int i = 0; i < 2; ++i) {
    bsgprt_memory_reset_peak();
    lifetimes(n, rounds[i], out);
    bsgprt_memory_stats_t s = stats();
    std::printf("lifetimes, %d rounds: %s\n", rounds[i],
                s.live_bytes == base ? "all freed" : "leaked");
    peak[i] = s.peak_live_bytes - base;
  }
  std::printf("peak of 20 rounds: %s\n",
              peak[1] == peak[0] ? "that of 4" : "more than that of 4");
  carried(n, 20, out);
  std::printf("carried: %s\n",
              stats().live_bytes == base ? "all freed" : "leaked");
  int h[3];
  bsgprt_memcpy_dtoh(h, out, sizeof h);
  std::printf("carried, 20 rounds: %d %d %d\n", h[0], h[1], h[2]);
  bsgprt_dfree(out);
  return 0;
}
