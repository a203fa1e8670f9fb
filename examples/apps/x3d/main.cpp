//===- main.cpp - parses X3D scenes on the device and checks them ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The X3D parser application (x3d.bsgp): parses X3D files on the device,
// parses them again with pugixml and std::from_chars on the host
// (host.cpp) and compares the two element by element:
//
//   - the numbers of every attribute read: indices exactly, floats within
//     one ulp of std::from_chars's correctly rounded float;
//   - triangle indices, the triangles' shapes and each shape's vertex range
//     exactly;
//   - world positions, texture coordinates and colours within 1e-5 and
//     normals within 1e-3 (absolute, or relative to the larger magnitude
//     above 1): the two sides compose the same matrices in a different
//     order, and the device may contract multiply-adds; computed normals
//     come from differences of nearby world positions, which magnify those
//     last-bit differences.
//
// Usage:
//   x3d [--tests DIR]            the files in tests/ (beside this source, or
//                                DIR) and a generated scene
//   x3d FILE...                  parse and check these
//   x3d FILE --write-off OUT     also write its triangles (world space)
//   x3d FILE --png OUT.png       and a picture of them (render.cpp)
//   x3d --generate OUT [--size 30MB] [--seed N]
//   x3d --bench [--sizes 1,5,10,30]  parse time on the device and on the
//                                host for generated scenes of those sizes
//
//===----------------------------------------------------------------------===//

#include "x3d.h"

#include "bsgp/runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <vector>

using namespace x3d;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point A, Clock::time_point B) {
  return std::chrono::duration<double>(B - A).count();
}

bool readFile(const std::string &Path, std::string &Text) {
  FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F)
    return false;
  std::fseek(F, 0, SEEK_END);
  long Size = std::ftell(F);
  std::fseek(F, 0, SEEK_SET);
  Text.resize(Size > 0 ? Size : 0);
  size_t Got = Size > 0 ? std::fread(Text.data(), 1, Size, F) : 0;
  std::fclose(F);
  return Got == Text.size();
}

/// "NAME:LINE:COL: error: WHAT (byte N)".
void report(const std::string &Name, const std::string &Text, const Error &E,
            const char *Side) {
  int64_t Line = 1, Col = 1;
  for (int64_t I = 0; I < E.Offset && I < (int64_t)Text.size(); ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
  }
  if (E.Offset < 0)
    std::printf("%s: error (%s): %s\n", Name.c_str(), Side, E.What.c_str());
  else
    std::printf("%s:%lld:%lld: error (%s): %s (byte %lld)\n", Name.c_str(),
                (long long)Line, (long long)Col, Side, E.What.c_str(),
                (long long)E.Offset);
}

/// Distance in ulps between two floats of the same sign (else large).
int64_t ulps(float A, float B) {
  if (A == B)
    return 0;
  int32_t X, Y;
  std::memcpy(&X, &A, 4);
  std::memcpy(&Y, &B, 4);
  if ((X < 0) != (Y < 0))
    return INT64_MAX;
  return std::llabs((int64_t)X - (int64_t)Y);
}

bool close(float A, float B, float Tol) {
  float Scale = std::max({1.0f, std::fabs(A), std::fabs(B)});
  return std::fabs(A - B) <= Tol * Scale;
}

struct Check {
  bool Verbose = false;
  int Errors = 0;
  int64_t Exact = 0, OneUlp = 0;

