//===- bench_raytracer.cu - the ray tracer: BSGP against CUDA -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// examples/apps/raytracer/raytracer.bsgp (compiled by bsgpc for the cuda
// target, launched by libbsgprt) against its hand-written CUDA twin
// (raytracer_twin.cu), on the same kd-tree (kdtree.cpp, built here once per
// scene) and the same device lists. For each scene, at 1024x1024 with 3
// bounces: both render a frame and their pictures are compared (pixels
// with a channel more than 2/255 apart after the 8-bit conversion; both
// round alike, so only ties should differ); then the median frame time of
// each, rays per second (eye, reflected or refracted and shadow rays, as
// the twin counts them), the ratio cuda / bsgp (above 1: BSGP is faster),
// and the device memory each needs beyond the scene's lists (BSGP: the
// runtime's peak, from bsgprt_memory_stats; CUDA: what the twin
// allocates). Exits 1 if more than 0.1% of the pixels differ.
//
//===----------------------------------------------------------------------===//

#include "../Timing.h"
#include "bsgp/runtime.h"
#include "kdtree.h"
#include "raytracer_twin.h"
#include "scene.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

template <typename T> T *upload(const std::vector<T> &v, size_t &bytes) {
  size_t b = std::max<size_t>(1, v.size()) * sizeof(T);
  bytes += b;
  T *d = (T *)bsgprt_dnew(b, "bench_raytracer");
  bsgprt_memcpy_htod(d, v.data(), v.size() * sizeof(T));
  return d;
}

int byteOf(float c) {
  c = std::min(std::max(c, 0.0f), 1.0f);
  return (int)std::lround(255.0f * std::pow(c, 1.0f / 2.2f));
}

long differing(const std::vector<RtVec> &a, const std::vector<RtVec> &b) {
  long bad = 0;
  for (size_t i = 0; i < a.size(); ++i)
    bad += std::abs(byteOf(a[i].x) - byteOf(b[i].x)) > 2 ||
           std::abs(byteOf(a[i].y) - byteOf(b[i].y)) > 2 ||
           std::abs(byteOf(a[i].z) - byteOf(b[i].z)) > 2;
  return bad;
}

} // namespace

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 7;
  int size = 1024, bounces = 3;
  bool ok = true;
  cudaFree(nullptr);
  std::printf("device: %s\n", bsgprt_device_name());
  for (int detail : {4, 12}) {
    rt::Scene scene = rt::proceduralScene(detail);
    rt::KdTree tree = rt::buildKdTree(scene.mesh);
    RtScene rs;
    rt::describeScene(scene, tree, size, size, bounces, rs);
    size_t sceneBytes = 0;
    rs.nodes = upload(tree.nodes, sceneBytes);
    rs.leaves = upload(tree.leaves, sceneBytes);
    rs.triIndex = upload(tree.triIndex, sceneBytes);
    rs.tris = upload(tree.tris, sceneBytes);
    rs.shade = upload(tree.shade, sceneBytes);
    rs.mat = upload(scene.mesh.material, sceneBytes);
    rs.materials = upload(scene.materials, sceneBytes);
    size_t pixels = (size_t)size * size;
    RtVec *dImage = (RtVec *)bsgprt_dnew(pixels * sizeof(RtVec), "image");
    RaytracerTwin twin(rs);

    rtRender(&rs, dImage, nullptr);
    twin.render();
    bsgprt_synchronize();
    cudaDeviceSynchronize();
    std::vector<RtVec> gotB(pixels), gotC(pixels);
    bsgprt_memcpy_dtoh(gotB.data(), dImage, pixels * sizeof(RtVec));
    cudaMemcpy(gotC.data(), twin.image(), pixels * sizeof(RtVec),
               cudaMemcpyDeviceToHost);
    long bad = differing(gotB, gotC);
    bool same = bad * 1000 <= (long)pixels;
    ok = ok && same;
    long eye, secondary, shadow;
    twin.countRays(eye, secondary, shadow);
    double rays = (double)(eye + secondary + shadow);

    double bsgp = medianSeconds(
        [&] {
          rtRender(&rs, dImage, nullptr);
          bsgprt_synchronize();
        },
        reps);
    double cuda = medianSeconds(
        [&] {
          twin.render();
          cudaDeviceSynchronize();
        },
        reps);
    bsgprt_synchronize();
    bsgprt_pool_trim();
    bsgprt_memory_reset_peak();
    bsgprt_memory_stats_t before, after;
    bsgprt_memory_stats(&before);
    rtRender(&rs, dImage, nullptr);
    bsgprt_synchronize();
    bsgprt_memory_stats(&after);
    // The image is the caller's in BSGP and the twin's own: counted on
    // both sides.
    double bsgpMiB = double(after.peak_device_bytes - before.device_bytes +
                            pixels * sizeof(RtVec)) /
                     (1 << 20);
    double cudaMiB = double(twin.extraBytes()) / (1 << 20);
    std::printf(
        "raytracer detail=%-2d %d triangles, %zu leaves, %dx%d, %d bounces: "
        "%.2fM rays (%ld eye, %ld bounce, %ld shadow)\n",
        detail, scene.mesh.size(), tree.leaves.size(), size, size, bounces,
        rays / 1e6, eye, secondary, shadow);
    std::printf(
        "  bsgp %8.3f ms/frame %7.1f Mrays/s   cuda %8.3f ms/frame %7.1f "
        "Mrays/s   ratio %.2f   %s (%ld pixels beyond 2/255)\n",
        bsgp * 1e3, rays / bsgp / 1e6, cuda * 1e3, rays / cuda / 1e6,
        cuda / bsgp, same ? "pictures agree" : "PICTURES DIFFER", bad);
    std::printf("  memory beyond the scene's %.1f MiB: bsgp %.1f MiB, cuda "
                "%.1f MiB\n",
                double(sceneBytes) / (1 << 20), bsgpMiB, cudaMiB);
    for (void *p : {(void *)rs.nodes, (void *)rs.leaves, (void *)rs.triIndex,
                    (void *)rs.tris, (void *)rs.shade, (void *)rs.mat,
                    (void *)rs.materials, (void *)dImage})
      bsgprt_dfree(p);
  }
  return ok ? 0 : 1;
}
