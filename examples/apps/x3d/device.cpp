//===- device.cpp - runs the BSGP X3D parser's steps ----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The host side of x3d.bsgp: allocates the lists each step needs (sized by
// the counts the previous steps returned), calls the steps in order and
// turns an error they report into a message. Nothing of the scene is read
// back here; download() copies the finished lists for checks and files.
//
//===----------------------------------------------------------------------===//

#include "x3d.h"

#include "bsgp/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace x3d {
namespace {

constexpr int64_t NoError = INT64_MAX;

const char *message(int Code) {
  switch (Code) {
  case 1:
    return "comment not closed";
  case 2:
    return "attribute value not closed";
  case 3:
    return "tag not closed";
  case 4:
    return "'>' outside a tag";
  case 5:
    return "closing tag does not match an open element";
  case 6:
    return "element not closed";
  case 7:
    return "not a number";
  case 8:
    return "wrong number of values";
  case 9:
    return "index out of range";
  case 10:
    return "attribute value not followed by a space or the tag's end";
  default:
    return "malformed input";
  }
}

/// Device lists of a parse; all are freed with the DeviceScene.
struct Lists {
  DeviceScene &D;
  template <typename T> T *get(int64_t Count) {
    void *P = bsgprt_dnew(std::max<int64_t>(Count, 1) * sizeof(T), "x3d");
    D.Owned.push_back(P);
    return static_cast<T *>(P);
  }
  template <typename T> T *minusOnes(int64_t Count) {
    T *P = get<T>(Count);
    bsgprt_memset_d(P, 0xff, std::max<int64_t>(Count, 1) * sizeof(T));
    return P;
  }
  template <typename T> T *own(T *P) {
    D.Owned.push_back(P);
    return P;
  }
};

bool failed(int64_t Packed, Error &E) {
  if (Packed == NoError)
    return false;
  E.Failed = true;
  E.Offset = Packed / 16;
  E.What = message((int)(Packed % 16));
  return true;
}

/// With X3D_PROFILE set, the time of each step (synchronized after it).
struct Profile {
  bool On = std::getenv("X3D_PROFILE") != nullptr;
  std::chrono::steady_clock::time_point Last = std::chrono::steady_clock::now();
  void step(const char *Name) {
    if (!On)
      return;
    bsgprt_synchronize();
    auto Now = std::chrono::steady_clock::now();
    std::printf("  %-16s %8.3f ms\n", Name,
                std::chrono::duration<double>(Now - Last).count() * 1e3);
    Last = Now;
  }
};

int readInt(const int *List, int At) {
  int V = 0;
  bsgprt_memcpy_dtoh(&V, List + At, sizeof(int));
  return V;
}

} // namespace

Error parseDevice(const std::string &Text, DeviceScene &D) {
  int N = (int)Text.size();
  char *DText = static_cast<char *>(bsgprt_dnew(N + 1, "x3d"));
  D.Owned.push_back(DText);
  bsgprt_memcpy_htod(DText, Text.data(), N);
  return parseUploaded(DText, N, D);
}

