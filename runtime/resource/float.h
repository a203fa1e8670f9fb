//===- float.h - C's floating limits for BSGP -----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <float.h>` in a BSGP program: the limits of `float` (IEEE
// single) and `double` (IEEE double) under C's names.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_FLOAT_H
#define BSGP_FLOAT_H

#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_MAX 3.40282346638528859811704183484516925e+38f
#define FLT_MIN 1.17549435082228750796873653722224568e-38f
#define FLT_EPSILON 1.19209289550781250000000000000000000e-7f
#define DBL_MAX 1.79769313486231570814527423731704357e+308
#define DBL_MIN 2.22507385850720138309023271733240406e-308
#define DBL_EPSILON 2.22044604925031308084726333618164062e-16

#endif // BSGP_FLOAT_H
