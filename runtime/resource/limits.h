//===- limits.h - C's integer limits for BSGP -----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <limits.h>` in a BSGP program: the limits of its integer types
// under C's names, with the sizes of an LP64 host (`long` is 64 bits).
// BSGP has no `short`, so no SHRT_ limits.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_LIMITS_H
#define BSGP_LIMITS_H

#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295u
#define LONG_MIN (-9223372036854775807l - 1)
#define LONG_MAX 9223372036854775807l
#define ULONG_MAX 18446744073709551615ul
#define LLONG_MIN LONG_MIN
#define LLONG_MAX LONG_MAX
#define ULLONG_MAX ULONG_MAX

#endif // BSGP_LIMITS_H
