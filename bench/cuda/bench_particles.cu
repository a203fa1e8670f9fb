//===- bench_particles.cu - the particle fluid: BSGP against CUDA ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The step of examples/apps/particles/particles.bsgp (compiled by bsgpc for
// the cuda target, launched by libbsgprt) against its hand-written CUDA twin
// (particles_twin.cu, CUB's radix sort), at 16K, 64K, 256K and 1M
// particles of the dam break the program runs. For each size: both start
// from the same state and take 3 steps, and their positions and velocities
// must agree within 1e-5 (the twin is compiled with -fmad=false, so that
// both round the same operations the same way); then the median time of a
// step of each (over runs of 10 steps), the ratio cuda / bsgp (above 1:
// BSGP is faster) and the device memory each needs beyond the particles
// (BSGP: the runtime's peak, from bsgprt_memory_stats; CUDA: what the twin
// allocates, CUB's temporary storage included). Exits 1 if they disagree.
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"
#include "particles_twin.h"
#include "scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double bsgpExtraMiB(Particle *d, int n, const SimParams &prm) {
  bsgprt_synchronize();
  bsgprt_pool_trim();
  bsgprt_memory_reset_peak();
  bsgprt_memory_stats_t before, after;
  bsgprt_memory_stats(&before);
  particlesStep(d, n, &prm);
  bsgprt_synchronize();
  bsgprt_memory_stats(&after);
  return double(after.peak_device_bytes - before.device_bytes) / (1 << 20);
}

double largestDifference(const std::vector<Particle> &a,
                         const std::vector<Particle> &b) {
  double worst = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const float x[6] = {a[i].pos.x, a[i].pos.y, a[i].pos.z,
                        a[i].vel.x, a[i].vel.y, a[i].vel.z};
    const float y[6] = {b[i].pos.x, b[i].pos.y, b[i].pos.z,
                        b[i].vel.x, b[i].vel.y, b[i].vel.z};
    for (int k = 0; k < 6; ++k)
      worst = std::isfinite(x[k]) && std::isfinite(y[k])
                  ? std::max(worst, (double)std::fabs(x[k] - y[k]))
                  : 1e30;
  }
  return worst;
}

} // namespace

int main(int argc, char **argv) {
  int stepsPerRun = 10, reps = argc > 1 ? std::atoi(argv[1]) : 11;
  bool ok = true;
  cudaFree(nullptr);
  std::printf("device: %s\n", bsgprt_device_name());
  for (int n : {1 << 14, 1 << 16, 1 << 18, 1 << 20}) {
    SimParams prm = particles::makeParams(n);
    std::vector<Particle> start = particles::damBreak(n, prm);
    size_t bytes = sizeof(Particle) * n;

    // The same three steps on both sides.
    Particle *d = (Particle *)bsgprt_dnew(bytes, "bench_particles");
    bsgprt_memcpy_htod(d, start.data(), bytes);
    ParticlesTwin twin(n, prm);
    twin.upload(start.data());
    for (int s = 0; s < 3; ++s) {
      particlesStep(d, n, &prm);
      twin.step();
    }
    std::vector<Particle> gotB(n), gotC(n);
    bsgprt_memcpy_dtoh(gotB.data(), d, bytes);
    twin.download(gotC.data());
    double diff = largestDifference(gotB, gotC);
    bool same = diff <= 1e-5;
    ok = ok && same;

    double bsgp = medianSeconds(
                      [&] {
                        for (int s = 0; s < stepsPerRun; ++s)
                          particlesStep(d, n, &prm);
                        bsgprt_synchronize();
                      },
                      reps) /
                  stepsPerRun;
    double cuda = medianSeconds(
                      [&] {
                        for (int s = 0; s < stepsPerRun; ++s)
                          twin.step();
                        cudaDeviceSynchronize();
                      },
                      reps) /
                  stepsPerRun;
    double bsgpMiB = bsgpExtraMiB(d, n, prm);
    double cudaMiB = double(twin.extraBytes()) / (1 << 20);
    std::printf("particles n=%-8d grid=%d^3  bsgp %8.3f ms/step   cuda %8.3f "
                "ms/step   ratio %.2f   %s (max difference %.2g after 3 "
                "steps)   extra memory: bsgp %.1f MiB, cuda %.1f MiB\n",
                n, prm.grid, bsgp * 1e3, cuda * 1e3, cuda / bsgp,
                same ? "results agree" : "RESULTS DIFFER", diff, bsgpMiB,
                cudaMiB);
    bsgprt_dfree(d);
  }
  return ok ? 0 : 1;
}