Error parseUploaded(char *DText, int N, DeviceScene &D) {
  Error E;
  Lists L{D};
  Profile P;
  if (N == 0)
    return E;
  int64_t Err = NoError;
  char *Cls = L.get<char>(N);
  x3dClassify(DText, N, Cls, &Err);
  P.step("x3dClassify");
  if (failed(Err, E))
    return E;

  int Starts = 0, Ends = 0, A = 0;
  int *Ts = L.own(x3dPositions(Cls, N, 1, &Starts));
  int *Te = L.own(x3dPositions(Cls, N, 2, &Ends));
  int *Op = L.own(x3dPositions(Cls, N, 4, &A));
  P.step("x3dPositions x3");
  int T = std::min(Starts, Ends);
  int *Kind = L.get<int>(T), *Elem = L.get<int>(T), *Hash = L.get<int>(T),
      *Level = L.get<int>(T);
  if (T > 0)
    x3dTags(DText, N, Ts, Te, T, Kind, Elem, Hash, Level, &Err);
  P.step("x3dTags");
  if (failed(Err, E))
    return E;
  if (Starts != Ends) {
    // Each of the first T starts has its end: the extra one is alone.
    if (Starts > Ends)
      failed(int64_t(readInt(Ts, T)) * 16 + 3, E);
    else
      failed(int64_t(readInt(Te, T)) * 16 + 4, E);
    return E;
  }
  int *Sorted = L.get<int>(T), *First = L.minusOnes<int>(T + 2),
      *Last = L.minusOnes<int>(T + 2), *Parent = L.get<int>(T);
  if (T > 0) {
    x3dMatch(Ts, T, Kind, Hash, Level, Sorted, First, Last, &Err);
    P.step("x3dMatch");
    if (failed(Err, E))
      return E;
    x3dParents(T, Kind, Level, Sorted, First, Last, Parent);
    P.step("x3dParents");
  }

  int *AKind = L.get<int>(A), *ATag = L.get<int>(A),
      *TagX = L.minusOnes<int>(3 * (int64_t)T);
  if (A > 0)
    x3dAttrs(DText, Op, A, Ts, Te, T, Elem, AKind, ATag, TagX);
  P.step("x3dAttrs");
  int K = 0;
  int *Tok[4] = {};
  x3dTokens(DText, Cls, N, Op, A, AKind, &K, Tok, &Err);
  P.step("x3dTokens");
  for (int *Q : Tok)
    L.own(Q);
  if (failed(Err, E))
    return E;
  int *TokPos = Tok[0], *TokAttr = Tok[1], *TokInt = Tok[2];
  float *TokFloat = reinterpret_cast<float *>(Tok[3]);
  int *AFirst = L.get<int>(A), *ACount = L.get<int>(A);
  if (A > 0)
    x3dAttrRanges(TokAttr, K, A, AFirst, ACount);
  P.step("x3dAttrRanges");

  int S = 0;
  int *TagShape = L.minusOnes<int>(T);
  int *ShapeTag = L.own(x3dShapes(Kind, Elem, T, TagShape, &S));
  P.step("x3dShapes");
  int *Fields = L.minusOnes<int>(8 * (int64_t)S);
  int *AttrShape = L.get<int>(A);
  if (A > 0)
    x3dShapeFields(A, AKind, ATag, Parent, Elem, TagShape, Fields, AttrShape);
  P.step("x3dShapeFields");
  float *Mat = L.get<float>(24 * (int64_t)S);
  int *Nv = L.get<int>(S), *VBase = L.get<int>(S);
  int V = 0;
  if (S > 0)
    x3dShapeSetup(S, ShapeTag, Parent, Elem, TagX, Op, AKind, Fields, AFirst,
                  ACount, TokFloat, Mat, Nv, VBase, &V, &Err);
  P.step("x3dShapeSetup");
  if (failed(Err, E))
    return E;

  int NT = 0;
  int *Tri[3] = {};
  if (K > 0) {
    x3dTriangles(K, TokAttr, TokInt, TokPos, Op, AKind, AttrShape, Fields,
                 AFirst, ACount, Nv, VBase, &NT, Tri, &Err);
    for (int *Q : Tri)
      L.own(Q);
  } else {
    for (int *&Q : Tri)
      Q = L.get<int>(1);
  }
  if (failed(Err, E))
    return E;
  int *Pc = L.get<int>(3 * (int64_t)NT), *Hd = L.minusOnes<int>(V),
      *Tl = L.minusOnes<int>(V);
  if (NT > 0)
    x3dFindFaces(Tri[0], NT, Pc, Hd, Tl);
  P.step("x3dTriangles+Find");
  float *Pos = L.get<float>(3 * (int64_t)V),
        *Nrm = L.get<float>(3 * (int64_t)V),
        *Tex = L.get<float>(2 * (int64_t)V);
  if (V > 0) {
    x3dVertices(V, S, VBase, Fields, AFirst, ACount, TokFloat, TokInt, Mat, Hd,
                Pc, Tri[2], Pos, Nrm, Tex);
    x3dNormals(V, S, VBase, Fields, Pos, Tri[0], Hd, Tl, Pc, Nrm);
  }
  P.step("x3dVertices+Nrm");
  float *Color = L.get<float>(4 * (int64_t)S);
  int *TriFirst = L.get<int>(S), *TriCount = L.get<int>(S);
  if (S > 0)
    x3dMaterials(S, Fields, AFirst, TokFloat, Color, Tri[1], NT, TriFirst,
                 TriCount);

  D.Shapes = S;
  D.Vertices = V;
  D.Triangles = NT;
  D.Numbers = K;
  D.Attrs = A;
  D.Pos = Pos;
  D.Nrm = Nrm;
  D.Tex = Tex;
  D.Color = Color;
  D.Idx = Tri[0];
  D.TriShape = Tri[1];
  D.VertexFirst = VBase;
  D.VertexCount = Nv;
  D.TriFirst = TriFirst;
  D.TriCount = TriCount;
  D.TokAttr = TokAttr;
  D.TokInt = TokInt;
  D.TokFloat = TokFloat;
  D.AttrKind = AKind;
  return E;
}

namespace {
template <typename T> std::vector<T> copyBack(const T *List, int64_t Count) {
  std::vector<T> H(Count);
  if (Count > 0)
    bsgprt_memcpy_dtoh(H.data(), List, Count * sizeof(T));
  return H;
}
} // namespace

Scene download(const DeviceScene &D) {
  Scene S;
  S.Pos = copyBack(D.Pos, 3 * (int64_t)D.Vertices);
  S.Nrm = copyBack(D.Nrm, 3 * (int64_t)D.Vertices);
  S.Tex = copyBack(D.Tex, 2 * (int64_t)D.Vertices);
  S.Idx = copyBack(D.Idx, 3 * (int64_t)D.Triangles);
  S.TriShape = copyBack(D.TriShape, D.Triangles);
  S.VertexFirst = copyBack(D.VertexFirst, D.Shapes);
  S.VertexCount = copyBack(D.VertexCount, D.Shapes);
  S.TriFirst = copyBack(D.TriFirst, D.Shapes);
  S.TriCount = copyBack(D.TriCount, D.Shapes);
  S.Color = copyBack(D.Color, 4 * (int64_t)D.Shapes);
  std::vector<int> Attr = copyBack(D.TokAttr, D.Numbers);
  std::vector<int> Ints = copyBack(D.TokInt, D.Numbers);
  std::vector<float> Floats = copyBack(D.TokFloat, D.Numbers);
  std::vector<int> Kinds = copyBack(D.AttrKind, D.Attrs);
  for (int I = 0; I < D.Numbers; ++I) {
    if (isIndexKind(Kinds[Attr[I]]))
      S.Ints.push_back(Ints[I]);
    else
      S.Floats.push_back(Floats[I]);
  }
  return S;
}

void release(DeviceScene &D) {
  for (void *P : D.Owned)
    if (P)
      bsgprt_dfree(P);
  D.Owned.clear();
}

} // namespace x3d
