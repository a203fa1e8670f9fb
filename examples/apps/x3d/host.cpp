//===- host.cpp - the pugixml X3D parser, the CPU competitor --------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// What a user would write on one CPU core: pugixml builds the DOM, a walk
// of it keeps a stack of Transform matrices, and std::from_chars reads the
// numbers. It produces the same lists as the BSGP parser, by the same rules
// (x3d.bsgp): fans for faces, a vertex's normal and texture coordinates
// from its first corner when normalIndex/texCoordIndex are given, normals
// averaged over the faces around a vertex (by area) when the file gives none.
//
//===----------------------------------------------------------------------===//

#include "x3d.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#if __has_include(<pugixml.hpp>)
#include <pugixml.hpp>
#define HAVE_PUGIXML 1
#else
#define HAVE_PUGIXML 0
#endif

namespace x3d {

bool hostParserAvailable() { return HAVE_PUGIXML; }

#if HAVE_PUGIXML
namespace {

using Mat = std::array<float, 12>; // row-major 3x4

/// The attribute kind of element `E`'s attribute `A`, as x3dAttrKind.
int kindOf(const char *E, const char *A) {
  auto Is = [](const char *X, const char *Y) { return !std::strcmp(X, Y); };
  if (Is(E, "Transform"))
    return Is(A, "translation") ? KTranslation
           : Is(A, "rotation")  ? KRotation
           : Is(A, "scale")     ? KScale
                                : 0;
  if (Is(E, "IndexedFaceSet"))
    return Is(A, "coordIndex")      ? KCoordIndex
           : Is(A, "normalIndex")   ? KNormalIndex
           : Is(A, "texCoordIndex") ? KTexCoordIndex
                                    : 0;
  if (Is(E, "IndexedTriangleSet"))
    return Is(A, "index") ? KIndex : 0;
  if (Is(E, "Coordinate"))
    return Is(A, "point") ? KPoint : 0;
  if (Is(E, "Normal"))
    return Is(A, "vector") ? KVector : 0;
  if (Is(E, "TextureCoordinate"))
    return Is(A, "point") ? KTexPoint : 0;
  if (Is(E, "Material"))
    return Is(A, "diffuseColor")   ? KDiffuse
           : Is(A, "transparency") ? KTransparency
                                   : 0;
  return 0;
}

struct Parser {
  const char *Base; ///< the buffer pugixml parsed in place
  size_t Size;
  Scene &Out;
  Error Err;

  bool fail(const char *At, const char *What) {
    if (!Err.Failed) {
      Err.Failed = true;
      Err.Offset = At && At >= Base && At < Base + Size ? At - Base : -1;
      Err.What = What;
    }
    return false;
  }

  static bool isSep(char C) {
    return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == ',';
  }

  /// The numbers of an attribute value; also appended to Out's lists.
  template <typename T>
  bool numbers(const char *V, std::vector<T> &Values, std::vector<T> &All) {
    const char *P = V;
    while (true) {
      while (*P && isSep(*P))
        ++P;
      if (!*P)
        return true;
      const char *E = P;
      while (*E && !isSep(*E))
        ++E;
      const char *B = *P == '+' ? P + 1 : P;
      T X{};
      auto R = std::from_chars(B, E, X);
      if constexpr (std::is_same_v<T, float>) {
        // from_chars reports a number too small for a float as out of
        // range; it is 0 (or a subnormal) to a user, as strtof says.
        if (R.ec == std::errc::result_out_of_range && R.ptr == E) {
          X = std::strtof(std::string(B, E).c_str(), nullptr);
          if (!std::isinf(X))
            R.ec = std::errc();
        }
      }
      if (R.ec != std::errc() || R.ptr != E || B == E)
        return fail(P, "not a number");
      Values.push_back(X);
      All.push_back(X);
      P = E;
    }
  }

  struct Node {
    std::vector<float> F[13];
    std::vector<int> I[13];
  };

