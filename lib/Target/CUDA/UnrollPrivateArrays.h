//===- UnrollPrivateArrays.h - Unroll loops over private arrays -*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TARGET_CUDA_UNROLLPRIVATEARRAYS_H
#define BSGP_LIB_TARGET_CUDA_UNROLLPRIVATEARRAYS_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace bsgp {

/// Asks LLVM's full unrolling to unroll, whatever their size, the loops of
/// at most kMaxPrivateArrayTrips iterations that index a private array
/// (an alloca) with a value that changes from iteration to iteration.
/// Unrolled, every index is a constant and SROA puts the array in
/// registers; left as a loop, the array lives in local memory, which on a
/// GPU is device memory behind the L1. nvcc unrolls such loops the same
/// way. Registered at the end of the loop optimizer, just before full
/// unrolling.
void registerUnrollPrivateArrays(llvm::PassBuilder &pb);

/// The most iterations a loop over a private array is unrolled for.
constexpr unsigned kMaxPrivateArrayTrips = 64;

} // namespace bsgp

#endif // BSGP_LIB_TARGET_CUDA_UNROLLPRIVATEARRAYS_H
