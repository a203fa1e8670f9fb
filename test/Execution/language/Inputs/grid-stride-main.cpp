// Runs grid-stride.bsgp's fill on 100003 ranks and checks every element
// against the formula, on the host.
#include "bsgp/runtime.h"

#include <cstdio>
#include <vector>

extern "C" void fill(int *d, unsigned *count, int n);

int main() {
  const int n = 100003;
  auto *d = static_cast<int *>(bsgprt_dnew(n * sizeof(int), "test"));
  auto *count = static_cast<unsigned *>(bsgprt_dnew(sizeof(unsigned), "test"));
  bsgprt_memset_d(count, 0, sizeof(unsigned));
  fill(d, count, n);
  std::vector<int> h(n);
  unsigned c = 0;
  bsgprt_memcpy_dtoh(h.data(), d, n * sizeof(int));
  bsgprt_memcpy_dtoh(&c, count, sizeof(unsigned));
  int wrong = 0, early = 0;
  for (int i = 0; i < n; ++i) {
    int want = i % 7 == 0 ? -1 : 3 * i;
    wrong += h[i] != want;
    early += h[i] == -1;
  }
  std::printf("count %u, early %d, wrong %d\n", c, early, wrong);
  return 0;
}
