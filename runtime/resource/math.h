//===- math.h - C's math functions for BSGP -------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <math.h>` in a BSGP program declares the C math functions that
// host and device code may call, on double and (suffixed f) on float; on
// each target device code computes them as docs/language.md ("C math
// functions") says. bsgpc and bsgpi find this header next to <bsgp.h>.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_MATH_H
#define BSGP_MATH_H

#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354

extern "C" double sin(double x);
extern "C" float sinf(float x);
extern "C" double cos(double x);
extern "C" float cosf(float x);
extern "C" double tan(double x);
extern "C" float tanf(float x);
extern "C" double asin(double x);
extern "C" float asinf(float x);
extern "C" double acos(double x);
extern "C" float acosf(float x);
extern "C" double atan(double x);
extern "C" float atanf(float x);
extern "C" double sinh(double x);
extern "C" float sinhf(float x);
extern "C" double cosh(double x);
extern "C" float coshf(float x);
extern "C" double tanh(double x);
extern "C" float tanhf(float x);
extern "C" double exp(double x);
extern "C" float expf(float x);
extern "C" double exp2(double x);
extern "C" float exp2f(float x);
extern "C" double log(double x);
extern "C" float logf(float x);
extern "C" double log2(double x);
extern "C" float log2f(float x);
extern "C" double log10(double x);
extern "C" float log10f(float x);
extern "C" double sqrt(double x);
extern "C" float sqrtf(float x);
extern "C" double fabs(double x);
extern "C" float fabsf(float x);
extern "C" double floor(double x);
extern "C" float floorf(float x);
extern "C" double ceil(double x);
extern "C" float ceilf(float x);
extern "C" double round(double x);
extern "C" float roundf(float x);
extern "C" double trunc(double x);
extern "C" float truncf(float x);
extern "C" double atan2(double y, double x);
extern "C" float atan2f(float y, float x);
extern "C" double pow(double x, double y);
extern "C" float powf(float x, float y);
extern "C" double fmin(double x, double y);
extern "C" float fminf(float x, float y);
extern "C" double fmax(double x, double y);
extern "C" float fmaxf(float x, float y);
extern "C" double fmod(double x, double y);
extern "C" float fmodf(float x, float y);
extern "C" double copysign(double x, double y);
extern "C" float copysignf(float x, float y);
extern "C" double fma(double x, double y, double z);
extern "C" float fmaf(float x, float y, float z);
// CUDA's reciprocal square roots (not C's): 1 / sqrt(x), in host code too.
extern "C" double rsqrt(double x);
extern "C" float rsqrtf(float x);

#endif // BSGP_MATH_H
