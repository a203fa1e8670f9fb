//===- render.cpp - a picture of a parsed scene ---------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Rasterizes the triangles of a parsed scene in software (depth buffer,
// normals interpolated, one light, each shape's diffuse colour) and writes
// a PNG with stb_image_write from Debian's libstb-dev. Without that header
// the program still builds and writePng says so.
//
//===----------------------------------------------------------------------===//

#include "x3d.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#if __has_include(<stb/stb_image_write.h>)
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#define HAVE_STB 1
#else
#define HAVE_STB 0
#endif

namespace x3d {

bool writePng(const std::string &Path, const Scene &S, int W, int H) {
#if !HAVE_STB
  (void)Path, (void)S, (void)W, (void)H;
  std::printf("no PNG: built without stb_image_write.h\n");
  return false;
#else
  size_t V = S.Pos.size() / 3;
  if (V == 0)
    return false;
  // Camera: looking at the bounding box's centre from above and in front.
  float Lo[3] = {INFINITY, INFINITY, INFINITY},
        Hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t I = 0; I < S.Pos.size(); ++I) {
    Lo[I % 3] = std::min(Lo[I % 3], S.Pos[I]);
    Hi[I % 3] = std::max(Hi[I % 3], S.Pos[I]);
  }
  float C[3], R = 0;
  for (int K = 0; K < 3; ++K) {
    C[K] = (Lo[K] + Hi[K]) / 2;
    R = std::max(R, Hi[K] - Lo[K]);
  }
  // Orthonormal view basis: forward F from the eye towards C.
  float F[3] = {-0.45f, -0.55f, -0.7f};
  float Fl = std::sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]);
  for (float &X : F)
    X /= Fl;
  float Rt[3] = {F[2], 0, -F[0]}; // F x up, up = y
  float Rl = std::sqrt(Rt[0] * Rt[0] + Rt[2] * Rt[2]);
  Rt[0] /= Rl;
  Rt[2] /= Rl;
  float Up[3] = {Rt[1] * F[2] - Rt[2] * F[1], Rt[2] * F[0] - Rt[0] * F[2],
                 Rt[0] * F[1] - Rt[1] * F[0]};
  float Eye[3] = {C[0] - 0.8f * R * F[0], C[1] - 0.8f * R * F[1],
                  C[2] - 0.8f * R * F[2]};
  float Focal = 1.6f * H;
  std::vector<float> Sx(V), Sy(V), Sz(V);
  for (size_t I = 0; I < V; ++I) {
    float D[3] = {S.Pos[3 * I] - Eye[0], S.Pos[3 * I + 1] - Eye[1],
                  S.Pos[3 * I + 2] - Eye[2]};
    float Z = D[0] * F[0] + D[1] * F[1] + D[2] * F[2];
    float X = D[0] * Rt[0] + D[1] * Rt[1] + D[2] * Rt[2];
    float Y = D[0] * Up[0] + D[1] * Up[1] + D[2] * Up[2];
    Sz[I] = Z;
    Sx[I] = W / 2.0f + Focal * X / std::max(Z, 1e-3f);
    Sy[I] = H / 2.0f - Focal * Y / std::max(Z, 1e-3f);
  }
  std::vector<float> Depth((size_t)W * H, INFINITY);
  std::vector<unsigned char> Img((size_t)W * H * 3);
  for (size_t P = 0; P < (size_t)W * H; ++P) { // sky gradient
    float T = (float)(P / W) / H;
    Img[3 * P] = (unsigned char)(200 - 60 * T);
    Img[3 * P + 1] = (unsigned char)(215 - 50 * T);
    Img[3 * P + 2] = (unsigned char)(235 - 30 * T);
  }
  const float L[3] = {0.3f, 0.8f, 0.5f}; // light direction, normalized below
  float Ll = std::sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2]);
  for (size_t T = 0; T < S.Idx.size() / 3; ++T) {
    int A = S.Idx[3 * T], B = S.Idx[3 * T + 1], Cc = S.Idx[3 * T + 2];
    if (Sz[A] <= 0 || Sz[B] <= 0 || Sz[Cc] <= 0)
      continue;
    const float *Col = &S.Color[4 * S.TriShape[T]];
    float Area =
        (Sx[B] - Sx[A]) * (Sy[Cc] - Sy[A]) - (Sx[Cc] - Sx[A]) * (Sy[B] - Sy[A]);
    if (Area == 0)
      continue;
    int X0 = std::max(0, (int)std::floor(std::min({Sx[A], Sx[B], Sx[Cc]})));
    int X1 = std::min(W - 1, (int)std::ceil(std::max({Sx[A], Sx[B], Sx[Cc]})));
    int Y0 = std::max(0, (int)std::floor(std::min({Sy[A], Sy[B], Sy[Cc]})));
    int Y1 = std::min(H - 1, (int)std::ceil(std::max({Sy[A], Sy[B], Sy[Cc]})));
    for (int Y = Y0; Y <= Y1; ++Y)
      for (int X = X0; X <= X1; ++X) {
        float Px = X + 0.5f, Py = Y + 0.5f;
        float Wa =
            ((Sx[B] - Px) * (Sy[Cc] - Py) - (Sx[Cc] - Px) * (Sy[B] - Py)) /
            Area;
        float Wb =
            ((Sx[Cc] - Px) * (Sy[A] - Py) - (Sx[A] - Px) * (Sy[Cc] - Py)) /
            Area;
        float Wc = 1 - Wa - Wb;
        if (Wa < -1e-4f || Wb < -1e-4f || Wc < -1e-4f) // no cracks
          continue;
        float Z = Wa * Sz[A] + Wb * Sz[B] + Wc * Sz[Cc];
        size_t P = (size_t)Y * W + X;
        if (Z >= Depth[P])
          continue;
        Depth[P] = Z;
        float N[3];
        for (int K = 0; K < 3; ++K)
          N[K] = Wa * S.Nrm[3 * A + K] + Wb * S.Nrm[3 * B + K] +
                 Wc * S.Nrm[3 * Cc + K];
        float Nl = std::sqrt(N[0] * N[0] + N[1] * N[1] + N[2] * N[2]);
        float Dot =
            Nl > 0 ? (N[0] * L[0] + N[1] * L[1] + N[2] * L[2]) / (Nl * Ll) : 0;
        float Shade = 0.25f + 0.75f * std::fabs(Dot); // two-sided
        for (int K = 0; K < 3; ++K)
          Img[3 * P + K] =
              (unsigned char)std::min(255.0f, 255 * Shade * Col[K]);
      }
  }
  return stbi_write_png(Path.c_str(), W, H, 3, Img.data(), W * 3) != 0;
#endif
}

} // namespace x3d
