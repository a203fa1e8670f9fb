//===- scene.h - constants and starting states of the fluid -----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The program and the CUDA benchmark (bench/cuda/bench_particles.cu) start
// from the same states with the same constants, so that their results can
// be compared particle by particle.
//
//===----------------------------------------------------------------------===//

#ifndef PARTICLES_SCENE_H
#define PARTICLES_SCENE_H

#include "particles.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace particles {

/// The SDK demo's constants (spring 0.5, damping 0.02, shear 0.1, boundary
/// damping -0.5, dt 0.5, gravity 0.0003 down for its 16K particles of
/// radius 1/64) with a grid that grows with the number of particles: the
/// SDK has 16 cells per particle (16K particles on 64^3 cells of a sphere's
/// diameter), and so does every size here, so that the fluid fills the same
/// fraction of the box at every size. Gravity goes with the square of the
/// radius: the weight of a column of fluid, which the contacts at its foot
/// carry, grows as the number of particles in it (1/r), and the spring's
/// overlap must stay the same fraction of a radius. With the SDK's gravity,
/// 1M particles (radius 1/256, a column of 100) overlap by several radii,
/// pass through each other and blow up within 300 steps.
inline SimParams makeParams(int n) {
  SimParams p;
  int grid = (int)std::lround(std::cbrt(16.0 * n));
  p.grid = grid < 8 ? 8 : grid;
  p.radius = 1.0f / (float)p.grid;
  float toSdk = 64.0f / (float)p.grid; // the radius over the SDK's
  p.spring = 0.5f;
  p.damping = 0.02f;
  p.shear = 0.1f;
  p.attraction = 0.0f;
  p.boundaryDamping = -0.5f;
  p.globalDamping = 1.0f;
  p.dt = 0.5f;
  p.gravityX = 0.0f;
  p.gravityY = -0.0003f * toSdk * toSdk;
  p.gravityZ = 0.0f;
  return p;
}

/// A reproducible uniform number in [0, 1) (a 64-bit LCG), the same on
/// every compiler.
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed * 2862933555777941757ull + 1) {}
  float next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (float)(state >> 40) / (float)(1ull << 24);
  }
};

inline Particle makeParticle(float x, float y, float z, float vx, float vy,
                             float vz) {
  Particle p;
  p.pos = {x, y, z, 0.0f};
  p.vel = {vx, vy, vz, 0.0f};
  return p;
}

/// A dam break: a cube of particles on a lattice one diameter apart (with a
/// jitter of a tenth of a radius, but never past a wall), standing in the
/// corner x = y = -1 of the box and centred in z, at rest, about to
/// collapse under gravity.
inline std::vector<Particle> damBreak(int n, const SimParams &prm) {
  int side = (int)std::ceil(std::cbrt((double)n));
  float r = prm.radius;
  float spacing = 2.0f * r;
  float z0 = -0.5f * spacing * (float)(side - 1);
  float lo = -1.0f + r, hi = 1.0f - r;
  auto inside = [&](float c) { return std::min(std::max(c, lo), hi); };
  Random rnd(1);
  std::vector<Particle> ps;
  ps.reserve(n);
  for (int i = 0; i < n; ++i) {
    int x = i % side, y = (i / side) % side, z = i / (side * side);
    float jx = (rnd.next() - 0.5f) * 0.2f * r;
    float jy = (rnd.next() - 0.5f) * 0.2f * r;
    float jz = (rnd.next() - 0.5f) * 0.2f * r;
    ps.push_back(makeParticle(inside(-1.0f + r + spacing * (float)x + jx),
                              inside(-1.0f + r + spacing * (float)y + jy),
                              inside(z0 + spacing * (float)z + jz), 0.0f, 0.0f,
                              0.0f));
  }
  return ps;
}

/// A dense random cloud for the comparison of one step with the direct
/// computation: half the particles in the corner at -1 and half in the
/// corner at +1 of the box (so that the cells at both ends of the grid and
/// the walls take part), packed so that a particle overlaps about six
/// others, with random velocities.
inline std::vector<Particle> denseCloud(int n, const SimParams &prm) {
  float r = prm.radius;
  // n / 2 particles with 6 neighbours closer than 2r:
  // (n / 2) * (4/3 pi (2r)^3) / side^3 = 6.
  float side = std::cbrt((float)(n / 2) * 33.51f * r * r * r / 6.0f);
  Random rnd(7);
  std::vector<Particle> ps;
  ps.reserve(n);
  for (int i = 0; i < n; ++i) {
    float s = i % 2 == 0 ? -1.0f : 1.0f;
    float x = s * (1.0f - side * rnd.next());
    float y = s * (1.0f - side * rnd.next());
    float z = s * (1.0f - side * rnd.next());
    float vx = (rnd.next() - 0.5f) * 0.04f;
    float vy = (rnd.next() - 0.5f) * 0.04f;
    float vz = (rnd.next() - 0.5f) * 0.04f;
    ps.push_back(makeParticle(x, y, z, vx, vy, vz));
  }
  return ps;
}

} // namespace particles

#endif // PARTICLES_SCENE_H
