//===- main.cpp - runs and checks the adaptive tessellator ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The host side of the tessellation example (tessellation.bsgp): makes the
// height map, runs both BSGP versions for a few cameras and checks them
// against a reference written here in plain C++:
//
//   - the height map equals the reference's value noise;
//   - the triangle count of each version equals the sum of level^2 over the
//     triangles the reference's culling keeps;
//   - the two versions give the same triangles as a set (each triangle's
//     vertices rotated to start at the smallest, the triangles sorted), and
//     so does the reference generator, which evaluates every vertex
//     directly instead of by forward differences.
//
// The positions are integer lattice points turned into floats by the same
// two operations everywhere, so the comparisons are exact.
//
// Usage: tessellation [--size N] [--grid G] [--max-level L] [--detail D]
//                     [--cameras K] [--time] [--png FILE]
// Without arguments: a 32x32 map, three cameras, a self-check.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if __has_include(<stb/stb_image_write.h>)
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#define HAVE_STB 1
#else
#define HAVE_STB 0
#endif

#include "tessellation.h"

namespace {

constexpr int64_t U = 720720; // lattice points per texel, lcm(1..16)
constexpr unsigned Seed = 2008;

struct Params {
  int size = 32, grid = 0, maxLevel = 8, detail = 0, cameras = 3;
  bool time = false;
  std::string png;
};

struct Camera {
  int x, z, dirX, dirZ, far;
};

// Camera k: positions and directions from a small table, in texels, so
// that they suit any map size.
Camera camera(int k, int size) {
  static const int pos[][2] = {{1, 1}, {4, 7}, {7, 4}, {4, 4}, {0, 4}};
  static const int dir[][2] = {{1, 1}, {0, -1}, {-2, -1}, {1, -3}, {1, 0}};
  int i = k % 5;
  return {size * pos[i][0] / 8, size * pos[i][1] / 8, dir[i][0], dir[i][1],
          size * (3 + k % 3) / 4};
}

// ---- The reference, in plain C++. ----

int hash(int x, int z, unsigned seed) {
  uint32_t h =
      (uint32_t)x * 73856093u ^ (uint32_t)z * 19349663u ^ seed * 83492791u;
  h ^= h >> 13;
  h *= 1540483477u;
  h ^= h >> 15;
  return (int)(h & 1023u);
}

std::vector<int> referenceMap(int size) {
  std::vector<int> map((size_t)size * size);
  for (int z = 0; z < size; ++z)
    for (int x = 0; x < size; ++x) {
      int h = 0, s = std::max(size / 4, 2), amplitude = 32;
      for (int o = 0; o < 4; ++o) {
        int gx = x / s, gz = z / s, fx = x % s, fz = z % s;
        unsigned sd = Seed + o;
        h += amplitude * ((hash(gx, gz, sd) * (s - fx) * (s - fz) +
                           hash(gx + 1, gz, sd) * fx * (s - fz) +
                           hash(gx, gz + 1, sd) * (s - fx) * fz +
                           hash(gx + 1, gz + 1, sd) * fx * fz) /
                          (s * s));
        s = std::max(s / 2, 1);
        amplitude /= 2;
      }
      map[(size_t)z * size + x] = h;
    }
  return map;
}

struct Tri {
  int64_t x[3], z[3]; // texels
};

// Input triangle t of the grid: two per quad, corner 0 the right angle.
Tri inputTriangle(int t, int q, int g) {
  int64_t x0 = (int64_t)(t / 2 % q) * g, z0 = (int64_t)(t / 2 / q) * g;
  if (t % 2 == 0)
    return {{x0, x0 + g, x0}, {z0, z0, z0 + g}};
  return {{x0 + g, x0, x0 + g}, {z0 + g, z0 + g, z0}};
}

// 0 when culled, else the level (see tessellation.bsgp for the rules).
int referenceLevel(const Tri &t, const Camera &c, int maxLevel, int step) {
  auto out = [&](int64_t nx, int64_t nz) {
    for (int v = 0; v < 3; ++v)
      if ((t.x[v] - c.x) * nx + (t.z[v] - c.z) * nz >= 0)
        return false;
    return true;
  };
  if (out(c.dirX - c.dirZ, c.dirX + c.dirZ) ||
      out(c.dirX + c.dirZ, c.dirZ - c.dirX))
    return 0;
  bool far = true;
  for (int v = 0; v < 3; ++v) {
    int64_t dx = t.x[v] - c.x, dz = t.z[v] - c.z;
    far = far && dx * dx + dz * dz > (int64_t)c.far * c.far;
  }
  if (far)
    return 0;
  // The centroid's distance d: the level drops by one at each multiple of
  // step that d reaches.
  double cx = (t.x[0] + t.x[1] + t.x[2]) / 3.0 - c.x;
  double cz = (t.z[0] + t.z[1] + t.z[2]) / 3.0 - c.z;
  int64_t d9 = (int64_t)(9 * (cx * cx + cz * cz) + 0.5);
  int level = maxLevel;
  while (level > 1 && d9 >= 9 * (int64_t)(maxLevel - level + 1) *
                                (maxLevel - level + 1) * step * step)
    --level;
  return level;
}

using Key = std::array<uint32_t, 9>;

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// A triangle's 9 floats as bits, the vertices rotated (orientation kept)
// so that the smallest comes first.
Key canonical(const float *f) {
  std::array<std::array<uint32_t, 3>, 3> v;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      v[i][k] = bits(f[3 * i + k]);
  int m = (int)(std::min_element(v.begin(), v.end()) - v.begin());
  Key key;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      key[3 * i + k] = v[(m + i) % 3][k];
  return key;
}

std::vector<Key> canonicalSet(const std::vector<float> &tris) {
  std::vector<Key> keys(tris.size() / 9);
  for (size_t i = 0; i < keys.size(); ++i)
    keys[i] = canonical(&tris[9 * i]);
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Every sub-triangle of every kept triangle, each vertex evaluated on its
// own: corner + i * (edge / level) + j * (other edge / level).
std::vector<float> referenceTriangles(const std::vector<int> &map, int size,
                                      int q, int g, const std::vector<int> &lv,
                                      float invU, float hs) {
  auto height = [&](int64_t x, int64_t z) {
    int64_t tx = x / U, tz = z / U, fx = x % U, fz = z % U;
    int64_t tx1 = std::min<int64_t>(tx + 1, size - 1);
    int64_t tz1 = std::min<int64_t>(tz + 1, size - 1);
    auto m = [&](int64_t xx, int64_t zz) {
      return (int64_t)map[zz * size + xx];
    };
    int64_t v = m(tx, tz) * (U - fx) * (U - fz) + m(tx1, tz) * fx * (U - fz) +
                m(tx, tz1) * (U - fx) * fz + m(tx1, tz1) * fx * fz;
    return (int)(v / (U * U));
  };
  std::vector<float> out;
  for (int t = 0; t < 2 * q * q; ++t) {
    int L = lv[t];
    if (L == 0)
      continue;
    Tri tr = inputTriangle(t, q, g);
    auto vertex = [&](int i, int j) {
      int64_t x = tr.x[0] * U + i * (tr.x[1] - tr.x[0]) * U / L +
                  j * (tr.x[2] - tr.x[0]) * U / L;
      int64_t z = tr.z[0] * U + i * (tr.z[1] - tr.z[0]) * U / L +
                  j * (tr.z[2] - tr.z[0]) * U / L;
      out.push_back((float)(int)x * invU);
      out.push_back((float)height(x, z) * hs);
      out.push_back((float)(int)z * invU);
    };
    for (int j = 0; j < L; ++j)
      for (int i = 0; i + j < L; ++i) {
        vertex(i, j), vertex(i + 1, j), vertex(i, j + 1);
        if (i + j + 1 < L)
          vertex(i + 1, j), vertex(i + 1, j + 1), vertex(i, j + 1);
      }
  }
  return out;
}

std::vector<float> download(float *list, int count) {
  std::vector<float> h((size_t)count * 9);
  if (count > 0)
    bsgprt_memcpy_dtoh(h.data(), list, h.size() * sizeof(float));
  return h;
}

// A picture of the tessellated mesh seen from camera 0, a little behind
// and above it, looking down the view direction: the output triangles
// rasterized in software with a depth buffer, shaded by their slope, their
// edges drawn dark, so that the finer tessellation near the camera shows.
void writePng(const std::string &file, const std::vector<float> &tris, int size,
              const Camera &cam, float hs) {
#if HAVE_STB
  const int w = 960, h = 540;
  struct V {
    double x, y, z;
  };
  auto sub = [](V a, V b) { return V{a.x - b.x, a.y - b.y, a.z - b.z}; };
  auto dot = [](V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; };
  auto cross = [](V a, V b) {
    return V{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
             a.x * b.y - a.y * b.x};
  };
  auto unit = [&](V a) {
    double l = std::sqrt(dot(a, a));
    return V{a.x / l, a.y / l, a.z / l};
  };
  V dir = unit(V{(double)cam.dirX, 0, (double)cam.dirZ});
  double back = size / 10.0, lift = size / 4.0, pitch = 0.55;
  V eye{cam.x - back * dir.x, hs * 61380.0 + lift, cam.z - back * dir.z};
  V fwd = unit(
      V{dir.x * std::cos(pitch), -std::sin(pitch), dir.z * std::cos(pitch)});
  V right = unit(cross(fwd, V{0, 1, 0})), up = cross(right, fwd);
  V light = unit(V{0.4, 1.0, 0.3});
  double focal = w * 0.6;
  std::vector<float> depth((size_t)w * h, 1e30f);
  std::vector<unsigned char> img((size_t)w * h * 3);
  for (int y = 0; y < h; ++y) // the sky
    for (int x = 0; x < w; ++x) {
      unsigned char *p = &img[((size_t)y * w + x) * 3];
      p[0] = (unsigned char)(150 + 60 * y / h), p[1] = 190, p[2] = 235;
    }
  for (size_t k = 0; k + 9 <= tris.size(); k += 9) {
    V p[3];
    double sx[3], sy[3], sz[3];
    bool front = true;
    for (int i = 0; i < 3; ++i) {
      p[i] = V{tris[k + 3 * i], tris[k + 3 * i + 1], tris[k + 3 * i + 2]};
      V v = sub(p[i], eye);
      sz[i] = dot(v, fwd);
      front = front && sz[i] > 0.5;
      sx[i] = w / 2.0 + focal * dot(v, right) / sz[i];
      sy[i] = h / 2.0 - focal * dot(v, up) / sz[i];
    }
    if (!front)
      continue;
    V n = unit(cross(sub(p[2], p[0]), sub(p[1], p[0])));
    double shade = 0.35 + 0.65 * std::max(0.0, std::fabs(dot(n, light)));
    double area =
        (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
    if (std::fabs(area) < 1e-9)
      continue;
    int x0 = std::max(0, (int)std::floor(std::min({sx[0], sx[1], sx[2]})));
    int x1 = std::min(w - 1, (int)std::ceil(std::max({sx[0], sx[1], sx[2]})));
    int y0 = std::max(0, (int)std::floor(std::min({sy[0], sy[1], sy[2]})));
    int y1 = std::min(h - 1, (int)std::ceil(std::max({sy[0], sy[1], sy[2]})));
    double len[3];
    for (int e = 0; e < 3; ++e)
      len[e] = std::hypot(sx[(e + 2) % 3] - sx[(e + 1) % 3],
                          sy[(e + 2) % 3] - sy[(e + 1) % 3]);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        double px = x + 0.5, py = y + 0.5, b[3];
        for (int e = 0; e < 3; ++e) {
          int i = (e + 1) % 3, j = (e + 2) % 3;
          b[e] = ((sx[j] - sx[i]) * (py - sy[i]) -
                  (sy[j] - sy[i]) * (px - sx[i])) /
                 area;
        }
        if (b[0] < 0 || b[1] < 0 || b[2] < 0)
          continue;
        double z = b[0] * sz[0] + b[1] * sz[1] + b[2] * sz[2];
        float &d = depth[(size_t)y * w + x];
        if (z >= d)
          continue;
        d = (float)z;
        // Pixels within 0.6 of an edge draw the wireframe.
        bool edge = false;
        for (int e = 0; e < 3; ++e)
          edge = edge || b[e] * std::fabs(area) / len[e] < 0.6;
        double s = edge ? 0.45 * shade : shade;
        unsigned char *q = &img[((size_t)y * w + x) * 3];
        q[0] = (unsigned char)(120 * s), q[1] = (unsigned char)(200 * s);
        q[2] = (unsigned char)(110 * s);
      }
  }
  if (!stbi_write_png(file.c_str(), w, h, 3, img.data(), w * 3))
    std::fprintf(stderr, "cannot write %s\n", file.c_str());
  else
    std::printf("wrote %s\n", file.c_str());
#else
  (void)tris, (void)size, (void)cam, (void)hs;
  std::fprintf(stderr,
               "--png: built without stb_image_write.h, %s not "
               "written\n",
               file.c_str());
#endif
}

bool parse(int argc, char **argv, Params &p) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool hasValue = i + 1 < argc;
    if (a == "--time") {
      p.time = true;
    } else if (a == "--png" && hasValue) {
      p.png = argv[++i];
    } else if (hasValue &&
               (a == "--size" || a == "--grid" || a == "--max-level" ||
                a == "--detail" || a == "--cameras")) {
      int v = std::atoi(argv[++i]);
      (a == "--size"        ? p.size
       : a == "--grid"      ? p.grid
       : a == "--max-level" ? p.maxLevel
       : a == "--detail"    ? p.detail
                            : p.cameras) = v;
    } else {
      return false;
    }
  }
  if (p.grid == 0)
    p.grid = std::max(2, p.size / 64);
  if (p.detail == 0)
    p.detail = std::max(1, p.size / 16);
  return p.size >= 4 && p.size <= 2048 && p.grid >= 1 && p.grid < p.size &&
         p.maxLevel >= 1 && p.maxLevel <= 16 && p.detail >= 1 && p.cameras >= 1;
}

