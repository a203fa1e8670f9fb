//===- raytracer_twin.h - the ray tracer by hand in CUDA --------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The CUDA twin of examples/apps/raytracer/raytracer.bsgp: the same tree
// (kdtree.cpp's lists, uploaded by the caller), the same traversal and
// shading, written as three kernels; see raytracer_twin.cu.
//
//===----------------------------------------------------------------------===//

#ifndef RAYTRACER_TWIN_H
#define RAYTRACER_TWIN_H

#include "raytracer.h"

#include <cstddef>

class RaytracerTwin {
public:
  /// `scene`'s lists are device lists that stay the caller's; the twin
  /// allocates its ray queues and the image for width * height pixels.
  explicit RaytracerTwin(const RtScene &scene);
  ~RaytracerTwin();
  /// Renders a frame into image() (linear RGB, RtVec per pixel).
  void render();
  /// Renders a frame and counts its rays: eye, reflected or refracted, and
  /// shadow rays.
  void countRays(long &eye, long &secondary, long &shadow);
  RtVec *image() const { return dImage; }
  /// Bytes the twin allocates beyond the scene's lists.
  size_t extraBytes() const { return bytes; }

private:
  void frame(unsigned long long *shadowCount, long *secondary);
  RtScene sc;
  struct TwinRay *dRays[2] = {nullptr, nullptr};
  struct TwinHit *dHits = nullptr;
  RtVec *dImage = nullptr;
  int *dCount = nullptr;
  unsigned long long *dShadows = nullptr;
  size_t bytes = 0;
};

#endif // RAYTRACER_TWIN_H
