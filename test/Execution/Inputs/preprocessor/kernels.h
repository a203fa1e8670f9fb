// An include guard (no #pragma once): fill is defined once however often
// the header is included.
#ifndef KERNELS_H
#define KERNELS_H

#include "config.h"

void fill(int *out) {
  spawn (N) {
    i = thread.rank;
    out[i] = SQ(i % 10) + OFFSET + MAX(i, 500) / 100 * STEP;
  }
}

#endif // KERNELS_H
