//===- reference.h - the brute-force renderer on the CPU --------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef RAYTRACER_REFERENCE_H
#define RAYTRACER_REFERENCE_H

#include "raytracer.h"

#include <vector>

namespace rt {

/// Renders as rtRender does (raytracer.bsgp), with the same formulas, but
/// testing every triangle against every ray (no kd-tree): tris, shade, mat
/// and materials as the device lists hold them, camera and lights from rs.
void referenceRender(const RtScene &rs, const std::vector<RtTri> &tris,
                     const std::vector<RtTriShade> &shade,
                     const std::vector<int> &mat,
                     const std::vector<RtMaterial> &materials,
                     std::vector<RtVec> &image, std::vector<RtHit> &eyeHits);

} // namespace rt

#endif // RAYTRACER_REFERENCE_H
