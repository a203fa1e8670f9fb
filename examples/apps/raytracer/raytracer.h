//===- raytracer.h - the ray tracer's data for BSGP, C++ and CUDA -*- C++
//-*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// One header for every side: raytracer.bsgp includes it through bsgpc's
// preprocessor (__BSGP__ is defined there), the host code and the CUDA twin
// through their own compilers. A BSGP float3 takes 16 bytes, aligned to 16
// (docs/language.md, "Types"), so C++ sees it as an RtVec of four floats
// whose last is padding.
//
// The kd-tree is flattened into lists (kdtree.cpp builds it):
//   - nodes: an inner node has its split axis (0..2) in kind, its children
//     in a and b and its split plane in split; a leaf has kind 3 and its
//     index in the leaf list in a;
//   - leaves: the leaf's box, its six ropes (the node next to each face,
//     -1 outside the scene; Popov et al. 2007) and its range of the
//     triangle-index list;
//   - tris: each triangle as a vertex and two edges (for the
//     Moeller-Trumbore test), its three vertex normals in shade, its
//     material in mat.
//
//===----------------------------------------------------------------------===//

#ifndef RAYTRACER_H
#define RAYTRACER_H

#ifdef __BSGP__
#define RT_VEC float3
#else
struct alignas(16) RtVec {
  float x, y, z, pad;
};
#define RT_VEC RtVec
#endif

/// Node kinds: 0, 1, 2 an inner node split on that axis; a leaf.
#define RT_LEAF 3
/// Material kinds.
#define RT_DIFFUSE 0
#define RT_MIRROR 1
#define RT_GLASS 2
/// The most point lights a scene has.
#define RT_MAX_LIGHTS 4
/// A ray gives up after visiting this many leaves (against cycles that
/// rounding could make between two leaves).
#define RT_MAX_STEPS 4096

struct KdNode {
  int kind;
  int a;
  int b;
  float split;
};

/// ropesLo: the nodes beyond the faces -x, +x, -y, +y; ropesHi: -z, +z,
/// then the first triangle index and the count.
#ifdef __BSGP__
struct KdLeaf {
  float3 lo;
  float3 hi;
  int4 ropesLo;
  int4 ropesHi;
};
#else
struct KdLeaf {
  RtVec lo;
  RtVec hi;
  int ropesLo[4];
  int ropesHi[4];
};
#endif

struct RtTri {
  RT_VEC v0;
  RT_VEC e1;
  RT_VEC e2;
};

struct RtTriShade {
  RT_VEC n0;
  RT_VEC n1;
  RT_VEC n2;
};

/// Shading: ambient + diffuse (kd) + Blinn-Phong specular (ks, exponent
/// 2^specPow2, by repeated squaring so that every target rounds alike),
/// times (1 - reflect) for a mirror; a mirror reflects `reflect` of the
/// light times its colour, glass refracts `reflect` of it (index ior),
/// reflecting at total internal reflection.
struct RtMaterial {
  RT_VEC color;
  int kind;
  float kd;
  float ks;
  int specPow2;
  float reflect;
  float ior;
};

/// What rtRender needs: device lists and counts, the camera and the lights
/// (host values, copied into the spawn's threads by the host code).
struct RtScene {
  struct KdNode *nodes;
  struct KdLeaf *leaves;
  int *triIndex;
  struct RtTri *tris;
  struct RtTriShade *shade;
  int *mat;
  struct RtMaterial *materials;
  RT_VEC boxLo;
  RT_VEC boxHi;
  RT_VEC eye;
  RT_VEC forward; // scaled by 1 / tan(fov / 2)
  RT_VEC right;   // scaled by the aspect ratio
  RT_VEC up;
  RT_VEC lightPos[RT_MAX_LIGHTS];
  RT_VEC lightColor[RT_MAX_LIGHTS];
  RT_VEC ambient;
  float eps; // how far secondary rays start off their surface
  int numLights;
  int width;
  int height;
  int maxBounces;
};

/// One eye ray's hit, for the check of the traversal: the triangle (-1:
/// none) and the distance.
struct RtHit {
  int tri;
  float t;
};

#ifndef __BSGP__
static_assert(sizeof(KdNode) == 16, "the layout of a BSGP struct KdNode");
static_assert(sizeof(KdLeaf) == 64, "the layout of a BSGP struct KdLeaf");
static_assert(sizeof(RtTri) == 48, "the layout of a BSGP struct RtTri");
static_assert(sizeof(RtMaterial) == 48,
              "the layout of a BSGP struct RtMaterial");
/// Renders into image (width * height RtVecs, linear RGB) and writes each
/// eye ray's hit into eyeHits when it is not null.
extern "C" void rtRender(const RtScene *scene, RtVec *image, RtHit *eyeHits);
#endif

#endif // RAYTRACER_H
