//===- main.cpp - the kd-tree ray tracer: renders and checks itself -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Builds the kd-tree of a scene here (kdtree.cpp), copies it to the device
// and renders with rtRender (raytracer.bsgp). Without arguments it checks
// itself on a small scene: the hit of every eye ray against all triangles,
// and the picture against the brute-force renderer of reference.cpp; see
// README.md. Its output then is the same on every backend (counts and
// verdicts only), so that the GPU bundle can compare it with the CPU's.
//
//===----------------------------------------------------------------------===//

#include "kdtree.h"
#include "raytracer.h"
#include "reference.h"
#include "scene.h"

#include "bsgp/runtime.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#if __has_include(<stb/stb_image_write.h>)
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>
#define RAYTRACER_HAVE_STB 1
#endif

using namespace rt;

namespace {

struct Options {
  std::string scene; // a file, or empty: the procedural scene
  int detail = 1;    // of the procedural scene
  int size = 96;     // pixels per side
  int bounces = 3;   // reflection and refraction bounces
  int repeat = 1;    // frames, for timing
  bool check = true; // compare with the brute-force renderer
  const char *png = nullptr;
  const char *ppm = nullptr;
  bool verbose = false;
};

void usage() {
  std::fprintf(
      stderr,
      "usage: raytracer [--scene file.off|file.obj] [--detail d] [--size n]\n"
      "                 [--bounces b] [--repeat k] [--check|--no-check]\n"
      "                 [--png file]\n"
      "                 [--ppm file] [-v]\n"
      "       raytracer --diff a.ppm b.ppm   (pixels differing by > 2/255)\n");
}

bool parseOptions(int argc, char **argv, Options &o) {
  bool large = false, checkAsked = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool hasValue = i + 1 < argc;
    if (a == "--scene" && hasValue)
      o.scene = argv[++i], large = true;
    else if (a == "--detail" && hasValue)
      o.detail = std::atoi(argv[++i]), large = true;
    else if (a == "--size" && hasValue)
      o.size = std::atoi(argv[++i]), large = true;
    else if (a == "--bounces" && hasValue)
      o.bounces = std::atoi(argv[++i]);
    else if (a == "--repeat" && hasValue)
      o.repeat = std::atoi(argv[++i]);
    else if (a == "--no-check")
      o.check = false;
    else if (a == "--check")
      checkAsked = true;
    else if (a == "--png" && hasValue)
      o.png = argv[++i];
    else if (a == "--ppm" && hasValue)
      o.ppm = argv[++i];
    else if (a == "-v")
      o.verbose = true;
    else
      return false;
  }
  // A large picture is not checked unless asked: the brute-force renderer
  // takes minutes there.
  if (large && o.check && !checkAsked)
    o.check = false;
  return o.size >= 1 && o.size <= 8192 && o.detail >= 1 && o.detail <= 64 &&
         o.bounces >= 0 && o.bounces <= 16 && o.repeat >= 1;
}

/// Linear RGB to 8 bits with a gamma of 2.2, the same for every renderer.
std::vector<uint8_t> toBytes(const std::vector<RtVec> &image) {
  std::vector<uint8_t> out(image.size() * 3);
  for (size_t i = 0; i < image.size(); ++i) {
    const float c[3] = {image[i].x, image[i].y, image[i].z};
    for (int k = 0; k < 3; ++k) {
      float v = std::min(std::max(c[k], 0.0f), 1.0f);
      out[i * 3 + k] = (uint8_t)std::lround(255.0f * std::pow(v, 1.0f / 2.2f));
    }
  }
  return out;
}

bool writePpm(const char *path, const std::vector<uint8_t> &rgb, int w, int h) {
  std::ofstream f(path, std::ios::binary);
  f << "P6\n" << w << " " << h << "\n255\n";
  f.write((const char *)rgb.data(), (std::streamsize)rgb.size());
  return (bool)f;
}

