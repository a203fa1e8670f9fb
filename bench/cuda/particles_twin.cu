//===- particles_twin.cu - the particle fluid in hand-written CUDA --------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// One step is five kernels and a sort, as in the CUDA SDK's particles demo:
// hash each particle to its cell, sort (hash, index) pairs with CUB, reorder
// the particles into sorted order and find where each cell starts and ends
// (a block compares each hash with its left neighbour through shared
// memory), sum the collision forces over the 27 cells around each particle
// and write the new velocity back to the particle's original index, then
// integrate. The arithmetic is that of particles.bsgp, in the same order,
// so that the two give the same positions.
//
//===----------------------------------------------------------------------===//

#include "particles_twin.h"

#include <cub/device/device_radix_sort.cuh>

namespace {

constexpr int BlockSize = 256;

struct StepParams {
  SimParams prm;
  int n;
  float cellsPerUnit;
};

__device__ float3 operator+(float3 a, float3 b) {
  return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
__device__ float3 operator-(float3 a, float3 b) {
  return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}
__device__ float3 operator*(float s, float3 a) {
  return make_float3(s * a.x, s * a.y, s * a.z);
}
__device__ float3 xyz(float4 v) { return make_float3(v.x, v.y, v.z); }

__device__ int cellCoord(float x, const StepParams &p) {
  int c = (int)floorf((x + 1.0f) * p.cellsPerUnit);
  return min(max(c, 0), p.prm.grid - 1);
}

__device__ int cellHash(int x, int y, int z, int grid) {
  return (z * grid + y) * grid + x;
}

__global__ void calcHash(const float4 *__restrict__ pos, unsigned *hash,
                         unsigned *index, StepParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  float4 q = pos[i];
  hash[i] = cellHash(cellCoord(q.x, p), cellCoord(q.y, p), cellCoord(q.z, p),
                     p.prm.grid);
  index[i] = i;
}

// The SDK's reorderDataAndFindCellStart: thread i compares its hash with
// that of i - 1, which its block holds in shared memory (one more word for
// the block's first thread).
__global__ void reorderAndFindCellStart(
    const unsigned *__restrict__ sortedHash,
    const unsigned *__restrict__ sortedIndex, const float4 *__restrict__ pos,
    const float4 *__restrict__ vel, float4 *sortedPos, float4 *sortedVel,
    int *cellStart, int *cellEnd, int n) {
  __shared__ unsigned sharedHash[BlockSize + 1];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = 0;
  if (i < n) {
    h = sortedHash[i];
    sharedHash[threadIdx.x + 1] = h;
    if (i > 0 && threadIdx.x == 0)
      sharedHash[0] = sortedHash[i - 1];
  }
  __syncthreads();
  if (i >= n)
    return;
  if (i == 0 || h != sharedHash[threadIdx.x]) {
    cellStart[h] = i;
    if (i > 0)
      cellEnd[sharedHash[threadIdx.x]] = i;
  }
  if (i == n - 1)
    cellEnd[h] = i + 1;
  unsigned from = sortedIndex[i];
  sortedPos[i] = pos[from];
  sortedVel[i] = vel[from];
}

__device__ float3 collideSpheres(float3 posA, float3 posB, float3 velA,
                                 float3 velB, const SimParams &prm) {
  float3 relPos = posB - posA;
  float dist =
      sqrtf(relPos.x * relPos.x + relPos.y * relPos.y + relPos.z * relPos.z);
  float collideDist = 2.0f * prm.radius;
  float3 force = make_float3(0.0f, 0.0f, 0.0f);
  if (dist < collideDist) {
    float3 norm =
        make_float3(relPos.x / dist, relPos.y / dist, relPos.z / dist);
    float3 relVel = velB - velA;
    float relVelN = relVel.x * norm.x + relVel.y * norm.y + relVel.z * norm.z;
    float3 tanVel = relVel - relVelN * norm;
    force = (-prm.spring * (collideDist - dist)) * norm;
    force = force + prm.damping * relVel;
    force = force + prm.shear * tanVel;
    force = force + prm.attraction * relPos;
  }
  return force;
}

__global__ void collide(const float4 *__restrict__ sortedPos,
                        const float4 *__restrict__ sortedVel,
                        const unsigned *__restrict__ sortedIndex,
                        const int *__restrict__ cellStart,
                        const int *__restrict__ cellEnd, float4 *newVel,
                        StepParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  float3 pos = xyz(sortedPos[i]);
  float3 vel = xyz(sortedVel[i]);
  int cx = cellCoord(pos.x, p), cy = cellCoord(pos.y, p),
      cz = cellCoord(pos.z, p);
  int grid = p.prm.grid;
  float3 force = make_float3(0.0f, 0.0f, 0.0f);
  for (int z = max(cz - 1, 0); z <= min(cz + 1, grid - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, grid - 1); ++y)
      for (int x = max(cx - 1, 0); x <= min(cx + 1, grid - 1); ++x) {
        int c = cellHash(x, y, z, grid);
        int start = cellStart[c];
        if (start < 0)
          continue;
        int end = cellEnd[c];
        for (int j = start; j < end; ++j)
          if (j != i)
            force = force + collideSpheres(pos, xyz(sortedPos[j]), vel,
                                           xyz(sortedVel[j]), p.prm);
      }
  float3 v = vel + force;
  newVel[sortedIndex[i]] = make_float4(v.x, v.y, v.z, 0.0f);
}

__device__ float bounce(float &x, float v, float lo, float hi, float damping) {
  if (x > hi || x < lo) {
    x = fminf(fmaxf(x, lo), hi);
    return v * damping;
  }
  return v;
}

__global__ void integrate(float4 *pos, float4 *vel,
                          const float4 *__restrict__ newVel, StepParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  const SimParams &prm = p.prm;
  float3 v = xyz(newVel[i]);
  v = v + prm.dt * make_float3(prm.gravityX, prm.gravityY, prm.gravityZ);
  v = prm.globalDamping * v;
  float3 x = xyz(pos[i]) + prm.dt * v;
  float lo = -1.0f + prm.radius, hi = 1.0f - prm.radius;
  v.x = bounce(x.x, v.x, lo, hi, prm.boundaryDamping);
  v.y = bounce(x.y, v.y, lo, hi, prm.boundaryDamping);
  v.z = bounce(x.z, v.z, lo, hi, prm.boundaryDamping);
  pos[i] = make_float4(x.x, x.y, x.z, 0.0f);
  vel[i] = make_float4(v.x, v.y, v.z, 0.0f);
}

} // namespace

ParticlesTwin::ParticlesTwin(int n, const SimParams &prm)
    : n(n), numCells(prm.grid * prm.grid * prm.grid), endBit(0), prm(prm) {
  while ((1ll << endBit) < numCells)
    ++endBit;
  size_t v4 = sizeof(float4) * n, u = sizeof(unsigned) * n;
  cudaMalloc(&pos, v4);
  cudaMalloc(&vel, v4);
  cudaMalloc(&newVel, v4);
  cudaMalloc(&sortedPos, v4);
  cudaMalloc(&sortedVel, v4);
  cudaMalloc(&hash, u);
  cudaMalloc(&index, u);
  cudaMalloc(&sortedHash, u);
  cudaMalloc(&sortedIndex, u);
  cudaMalloc(&cellStart, sizeof(int) * numCells);
  cudaMalloc(&cellEnd, sizeof(int) * numCells);
  cub::DeviceRadixSort::SortPairs(nullptr, sortTempBytes, hash, sortedHash,
                                  index, sortedIndex, n, 0, endBit);
  cudaMalloc(&sortTemp, sortTempBytes);
  extra = 3 * v4 + 4 * u + 2 * sizeof(int) * numCells + sortTempBytes;
}

ParticlesTwin::~ParticlesTwin() {
  for (void *p : {pos, vel, newVel, sortedPos, sortedVel, (void *)hash,
                  (void *)index, (void *)sortedHash, (void *)sortedIndex,
                  (void *)cellStart, (void *)cellEnd, sortTemp})
    cudaFree(p);
}

void ParticlesTwin::upload(const Particle *host) {
  // A BSGP particle is 32 bytes: the position's float4, the velocity's.
  cudaMemcpy2D(pos, sizeof(float4), &host->pos, sizeof(Particle),
               sizeof(float4), n, cudaMemcpyHostToDevice);
  cudaMemcpy2D(vel, sizeof(float4), &host->vel, sizeof(Particle),
               sizeof(float4), n, cudaMemcpyHostToDevice);
}

void ParticlesTwin::download(Particle *host) const {
  cudaMemcpy2D(&host->pos, sizeof(Particle), pos, sizeof(float4),
               sizeof(float4), n, cudaMemcpyDeviceToHost);
  cudaMemcpy2D(&host->vel, sizeof(Particle), vel, sizeof(float4),
               sizeof(float4), n, cudaMemcpyDeviceToHost);
}

void ParticlesTwin::step() {
  StepParams p{prm, n, 0.5f * (float)prm.grid};
  int blocks = (n + BlockSize - 1) / BlockSize;
  float4 *p4 = (float4 *)pos, *v4 = (float4 *)vel, *nv = (float4 *)newVel;
  float4 *sp = (float4 *)sortedPos, *sv = (float4 *)sortedVel;
  calcHash<<<blocks, BlockSize>>>(p4, hash, index, p);
  cub::DeviceRadixSort::SortPairs(sortTemp, sortTempBytes, hash, sortedHash,
                                  index, sortedIndex, n, 0, endBit);
  cudaMemsetAsync(cellStart, 0xff, sizeof(int) * numCells);
  reorderAndFindCellStart<<<blocks, BlockSize>>>(
      sortedHash, sortedIndex, p4, v4, sp, sv, cellStart, cellEnd, n);
  collide<<<blocks, BlockSize>>>(sp, sv, sortedIndex, cellStart, cellEnd, nv,
                                 p);
  integrate<<<blocks, BlockSize>>>(p4, v4, nv, p);
}
