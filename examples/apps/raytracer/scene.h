//===- scene.h - the ray tracer's scenes ------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Scenes: procedural ones (a checkered floor, tessellated spheres and a
// torus, a mirror and a glass sphere under point lights, at any level of
// detail) and meshes read from OFF and OBJ files, with the camera fitted to
// their bounding box.
//
//===----------------------------------------------------------------------===//

#ifndef RAYTRACER_SCENE_H
#define RAYTRACER_SCENE_H

#include "kdtree.h"

#include <string>
#include <vector>

namespace rt {

struct Light {
  Vec3 pos, color;
};

struct Scene {
  Mesh mesh;
  std::vector<RtMaterial> materials;
  std::vector<Light> lights;
  Vec3 eye, target, up;
  float fovDegrees = 45.0f;
  Vec3 ambient = {0.08f, 0.08f, 0.10f};
};

/// The procedural scene; `detail` sets the tessellation: 1 gives some
/// hundreds of triangles (898), 12 about 129K; about 896 detail^2.
Scene proceduralScene(int detail);

/// A mesh from an OFF or OBJ file (by its extension; polygons are cut into
/// fans of triangles, smooth normals within 45 degrees), grey, lit by two
/// lights and seen from the front of its bounding box. Returns false with a
/// message in `error` when the file cannot be read.
bool loadScene(const std::string &path, Scene &scene, std::string &error);

/// Fills the camera, lights and pointers of `rs` (the device lists are the
/// caller's).
void describeScene(const Scene &scene, const KdTree &tree, int width,
                   int height, int maxBounces, RtScene &rs);

} // namespace rt

#endif // RAYTRACER_SCENE_H
