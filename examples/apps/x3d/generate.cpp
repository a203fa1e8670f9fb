//===- generate.cpp - X3D test scenes of any size -------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Writes scenes of meshes (spheres, tori, height fields, boxes) as X3D
// text, each under one to four nested Transforms, with the formatting X3D
// allows varied from shape to shape: attribute order, single or double
// quotes, commas or whitespace between numbers, line breaks, numbers in
// fixed or scientific notation with a leading '+' or without the leading
// zero, comments, empty elements or opening and closing tags, and
// IndexedFaceSets (quads, -1 terminated, with or without the last -1) as
// well as IndexedTriangleSets, with or without Normal and texture
// coordinates (with texCoordIndex or without).
//
//===----------------------------------------------------------------------===//

#include "x3d.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace x3d {
namespace {

struct Writer {
  std::string Out;
  std::mt19937 Rng;
  int Style = 0; ///< number formatting, chosen per shape

  int pick(int N) { return (int)(Rng() % (unsigned)N); }
  float uniform(float A, float B) {
    return A + (B - A) * (float)(Rng() % 1000000) / 1e6f;
  }

  void number(float V) {
    char B[48];
    switch (Style) {
    case 0:
      std::snprintf(B, sizeof B, "%.6g", V);
      break;
    case 1:
      std::snprintf(B, sizeof B, "%.5e", V);
      break;
    case 2: { // ".5" and "-.5" rather than "0.5" and "-0.5", '+' signs
      std::snprintf(B, sizeof B, "%+.4f", V);
      std::string S = B;
      if (S.compare(1, 2, "0.") == 0)
        S.erase(1, 1);
      Out += S;
      return;
    }
    default:
      std::snprintf(B, sizeof B, "%.9g", V);
      break;
    }
    Out += B;
  }

  void sep(int I, int Group) {
    if (I == 0)
      return;
    bool End = I % Group == 0;
    switch (Style) {
    case 0:
      Out += End ? ", " : " ";
      break;
    case 1:
      Out += End ? "\n        " : " ";
      break;
    case 2:
      Out += End ? "," : ",";
      break;
    default:
      Out += End ? " \t" : "  ";
      break;
    }
  }

  void floats(const std::vector<float> &V, int Group) {
    for (size_t I = 0; I < V.size(); ++I) {
      sep((int)I, Group);
      number(V[I]);
    }
  }

  void ints(const std::vector<int> &V) {
    for (size_t I = 0; I < V.size(); ++I) {
      if (I)
        Out += V[I - 1] == -1 && Style == 1 ? "\n  " : " ";
      Out += std::to_string(V[I]);
    }
  }

  char quote() { return Style == 2 ? '\'' : '"'; }

  struct Mesh {
    std::vector<float> P, N, T;
    std::vector<int> Quads; // 4 per quad
  };

  /// A (Cols x Rows) grid of vertices mapped by F to 3D (and its normal).
  template <typename Fn> Mesh grid(int Cols, int Rows, bool Wrap, Fn F) {
    Mesh M;
    for (int J = 0; J < Rows; ++J)
      for (int I = 0; I < Cols; ++I) {
        float U = (float)I / (Cols - (Wrap ? 0 : 1)), V = (float)J / (Rows - 1);
        float P[3], N[3];
        F(U, V, P, N);
        M.P.insert(M.P.end(), P, P + 3);
        M.N.insert(M.N.end(), N, N + 3);
        M.T.insert(M.T.end(), {U, V});
      }
    for (int J = 0; J + 1 < Rows; ++J)
      for (int I = 0; I + (Wrap ? 0 : 1) < Cols; ++I) {
        int I1 = (I + 1) % Cols;
        M.Quads.insert(M.Quads.end(),
                       {J * Cols + I, J * Cols + I1, (J + 1) * Cols + I1,
                        (J + 1) * Cols + I});
      }
    return M;
  }

  Mesh mesh(int Kind, int Res) {
    const float Pi = 3.14159265f;
    switch (Kind) {
    case 0: // sphere
      return grid(Res, Res / 2 + 2, true,
                  [&](float U, float V, float *P, float *N) {
                    float Th = 2 * Pi * U, Ph = Pi * V;
                    N[0] = std::sin(Ph) * std::cos(Th);
                    N[1] = std::cos(Ph);
                    N[2] = std::sin(Ph) * std::sin(Th);
                    for (int K = 0; K < 3; ++K)
                      P[K] = N[K];
                  });
    case 1: // torus
      return grid(Res, Res / 2 + 2, true,
                  [&](float U, float V, float *P, float *N) {
                    float Th = 2 * Pi * U, Ph = 2 * Pi * V;
                    N[0] = std::cos(Ph) * std::cos(Th);
                    N[1] = std::sin(Ph);
                    N[2] = std::cos(Ph) * std::sin(Th);
                    P[0] = std::cos(Th) + 0.3f * N[0];
                    P[1] = 0.3f * N[1];
                    P[2] = std::sin(Th) + 0.3f * N[2];
                  });
    default: { // height field
      unsigned Seed = Rng();
      return grid(Res, Res, false, [&](float U, float V, float *P, float *N) {
        float H = 0.1f * std::sin(7 * U + Seed % 7) * std::cos(5 * V);
        P[0] = 2 * U - 1;
        P[1] = H;
        P[2] = 2 * V - 1;
        N[0] = 0;
        N[1] = 1;
        N[2] = 0;
      });
    }
    }
  }

