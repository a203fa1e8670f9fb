//===- main.cpp - the particle fluid: runs, checks and draws it -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Runs the BSGP simulation step (particles.bsgp) on a dam break and checks
// every step against what holds for any correct step, then compares one
// step on a dense cloud with a direct O(n^2) computation here; see
// README.md. Without arguments: 4096 particles, 40 steps. The output of a
// run without arguments is the same on every backend (no timings, no
// floating-point values), so that the GPU bundle can compare it with the
// CPU's.
//
//===----------------------------------------------------------------------===//

#include "particles.h"
#include "render.h"
#include "scene.h"

#include "bsgp/runtime.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace particles;

namespace {

struct Options {
  int n = 4096;
  int steps = 40;
  int referenceN = 2048;
  int checkEvery = 1;
  const char *png = nullptr;
  bool verbose = false;
};

void usage() {
  std::fprintf(stderr,
               "usage: particles [-n particles] [-s steps] [--png file] "
               "[--reference particles] [--check-every k] [-v]\n");
}

bool parseOptions(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool hasValue = i + 1 < argc;
    if (a == "-n" && hasValue)
      o.n = std::atoi(argv[++i]);
    else if (a == "-s" && hasValue)
      o.steps = std::atoi(argv[++i]);
    else if (a == "--png" && hasValue)
      o.png = argv[++i];
    else if (a == "--reference" && hasValue)
      o.referenceN = std::atoi(argv[++i]);
    else if (a == "--check-every" && hasValue)
      o.checkEvery = std::atoi(argv[++i]);
    else if (a == "-v")
      o.verbose = true;
    else
      return false;
  }
  // Ranks are ints and the grid's cells are counted in ints: 2^24
  // particles have 2^28 cells.
  return o.n >= 1 && o.n <= (1 << 24) && o.steps >= 0 && o.referenceN >= 0 &&
         o.referenceN <= (1 << 16) && o.checkEvery >= 1;
}

struct Vec {
  double x, y, z;
};

Vec vel(const Particle &p) { return {p.vel.x, p.vel.y, p.vel.z}; }

// The mechanical energy of the particles, per unit mass: kinetic plus the
// potential of gravity above the floor (the elastic energy of overlapping
// particles is left out; it is small next to these, see README.md).
double energy(const std::vector<Particle> &ps, const SimParams &prm) {
  double e = 0.0, g = std::fabs(prm.gravityY), floorY = -1.0 + prm.radius;
  for (const Particle &p : ps) {
    Vec v = vel(p);
    e += 0.5 * (v.x * v.x + v.y * v.y + v.z * v.z) + g * (p.pos.y - floorY);
  }
  return e;
}

// The elastic energy of the dam break's start, per unit mass: a contact
// of overlap d pushes each of its particles with dv = spring * d per step
// of dt, the force of the potential (spring / dt) d^2 / 2. At the start
// only neighbours on the lattice (one diameter apart, jittered by a tenth
// of a radius) can touch.
double startElasticEnergy(const std::vector<Particle> &ps,
                          const SimParams &prm) {
  int n = (int)ps.size();
  int side = (int)std::ceil(std::cbrt((double)n));
  double e = 0.0, collideDist = 2.0 * prm.radius;
  for (int i = 0; i < n; ++i)
    for (int step : {1, side, side * side}) {
      int j = i + step;
      // Only the next particle along the same row, column or layer.
      if (j >= n || (step == 1 && j % side == 0) ||
          (step == side && (j / side) % side == 0))
        continue;
      double dx = ps[j].pos.x - ps[i].pos.x, dy = ps[j].pos.y - ps[i].pos.y,
             dz = ps[j].pos.z - ps[i].pos.z;
      double d = collideDist - std::sqrt(dx * dx + dy * dy + dz * dz);
      if (d > 0.0)
        e += 0.5 * prm.spring / prm.dt * d * d;
    }
  return e;
}

