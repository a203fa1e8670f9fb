//===- raytracer_twin.cu - the ray tracer by hand in CUDA -----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Three kernels, as a CUDA programmer would split the work so that the
// tracing kernels keep few registers (the paper's reason for tracing and
// shading in separate kernels):
//   - eyeKernel: makes each pixel's eye ray and traces it, into a queue of
//     rays and their hits;
//   - shadeKernel: for each ray of the queue, traces its shadow rays, adds
//     its share of the colour to its pixel and, for a mirror or glass,
//     appends its next ray to the other queue (an atomic counter, with one
//     atomic per warp);
//   - traceKernel: traces the rays of the new queue.
// The host launches eye, then shade and trace in turn for each bounce,
// reading the queue's length back between them (one small copy per bounce,
// as the BSGP version reads the count left by thread.kill). Built with
// -fmad=false, so that it rounds as bsgpc's code does (no contraction).
//
//===----------------------------------------------------------------------===//

#include "raytracer_twin.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

struct TwinRay {
  float4 o; // w: the pixel, as bits
  float4 d;
  float4 w;
};

struct TwinHit {
  int tri;
  float t, u, v;
};

namespace {

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "raytracer twin: %s: %s\n", what,
                 cudaGetErrorString(e));
    std::exit(1);
  }
}

__device__ __forceinline__ float3 f3(float4 v) {
  return make_float3(v.x, v.y, v.z);
}
__device__ __forceinline__ float3 ld3(const RtVec *p) {
  return f3(__ldg(reinterpret_cast<const float4 *>(p)));
}
__device__ __forceinline__ float3 operator+(float3 a, float3 b) {
  return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
__device__ __forceinline__ float3 operator-(float3 a, float3 b) {
  return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}
__device__ __forceinline__ float3 operator-(float3 a) {
  return make_float3(-a.x, -a.y, -a.z);
}
__device__ __forceinline__ float3 operator*(float3 a, float3 b) {
  return make_float3(a.x * b.x, a.y * b.y, a.z * b.z);
}
__device__ __forceinline__ float3 operator*(float3 a, float s) {
  return make_float3(a.x * s, a.y * s, a.z * s);
}
__device__ __forceinline__ float3 operator*(float s, float3 a) {
  return make_float3(s * a.x, s * a.y, s * a.z);
}
__device__ __forceinline__ float3 operator/(float3 a, float s) {
  return make_float3(a.x / s, a.y / s, a.z / s);
}
__device__ __forceinline__ float dot(float3 a, float3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
__device__ __forceinline__ float3 cross(float3 a, float3 b) {
  return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
                     a.x * b.y - a.y * b.x);
}
__device__ __forceinline__ float3 normalize(float3 a) {
  return a / sqrtf(dot(a, a));
}
__device__ __forceinline__ float axisOf(float3 v, int a) {
  return a == 0 ? v.x : (a == 1 ? v.y : v.z);
}
__device__ __forceinline__ float nonZero(float x) {
  return fabsf(x) < 1e-20f ? (x < 0.0f ? -1e-20f : 1e-20f) : x;
}

/// The stackless traversal of raytracer.bsgp's traceRay, operation for
/// operation.
__device__ TwinHit trace(const RtScene &sc, float3 o, float3 d, float tmax,
                         bool anyHit) {
  TwinHit h = {-1, tmax, 0.0f, 0.0f};
  float3 inv = make_float3(1.0f / nonZero(d.x), 1.0f / nonZero(d.y),
                           1.0f / nonZero(d.z));
  float3 t0 = (make_float3(sc.boxLo.x, sc.boxLo.y, sc.boxLo.z) - o) * inv;
  float3 t1 = (make_float3(sc.boxHi.x, sc.boxHi.y, sc.boxHi.z) - o) * inv;
  float tEntry = fmaxf(fmaxf(fminf(t0.x, t1.x), fminf(t0.y, t1.y)),
                       fmaxf(fminf(t0.z, t1.z), 0.0f));
  float tExit = fminf(fminf(fmaxf(t0.x, t1.x), fmaxf(t0.y, t1.y)),
                      fminf(fmaxf(t0.z, t1.z), tmax));
  const int4 *nodes = reinterpret_cast<const int4 *>(sc.nodes);
  int node = 0, steps = 0;
  while (tEntry < tExit && node >= 0 && steps < RT_MAX_STEPS) {
    float3 p = o + tEntry * d;
    int4 nd = __ldg(&nodes[node]);
    while (nd.x != RT_LEAF) {
      float pc = axisOf(p, nd.x), split = __int_as_float(nd.w);
      bool left = pc < split || (pc == split && axisOf(d, nd.x) <= 0.0f);
      node = left ? nd.y : nd.z;
      nd = __ldg(&nodes[node]);
    }
    const KdLeaf *lf = sc.leaves + nd.y;
    float3 lo = ld3(&lf->lo), hi = ld3(&lf->hi);
    int4 ropesHi = __ldg(reinterpret_cast<const int4 *>(lf->ropesHi));
    int end = ropesHi.z + ropesHi.w;
    for (int k = ropesHi.z; k < end; ++k) {
      int ti = __ldg(&sc.triIndex[k]);
      const RtTri *tr = sc.tris + ti;
      float3 v0 = ld3(&tr->v0), e1 = ld3(&tr->e1), e2 = ld3(&tr->e2);
      float3 pv = cross(d, e2);
      float det = dot(e1, pv);
      if (fabsf(det) > 1e-20f) {
        float invDet = 1.0f / det;
        float3 s = o - v0;
        float u = dot(s, pv) * invDet;
        float3 q = cross(s, e1);
        float v = dot(d, q) * invDet;
        float t = dot(e2, q) * invDet;
        if (u >= 0.0f && v >= 0.0f && u + v <= 1.0f && t > 0.0f &&
            (t < h.t || (t == h.t && ti < h.tri)))
          h = {ti, t, u, v};
      }
    }
    float tx = ((d.x > 0.0f ? hi.x : lo.x) - o.x) * inv.x;
    float ty = ((d.y > 0.0f ? hi.y : lo.y) - o.y) * inv.y;
    float tz = ((d.z > 0.0f ? hi.z : lo.z) - o.z) * inv.z;
    float tLeave = tx;
    int face = d.x > 0.0f ? 1 : 0;
    if (ty < tLeave) {
      tLeave = ty;
      face = d.y > 0.0f ? 3 : 2;
    }
    if (tz < tLeave) {
      tLeave = tz;
      face = d.z > 0.0f ? 5 : 4;
    }
    if ((anyHit && h.tri >= 0) || h.t <= tLeave)
      break;
    tEntry = fmaxf(tEntry, tLeave);
    node = face < 4 ? __ldg(&lf->ropesLo[face]) : __ldg(&lf->ropesHi[face - 4]);
    steps++;
  }
  return h;
}

__global__ void eyeKernel(RtScene sc, TwinRay *rays, TwinHit *hits) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= sc.width * sc.height)
    return;
  float sx = 2.0f * ((float)(pix % sc.width) + 0.5f) / (float)sc.width - 1.0f;
  float sy = 1.0f - 2.0f * ((float)(pix / sc.width) + 0.5f) / (float)sc.height;
  float3 o = make_float3(sc.eye.x, sc.eye.y, sc.eye.z);
  float3 d = normalize(make_float3(sc.forward.x, sc.forward.y, sc.forward.z) +
                       sx * make_float3(sc.right.x, sc.right.y, sc.right.z) +
                       sy * make_float3(sc.up.x, sc.up.y, sc.up.z));
  rays[pix] = {make_float4(o.x, o.y, o.z, __int_as_float(pix)),
               make_float4(d.x, d.y, d.z, 0.0f),
               make_float4(1.0f, 1.0f, 1.0f, 0.0f)};
  hits[pix] = trace(sc, o, d, 3.0e38f, false);
}

