//===- DevicePrintf.h - the host side of printf in the threads --*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler. Private to lib/Transforms:
// bsgp-lower-device-printf makes the print buffer, bsgp-outline-kernels
// prints its records after each launch that may have written some.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_DEVICEPRINTF_H
#define BSGP_LIB_TRANSFORMS_DEVICEPRINTF_H

#include "mlir/IR/Builders.h"

namespace bsgp {

/// The runtime's functions of the print buffer (docs/runtime.md) and the
/// module's table of formats, which bsgp-lower-device-printf declares.
inline constexpr llvm::StringLiteral kPrintfBufferFunction =
    "bsgprt_printf_buffer";
inline constexpr llvm::StringLiteral kPrintfFlushFunction =
    "bsgprt_printf_flush";
inline constexpr llvm::StringLiteral kPrintfTableGlobal = "printf.formats";

/// The print buffer as the runtime gave it (an `!llvm.ptr`) if `v` is the
/// `!bsgp.ptr` that bsgp-lower-device-printf made of it for the threads;
/// else null.
mlir::Value getPrintBuffer(mlir::Value v);

/// At `b`: print the records in `buffer` (a result of getPrintBuffer) and
/// empty it.
void buildPrintfFlush(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value buffer);

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_DEVICEPRINTF_H