// Check 1: every coordinate is finite and inside the box that the walls
// keep the centres in. Returns the number of particles outside.
int outsideBox(const std::vector<Particle> &ps, const SimParams &prm) {
  float lo = -1.0f + prm.radius, hi = 1.0f - prm.radius;
  int bad = 0;
  for (const Particle &p : ps) {
    const float c[6] = {p.pos.x, p.pos.y, p.pos.z, p.vel.x, p.vel.y, p.vel.z};
    bool ok = true;
    for (float v : c)
      ok = ok && std::isfinite(v);
    for (int k = 0; k < 3; ++k)
      ok = ok && c[k] >= lo && c[k] <= hi;
    bad += ok ? 0 : 1;
  }
  return bad;
}

// Check 2: the forces between particles come in equal and opposite pairs,
// so they change the total momentum by nothing; only gravity and the walls
// do. The step computes v' = wall((v + F + g dt) * globalDamping), where
// wall() multiplies a component by boundaryDamping when the particle ended
// on that wall (its position was clamped to it). Undoing gravity and the
// walls gives each particle's F; their sum must vanish up to rounding,
// relative to the sum of their sizes. Returns |sum F| / sum |F|.
double forceImbalance(const std::vector<Particle> &before,
                      const std::vector<Particle> &after, const SimParams &prm,
                      double *totalForce) {
  float lo = -1.0f + prm.radius, hi = 1.0f - prm.radius;
  const double g[3] = {prm.gravityX, prm.gravityY, prm.gravityZ};
  double sum[3] = {0, 0, 0}, size = 0.0;
  for (size_t i = 0; i < before.size(); ++i) {
    const float pos[3] = {after[i].pos.x, after[i].pos.y, after[i].pos.z};
    const float v1[3] = {after[i].vel.x, after[i].vel.y, after[i].vel.z};
    const float v0[3] = {before[i].vel.x, before[i].vel.y, before[i].vel.z};
    double f2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      // A particle that ended on a wall was clamped if its velocity before
      // the bounce pointed out of the box. (One that reached the wall
      // exactly, by rounding, was not, and its velocity points in.)
      double v = v1[k], before = v / prm.boundaryDamping;
      if ((pos[k] == lo && before < 0.0) || (pos[k] == hi && before > 0.0))
        v = before;
      double f = v / prm.globalDamping - v0[k] - g[k] * prm.dt;
      sum[k] += f;
      f2 += f * f;
    }
    size += std::sqrt(f2);
  }
  *totalForce = size;
  double s = std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
  return size > 0.0 ? s / size : 0.0;
}