__global__ void traceKernel(RtScene sc, const TwinRay *rays, TwinHit *hits,
                            int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  TwinRay r = rays[i];
  hits[i] = trace(sc, f3(r.o), f3(r.d), 3.0e38f, false);
}

__global__ void shadeKernel(RtScene sc, const TwinRay *rays,
                            const TwinHit *hits, int count, int bounce,
                            RtVec *image, TwinRay *next, int *nextCount,
                            unsigned long long *shadowCount) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool alive = false;
  TwinRay out;
  if (i < count) {
    TwinRay r = rays[i];
    TwinHit hit = hits[i];
    float3 o = f3(r.o), d = f3(r.d), w = f3(r.w);
    int pix = __float_as_int(r.o.w);
    float s = fminf(fmaxf(d.y, 0.0f), 1.0f);
    float3 c = make_float3(0.60f, 0.70f, 0.85f) * (1.0f - s) +
               make_float3(0.20f, 0.35f, 0.75f) * s;
    unsigned shadows = 0;
    if (hit.tri >= 0) {
      const RtTri *tr = sc.tris + hit.tri;
      const RtTriShade *sh = sc.shade + hit.tri;
      RtMaterial m = sc.materials[__ldg(&sc.mat[hit.tri])];
      float3 color = make_float3(m.color.x, m.color.y, m.color.z);
      float3 p = o + hit.t * d;
      float3 ng = normalize(cross(ld3(&tr->e1), ld3(&tr->e2)));
      bool entering = dot(ng, d) < 0.0f;
      float3 ngf = entering ? ng : -ng;
      float3 n = normalize(ld3(&sh->n0) * (1.0f - hit.u - hit.v) +
                           ld3(&sh->n1) * hit.u + ld3(&sh->n2) * hit.v);
      if (dot(n, d) > 0.0f)
        n = -n;
      float3 po = p + ngf * sc.eps;
      c = make_float3(sc.ambient.x, sc.ambient.y, sc.ambient.z) * color;
      for (int k = 0; k < sc.numLights; ++k) {
        float3 l =
            make_float3(sc.lightPos[k].x, sc.lightPos[k].y, sc.lightPos[k].z) -
            po;
        float dist = sqrtf(dot(l, l));
        float3 ld = l / dist;
        float ndl = dot(n, ld);
        if (ndl > 0.0f) {
          ++shadows;
          if (trace(sc, po, ld, dist, true).tri < 0) {
            float3 hv = normalize(ld - d);
            float spec = fmaxf(dot(n, hv), 0.0f);
            for (int e = 0; e < m.specPow2; ++e)
              spec = spec * spec;
            float3 lc = make_float3(sc.lightColor[k].x, sc.lightColor[k].y,
                                    sc.lightColor[k].z);
            float ks = m.ks * spec;
            c = c + lc * (color * (m.kd * ndl) + make_float3(ks, ks, ks));
          }
        }
      }
      if (m.kind != RT_DIFFUSE) {
        c = c * (1.0f - m.reflect);
        float cosi = -dot(d, n);
        float3 share = w * color * m.reflect;
        float3 no = po, nd = d + 2.0f * cosi * n;
        if (m.kind == RT_GLASS) {
          float eta = entering ? 1.0f / m.ior : m.ior;
          float k2 = 1.0f - eta * eta * (1.0f - cosi * cosi);
          if (k2 >= 0.0f) {
            no = p - ngf * sc.eps;
            nd = normalize(eta * d + (eta * cosi - sqrtf(k2)) * n);
          }
        }
        out = {make_float4(no.x, no.y, no.z, r.o.w),
               make_float4(nd.x, nd.y, nd.z, 0.0f),
               make_float4(share.x, share.y, share.z, 0.0f)};
        alive = bounce < sc.maxBounces;
      }
    }
    float3 before = make_float3(0.0f, 0.0f, 0.0f);
    if (bounce > 0)
      before = f3(*reinterpret_cast<const float4 *>(&image[pix]));
    float3 sum = before + w * c;
    image[pix] = {sum.x, sum.y, sum.z, 0.0f};
    if (shadowCount && shadows)
      atomicAdd(shadowCount, (unsigned long long)shadows);
  }
  // One atomic per warp for the queue: the warp's live lanes take
  // consecutive slots.
  unsigned mask = __ballot_sync(0xffffffffu, alive);
  if (!mask)
    return;
  int lane = threadIdx.x & 31, leader = __ffs(mask) - 1;
  int base = 0;
  if (lane == leader)
    base = atomicAdd(nextCount, __popc(mask));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (alive)
    next[base + __popc(mask & ((1u << lane) - 1u))] = out;
}

} // namespace

