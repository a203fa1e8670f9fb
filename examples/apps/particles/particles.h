//===- particles.h - the fluid's data for BSGP and C++ ----------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// One header for both sides: particles.bsgp includes it through bsgpc's
// preprocessor (__BSGP__ is defined there) and the C++ host code and the
// CUDA twin through their own compilers. A BSGP float3 takes 16 bytes,
// aligned to 16 (docs/language.md, "Types"), so C++ sees it as four floats
// of which the last is padding; both layouts are 32-byte particles.
//
//===----------------------------------------------------------------------===//

#ifndef PARTICLES_H
#define PARTICLES_H

#ifdef __BSGP__
struct Particle {
  float3 pos;
  float3 vel;
};
#else
struct alignas(16) ParticleVec {
  float x, y, z, pad;
};
struct Particle {
  ParticleVec pos;
  ParticleVec vel;
};
static_assert(sizeof(Particle) == 32, "the layout of a BSGP struct Particle");
#endif

// The constants of the simulation (the SDK's SimParams without the
// collider). Distances are in units of the box [-1, 1]^3; velocities are
// per unit of time, and the step advances time by dt.
struct SimParams {
  int grid;              // cells per side of the box
  float radius;          // of every particle; a cell is 2 * radius wide
  float spring;          // stiffness of the contact spring
  float damping;         // dashpot on the relative velocity of a contact
  float shear;           // force on the tangential relative velocity
  float attraction;      // pull towards the other particle while touching
  float boundaryDamping; // factor of the velocity at a wall (negative)
  float globalDamping;   // factor of every velocity at every step
  float dt;              // time step
  float gravityX;
  float gravityY;
  float gravityZ;
};

#ifndef __BSGP__
extern "C" void particlesStep(Particle *ps, int n, const SimParams *prm);
#endif

#endif // PARTICLES_H