// The direct computation of one step: every pair of particles, in double
// precision, with the same formulas as particles.bsgp (and the SDK).
// `ambiguous` marks the particles of a pair whose distance is so close to
// the contact distance that float rounding (or a GPU's square root) may
// decide either way, and those that end so close to a wall that rounding
// decides whether they bounce; they are left out of the comparison.
std::vector<Particle> directStep(const std::vector<Particle> &ps,
                                 const SimParams &prm,
                                 std::vector<char> &ambiguous, long *contacts) {
  size_t n = ps.size();
  double r = prm.radius, collideDist = 2.0 * r;
  std::vector<Particle> out(ps);
  ambiguous.assign(n, 0);
  *contacts = 0;
  for (size_t i = 0; i < n; ++i) {
    const Particle &a = ps[i];
    double f[3] = {0, 0, 0};
    for (size_t j = 0; j < n; ++j) {
      if (j == i)
        continue;
      const Particle &b = ps[j];
      double rel[3] = {(double)b.pos.x - a.pos.x, (double)b.pos.y - a.pos.y,
                       (double)b.pos.z - a.pos.z};
      double dist =
          std::sqrt(rel[0] * rel[0] + rel[1] * rel[1] + rel[2] * rel[2]);
      if (std::fabs(dist - collideDist) < 1e-4 * collideDist) {
        ambiguous[i] = ambiguous[j] = 1;
        continue;
      }
      if (dist >= collideDist)
        continue;
      ++*contacts;
      double rv[3] = {(double)b.vel.x - a.vel.x, (double)b.vel.y - a.vel.y,
                      (double)b.vel.z - a.vel.z};
      double nrm[3] = {rel[0] / dist, rel[1] / dist, rel[2] / dist};
      double rvn = rv[0] * nrm[0] + rv[1] * nrm[1] + rv[2] * nrm[2];
      for (int k = 0; k < 3; ++k) {
        double tan = rv[k] - rvn * nrm[k];
        f[k] += -prm.spring * (collideDist - dist) * nrm[k] +
                prm.damping * rv[k] + prm.shear * tan + prm.attraction * rel[k];
      }
    }
    const double g[3] = {prm.gravityX, prm.gravityY, prm.gravityZ};
    const double v0[3] = {a.vel.x, a.vel.y, a.vel.z};
    const double p0[3] = {a.pos.x, a.pos.y, a.pos.z};
    double lo = -1.0 + r, hi = 1.0 - r;
    double p1[3], v1[3];
    for (int k = 0; k < 3; ++k) {
      v1[k] = (v0[k] + f[k] + g[k] * prm.dt) * prm.globalDamping;
      p1[k] = p0[k] + v1[k] * prm.dt;
      if (std::fabs(p1[k] - lo) < 1e-6 || std::fabs(p1[k] - hi) < 1e-6)
        ambiguous[i] = 1;
      if (p1[k] > hi || p1[k] < lo) {
        v1[k] *= prm.boundaryDamping;
        p1[k] = std::min(std::max(p1[k], lo), hi);
      }
    }
    out[i] = makeParticle((float)p1[0], (float)p1[1], (float)p1[2],
                          (float)v1[0], (float)v1[1], (float)v1[2]);
  }
  return out;
}