bool readPpm(const char *path, std::vector<uint8_t> &rgb, int &w, int &h) {
  std::ifstream f(path, std::ios::binary);
  std::string magic;
  int maxv = 0;
  if (!(f >> magic >> w >> h >> maxv) || magic != "P6" || maxv != 255)
    return false;
  f.get();
  rgb.resize((size_t)w * h * 3);
  return (bool)f.read((char *)rgb.data(), (std::streamsize)rgb.size());
}

bool writePng(const char *path, const std::vector<uint8_t> &rgb, int w, int h) {
#ifdef RAYTRACER_HAVE_STB
  return stbi_write_png(path, w, h, 3, rgb.data(), w * 3) != 0;
#else
  (void)path, (void)rgb, (void)w, (void)h;
  std::fprintf(stderr, "raytracer: built without <stb/stb_image_write.h> "
                       "(Debian's libstb-dev): no PNG\n");
  return false;
#endif
}

/// Pixels with a channel more than `tolerance` apart.
long differingPixels(const std::vector<uint8_t> &a,
                     const std::vector<uint8_t> &b, int tolerance) {
  long bad = 0;
  for (size_t i = 0; i < a.size(); i += 3)
    for (int k = 0; k < 3; ++k)
      if (std::abs((int)a[i + k] - (int)b[i + k]) > tolerance) {
        ++bad;
        break;
      }
  return bad;
}

int diffMain(const char *pa, const char *pb) {
  std::vector<uint8_t> a, b;
  int wa, ha, wb, hb;
  if (!readPpm(pa, a, wa, ha) || !readPpm(pb, b, wb, hb) || wa != wb ||
      ha != hb) {
    std::fprintf(stderr, "raytracer: cannot compare %s and %s\n", pa, pb);
    return 2;
  }
  long bad = differingPixels(a, b, 2);
  std::printf("diff: %dx%d, %ld pixels (%.4f%%) differ by more than 2/255\n",
              wa, ha, bad, 100.0 * (double)bad / ((double)wa * ha));
  return 0;
}

template <typename T> T *upload(const std::vector<T> &v) {
  size_t bytes = std::max<size_t>(1, v.size()) * sizeof(T);
  T *d = (T *)bsgprt_dnew(bytes, "raytracer");
  if (!v.empty())
    bsgprt_memcpy_htod(d, v.data(), v.size() * sizeof(T));
  return d;
}

double seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "--diff") == 0)
    return diffMain(argv[2], argv[3]);
  Options o;
  if (!parseOptions(argc, argv, o)) {
    usage();
    return 2;
  }
  Scene scene;
  std::string what;
  if (!o.scene.empty()) {
    std::string error;
    if (!loadScene(o.scene, scene, error)) {
      std::fprintf(stderr, "raytracer: %s\n", error.c_str());
      return 1;
    }
    what = o.scene;
  } else {
    scene = proceduralScene(o.detail);
    what = "procedural, detail " + std::to_string(o.detail);
  }
  double t0 = seconds();
  KdTree tree = buildKdTree(scene.mesh);
  double buildSeconds = seconds() - t0;
  std::printf("scene: %s, %d triangles, %zu materials, %zu lights\n",
              what.c_str(), scene.mesh.size(), scene.materials.size(),
              scene.lights.size());
  std::printf("kd-tree: %zu nodes, %zu leaves, %zu triangle references, "
              "depth %d\n",
              tree.nodes.size(), tree.leaves.size(), tree.triIndex.size(),
              tree.depth);
  if (o.verbose)
    std::printf("kd-tree built in %.3f s\n", buildSeconds);

  RtScene rs;
  describeScene(scene, tree, o.size, o.size, o.bounces, rs);
  rs.nodes = upload(tree.nodes);
  rs.leaves = upload(tree.leaves);
  rs.triIndex = upload(tree.triIndex);
  rs.tris = upload(tree.tris);
  rs.shade = upload(tree.shade);
  rs.mat = upload(scene.mesh.material);
  rs.materials = upload(scene.materials);
  size_t pixels = (size_t)o.size * o.size;
  RtVec *dImage = (RtVec *)bsgprt_dnew(pixels * sizeof(RtVec), "image");
  RtHit *dHits =
      o.check ? (RtHit *)bsgprt_dnew(pixels * sizeof(RtHit), "hits") : nullptr;

  rtRender(&rs, dImage, dHits);
  bsgprt_synchronize();
  if (o.repeat > 1 || !o.check) {
    double t1 = seconds();
    for (int r = 0; r < o.repeat; ++r)
      rtRender(&rs, dImage, nullptr);
    bsgprt_synchronize();
    double frame = (seconds() - t1) / o.repeat;
    // Timings differ from run to run: only outside the self-check.
    std::printf("frame: %dx%d, %d bounces, %.2f ms (%d frames)\n", o.size,
                o.size, o.bounces, frame * 1e3, o.repeat);
  }
  std::vector<RtVec> image(pixels);
  bsgprt_memcpy_dtoh(image.data(), dImage, pixels * sizeof(RtVec));
  std::vector<uint8_t> rgb = toBytes(image);
  bool ok = true;
  if (o.check) {
    std::vector<RtHit> hits(pixels), refHits;
    bsgprt_memcpy_dtoh(hits.data(), dHits, pixels * sizeof(RtHit));
    std::vector<RtVec> refImage;
    referenceRender(rs, tree.tris, tree.shade, scene.mesh.material,
                    scene.materials, refImage, refHits);
    // An eye ray's hit agrees with the brute force when it is the same
    // triangle, or when both hit at distances within 1e-5 of each other
    // (relative): a tie between two triangles at a shared edge.
    long hitRays = 0, hitMismatch = 0;
    for (size_t i = 0; i < pixels; ++i) {
      const RtHit &a = hits[i], &b = refHits[i];
      hitRays += b.tri >= 0;
      bool same = a.tri == b.tri ||
                  (a.tri >= 0 && b.tri >= 0 &&
                   std::fabs(a.t - b.t) <= 1e-5f * std::max(a.t, b.t));
      hitMismatch += !same;
    }
    std::vector<uint8_t> refRgb = toBytes(refImage);
    long bad = differingPixels(rgb, refRgb, 2);
    // At most 0.2% of the pixels, at least 1, may differ by more than 2/255.
    long allowed = std::max<long>(1, (long)(pixels / 500));
    if (o.verbose)
      std::printf("eye-ray mismatches %ld, pixels beyond 2/255: %ld\n",
                  hitMismatch, bad);
    bool hitsOk = hitMismatch == 0;
    bool imageOk = bad <= allowed;
    std::printf("eye rays: %zu traced through the kd-tree, %ld hit the "
                "scene, %s\n",
                pixels, hitRays,
                hitsOk ? "all hits as the brute force's"
                       : "HITS DIFFER FROM THE BRUTE FORCE");
    std::printf("image: %dx%d, %d bounces, against the brute-force renderer: "
                "%s\n",
                o.size, o.size, o.bounces,
                imageOk ? "at most 0.2% of pixels beyond 2/255 per channel"
                        : "TOO MANY PIXELS DIFFER");
    if (!hitsOk || !imageOk)
      std::printf("mismatching eye rays %ld, pixels beyond 2/255 %ld (allowed "
                  "%ld)\n",
                  hitMismatch, bad, allowed);
    ok = hitsOk && imageOk;
  }
  if (o.png && !writePng(o.png, rgb, o.size, o.size)) {
    std::fprintf(stderr, "raytracer: could not write %s\n", o.png);
    ok = false;
  }
  if (o.ppm && !writePpm(o.ppm, rgb, o.size, o.size)) {
    std::fprintf(stderr, "raytracer: could not write %s\n", o.ppm);
    ok = false;
  }
  for (void *p : {(void *)rs.nodes, (void *)rs.leaves, (void *)rs.triIndex,
                  (void *)rs.tris, (void *)rs.shade, (void *)rs.mat,
                  (void *)rs.materials, (void *)dImage, (void *)dHits})
    if (p)
      bsgprt_dfree(p);
  if (o.check)
    std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
