// A C++ caller of Listing 5: device lists through bsgp::buffer.
#include "bsgp/runtime.hpp"

#include <cstdio>

extern "C" void test(int *a);

int main() {
  bsgp::buffer<int> a(std::vector<int>{3, 5});
  test(a.data());
  std::vector<int> r = a.to_vector();
  std::printf("a[0]=%d a[1]=%d\n", r[0], r[1]);
  return r[1] == 16 ? 0 : 1;
}
