// Checks the lists that vec3-layout.bsgp fills against values computed here
// from the element index, through the header bsgpc -emit-header wrote.
#include "vec3-layout.h"

#include <cstdio>
#include <vector>

int main() {
  const int n = 1000;
  int errors = 0;
  std::printf("sizeof float3 %llu int3 %llu uint3 %llu float2 %llu\n",
              (unsigned long long)size_float3(),
              (unsigned long long)size_int3(),
              (unsigned long long)size_uint3(),
              (unsigned long long)size_float2());
  std::printf("header float3 %zu int3 %zu uint3 %zu\n", sizeof(bsgp_float3),
              sizeof(bsgp_int3), sizeof(bsgp_uint3));
  std::printf("stride float3 %llu\n", (unsigned long long)stride_float3());

  // One spare element past the end: a copy longer than n elements shows.
  std::vector<bsgp_float3> f(n + 1, bsgp_float3{-1, -1, -1});
  fill_float3(f.data(), n);
  for (int i = 0; i < n; ++i)
    if (f[i].x != i || f[i].y != 2 * i || f[i].z != 3 * i) {
      if (errors++ < 5)
        std::printf("float3[%d] = %g %g %g\n", i, f[i].x, f[i].y, f[i].z);
    }
  if (f[n].x != -1)
    ++errors;

  std::vector<bsgp_int3> a(n, bsgp_int3{-7, -7, -7});
  std::vector<bsgp_uint3> b(n, bsgp_uint3{7, 7, 7});
  fill_int3(a.data(), b.data(), n);
  for (int i = 0; i < n; ++i)
    if (a[i].x != i || a[i].y != -i || a[i].z != i * i ||
        b[i].x != unsigned(i) || b[i].y != unsigned(i) + 1 ||
        b[i].z != 7u * i) {
      if (errors++ < 5)
        std::printf("int3/uint3[%d] wrong\n", i);
    }

  // sum_float3 of (i, 2i, 3i) on the host side, computed here.
  std::vector<bsgp_float3> in(n);
  double expect = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = bsgp_float3{float(i), float(2 * i), float(3 * i)};
    expect += 6.0 * i;
  }
  std::printf("sums %.1f %.1f %.1f\n", sum_float3(in.data(), n),
              host_sum_float3(n), expect);
  std::printf("errors %d\n", errors);
  return errors != 0;
}