RaytracerTwin::RaytracerTwin(const RtScene &scene) : sc(scene) {
  size_t n = (size_t)sc.width * sc.height;
  for (TwinRay *&q : dRays)
    check(cudaMalloc(&q, n * sizeof(TwinRay)), "cudaMalloc");
  check(cudaMalloc(&dHits, n * sizeof(TwinHit)), "cudaMalloc");
  check(cudaMalloc(&dImage, n * sizeof(RtVec)), "cudaMalloc");
  check(cudaMalloc(&dCount, sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&dShadows, sizeof(unsigned long long)), "cudaMalloc");
  bytes = n * (2 * sizeof(TwinRay) + sizeof(TwinHit) + sizeof(RtVec)) +
          sizeof(int) + sizeof(unsigned long long);
}

RaytracerTwin::~RaytracerTwin() {
  for (TwinRay *q : dRays)
    cudaFree(q);
  cudaFree(dHits);
  cudaFree(dImage);
  cudaFree(dCount);
  cudaFree(dShadows);
}

void RaytracerTwin::frame(unsigned long long *shadowCount, long *secondary) {
  const int block = 128;
  int count = sc.width * sc.height;
  eyeKernel<<<(count + block - 1) / block, block>>>(sc, dRays[0], dHits);
  for (int bounce = 0; bounce <= sc.maxBounces && count > 0; ++bounce) {
    TwinRay *cur = dRays[bounce & 1], *nxt = dRays[(bounce + 1) & 1];
    check(cudaMemsetAsync(dCount, 0, sizeof(int)), "cudaMemsetAsync");
    shadeKernel<<<(count + block - 1) / block, block>>>(
        sc, cur, dHits, count, bounce, dImage, nxt, dCount, shadowCount);
    check(cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    if (secondary)
      *secondary += count;
    if (count > 0)
      traceKernel<<<(count + block - 1) / block, block>>>(sc, nxt, dHits,
                                                          count);
  }
  check(cudaGetLastError(), "launch");
}

void RaytracerTwin::render() { frame(nullptr, nullptr); }

void RaytracerTwin::countRays(long &eye, long &secondary, long &shadow) {
  check(cudaMemset(dShadows, 0, sizeof(unsigned long long)), "cudaMemset");
  secondary = 0;
  frame(dShadows, &secondary);
  unsigned long long s = 0;
  check(cudaMemcpy(&s, dShadows, sizeof(s), cudaMemcpyDeviceToHost),
        "cudaMemcpy");
  eye = (long)sc.width * sc.height;
  shadow = (long)s;
}