  void attr(const char *Name, const std::string &Value) {
    char Q = quote();
    Out += ' ';
    Out += Name;
    Out += Style == 3 ? " = " : "=";
    Out += Q;
    Out += Value;
    Out += Q;
  }

  std::string take(size_t From) {
    std::string S = Out.substr(From);
    Out.resize(From);
    return S;
  }

  void shape(int Indent) {
    std::string Pad(Indent, ' ');
    Style = pick(4);
    int Kind = pick(3), Res = 6 + pick(24);
    Mesh M = mesh(Kind, Res);
    bool Tri = pick(3) == 0, WithNormals = pick(2), WithTex = pick(2);
    bool TexIndex = WithTex && !Tri && pick(2);
    Out += Pad + "<Shape>\n" + Pad + "  <Appearance>";
    if (pick(3) == 0)
      Out += "<!-- a <Material> with \"quotes\" & such -->";
    Out += "<Material";
    size_t At = Out.size();
    floats({uniform(0, 1), uniform(0, 1), uniform(0, 1)}, 3);
    std::string Diffuse = take(At);
    floats({uniform(0, 0.5f)}, 1);
    std::string Transp = take(At);
    if (pick(2)) {
      attr("diffuseColor", Diffuse);
      attr("transparency", Transp);
    } else {
      attr("transparency", Transp);
      attr("shininess", "0.2");
      attr("diffuseColor", Diffuse);
    }
    Out += "/></Appearance>\n" + Pad + "  ";
    std::vector<int> Idx;
    for (size_t Q = 0; Q < M.Quads.size(); Q += 4) {
      if (Tri) {
        const int *V = &M.Quads[Q];
        Idx.insert(Idx.end(), {V[0], V[1], V[2], V[0], V[2], V[3]});
      } else {
        Idx.insert(Idx.end(), M.Quads.begin() + Q, M.Quads.begin() + Q + 4);
        if (Q + 4 < M.Quads.size() || pick(2))
          Idx.push_back(-1);
      }
    }
    At = Out.size();
    ints(Idx);
    std::string Index = take(At);
    if (Tri) {
      Out += "<IndexedTriangleSet solid='false'";
      attr("index", Index);
      Out += ">\n";
    } else {
      Out += "<IndexedFaceSet";
      if (pick(2))
        attr("creaseAngle", "0.5");
      attr("coordIndex", Index);
      if (TexIndex)
        attr("texCoordIndex", Index);
      Out += pick(2) ? ">\n" : "\n" + Pad + "  >\n";
    }
    Out += Pad + "    <Coordinate DEF='C" + std::to_string(Out.size()) + "'";
    At = Out.size();
    floats(M.P, 3);
    attr("point", take(At));
    Out += pick(2) ? "/>\n" : "></Coordinate>\n";
    if (WithNormals) {
      Out += Pad + "    <Normal";
      At = Out.size();
      floats(M.N, 3);
      attr("vector", take(At));
      Out += "/>\n";
    }
    if (WithTex) {
      Out += Pad + "    <TextureCoordinate";
      At = Out.size();
      floats(M.T, 2);
      attr("point", take(At));
      Out += "/>\n";
    }
    Out += Pad + (Tri ? "  </IndexedTriangleSet>\n" : "  </IndexedFaceSet>\n");
    Out += Pad + "</Shape>\n";
  }

  void transform(int Depth, int Indent, size_t Until) {
    std::string Pad(Indent, ' ');
    Out += Pad + "<Transform";
    Style = pick(4);
    int Order = pick(3);
    for (int K = 0; K < 3; ++K) {
      int A = (K + Order) % 3;
      size_t At = Out.size();
      if (A == 0) {
        floats({uniform(-20, 20), uniform(-5, 5), uniform(-20, 20)}, 3);
        attr("translation", take(At));
      } else if (A == 1 && pick(3)) {
        floats(
            {uniform(-1, 1), uniform(0.1f, 1), uniform(-1, 1), uniform(-3, 3)},
            4);
        attr("rotation", take(At));
      } else if (A == 2 && pick(2)) {
        float S = uniform(0.3f, 2);
        floats({S, S * uniform(0.8f, 1.2f), S}, 3);
        attr("scale", take(At));
      }
    }
    Out += ">\n";
    int Children = 1 + pick(3);
    for (int C = 0; C < Children && Out.size() < Until; ++C) {
      if (Depth < 4 && pick(2))
        transform(Depth + 1, Indent + 2, Until);
      else
        shape(Indent + 2);
    }
    Out += Pad + "</Transform>\n";
  }
};

} // namespace

std::string generate(size_t Bytes, unsigned Seed) {
  Writer W;
  W.Rng.seed(Seed);
  W.Out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<!DOCTYPE X3D PUBLIC \"ISO//Web3D//DTD X3D 3.3//EN\" "
          "\"http://www.web3d.org/specifications/x3d-3.3.dtd\">\n"
          "<X3D profile='Interchange' version='3.3'>\n"
          "  <head><meta name='generator' content='x3d --generate'/></head>\n"
          "  <Scene>\n"
          "    <Viewpoint description='overview' position='0 30 90'/>\n";
  while (W.Out.size() + 64 < Bytes)
    W.transform(1, 4, Bytes);
  W.Out += "  </Scene>\n</X3D>\n";
  return W.Out;
}

} // namespace x3d
