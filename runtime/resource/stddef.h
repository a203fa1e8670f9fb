//===- stddef.h - C's common definitions for BSGP -------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <stddef.h>` in a BSGP program: `NULL` is BSGP's own and
// `size_t` and `ptrdiff_t` are C's spellings of `uint64` and `int64`, so
// there is nothing to declare.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_STDDEF_H
#define BSGP_STDDEF_H

#endif // BSGP_STDDEF_H