  template <typename T>
  bool sizes(const char *What, const std::vector<T> &A,
             const std::vector<T> &B) {
    if (A.size() == B.size())
      return true;
    std::printf("  %s: %zu on the device, %zu on the host\n", What, A.size(),
                B.size());
    ++Errors;
    return false;
  }
  void exact(const char *What, const std::vector<int> &A,
             const std::vector<int> &B) {
    if (!sizes(What, A, B))
      return;
    for (size_t I = 0; I < A.size(); ++I)
      if (A[I] != B[I]) {
        if (Errors++ < 10)
          std::printf("  %s[%zu]: %d on the device, %d on the host\n", What, I,
                      A[I], B[I]);
      }
  }
  void near(const char *What, const std::vector<float> &A,
            const std::vector<float> &B, float Tol) {
    if (!sizes(What, A, B))
      return;
    for (size_t I = 0; I < A.size(); ++I)
      if (!close(A[I], B[I], Tol)) {
        if (Errors++ < 10)
          std::printf("  %s[%zu]: %.9g on the device, %.9g on the host\n", What,
                      I, A[I], B[I]);
      }
  }
  void numbers(const std::vector<float> &A, const std::vector<float> &B) {
    if (!sizes("floats", A, B))
      return;
    for (size_t I = 0; I < A.size(); ++I) {
      int64_t U = ulps(A[I], B[I]);
      Exact += U == 0;
      OneUlp += U == 1;
      if (U == 1 && Verbose)
        std::printf("  float %zu one ulp off: %.9g on the device, %.9g "
                    "from_chars\n",
                    I, A[I], B[I]);
      if (U > 1 && Errors++ < 10)
        std::printf("  float %zu: %.9g on the device, %.9g from_chars\n", I,
                    A[I], B[I]);
    }
  }
};

int compare(const Scene &D, const Scene &H, bool Verbose) {
  Check C;
  C.Verbose = Verbose;
  C.exact("indices", D.Ints, H.Ints);
  C.numbers(D.Floats, H.Floats);
  C.exact("triangles", D.Idx, H.Idx);
  C.exact("triangle shapes", D.TriShape, H.TriShape);
  C.exact("first vertices", D.VertexFirst, H.VertexFirst);
  C.exact("vertex counts", D.VertexCount, H.VertexCount);
  C.exact("first triangles", D.TriFirst, H.TriFirst);
  C.exact("triangle counts", D.TriCount, H.TriCount);
  C.near("positions", D.Pos, H.Pos, 1e-5f);
  C.near("texture coordinates", D.Tex, H.Tex, 1e-5f);
  C.near("colours", D.Color, H.Color, 1e-5f);
  C.near("normals", D.Nrm, H.Nrm, 1e-3f);
  std::printf("  floats: %zu, %lld equal to from_chars, %lld one ulp off\n",
              D.Floats.size(), (long long)C.Exact, (long long)C.OneUlp);
  return C.Errors;
}

/// Rounded to 3 decimals, without "-0.000".
double r3(float V) {
  double R = std::round((double)V * 1000) / 1000;
  return R == 0 ? 0.0 : R;
}

void summary(const Scene &S) {
  if (S.Pos.empty())
    return;
  float Lo[3] = {INFINITY, INFINITY, INFINITY},
        Hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t I = 0; I < S.Pos.size(); ++I) {
    Lo[I % 3] = std::min(Lo[I % 3], S.Pos[I]);
    Hi[I % 3] = std::max(Hi[I % 3], S.Pos[I]);
  }
  std::printf("  bounds (%g %g %g) - (%g %g %g)\n", r3(Lo[0]), r3(Lo[1]),
              r3(Lo[2]), r3(Hi[0]), r3(Hi[1]), r3(Hi[2]));
  // Small scenes: each shape's first vertex and colour.
  size_t Shapes = S.VertexFirst.size();
  for (size_t I = 0; I < Shapes && Shapes <= 4; ++I) {
    std::printf("  shape %zu: %d vertices, %d triangles", I, S.VertexCount[I],
                S.TriCount[I]);
    const float *C = &S.Color[4 * I];
    if (S.VertexCount[I] > 0) {
      size_t V = S.VertexFirst[I];
      const float *P = &S.Pos[3 * V], *N = &S.Nrm[3 * V], *T = &S.Tex[2 * V];
      std::printf(", first at (%g %g %g) normal (%g %g %g) texcoord (%g %g)",
                  r3(P[0]), r3(P[1]), r3(P[2]), r3(N[0]), r3(N[1]), r3(N[2]),
                  r3(T[0]), r3(T[1]));
    }
    std::printf(", colour (%g %g %g %g)\n", r3(C[0]), r3(C[1]), r3(C[2]),
                r3(C[3]));
  }
}

bool writeOff(const std::string &Path, const Scene &S) {
  FILE *F = std::fopen(Path.c_str(), "w");
  if (!F)
    return false;
  std::fprintf(F, "OFF\n%zu %zu 0\n", S.Pos.size() / 3, S.Idx.size() / 3);
  for (size_t I = 0; I < S.Pos.size(); I += 3)
    std::fprintf(F, "%.7g %.7g %.7g\n", S.Pos[I], S.Pos[I + 1], S.Pos[I + 2]);
  for (size_t I = 0; I < S.Idx.size(); I += 3)
    std::fprintf(F, "3 %d %d %d\n", S.Idx[I], S.Idx[I + 1], S.Idx[I + 2]);
  return std::fclose(F) == 0;
}