  /// The numbers of a node's attributes by kind, in document order.
  bool read(pugi::xml_node N, Node &R) {
    for (pugi::xml_attribute A : N.attributes()) {
      int K = kindOf(N.name(), A.name());
      if (!K)
        continue;
      // pugixml gives the value; its place in the text is where it points.
      const char *V = A.value();
      bool Ok = isIndexKind(K) ? numbers(V, R.I[K], Out.Ints)
                               : numbers(V, R.F[K], Out.Floats);
      if (!Ok)
        return false;
    }
    return true;
  }

  Mat local(const Node &R) {
    auto Get = [&](int K, int I, float D) {
      return R.F[K].size() > (size_t)I ? R.F[K][I] : D;
    };
    float Tx = Get(KTranslation, 0, 0), Ty = Get(KTranslation, 1, 0),
          Tz = Get(KTranslation, 2, 0);
    float Ax = Get(KRotation, 0, 0), Ay = Get(KRotation, 1, 0),
          Az = Get(KRotation, 2, 1), An = Get(KRotation, 3, 0);
    float Sx = Get(KScale, 0, 1), Sy = Get(KScale, 1, 1),
          Sz = Get(KScale, 2, 1);
    float Len = std::sqrt(Ax * Ax + Ay * Ay + Az * Az);
    if (Len > 0) {
      Ax /= Len;
      Ay /= Len;
      Az /= Len;
    } else {
      An = 0;
    }
    float C = std::cos(An), S = std::sin(An), Ic = 1 - C;
    return {(C + Ax * Ax * Ic) * Sx,      (Ax * Ay * Ic - Az * S) * Sy,
            (Ax * Az * Ic + Ay * S) * Sz, Tx,
            (Ay * Ax * Ic + Az * S) * Sx, (C + Ay * Ay * Ic) * Sy,
            (Ay * Az * Ic - Ax * S) * Sz, Ty,
            (Az * Ax * Ic - Ay * S) * Sx, (Az * Ay * Ic + Ax * S) * Sy,
            (C + Az * Az * Ic) * Sz,      Tz};
  }

  static Mat mul(const Mat &A, const Mat &B) {
    Mat R;
    for (int I = 0; I < 3; ++I)
      for (int J = 0; J < 4; ++J)
        R[4 * I + J] = A[4 * I] * B[J] + A[4 * I + 1] * B[4 + J] +
                       A[4 * I + 2] * B[8 + J] + (J == 3 ? A[4 * I + 3] : 0);
    return R;
  }

