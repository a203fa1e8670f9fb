//===- struct-lists-main.cpp - checks struct-lists.test -------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Includes the header bsgpc wrote for struct-lists.bsgp (-include), so the
// structs here are the ones -emit-header defines; fills a list of them,
// runs step() and recomputes every field with the same float operations.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

int main() {
  const int n = 1000;
  const float dt = 0.25f;
  std::vector<Particle> host(n);
  for (int i = 0; i < n; ++i) {
    Particle &p = host[i];
    std::memset(&p, 0, sizeof(p));
    p.pos = {(float)i, (float)(i % 7) * 0.5f, -(float)i};
    p.vel = {1.0f, (float)(i % 5) - 2.0f, 0.5f};
    p.mass = 0.25f * (float)(i % 4 + 1);
    p.in.a = 3 * i;
    p.in.d = 0.5 * i;
    p.hist[0] = i;
    p.hist[1] = 2 * i;
    p.hist[2] = 3 * i;
  }
  bsgp::buffer<Particle> d(host);
  bsgp::buffer<int> sizes(2);
  bsgp::buffer<float> total(1);
  step(d.data(), n, dt, sizes.data(), total.data());
  std::vector<Particle> got = d.to_vector();
  std::vector<int> sz = sizes.to_vector();

  int bad = 0;
  float massSum = 0.0f;
  for (int i = 0; i < n; ++i) {
    Particle w = host[i];
    float ay = -9.8f * w.mass;
    w.vel.y = w.vel.y + ay * dt;
    w.pos.x = w.pos.x + w.vel.x * dt;
    w.pos.y = std::max(w.pos.y + w.vel.y * dt, 0.0f);
    w.pos.z = w.pos.z + w.vel.z * dt;
    w.in.a += i;
    w.in.d *= 2.0;
    w.hist[i % 3]++;
    w.alive = w.pos.y > 0.0f;
    w.tag = (char)(97 + i % 26);
    w.key = (uint64_t)i << 40;
    w.mass += 1.0f;
    massSum += w.mass;
    const Particle &g = got[i];
    bool ok = g.pos.x == w.pos.x && g.pos.y == w.pos.y && g.pos.z == w.pos.z &&
              g.vel.x == w.vel.x && g.vel.y == w.vel.y && g.vel.z == w.vel.z &&
              g.mass == w.mass && g.tag == w.tag && g.alive == w.alive &&
              g.in.a == w.in.a && g.in.d == w.in.d && g.key == w.key &&
              std::memcmp(g.hist, w.hist, sizeof(w.hist)) == 0;
    if (!ok && bad++ < 3)
      std::printf("particle %d differs\n", i);
  }
  std::printf("fields %s\n", bad ? "FAILED" : "ok");
  std::printf("sizes %s (%d %d, C++ %zu %zu)\n",
              sz[0] == (int)sizeof(Particle) && sz[1] == (int)sizeof(Inner)
                  ? "ok"
                  : "FAILED",
              sz[0], sz[1], sizeof(Particle), sizeof(Inner));
  // The masses are multiples of 0.25 up to 2: every sum is exact.
  std::printf("total %s\n", total.to_vector()[0] == massSum ? "ok" : "FAILED");
  return 0;
}
