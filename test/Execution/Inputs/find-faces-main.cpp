//===- find-faces-main.cpp - checks find-faces.bsgp -----------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// A W x H grid of quads, two triangles each, with shuffled triangle order.
// The expected pf is the stable sort of the corners by vertex (so faces
// appear in increasing id per vertex), hd[v] the first position of v.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <cstdio>
#include <vector>

extern "C" {
void findFaces1(int *pf, int *hd, int *ib, int n);
void findFaces9(int *pf, int *hd, int *ib, int n);
}

namespace {

int failures = 0;

std::vector<int> gridMesh(int w, int h) {
  std::vector<int> ib;
  auto id = [&](int x, int y) { return y * (w + 1) + x; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int a = id(x, y), b = id(x + 1, y), c = id(x, y + 1),
          d = id(x + 1, y + 1);
      ib.insert(ib.end(), {a, b, d, a, d, c});
    }
  // Deterministic shuffle of the triangles.
  int n = int(ib.size() / 3);
  uint32_t s = 7;
  for (int i = n - 1; i > 0; --i) {
    s = s * 1103515245u + 12345u;
    int j = int((s >> 8) % uint32_t(i + 1));
    for (int k = 0; k < 3; ++k)
      std::swap(ib[3 * i + k], ib[3 * j + k]);
  }
  return ib;
}

void check(int listing, int w, int h) {
  std::vector<int> ib = gridMesh(w, h);
  int n = int(ib.size() / 3), nv = (w + 1) * (h + 1);
  // Sequential reference: counting sort of corners by vertex.
  std::vector<int> count(nv + 1, 0), pf(3 * n), hd(nv, -1);
  for (int v : ib)
    ++count[v + 1];
  for (int v = 0; v < nv; ++v)
    count[v + 1] += count[v];
  for (int v = 0; v < nv; ++v)
    if (count[v + 1] > count[v])
      hd[v] = count[v];
  std::vector<int> pos(count.begin(), count.end() - 1);
  for (int k = 0; k < 3 * n; ++k)
    pf[pos[ib[k]]++] = k / 3;

  int *dIb = static_cast<int *>(bsgprt_dnew(ib.size() * 4, "main"));
  int *dPf = static_cast<int *>(bsgprt_dnew(ib.size() * 4, "main"));
  int *dHd = static_cast<int *>(bsgprt_dnew(nv * 4, "main"));
  bsgprt_memcpy_htod(dIb, ib.data(), ib.size() * 4);
  std::vector<int> minusOne(nv, -1);
  bsgprt_memcpy_htod(dHd, minusOne.data(), nv * 4);
  (listing == 1 ? findFaces1 : findFaces9)(dPf, dHd, dIb, n);
  std::vector<int> gotPf(3 * n), gotHd(nv);
  bsgprt_memcpy_dtoh(gotPf.data(), dPf, gotPf.size() * 4);
  bsgprt_memcpy_dtoh(gotHd.data(), dHd, nv * 4);
  bool ok = gotPf == pf && gotHd == hd;
  failures += !ok;
  std::printf("listing %d, %dx%d grid: %s\n", listing, w, h,
              ok ? "ok" : "FAIL");
  bsgprt_dfree(dIb);
  bsgprt_dfree(dPf);
  bsgprt_dfree(dHd);
}

} // namespace

int main() {
  const int sizes[][2] = {{1, 1}, {37, 23}, {300, 200}};
  for (auto &s : sizes) {
    check(1, s[0], s[1]);
    check(9, s[0], s[1]);
  }
  return failures != 0;
}