/// Parses one text on both sides and compares; 0 when all agree.
int checkText(const std::string &Name, const std::string &Text,
              const std::string &Off, const std::string &Png, bool Verbose) {
  DeviceScene D;
  Error E = parseDevice(Text, D);
  if (E.Failed) {
    report(Name, Text, E, "device");
    release(D);
    return 1;
  }
  Scene DS = download(D);
  release(D);
  std::printf("%s: %zu shapes, %zu vertices, %zu triangles, %zu numbers\n",
              Name.c_str(), DS.VertexCount.size(), DS.Pos.size() / 3,
              DS.Idx.size() / 3, DS.Floats.size() + DS.Ints.size());
  if (Verbose)
    summary(DS);
  if (!Off.empty() && !writeOff(Off, DS)) {
    std::printf("cannot write %s\n", Off.c_str());
    return 1;
  }
  if (!Png.empty() && !writePng(Png, DS, 800, 600)) {
    std::printf("cannot write %s\n", Png.c_str());
    return 1;
  }
  if (!hostParserAvailable()) {
    std::printf("  (no pugixml: not compared)\n");
    return 0;
  }
  Scene HS;
  Error HE = parseHost(Text, HS);
  if (HE.Failed) {
    report(Name, Text, HE, "pugixml");
    return 1;
  }
  int Errors = compare(DS, HS, Verbose);
  std::printf("  device == pugixml: %s\n", Errors ? "FAIL" : "ok");
  return Errors != 0;
}

std::string dirOf(const char *Path) {
  std::string S = Path;
  size_t Slash = S.rfind('/');
  return Slash == std::string::npos ? "." : S.substr(0, Slash);
}

/// The hand-written files: tests/ beside this source, or `Dir`.
std::vector<std::string> testFiles(std::string Dir) {
  if (Dir.empty())
    Dir = dirOf(__FILE__) + "/tests";
  std::vector<std::string> Files;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string N = E->d_name;
      if (N.size() > 4 && N.compare(N.size() - 4, 4, ".x3d") == 0 &&
          N.compare(0, 4, "bad-") != 0)
        Files.push_back(Dir + "/" + N);
    }
    closedir(D);
  }
  std::sort(Files.begin(), Files.end());
  return Files;
}

std::string baseName(const std::string &P) {
  size_t Slash = P.rfind('/');
  return Slash == std::string::npos ? P : P.substr(Slash + 1);
}

template <typename Fn> double median3(Fn F) {
  double T[3];
  for (double &X : T) {
    auto A = Clock::now();
    F();
    X = seconds(A, Clock::now());
  }
  std::sort(T, T + 3);
  return T[1];
}

