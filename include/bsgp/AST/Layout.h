//===- Layout.h - the memory layout of BSGP types ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sizes, alignments and struct field offsets of BSGP types in memory
/// (docs/language.md, "Types and conversions"): the layout of lists,
/// pointers and sizeof on every target, shared by code generation and
/// bsgpi. Scalars and pointers are aligned to their size, a vector to its
/// size rounded up to a power of two (a float3 takes 16 bytes), an array to
/// its element, and a struct is laid out as C lays it out: each field at
/// the next offset aligned for it, the size rounded up to the largest
/// alignment, so that host C code declaring the same struct (with the
/// vectors of -emit-header) shares its lists.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_LAYOUT_H
#define BSGP_AST_LAYOUT_H

#include "bsgp/AST/Type.h"

#include <cstdint>

namespace bsgp {

/// The size in bytes; 0 for void, functions and incomplete structs.
uint64_t typeSize(const Type *T);
/// The alignment in bytes (at least 1).
uint64_t typeAlign(const Type *T);
/// The offset of field \p Index of a complete struct.
uint64_t fieldOffset(const StructType *S, unsigned Index);

} // namespace bsgp

#endif // BSGP_AST_LAYOUT_H