double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Check 4: one step of particlesStep on a dense cloud against directStep.
// Positions and velocities must agree within 1e-5 (absolute; positions are
// of order 1, velocities of order 0.01 to 0.1, and one missed contact
// changes a velocity by about 1e-3).
int checkAgainstDirect(int n, bool verbose) {
  // The grid of the dam break's small case.
  SimParams prm = makeParams(4096);
  std::vector<Particle> start = denseCloud(n, prm);
  bsgp::buffer<Particle> d(start);
  particlesStep(d.data(), n, &prm);
  std::vector<Particle> got = d.to_vector();
  std::vector<char> ambiguous;
  long contacts = 0;
  std::vector<Particle> want = directStep(start, prm, ambiguous, &contacts);
  const double tol = 1e-5;
  int bad = 0, skipped = 0;
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    if (ambiguous[i]) {
      ++skipped;
      continue;
    }
    const float a[6] = {got[i].pos.x, got[i].pos.y, got[i].pos.z,
                        got[i].vel.x, got[i].vel.y, got[i].vel.z};
    const float b[6] = {want[i].pos.x, want[i].pos.y, want[i].pos.z,
                        want[i].vel.x, want[i].vel.y, want[i].vel.z};
    double e = 0.0;
    for (int k = 0; k < 6; ++k)
      e = std::isfinite(a[k]) ? std::max(e, (double)std::fabs(a[k] - b[k]))
                              : 1e30;
    worst = std::max(worst, e);
    if (e > tol) {
      if (bad < 5)
        std::printf("  particle %d differs from the direct step by %g\n", i, e);
      ++bad;
    }
  }
  std::printf("direct O(n^2) step: n=%d contacts=%ld compared=%d "
              "(tolerance %g) mismatches=%d\n",
              n, contacts, n - skipped, tol, bad);
  if (verbose)
    std::printf("  largest difference %g, %d particles near the contact "
                "distance left out\n",
                worst, skipped);
  // A cloud without contacts would compare nothing of the collisions.
  return bad + (contacts == 0 ? 1 : 0);
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    usage();
    return 2;
  }
  bool timed = argc > 1;
  SimParams prm = makeParams(o.n);
  std::vector<Particle> state = damBreak(o.n, prm);
  std::printf("particles: n=%d steps=%d grid=%d^3\n", o.n, o.steps, prm.grid);
  if (timed)
    std::printf("device: %s\n", bsgp::device_name());

  bsgp::buffer<Particle> d(state);
  double e0 = energy(state, prm), eMax = e0;
  double elastic0 = startElasticEnergy(state, prm);
  double y0 = 0.0;
  for (const Particle &p : state)
    y0 += p.pos.y;
  double worstImbalance = 0.0, stepSeconds = 0.0;
  int outside = 0, unbalancedSteps = 0;
  // `state` holds the particles after step s when `known`; a checked step
  // needs them before and after it.
  bool known = true;
  int checkedSteps = 0;
  for (int s = 0; s < o.steps; ++s) {
    bool check = s % o.checkEvery == 0 || s == o.steps - 1;
    if (check && !known)
      state = d.to_vector();
    double t0 = seconds();
    particlesStep(d.data(), o.n, &prm);
    bsgprt_synchronize();
    stepSeconds += seconds() - t0;
    known = check;
    if (!check)
      continue;
    ++checkedSteps;
    std::vector<Particle> next = d.to_vector();
    outside += outsideBox(next, prm);
    double totalForce = 0.0;
    double imbalance = forceImbalance(state, next, prm, &totalForce);
    worstImbalance = std::max(worstImbalance, imbalance);
    if (imbalance > 1e-4)
      ++unbalancedSteps;
    double e = energy(next, prm);
    eMax = std::max(eMax, e);
    if (o.verbose)
      std::printf("  step %d: energy %.6g, forces %.6g, imbalance %.3g\n",
                  s + 1, e, totalForce, imbalance);
    state.swap(next);
  }
  if (!known)
    state = d.to_vector();
  double y1 = 0.0;
  for (const Particle &p : state)
    y1 += p.pos.y;
  double e1 = energy(state, prm);

  int failures = 0;
  std::printf("bounds: %d particles outside the box or not finite\n", outside);
  failures += outside != 0;
  std::printf("momentum: %d steps whose contact forces do not cancel\n",
              unbalancedSteps);
  failures += unbalancedSteps != 0;
  // The particles start at rest: all the energy there is, is the potential
  // of gravity and the elastic energy of the jittered lattice. The walls
  // and the dashpots only take energy away, so kinetic plus gravitational
  // energy must stay below that sum at every step, and the last step must
  // have less than the start.
  double budget = e0 + elastic0;
  bool energyOk = eMax <= budget && e1 < budget;
  // Gravity must have done something: the centre of mass went down.
  bool fell = o.steps == 0 || y1 < y0;
  std::printf("energy: %s, centre of mass %s\n",
              energyOk ? "never above the start's" : "GREW",
              fell ? "went down" : "did NOT go down");
  failures += !energyOk + !fell;
  if (o.verbose || timed)
    std::printf("  energy %.6g (+ elastic %.6g) -> %.6g (max %.6g); "
                "largest force imbalance %.3g\n",
                e0, elastic0, e1, eMax, worstImbalance);
  if (o.checkEvery > 1)
    std::printf("  (%d of the %d steps checked)\n", checkedSteps, o.steps);
  if (timed && o.steps > 0)
    std::printf("time: %.3f ms per step (the copies for the checks "
                "left out)\n",
                1e3 * stepSeconds / o.steps);

  if (o.referenceN > 0)
    failures += checkAgainstDirect(o.referenceN, o.verbose) != 0;

  if (o.png) {
    if (!writePicture(o.png, state, prm)) {
      std::printf("could not write %s\n", o.png);
      ++failures;
    } else {
      std::printf("wrote %s\n", o.png);
    }
  }
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
