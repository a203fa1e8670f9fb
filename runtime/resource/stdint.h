//===- stdint.h - C's integer limits for BSGP -----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <stdint.h>` in a BSGP program: the types (`int32_t`,
// `uint64_t`, `intptr_t`, ...) are C's spellings of BSGP's types and need
// no declaration; this gives their limits. BSGP has no 16-bit integers and
// no unsigned 8-bit one, so neither their types nor their limits.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_STDINT_H
#define BSGP_STDINT_H

#define INT8_MIN (-128)
#define INT8_MAX 127
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MIN (-9223372036854775807l - 1)
#define INT64_MAX 9223372036854775807l
#define UINT64_MAX 18446744073709551615ul
#define INTPTR_MIN INT64_MIN
#define INTPTR_MAX INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#define PTRDIFF_MIN INT64_MIN
#define PTRDIFF_MAX INT64_MAX
#define SIZE_MAX UINT64_MAX

#endif // BSGP_STDINT_H
