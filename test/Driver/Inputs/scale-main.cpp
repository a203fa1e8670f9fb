// Calls scale() through the header bsgpc wrote for it.
#include "scale.h"

#include "bsgp/runtime.hpp"

#include <cstdio>

int main() {
  bsgp::buffer<float> x(std::vector<float>{1, 2, 3});
  scale(3, 2.0f, x.data());
  std::vector<float> r = x.to_vector();
  std::printf("%g %g %g\n", r[0], r[1], r[2]);
}
