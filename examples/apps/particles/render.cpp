//===- render.cpp - a picture of the particle fluid -----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Draws each particle as a disc of its radius, far ones first so that near
// ones cover them (a painter's algorithm), and encodes the picture with
// stb_image_write (Debian's libstb-dev, header only: nothing to link). The
// program builds without it; --png then reports that it cannot write.
//
//===----------------------------------------------------------------------===//

#include "render.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#if __has_include(<stb/stb_image_write.h>)
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>
#define PARTICLES_HAVE_STB 1
#endif

namespace particles {

namespace {

// Blue (at rest) through cyan and yellow to red (fast).
void speedColour(float t, float rgb[3]) {
  t = std::min(std::max(t, 0.0f), 1.0f);
  rgb[0] = std::min(1.0f, std::max(0.0f, 2.0f * t - 0.5f) * 1.5f);
  rgb[1] = 1.0f - std::fabs(2.0f * t - 1.0f) * 0.8f;
  rgb[2] = std::min(1.0f, std::max(0.0f, 1.0f - 2.0f * t) * 1.5f + 0.2f);
}

} // namespace

bool writePicture(const char *path, const std::vector<Particle> &ps,
                  const SimParams &prm) {
#ifdef PARTICLES_HAVE_STB
  const int size = 768;
  std::vector<uint8_t> image((size_t)size * size * 3, 24);
  // The box's outline.
  for (int i = 0; i < size; ++i)
    for (int k : {0, size - 1}) {
      for (int c = 0; c < 3; ++c) {
        image[((size_t)k * size + i) * 3 + c] = 90;
        image[((size_t)i * size + k) * 3 + c] = 90;
      }
    }
  std::vector<size_t> order(ps.size());
  float vmax = 1e-6f;
  for (size_t i = 0; i < ps.size(); ++i) {
    order[i] = i;
    const ParticleVec &v = ps[i].vel;
    vmax = std::max(vmax, std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
  }
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return ps[a].pos.z < ps[b].pos.z; });
  float scale = 0.5f * (float)size;
  float pr = std::max(1.0f, prm.radius * scale);
  for (size_t i : order) {
    const Particle &p = ps[i];
    float cx = (p.pos.x + 1.0f) * scale;
    float cy = (1.0f - p.pos.y) * scale; // rows go down, y goes up
    float speed =
        std::sqrt(p.vel.x * p.vel.x + p.vel.y * p.vel.y + p.vel.z * p.vel.z);
    float rgb[3];
    speedColour(std::sqrt(speed / vmax), rgb);
    // Near particles (large z) brighter.
    float shade = 0.45f + 0.55f * (p.pos.z + 1.0f) * 0.5f;
    int x0 = std::max(0, (int)(cx - pr)),
        x1 = std::min(size - 1, (int)(cx + pr));
    int y0 = std::max(0, (int)(cy - pr)),
        y1 = std::min(size - 1, (int)(cy + pr));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        float dx = (float)x + 0.5f - cx, dy = (float)y + 0.5f - cy;
        float d2 = (dx * dx + dy * dy) / (pr * pr);
        if (d2 > 1.0f)
          continue;
        // A sphere's lighting, from the front.
        float light = shade * (0.35f + 0.65f * std::sqrt(1.0f - d2));
        for (int c = 0; c < 3; ++c)
          image[((size_t)y * size + x) * 3 + c] =
              (uint8_t)std::lround(255.0f * std::min(1.0f, rgb[c] * light));
      }
  }
  return stbi_write_png(path, size, size, 3, image.data(), size * 3) != 0;
#else
  (void)path;
  (void)ps;
  (void)prm;
  std::fprintf(stderr, "particles: built without <stb/stb_image_write.h> "
                       "(Debian's libstb-dev): no PNG\n");
  return false;
#endif
}

} // namespace particles