int bench(const std::vector<int> &Sizes) {
  std::printf("device: %s\n", bsgprt_device_name());
  std::printf("| scene | shapes | triangles | read (ms) | pugixml (ms) | "
              "BSGP with upload (ms) | upload (ms) | BSGP on the device (ms) "
              "| speed-up | speed-up without upload |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  const char *Tmp = std::getenv("TMPDIR");
  int Errors = 0;
  for (int Mb : Sizes) {
    std::string Path = std::string(Tmp ? Tmp : "/tmp") + "/x3d-bench-" +
                       std::to_string(Mb) + "mb.x3d";
    {
      std::string G = generate((size_t)Mb << 20, 2008 + Mb);
      FILE *F = std::fopen(Path.c_str(), "wb");
      if (!F)
        return 1;
      std::fwrite(G.data(), 1, G.size(), F);
      std::fclose(F);
    }
    std::string Text;
    double Read = median3([&] { readFile(Path, Text); });
    Scene HS;
    double Host = median3([&] {
      HS = Scene();
      parseHost(Text, HS);
    });
    DeviceScene D;
    parseDevice(Text, D); // warm-up; also the result compared below
    Scene DS = download(D);
    release(D);
    Errors += compare(DS, HS, false);
    double Dev = median3([&] {
      DeviceScene X;
      parseDevice(Text, X);
      bsgprt_synchronize();
      release(X);
    });
    char *Buf = static_cast<char *>(bsgprt_dnew(Text.size() + 1, "bench"));
    double Up = median3([&] {
      bsgprt_memcpy_htod(Buf, Text.data(), Text.size());
      bsgprt_synchronize();
    });
    double Parse = median3([&] {
      DeviceScene X;
      parseUploaded(Buf, (int)Text.size(), X);
      bsgprt_synchronize();
      release(X);
    });
    bsgprt_dfree(Buf);
    std::printf("| %d MB | %zu | %zu | %.1f | %.1f | %.2f | %.2f | %.2f | "
                "%.1fx | %.1fx |\n",
                Mb, DS.VertexCount.size(), DS.Idx.size() / 3, Read * 1e3,
                Host * 1e3, Dev * 1e3, Up * 1e3, Parse * 1e3, Host / Dev,
                Host / Parse);
    std::remove(Path.c_str());
  }
  std::printf("read: the file's I/O, apart from both parsers; medians of 3 "
              "runs\nresults: %s\n",
              Errors ? "FAIL" : "device == pugixml");
  return Errors != 0;
}

size_t parseSize(const char *S) {
  char *End = nullptr;
  double V = std::strtod(S, &End);
  std::string U = End;
  if (U == "MB" || U == "M")
    V *= 1 << 20;
  else if (U == "KB" || U == "K")
    V *= 1 << 10;
  return (size_t)V;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Files;
  std::string Off, GenOut, TestDir, Png;
  size_t GenSize = 1 << 20;
  unsigned Seed = 2008;
  bool Bench = false;
  std::vector<int> Sizes = {1, 5, 10, 30};
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    bool Next = I + 1 < Argc;
    if (A == "--write-off" && Next)
      Off = Argv[++I];
    else if (A == "--png" && Next)
      Png = Argv[++I];
    else if (A == "--generate" && Next)
      GenOut = Argv[++I];
    else if (A == "--size" && Next)
      GenSize = parseSize(Argv[++I]);
    else if (A == "--seed" && Next)
      Seed = (unsigned)std::atoi(Argv[++I]);
    else if (A == "--tests" && Next)
      TestDir = Argv[++I];
    else if (A == "--bench")
      Bench = true;
    else if (A == "--sizes" && Next) {
      Sizes.clear();
      for (char *T = std::strtok(Argv[++I], ","); T; T = std::strtok(0, ","))
        Sizes.push_back(std::atoi(T));
    } else if (A.size() > 1 && A[0] == '-') {
      std::printf("usage: x3d [--tests DIR] | FILE... [--write-off OUT] "
                  "[--png OUT] | --generate OUT "
                  "[--size 30MB] [--seed N] | --bench [--sizes 1,5,10,30]\n");
      return 2;
    } else
      Files.push_back(A);
  }
  if (!GenOut.empty()) {
    std::string G = generate(GenSize, Seed);
    FILE *F = std::fopen(GenOut.c_str(), "wb");
    if (!F || std::fwrite(G.data(), 1, G.size(), F) != G.size()) {
      std::printf("cannot write %s\n", GenOut.c_str());
      return 1;
    }
    std::fclose(F);
    std::printf("wrote %s: %zu bytes\n", GenOut.c_str(), G.size());
    return 0;
  }
  if (Bench)
    return bench(Sizes);
  int Failed = 0;
  if (!Files.empty()) {
    for (const std::string &F : Files) {
      std::string Text;
      if (!readFile(F, Text)) {
        std::printf("cannot read %s\n", F.c_str());
        return 1;
      }
      Failed += checkText(baseName(F), Text, Off, Png, true);
    }
    return Failed != 0;
  }
  for (const std::string &F : testFiles(TestDir)) {
    std::string Text;
    if (!readFile(F, Text)) {
      std::printf("cannot read %s\n", F.c_str());
      return 1;
    }
    Failed += checkText(baseName(F), Text, "", "", true);
  }
  std::string G = generate(GenSize, Seed);
  Failed += checkText("generated", G, "", "", false);
  std::printf("%s\n", Failed ? "FAIL" : "PASS");
  return Failed != 0;
}
