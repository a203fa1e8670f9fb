//===- kdtree.cpp - the SAH kd-tree with ropes ----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Each node's triangles are referenced by their bounding boxes clipped to
// the node's box. The split of a node is chosen among 32 planes per axis
// (the bins' borders) by the surface area heuristic: cost = traversal +
// intersection * (area_left * n_left + area_right * n_right) / area, with
// a fifth off when one side is empty (cutting off empty space pays); a
// traversal step costs three triangle tests, which keeps the tree at about
// one leaf per triangle (cheaper steps made eight per triangle, more
// memory and no faster on the CPU). A
// triangle that touches a plane goes to both sides. The ropes are passed
// down as Popov et al. 2007 describe: a child keeps its parent's ropes,
// except that the face it shares with its sibling leads to the sibling.
//
//===----------------------------------------------------------------------===//

#include "kdtree.h"

#include <algorithm>
#include <cmath>

namespace rt {

namespace {

struct Box {
  float lo[3], hi[3];
  float area() const {
    float d0 = hi[0] - lo[0], d1 = hi[1] - lo[1], d2 = hi[2] - lo[2];
    return 2.0f * (d0 * d1 + d1 * d2 + d2 * d0);
  }
};

constexpr int Bins = 32;
constexpr float TraversalCost = 3.0f;
constexpr float IntersectionCost = 1.0f;

struct Builder {
  const std::vector<Box> &triBox;
  KdTree &out;
  int maxDepth;

  /// Builds the subtree of `box` over `refs` at node index `self` (already
  /// pushed), with the ropes it inherits.
  void build(int self, const Box &box, std::vector<int> &refs, int depth,
             const int ropes[6]) {
    out.depth = std::max(out.depth, depth);
    int n = (int)refs.size();
    float bestCost = IntersectionCost * (float)n;
    int bestAxis = -1;
    float bestSplit = 0.0f;
    float area = box.area();
    if (n > 2 && depth < maxDepth && area > 0.0f) {
      for (int axis = 0; axis < 3; ++axis) {
        float lo = box.lo[axis], hi = box.hi[axis], width = hi - lo;
        if (!(width > 0.0f))
          continue;
        // starts[b]: triangles whose clipped box starts in bin b; ends[b]:
        // that end in it.
        int starts[Bins] = {}, ends[Bins] = {};
        for (int t : refs) {
          float a = std::max(triBox[t].lo[axis], lo);
          float b = std::min(triBox[t].hi[axis], hi);
          int ba = std::min(Bins - 1, (int)((a - lo) / width * Bins));
          int bb = std::min(Bins - 1, (int)((b - lo) / width * Bins));
          starts[std::max(ba, 0)]++;
          ends[std::max(bb, 0)]++;
        }
        int left = 0, right = n;
        for (int b = 1; b < Bins; ++b) {
          left += starts[b - 1];
          right -= ends[b - 1];
          float split = lo + width * (float)b / (float)Bins;
          Box l = box, r = box;
          l.hi[axis] = split;
          r.lo[axis] = split;
          float cost = TraversalCost +
                       IntersectionCost *
                           (l.area() * (float)left + r.area() * (float)right) /
                           area;
          if (left == 0 || right == 0)
            cost *= 0.8f;
          if (cost < bestCost) {
            bestCost = cost;
            bestAxis = axis;
            bestSplit = split;
          }
        }
      }
    }
    if (bestAxis < 0) {
      KdLeaf leaf;
      leaf.lo = {box.lo[0], box.lo[1], box.lo[2], 0.0f};
      leaf.hi = {box.hi[0], box.hi[1], box.hi[2], 0.0f};
      for (int k = 0; k < 4; ++k)
        leaf.ropesLo[k] = ropes[k];
      leaf.ropesHi[0] = ropes[4];
      leaf.ropesHi[1] = ropes[5];
      leaf.ropesHi[2] = (int)out.triIndex.size();
      leaf.ropesHi[3] = n;
      out.triIndex.insert(out.triIndex.end(), refs.begin(), refs.end());
      out.nodes[self] = {RT_LEAF, (int)out.leaves.size(), 0, 0.0f};
      out.leaves.push_back(leaf);
      return;
    }
    std::vector<int> l, r;
    for (int t : refs) {
      if (triBox[t].lo[bestAxis] <= bestSplit)
        l.push_back(t);
      if (triBox[t].hi[bestAxis] >= bestSplit)
        r.push_back(t);
    }
    std::vector<int>().swap(refs);
    int li = (int)out.nodes.size();
    int ri = li + 1;
    out.nodes.push_back({});
    out.nodes.push_back({});
    out.nodes[self] = {bestAxis, li, ri, bestSplit};
    Box lb = box, rb = box;
    lb.hi[bestAxis] = bestSplit;
    rb.lo[bestAxis] = bestSplit;
    int lr[6], rr[6];
    std::copy(ropes, ropes + 6, lr);
    std::copy(ropes, ropes + 6, rr);
    lr[2 * bestAxis + 1] = ri;
    rr[2 * bestAxis] = li;
    build(li, lb, l, depth + 1, lr);
    build(ri, rb, r, depth + 1, rr);
  }
};

RtVec vec(const Vec3 &a) { return {a.x, a.y, a.z, 0.0f}; }

Vec3 sub(const Vec3 &a, const Vec3 &b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}

} // namespace

KdTree buildKdTree(const Mesh &mesh) {
  KdTree tree;
  int n = mesh.size();
  std::vector<Box> triBox(n);
  Box scene = {{INFINITY, INFINITY, INFINITY},
               {-INFINITY, -INFINITY, -INFINITY}};
  tree.tris.resize(n);
  tree.shade.resize(n);
  for (int t = 0; t < n; ++t) {
    const Vec3 *p = &mesh.v[3 * t];
    for (int a = 0; a < 3; ++a) {
      float c0 = (&p[0].x)[a], c1 = (&p[1].x)[a], c2 = (&p[2].x)[a];
      triBox[t].lo[a] = std::min(c0, std::min(c1, c2));
      triBox[t].hi[a] = std::max(c0, std::max(c1, c2));
      scene.lo[a] = std::min(scene.lo[a], triBox[t].lo[a]);
      scene.hi[a] = std::max(scene.hi[a], triBox[t].hi[a]);
    }
    tree.tris[t] = {vec(p[0]), vec(sub(p[1], p[0])), vec(sub(p[2], p[0]))};
    tree.shade[t] = {vec(mesh.n[3 * t]), vec(mesh.n[3 * t + 1]),
                     vec(mesh.n[3 * t + 2])};
  }
  if (n == 0)
    scene = {{0, 0, 0}, {0, 0, 0}};
  // A margin, so that no triangle lies on the scene box's faces.
  for (int a = 0; a < 3; ++a) {
    float m = 1e-3f * std::max(1e-3f, scene.hi[a] - scene.lo[a]);
    scene.lo[a] -= m;
    scene.hi[a] += m;
  }
  tree.lo = {scene.lo[0], scene.lo[1], scene.lo[2]};
  tree.hi = {scene.hi[0], scene.hi[1], scene.hi[2]};
  std::vector<int> refs(n);
  for (int t = 0; t < n; ++t)
    refs[t] = t;
  int maxDepth = 8 + (int)(1.3 * std::log2(std::max(n, 1)));
  Builder b{triBox, tree, maxDepth};
  tree.nodes.push_back({});
  int none[6] = {-1, -1, -1, -1, -1, -1};
  b.build(0, scene, refs, 0, none);
  return tree;
}

} // namespace rt