  bool shape(pugi::xml_node Sh, const Mat &M);
  bool walk(pugi::xml_node N, const Mat &M);
};

bool Parser::walk(pugi::xml_node N, const Mat &M) {
  for (pugi::xml_node C : N.children()) {
    if (C.type() != pugi::node_element)
      continue;
    Mat W = M;
    if (!std::strcmp(C.name(), "Shape")) {
      if (!shape(C, M))
        return false;
      continue;
    }
    Node R;
    if (!read(C, R))
      return false;
    if (!std::strcmp(C.name(), "Transform")) {
      size_t T = R.F[KTranslation].size(), Q = R.F[KRotation].size(),
             S = R.F[KScale].size();
      if ((T && T != 3) || (Q && Q != 4) || (S && S != 3))
        return fail(nullptr, "wrong number of values");
      W = mul(M, local(R));
    }
    if (!walk(C, W))
      return false;
  }
  return true;
}

bool Parser::shape(pugi::xml_node Sh, const Mat &M) {
  // Everything under the shape, in document order; the parts we use.
  Node G, Co, No, Tc, Ma;
  bool HasCoord = false, HasNormal = false, HasTex = false, Its = false;
  for (pugi::xml_node C : Sh.children()) {
    if (C.type() != pugi::node_element)
      continue;
    Node R;
    if (!read(C, R))
      return false;
    bool Geometry = !std::strcmp(C.name(), "IndexedFaceSet") ||
                    !std::strcmp(C.name(), "IndexedTriangleSet");
    if (Geometry) {
      G = std::move(R);
      Its = !std::strcmp(C.name(), "IndexedTriangleSet");
    }
    for (pugi::xml_node D : C.children()) {
      if (D.type() != pugi::node_element)
        continue;
      Node Q;
      if (!read(D, Q))
        return false;
      std::string Name = D.name();
      if (Geometry && Name == "Coordinate")
        Co = std::move(Q), HasCoord = true;
      else if (Geometry && Name == "Normal")
        No = std::move(Q), HasNormal = true;
      else if (Geometry && Name == "TextureCoordinate")
        Tc = std::move(Q), HasTex = true;
      else if (!Geometry && !std::strcmp(C.name(), "Appearance") &&
               Name == "Material")
        Ma = std::move(Q);
      // Deeper elements: their numbers still count, unused.
      if (!walk(D, M))
        return false;
    }
  }
  const std::vector<float> &P = Co.F[KPoint];
  const std::vector<float> &Nv = No.F[KVector];
  const std::vector<float> &T = Tc.F[KTexPoint];
  if (P.size() % 3 || Nv.size() % 3 || T.size() % 2)
    return fail(nullptr, "wrong number of values");
  int Shape = (int)Out.VertexFirst.size();
  int Base = (int)Out.Pos.size() / 3, V = (int)P.size() / 3;
  Out.VertexFirst.push_back(Base);
  Out.VertexCount.push_back(V);
  const std::vector<float> &D = Ma.F[KDiffuse];
  Out.Color.insert(
      Out.Color.end(),
      {D.size() == 3 ? D[0] : 0.8f, D.size() == 3 ? D[1] : 0.8f,
       D.size() == 3 ? D[2] : 0.8f,
       Ma.F[KTransparency].empty() ? 0.0f : Ma.F[KTransparency][0]});
  // Triangles, and each vertex's first corner.
  const std::vector<int> &Ci = G.I[Its ? KIndex : KCoordIndex];
  std::vector<int> FirstCorner(V, -1); // index into Ci
  size_t TriStart = Out.Idx.size();
  auto Corner = [&](size_t C) {
    int X = Ci[C];
    if (X < 0 || X >= V)
      return fail(nullptr, "index out of range");
    if (FirstCorner[X] < 0)
      FirstCorner[X] = (int)C;
    Out.Idx.push_back(Base + X);
    return true;
  };
  if (Its) {
    if (Ci.size() % 3)
      return fail(nullptr, "wrong number of values");
    for (size_t C = 0; C < Ci.size(); C += 3) {
      if (!Corner(C) || !Corner(C + 1) || !Corner(C + 2))
        return false;
      Out.TriShape.push_back(Shape);
    }
  } else {
    size_t Start = 0;
    for (size_t C = 0; C < Ci.size(); ++C) {
      if (Ci[C] == -1) {
        Start = C + 1;
        continue;
      }
      if (C - Start >= 2) {
        if (!Corner(Start) || !Corner(C - 1) || !Corner(C))
          return false;
        Out.TriShape.push_back(Shape);
      }
    }
  }
  Out.TriFirst.push_back((int)TriStart / 3);
  Out.TriCount.push_back((int)(Out.Idx.size() - TriStart) / 3);
  const std::vector<int> &Ni = G.I[KNormalIndex], &Ti = G.I[KTexCoordIndex];
  // Cofactor matrix of M's 3x3 part, signed by the determinant.
  float C[9] = {M[5] * M[10] - M[6] * M[9], M[6] * M[8] - M[4] * M[10],
                M[4] * M[9] - M[5] * M[8],  M[2] * M[9] - M[1] * M[10],
                M[0] * M[10] - M[2] * M[8], M[1] * M[8] - M[0] * M[9],
                M[1] * M[6] - M[2] * M[5],  M[2] * M[4] - M[0] * M[6],
                M[0] * M[5] - M[1] * M[4]};
  float Det = M[0] * C[0] + M[1] * C[1] + M[2] * C[2];
  for (float &X : C)
    X = Det < 0 ? -X : X;
  for (int L = 0; L < V; ++L) {
    float X = P[3 * L], Y = P[3 * L + 1], Z = P[3 * L + 2];
    for (int R = 0; R < 3; ++R)
      Out.Pos.push_back(M[4 * R] * X + M[4 * R + 1] * Y + M[4 * R + 2] * Z +
                        M[4 * R + 3]);
    int At = FirstCorner[L];
    int TiL = !Ti.empty() && At >= 0 ? Ti[At] : L;
    bool HasT = HasTex && TiL >= 0 && 2 * (size_t)TiL + 1 < T.size();
    Out.Tex.push_back(HasT ? T[2 * TiL] : 0);
    Out.Tex.push_back(HasT ? T[2 * TiL + 1] : 0);
    if (HasNormal) {
      int NiL = !Ni.empty() && At >= 0 ? Ni[At] : L;
      float N[3] = {0, 0, 0};
      if (NiL >= 0 && 3 * (size_t)NiL + 2 < Nv.size()) {
        const float *A = &Nv[3 * NiL];
        for (int R = 0; R < 3; ++R)
          N[R] = C[3 * R] * A[0] + C[3 * R + 1] * A[1] + C[3 * R + 2] * A[2];
        float Len = std::sqrt(N[0] * N[0] + N[1] * N[1] + N[2] * N[2]);
        if (Len > 0)
          for (float &Q : N)
            Q /= Len;
      }
      Out.Nrm.insert(Out.Nrm.end(), N, N + 3);
    } else {
      Out.Nrm.insert(Out.Nrm.end(), {0, 0, 0});
    }
  }
  for (const std::vector<int> *Side : {&Ni, &Ti})
    if (!Side->empty() && Side->size() < Ci.size() && Out.Idx.size() > TriStart)
      return fail(nullptr, "wrong number of values");
  if (HasNormal)
    return true;
  // Normals averaged over the faces around each vertex, weighted by area.
  std::vector<float> Sum(3 * (size_t)V, 0.0f);
  for (size_t F = TriStart; F < Out.Idx.size(); F += 3) {
    const float *A = &Out.Pos[3 * Out.Idx[F]],
                *B = &Out.Pos[3 * Out.Idx[F + 1]],
                *Cc = &Out.Pos[3 * Out.Idx[F + 2]];
    float U[3] = {B[0] - A[0], B[1] - A[1], B[2] - A[2]};
    float W[3] = {Cc[0] - A[0], Cc[1] - A[1], Cc[2] - A[2]};
    float X[3] = {U[1] * W[2] - U[2] * W[1], U[2] * W[0] - U[0] * W[2],
                  U[0] * W[1] - U[1] * W[0]};
    for (int K = 0; K < 3; ++K)
      for (int R = 0; R < 3; ++R)
        Sum[3 * (Out.Idx[F + K] - Base) + R] += X[R];
  }
  for (int L = 0; L < V; ++L) {
    float *S = &Sum[3 * L];
    float Len = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
    for (int R = 0; R < 3; ++R)
      Out.Nrm[3 * (size_t)(Base + L) + R] = Len > 0 ? S[R] / Len : S[R];
  }
  return true;
}

} // namespace

Error parseHost(const std::string &Text, Scene &Out) {
  pugi::xml_document Doc;
  std::string Buf = Text;
  pugi::xml_parse_result R = Doc.load_buffer_inplace(Buf.data(), Buf.size());
  if (!R) {
    Error E;
    E.Failed = true;
    E.Offset = R.offset;
    E.What = R.description();
    return E;
  }
  Parser P{Buf.data(), Buf.size(), Out, {}};
  Mat I = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  P.walk(Doc, I);
  return P.Err;
}
#else
Error parseHost(const std::string &, Scene &) {
  Error E;
  E.Failed = true;
  E.What = "built without pugixml";
  return E;
}
#endif

} // namespace x3d
