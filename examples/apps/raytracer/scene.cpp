//===- scene.cpp - procedural scenes and the OFF and OBJ readers ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace rt {

namespace {

Vec3 add(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 sub(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 mul(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
Vec3 normalize(Vec3 a) {
  float l = std::sqrt(dot(a, a));
  return l > 0.0f ? mul(a, 1.0f / l) : Vec3{0.0f, 1.0f, 0.0f};
}

void addTri(Mesh &m, Vec3 a, Vec3 b, Vec3 c, Vec3 na, Vec3 nb, Vec3 nc,
            int material) {
  m.v.insert(m.v.end(), {a, b, c});
  m.n.insert(m.n.end(), {na, nb, nc});
  m.material.push_back(material);
}

void addFlatTri(Mesh &m, Vec3 a, Vec3 b, Vec3 c, int material) {
  Vec3 n = normalize(cross(sub(b, a), sub(c, a)));
  addTri(m, a, b, c, n, n, n, material);
}

/// A parametric surface over [0, 1]^2 cut into nu * nv quads, two
/// triangles each, wound counter-clockwise seen from where the normal
/// points.
template <typename F>
void addSurface(Mesh &m, int nu, int nv, int material, F surface) {
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nu; ++i) {
      Vec3 p[4], n[4];
      for (int k = 0; k < 4; ++k)
        surface((float)(i + (k & 1)) / nu, (float)(j + (k >> 1)) / nv, p[k],
                n[k]);
      addTri(m, p[0], p[1], p[3], n[0], n[1], n[3], material);
      addTri(m, p[0], p[3], p[2], n[0], n[3], n[2], material);
    }
}

void addSphere(Mesh &m, Vec3 c, float r, int nu, int nv, int material) {
  addSurface(m, nu, nv, material, [&](float u, float v, Vec3 &p, Vec3 &n) {
    float phi = 2.0f * (float)M_PI * u, theta = (float)M_PI * (1.0f - v);
    n = {std::sin(theta) * std::cos(phi), std::cos(theta),
         -std::sin(theta) * std::sin(phi)};
    p = add(c, mul(n, r));
  });
}

void addTorus(Mesh &m, Vec3 c, float big, float small, int nu, int nv,
              int material) {
  addSurface(m, nu, nv, material, [&](float u, float v, Vec3 &p, Vec3 &n) {
    float a = 2.0f * (float)M_PI * u, b = 2.0f * (float)M_PI * v;
    Vec3 ring = {std::cos(a), 0.0f, -std::sin(a)};
    n = add(mul(ring, std::cos(b)), Vec3{0.0f, std::sin(b), 0.0f});
    p = add(add(c, mul(ring, big)), mul(n, small));
  });
}

RtMaterial material(float r, float g, float b, int kind, float kd, float ks,
                    int specPow2, float reflect, float ior) {
  RtMaterial mt;
  mt.color = {r, g, b, 0.0f};
  mt.kind = kind;
  mt.kd = kd;
  mt.ks = ks;
  mt.specPow2 = specPow2;
  mt.reflect = reflect;
  mt.ior = ior;
  return mt;
}

} // namespace

Scene proceduralScene(int detail) {
  Scene s;
  detail = std::max(detail, 1);
  s.materials = {
      material(0.85f, 0.85f, 0.80f, RT_DIFFUSE, 0.8f, 0.0f, 1, 0.0f, 1.0f),
      material(0.25f, 0.25f, 0.30f, RT_DIFFUSE, 0.8f, 0.0f, 1, 0.0f, 1.0f),
      material(0.85f, 0.25f, 0.20f, RT_DIFFUSE, 0.7f, 0.5f, 5, 0.0f, 1.0f),
      material(0.90f, 0.90f, 0.95f, RT_MIRROR, 0.3f, 0.6f, 6, 0.85f, 1.0f),
      material(0.95f, 1.00f, 0.95f, RT_GLASS, 0.1f, 0.8f, 7, 0.9f, 1.5f),
      material(0.95f, 0.75f, 0.25f, RT_DIFFUSE, 0.7f, 0.6f, 4, 0.0f, 1.0f),
  };
  // The floor: a checkerboard of 8 x 8 squares, each cut into
  // detail x detail quads.
  int cells = 8, sub = detail;
  float size = 8.0f, step = size / (float)(cells * sub);
  Vec3 up = {0.0f, 1.0f, 0.0f};
  for (int j = 0; j < cells * sub; ++j)
    for (int i = 0; i < cells * sub; ++i) {
      int mt = ((i / sub) + (j / sub)) % 2;
      float x0 = -size / 2 + step * i, z0 = -size / 2 + step * j;
      Vec3 a = {x0, 0.0f, z0}, b = {x0, 0.0f, z0 + step},
           c = {x0 + step, 0.0f, z0 + step}, d = {x0 + step, 0.0f, z0};
      addTri(s.mesh, a, b, c, up, up, up, mt);
      addTri(s.mesh, a, c, d, up, up, up, mt);
    }
  int nu = 12 * detail, nv = 8 * detail;
  addSphere(s.mesh, {-1.3f, 1.0f, -0.6f}, 1.0f, nu, nv, 2);
  addSphere(s.mesh, {0.9f, 0.8f, 1.0f}, 0.8f, nu, nv, 4);
  addTorus(s.mesh, {1.6f, 0.35f, -1.6f}, 0.8f, 0.3f, 2 * nu, nv, 5);
  // The mirror: a quad standing behind the objects, seen at an angle.
  Vec3 m0 = {-3.5f, 0.05f, -3.0f}, m1 = {1.0f, 0.05f, -3.6f},
       m2 = {1.0f, 2.8f, -3.6f}, m3 = {-3.5f, 2.8f, -3.0f};
  addFlatTri(s.mesh, m0, m1, m2, 3);
  addFlatTri(s.mesh, m0, m2, m3, 3);
  s.lights = {{{4.0f, 7.0f, 5.0f}, {0.75f, 0.72f, 0.65f}},
              {{-5.0f, 5.0f, 3.0f}, {0.30f, 0.32f, 0.40f}}};
  s.eye = {0.6f, 3.2f, 6.6f};
  s.target = {0.0f, 0.8f, 0.0f};
  s.up = {0.0f, 1.0f, 0.0f};
  s.fovDegrees = 50.0f;
  return s;
}

namespace {

/// Smooth normals: at each corner of each triangle, the area-weighted sum
/// of the normals of the triangles around that vertex that are within 45
/// degrees of this triangle's.
void smoothNormals(Mesh &m, const std::vector<int> &corner, int numVertices) {
  int n = m.size();
  std::vector<Vec3> faceN(n);
  std::vector<std::vector<int>> around(numVertices);
  for (int t = 0; t < n; ++t) {
    faceN[t] =
        cross(sub(m.v[3 * t + 1], m.v[3 * t]), sub(m.v[3 * t + 2], m.v[3 * t]));
    for (int k = 0; k < 3; ++k)
      around[corner[3 * t + k]].push_back(t);
  }
  m.n.resize(3 * n);
  for (int t = 0; t < n; ++t) {
    Vec3 mine = normalize(faceN[t]);
    for (int k = 0; k < 3; ++k) {
      Vec3 sum = {0.0f, 0.0f, 0.0f};
      for (int o : around[corner[3 * t + k]])
        if (dot(normalize(faceN[o]), mine) >= 0.7071f)
          sum = add(sum, faceN[o]);
      m.n[3 * t + k] = dot(sum, sum) > 0.0f ? normalize(sum) : mine;
    }
  }
}

/// Adds polygon `poly` (vertex indices) as a fan of triangles.
void addPolygon(Mesh &m, std::vector<int> &corner, const std::vector<Vec3> &vs,
                const std::vector<int> &poly) {
  for (size_t k = 1; k + 1 < poly.size(); ++k) {
    for (int i : {poly[0], poly[k], poly[k + 1]}) {
      m.v.push_back(vs[i]);
      corner.push_back(i);
    }
    m.material.push_back(0);
  }
}

bool readOff(std::istream &in, Mesh &m, std::vector<int> &corner,
             int &numVertices, std::string &error) {
  std::string word;
  // Comments (#) may come anywhere; the header may be glued to the counts.
  auto next = [&](std::string &w) {
    while (in >> w) {
      if (w[0] != '#')
        return true;
      std::getline(in, w);
    }
    return false;
  };
  if (!next(word) || word.find("OFF") == std::string::npos) {
    error = "not an OFF file";
    return false;
  }
  std::string a, b, c;
  if (!next(a) || !next(b) || !next(c)) {
    error = "no counts";
    return false;
  }
  long nv = std::atol(a.c_str()), nf = std::atol(b.c_str());
  std::vector<Vec3> vs(nv);
  for (long i = 0; i < nv; ++i) {
    std::string x, y, z;
    if (!next(x) || !next(y) || !next(z)) {
      error = "too few vertices";
      return false;
    }
    vs[i] = {std::strtof(x.c_str(), nullptr), std::strtof(y.c_str(), nullptr),
             std::strtof(z.c_str(), nullptr)};
    // Colours or other values to the end of the line.
    std::getline(in, x);
  }
  for (long f = 0; f < nf; ++f) {
    std::string k;
    if (!next(k)) {
      error = "too few faces";
      return false;
    }
    std::string line;
    std::getline(in, line);
    std::istringstream ls(line);
    int count = std::atoi(k.c_str());
    std::vector<int> poly(count);
    for (int i = 0; i < count; ++i)
      if (!(ls >> poly[i]) || poly[i] < 0 || poly[i] >= nv) {
        error = "bad face " + std::to_string(f);
        return false;
      }
    addPolygon(m, corner, vs, poly);
  }
  numVertices = (int)nv;
  return true;
}

bool readObj(std::istream &in, Mesh &m, std::vector<int> &corner,
             int &numVertices, std::string &error) {
  std::vector<Vec3> vs;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string kind;
    ls >> kind;
    if (kind == "v") {
      Vec3 p = {0.0f, 0.0f, 0.0f};
      ls >> p.x >> p.y >> p.z;
      vs.push_back(p);
    } else if (kind == "f") {
      std::vector<int> poly;
      std::string item;
      while (ls >> item) {
        // v, v/vt, v//vn or v/vt/vn; negative indices count from the end.
        int i = std::atoi(item.c_str());
        i = i < 0 ? (int)vs.size() + i : i - 1;
        if (i < 0 || i >= (int)vs.size()) {
          error = "bad face index " + item;
          return false;
        }
        poly.push_back(i);
      }
      addPolygon(m, corner, vs, poly);
    }
  }
  numVertices = (int)vs.size();
  return true;
}

} // namespace

bool loadScene(const std::string &path, Scene &s, std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot open " + path;
    return false;
  }
  std::string ext = path.substr(path.find_last_of('.') + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
  std::vector<int> corner;
  int numVertices = 0;
  bool ok = ext == "obj" ? readObj(in, s.mesh, corner, numVertices, error)
                         : readOff(in, s.mesh, corner, numVertices, error);
  if (!ok)
    return false;
  if (s.mesh.size() == 0) {
    error = "no faces in " + path;
    return false;
  }
  smoothNormals(s.mesh, corner, numVertices);
  s.materials = {
      material(0.80f, 0.80f, 0.78f, RT_DIFFUSE, 0.8f, 0.3f, 4, 0.0f, 1.0f)};
  // The camera looks at the box's centre from its front (+z), far enough
  // back to see the whole box.
  Vec3 lo = s.mesh.v[0], hi = lo;
  for (const Vec3 &p : s.mesh.v) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  Vec3 c = mul(add(lo, hi), 0.5f);
  float r = 0.5f * std::sqrt(dot(sub(hi, lo), sub(hi, lo)));
  r = std::max(r, 1e-6f);
  s.fovDegrees = 45.0f;
  float dist = r / std::sin(0.5f * s.fovDegrees * (float)M_PI / 180.0f);
  Vec3 dir = normalize({0.35f, 0.3f, 1.0f});
  s.eye = add(c, mul(dir, dist));
  s.target = c;
  s.up = {0.0f, 1.0f, 0.0f};
  s.lights = {
      {add(c, Vec3{2.0f * r, 3.0f * r, 3.0f * r}), {0.8f, 0.8f, 0.75f}},
      {add(c, Vec3{-3.0f * r, 1.0f * r, 2.0f * r}), {0.25f, 0.25f, 0.3f}}};
  return true;
}

void describeScene(const Scene &s, const KdTree &tree, int width, int height,
                   int maxBounces, RtScene &rs) {
  auto v = [](Vec3 a) { return RtVec{a.x, a.y, a.z, 0.0f}; };
  Vec3 f = normalize(sub(s.target, s.eye));
  Vec3 r = normalize(cross(f, s.up));
  Vec3 u = cross(r, f);
  float t = std::tan(0.5f * s.fovDegrees * (float)M_PI / 180.0f);
  rs.boxLo = v(tree.lo);
  rs.boxHi = v(tree.hi);
  rs.eye = v(s.eye);
  rs.forward = v(mul(f, 1.0f / t));
  rs.right = v(mul(r, (float)width / (float)height));
  rs.up = v(u);
  rs.numLights = std::min((int)s.lights.size(), RT_MAX_LIGHTS);
  for (int k = 0; k < RT_MAX_LIGHTS; ++k) {
    Light l = k < rs.numLights ? s.lights[k] : Light{};
    rs.lightPos[k] = v(l.pos);
    rs.lightColor[k] = v(l.color);
  }
  rs.ambient = v(s.ambient);
  Vec3 diag = sub(tree.hi, tree.lo);
  rs.eps = 1e-4f * std::sqrt(dot(diag, diag));
  rs.width = width;
  rs.height = height;
  rs.maxBounces = maxBounces;
}

} // namespace rt
