//===- render.h - a picture of the particle fluid ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef PARTICLES_RENDER_H
#define PARTICLES_RENDER_H

#include "particles.h"

#include <vector>

namespace particles {

/// Writes a PNG of the particles seen along -z (an orthographic projection
/// of the box onto the x-y plane), coloured by speed and shaded by depth.
/// Returns false if the file cannot be written, or if the program was
/// built without stb_image_write.
bool writePicture(const char *path, const std::vector<Particle> &ps,
                  const SimParams &prm);

} // namespace particles

#endif // PARTICLES_RENDER_H
