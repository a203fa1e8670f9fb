//===- tessellation.h - the tessellator's BSGP functions, for C++ ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
// What tessellation.bsgp exports, declared once for the app's host code and
// for the CUDA twin's benchmark (bench/cuda/bench_tessellation.cu).
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_EXAMPLES_TESSELLATION_H
#define BSGP_EXAMPLES_TESSELLATION_H

extern "C" {
int *tessHeightMap(int size, unsigned seed);
float *tessNoFork(int *map, int size, int grid, int maxLevel, int camX,
                  int camZ, int dirX, int dirZ, int far, int step, float invU,
                  float heightScale, int *count);
float *tessFork(int *map, int size, int grid, int maxLevel, int camX, int camZ,
                int dirX, int dirZ, int far, int step, float invU,
                float heightScale, int *count);
}

#endif // BSGP_EXAMPLES_TESSELLATION_H
