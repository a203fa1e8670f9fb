//===- reference.cpp - the brute-force renderer on the CPU ----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The check of raytracer.bsgp: the same rays, intersection test and
// shading, written again in C++ without the kd-tree, one pixel at a time
// (each pixel follows its one ray through its bounces).
//
//===----------------------------------------------------------------------===//

#include "reference.h"

#include <algorithm>
#include <cmath>

namespace rt {

namespace {

struct V {
  float x, y, z;
};
V of(const RtVec &a) { return {a.x, a.y, a.z}; }
V operator+(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V operator-(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V operator-(V a) { return {-a.x, -a.y, -a.z}; }
V operator*(V a, V b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
V operator*(V a, float s) { return {a.x * s, a.y * s, a.z * s}; }
V operator*(float s, V a) { return {s * a.x, s * a.y, s * a.z}; }
V operator/(V a, float s) { return {a.x / s, a.y / s, a.z / s}; }
float dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V cross(V a, V b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
V normalize(V a) { return a / std::sqrt(dot(a, a)); }

struct Hit {
  int tri = -1;
  float t, u = 0.0f, v = 0.0f;
};

/// Every triangle, the nearest hit with 0 < t < tmax (ties to the lowest
/// index), or with anyHit the first.
Hit trace(const std::vector<RtTri> &tris, V o, V d, float tmax, bool anyHit) {
  Hit h;
  h.t = tmax;
  for (int ti = 0; ti < (int)tris.size(); ++ti) {
    V v0 = of(tris[ti].v0), e1 = of(tris[ti].e1), e2 = of(tris[ti].e2);
    V pv = cross(d, e2);
    float det = dot(e1, pv);
    if (!(std::fabs(det) > 1e-20f))
      continue;
    float invDet = 1.0f / det;
    V s = o - v0;
    float u = dot(s, pv) * invDet;
    V q = cross(s, e1);
    float v = dot(d, q) * invDet;
    float t = dot(e2, q) * invDet;
    if (u >= 0.0f && v >= 0.0f && u + v <= 1.0f && t > 0.0f && t < h.t) {
      h.tri = ti;
      h.t = t;
      h.u = u;
      h.v = v;
      if (anyHit)
        break;
    }
  }
  return h;
}

V sky(V d) {
  float s = std::min(std::max(d.y, 0.0f), 1.0f);
  return V{0.60f, 0.70f, 0.85f} * (1.0f - s) + V{0.20f, 0.35f, 0.75f} * s;
}

} // namespace

void referenceRender(const RtScene &rs, const std::vector<RtTri> &tris,
                     const std::vector<RtTriShade> &shade,
                     const std::vector<int> &mat,
                     const std::vector<RtMaterial> &materials,
                     std::vector<RtVec> &image, std::vector<RtHit> &eyeHits) {
  int w = rs.width, h = rs.height;
  image.assign((size_t)w * h, RtVec{0.0f, 0.0f, 0.0f, 0.0f});
  eyeHits.assign((size_t)w * h, RtHit{-1, 0.0f});
  for (int pix = 0; pix < w * h; ++pix) {
    float sx = 2.0f * ((float)(pix % w) + 0.5f) / (float)w - 1.0f;
    float sy = 1.0f - 2.0f * ((float)(pix / w) + 0.5f) / (float)h;
    V o = of(rs.eye);
    V d = normalize(of(rs.forward) + sx * of(rs.right) + sy * of(rs.up));
    V weight = {1.0f, 1.0f, 1.0f}, sum = {0.0f, 0.0f, 0.0f};
    Hit hit = trace(tris, o, d, 3.0e38f, false);
    eyeHits[pix] = {hit.tri, hit.t};
    for (int bounce = 0; bounce <= rs.maxBounces; ++bounce) {
      V c = sky(d);
      bool more = false;
      V no = {}, nd = {}, nw = {};
      if (hit.tri >= 0) {
        const RtTri &tr = tris[hit.tri];
        const RtTriShade &sh = shade[hit.tri];
        const RtMaterial &m = materials[mat[hit.tri]];
        V color = of(m.color);
        V p = o + hit.t * d;
        V ng = normalize(cross(of(tr.e1), of(tr.e2)));
        bool entering = dot(ng, d) < 0.0f;
        V ngf = entering ? ng : -ng;
        V n = normalize(of(sh.n0) * (1.0f - hit.u - hit.v) + of(sh.n1) * hit.u +
                        of(sh.n2) * hit.v);
        if (dot(n, d) > 0.0f)
          n = -n;
        V po = p + ngf * rs.eps;
        c = of(rs.ambient) * color;
        for (int k = 0; k < rs.numLights; ++k) {
          V l = of(rs.lightPos[k]) - po;
          float dist = std::sqrt(dot(l, l));
          V ld = l / dist;
          float ndl = dot(n, ld);
          if (ndl > 0.0f && trace(tris, po, ld, dist, true).tri < 0) {
            V hv = normalize(ld - d);
            float spec = std::max(dot(n, hv), 0.0f);
            for (int e = 0; e < m.specPow2; ++e)
              spec = spec * spec;
            c = c + of(rs.lightColor[k]) *
                        (color * (m.kd * ndl) + V{1, 1, 1} * (m.ks * spec));
          }
        }
        if (m.kind != RT_DIFFUSE) {
          c = c * (1.0f - m.reflect);
          float cosi = -dot(d, n);
          nw = weight * color * m.reflect;
          no = po;
          nd = d + 2.0f * cosi * n;
          if (m.kind == RT_GLASS) {
            float eta = entering ? 1.0f / m.ior : m.ior;
            float k2 = 1.0f - eta * eta * (1.0f - cosi * cosi);
            if (k2 >= 0.0f) {
              no = p - ngf * rs.eps;
              nd = normalize(eta * d + (eta * cosi - std::sqrt(k2)) * n);
            }
          }
          more = bounce < rs.maxBounces;
        }
      }
      sum = sum + weight * c;
      if (!more)
        break;
      o = no;
      d = nd;
      weight = nw;
      hit = trace(tris, o, d, 3.0e38f, false);
    }
    image[pix] = {sum.x, sum.y, sum.z, 0.0f};
  }
}

} // namespace rt
