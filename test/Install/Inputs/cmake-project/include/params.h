// Included by kernels.bsgp: a change here must rebuild it (-MD).
#define FACTOR 2.0f