double msSince(std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - b)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  Params p;
  if (!parse(argc, argv, p)) {
    std::fprintf(stderr,
                 "usage: %s [--size N (4..2048)] [--grid G] [--max-level L "
                 "(1..16)] [--detail D] [--cameras K] [--time] [--png FILE]\n",
                 argv[0]);
    return 2;
  }
  int size = p.size, q = (size - 1) / p.grid, inputs = 2 * q * q;
  float invU = 1.0f / (float)U;
  float hs = (float)size * 0.08f / 61380.0f; // highest peak: 8% of the map
  int errors = 0;

  int *map = tessHeightMap(size, Seed);
  std::vector<int> hmap((size_t)size * size);
  bsgprt_memcpy_dtoh(hmap.data(), map, hmap.size() * sizeof(int));
  bool mapOk = hmap == referenceMap(size);
  errors += !mapOk;
  std::printf("tessellation: map %dx%d, %d input triangles, max level %d, "
              "detail %d, height map %s\n",
              size, size, inputs, p.maxLevel, p.detail, mapOk ? "ok" : "WRONG");

  for (int k = 0; k < p.cameras; ++k) {
    Camera c = camera(k, size);
    int n1 = -1, n2 = -1;
    auto b1 = std::chrono::steady_clock::now();
    float *a1 = tessNoFork(map, size, p.grid, p.maxLevel, c.x, c.z, c.dirX,
                           c.dirZ, c.far, p.detail, invU, hs, &n1);
    bsgprt_synchronize();
    double t1 = msSince(b1);
    auto b2 = std::chrono::steady_clock::now();
    float *a2 = tessFork(map, size, p.grid, p.maxLevel, c.x, c.z, c.dirX,
                         c.dirZ, c.far, p.detail, invU, hs, &n2);
    bsgprt_synchronize();
    double t2 = msSince(b2);

    std::vector<int> levels(inputs);
    int64_t expected = 0;
    int visible = 0;
    for (int t = 0; t < inputs; ++t) {
      levels[t] =
          referenceLevel(inputTriangle(t, q, p.grid), c, p.maxLevel, p.detail);
      expected += (int64_t)levels[t] * levels[t];
      visible += levels[t] > 0;
    }
    std::vector<float> h1 = download(a1, n1), h2 = download(a2, n2);
    std::vector<Key> s1 = canonicalSet(h1), s2 = canonicalSet(h2);
    std::vector<Key> ref = canonicalSet(
        referenceTriangles(hmap, size, q, p.grid, levels, invU, hs));
    bool countOk = n1 == expected && n2 == expected;
    bool sameOk = s1 == s2;
    bool refOk = s1 == ref;
    errors += !countOk + !sameOk + !refOk;
    std::printf("camera %d at (%d, %d) dir (%d, %d): %d of %d triangles "
                "visible, %d triangles (expected %lld), no-fork == fork: %s, "
                "reference: %s\n",
                k, c.x, c.z, c.dirX, c.dirZ, visible, inputs, n2,
                (long long)expected, sameOk ? "ok" : "WRONG",
                refOk ? "ok" : "WRONG");
    if (p.time)
      std::printf("  no-fork %.3f ms, fork %.3f ms (first call: with JIT "
                  "and allocation; see bench/cuda for steady timings)\n",
                  t1, t2);
    if (k == 0 && !p.png.empty())
      writePng(p.png, h2, size, c, hs);
    bsgprt_dfree(a1);
    bsgprt_dfree(a2);
  }
  bsgprt_dfree(map);
  std::printf("tessellation: errors=%d\n", errors);
  return errors != 0;
}
