//===- GridMesh.h - the triangle mesh the Listing 1 benchmarks use -*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A k x k grid of quads, each cut into two triangles: (k+1)^2 vertices and
/// 2k^2 faces, every vertex shared by up to six faces.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BENCH_GRIDMESH_H
#define BSGP_BENCH_GRIDMESH_H

#include <cstddef>
#include <vector>

/// The index buffer: three vertex indices per face.
inline std::vector<int> gridTriangles(int k) {
  std::vector<int> ib;
  ib.reserve(std::size_t(k) * k * 6);
  for (int y = 0; y < k; ++y)
    for (int x = 0; x < k; ++x) {
      int a = y * (k + 1) + x, b = a + 1, c = a + k + 1, d = c + 1;
      ib.insert(ib.end(), {a, b, c, b, d, c});
    }
  return ib;
}

#endif // BSGP_BENCH_GRIDMESH_H
