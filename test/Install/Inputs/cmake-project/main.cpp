// Calls the BSGP function of kernels.bsgp on a runtime buffer.
#include <bsgp/runtime.hpp>

#include <cstdio>

extern "C" void scale(int32_t n, float *x);

int main() {
  bsgp::buffer<float> x(std::vector<float>{1, 2, 3});
  scale(3, x.data());
  std::vector<float> r = x.to_vector();
  std::printf("%g %g %g\n", r[0], r[1], r[2]);
}
