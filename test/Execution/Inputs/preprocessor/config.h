// Included twice by preprocessor.bsgp (directly and through kernels.h):
// #pragma once keeps the second copy out, else config_mode would be
// redefined.
#pragma once

#define N 1000
#define SQ(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#if MODE == 1
#define OFFSET 7
#elif MODE == 2
#define OFFSET 11
#else
#define OFFSET 0
#endif

#ifdef FAST
#define STEP 2
#else
#define STEP 1
#endif

int config_mode() { return MODE; }
