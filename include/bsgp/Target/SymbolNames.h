//===- SymbolNames.h - the symbols bsgpc makes in an object -----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The names of the symbols the targets emit into every object (the module
/// descriptor and its parts, interned strings, CUDA local arrays). They
/// start with `__bsgp_`, which BSGP programs cannot declare, so that they
/// never clash with the program's own. The passes never look a symbol up by
/// such a name: the collective library's functions are known by their
/// #bsgp.library attribute (BSGPAttrs.td), and test/Lint checks that no
/// `__bsgp_` name appears in lib/Transforms or lib/Target.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_SYMBOLNAMES_H
#define BSGP_TARGET_SYMBOLNAMES_H

#include "llvm/ADT/StringRef.h"

namespace bsgp {

/// The module descriptor bsgp-lower-launches builds, and the constructor
/// that registers it with the runtime.
inline constexpr llvm::StringLiteral kModuleDescSymbol = "__bsgp_module_desc";
inline constexpr llvm::StringLiteral kRegisterModuleSymbol =
    "__bsgp_register_module";
/// The descriptor's kernel table and its device code blobs.
inline constexpr llvm::StringLiteral kKernelTableSymbol = "__bsgp_kernel_table";
inline constexpr llvm::StringLiteral kPTXBlobSymbol = "__bsgp_ptx";
inline constexpr llvm::StringLiteral kSPIRVBlobSymbol = "__bsgp_spirv";
/// Prefix of the interned C strings (followed by a hash of the text).
inline constexpr llvm::StringLiteral kStringSymbolPrefix = "__bsgp_str_";
/// Prefix of the globals bsgp-lower-kernels-nvvm makes of `local` arrays.
inline constexpr llvm::StringLiteral kLocalArraySymbolPrefix = "__bsgp_local_";
/// The grid-wide barrier of grid-loop kernels (bsgp-fuse-uniform-loops) in
/// the CUDA module, its arrival word, and the prefix of the device
/// functions holding the ranks of the kernels a grid loop runs.
inline constexpr llvm::StringLiteral kGridBarrierSymbol = "__bsgp_grid_barrier";
inline constexpr llvm::StringLiteral kGridArrivedSymbol = "__bsgp_grid_arrived";
inline constexpr llvm::StringLiteral kGridBodySymbolPrefix =
    "__bsgp_grid_body_";

} // namespace bsgp

#endif // BSGP_TARGET_SYMBOLNAMES_H
