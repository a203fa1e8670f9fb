//===- kdtree.h - a kd-tree with ropes, built on the host -------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The triangle mesh of a scene and the kd-tree over it, built with the
// surface area heuristic over 32 bins per axis and node, and flattened into
// the lists of raytracer.h (with the ropes of Popov et al. 2007). The ray
// tracer (raytracer.bsgp), its CUDA twin (bench/cuda) and the host's
// reference renderer all use this file's output.
//
//===----------------------------------------------------------------------===//

#ifndef RAYTRACER_KDTREE_H
#define RAYTRACER_KDTREE_H

#include "raytracer.h"

#include <vector>

namespace rt {

struct Vec3 {
  float x, y, z;
};

/// A triangle mesh with a normal at each corner of each triangle and a
/// material per triangle.
struct Mesh {
  std::vector<Vec3> v;       // 3 per triangle
  std::vector<Vec3> n;       // 3 per triangle
  std::vector<int> material; // 1 per triangle
  int size() const { return (int)material.size(); }
};

/// The flattened tree and triangles, ready for the device.
struct KdTree {
  std::vector<KdNode> nodes;
  std::vector<KdLeaf> leaves;
  std::vector<int> triIndex;
  std::vector<RtTri> tris;
  std::vector<RtTriShade> shade;
  Vec3 lo, hi; // the scene's box
  int depth = 0;
};

/// Builds the tree over the mesh: SAH with binned split candidates, a node
/// becomes a leaf when no split is cheaper or at the depth limit
/// (8 + 1.3 log2 n).
KdTree buildKdTree(const Mesh &mesh);

} // namespace rt

#endif // RAYTRACER_KDTREE_H
