//===- Values.cpp - layout and conversions of bsgpi's values --------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"
#include "bsgp/AST/Layout.h"

#include "bsgp/AST/AST.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace bsgp;
using namespace bsgp::interp;
using BK = BuiltinType::BuiltinKind;

uint64_t interp::sizeOfSlow(const Type *T) {
  // The layout every target uses (bsgp/AST/Layout.h); what has none (void,
  // functions, an empty or incomplete struct) takes a byte or a pointer's
  // 8, as before any code reads it.
  T = T->getUnqualified();
  if (llvm::isa<FunctionType>(T))
    return 8;
  if (T->isVoid())
    return 1;
  uint64_t Size = typeSize(T);
  return Size ? Size : 1;
}

uint64_t interp::alignOf(const Type *T) { return typeAlign(T); }

uint64_t interp::fieldOffset(const StructType *S, unsigned Index) {
  return bsgp::fieldOffset(S, Index);
}

BK interp::scalarKind(const Type *T) {
  T = T->getUnqualified();
  if (auto *V = llvm::dyn_cast<VectorType>(T))
    return V->getElementType()->getBuiltinKind();
  if (auto *B = llvm::dyn_cast<BuiltinType>(T))
    return B->getBuiltinKind();
  return BK::UInt64; // pointers
}

uint64_t interp::componentSize(const Type *T) {
  if (auto *V = llvm::dyn_cast<VectorType>(T->getUnqualified()))
    return sizeOf(V->getElementType());
  return sizeOf(T);
}

unsigned interp::numComponents(const Type *T) {
  if (auto *V = llvm::dyn_cast<VectorType>(T->getUnqualified()))
    return V->getNumElements();
  return 1;
}

namespace {

template <typename T> T loadAs(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}
template <typename T> void storeAs(uint8_t *P, T V) {
  std::memcpy(P, &V, sizeof(T));
}

/// Floating to integer as x86 does for values C leaves undefined (NaN, out
/// of range): the "integer indefinite" value, so that bsgpi never has
/// undefined behaviour of its own.
template <typename To, typename From> To floatToInt(From V) {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (std::isnan(V) ||
        V <= (From)std::numeric_limits<To>::lowest() - (From)1 ||
        V >= (From)std::numeric_limits<To>::max() + (From)1) {
      if constexpr (std::is_signed_v<To>)
        return std::numeric_limits<To>::lowest();
      else
        return (To)(std::is_same_v<To, uint64_t> ? 0x8000000000000000ull : 0);
    }
  }
  return (To)V;
}

/// A conversion to a type narrower than int: a float goes through int (C
/// leaves a value out of the narrow type's range undefined), an integer
/// keeps its low bits, as the targets' truncations do.
template <typename To, typename From> void storeNarrow(From V, uint8_t *Dst) {
  if constexpr (std::is_floating_point_v<From>)
    storeAs<To>(Dst, (To)floatToInt<int32_t>(V));
  else
    storeAs<To>(Dst, (To)V);
}

template <typename From> void convertFrom(From V, BK To, uint8_t *Dst) {
  switch (To) {
  case BK::Bool:
    storeAs<uint8_t>(Dst, V != From(0) ? 1 : 0);
    return;
  case BK::Char:
    storeNarrow<int8_t>(V, Dst);
    return;
  case BK::UChar:
    storeNarrow<uint8_t>(V, Dst);
    return;
  case BK::Short:
    storeNarrow<int16_t>(V, Dst);
    return;
  case BK::UShort:
    storeNarrow<uint16_t>(V, Dst);
    return;
  case BK::Int:
    storeAs<int32_t>(Dst, floatToInt<int32_t>(V));
    return;
  case BK::UInt:
    if constexpr (std::is_floating_point_v<From>)
      storeAs<uint32_t>(Dst, floatToInt<uint32_t>(V));
    else
      storeAs<uint32_t>(Dst, (uint32_t)V);
    return;
  case BK::Int64:
    storeAs<int64_t>(Dst, floatToInt<int64_t>(V));
    return;
  case BK::UInt64:
    if constexpr (std::is_floating_point_v<From>)
      storeAs<uint64_t>(Dst, floatToInt<uint64_t>(V));
    else
      storeAs<uint64_t>(Dst, (uint64_t)V);
    return;
  case BK::Float:
    storeAs<float>(Dst, (float)V);
    return;
  case BK::Double:
    storeAs<double>(Dst, (double)V);
    return;
  case BK::Void:
    return;
  }
}

} // namespace

void interp::convertScalar(BK From, const uint8_t *Src, BK To, uint8_t *Dst) {
  switch (From) {
  case BK::Bool:
    return convertFrom<int32_t>(loadAs<uint8_t>(Src) ? 1 : 0, To, Dst);
  case BK::Char:
    return convertFrom<int8_t>(loadAs<int8_t>(Src), To, Dst);
  case BK::UChar:
    return convertFrom<uint8_t>(loadAs<uint8_t>(Src), To, Dst);
  case BK::Short:
    return convertFrom<int16_t>(loadAs<int16_t>(Src), To, Dst);
  case BK::UShort:
    return convertFrom<uint16_t>(loadAs<uint16_t>(Src), To, Dst);
  case BK::Int:
    return convertFrom<int32_t>(loadAs<int32_t>(Src), To, Dst);
  case BK::UInt:
    return convertFrom<uint32_t>(loadAs<uint32_t>(Src), To, Dst);
  case BK::Int64:
    return convertFrom<int64_t>(loadAs<int64_t>(Src), To, Dst);
  case BK::UInt64:
    return convertFrom<uint64_t>(loadAs<uint64_t>(Src), To, Dst);
  case BK::Float:
    return convertFrom<float>(loadAs<float>(Src), To, Dst);
  case BK::Double:
    return convertFrom<double>(loadAs<double>(Src), To, Dst);
  case BK::Void:
    return;
  }
}

int64_t interp::scalarToInt(BK K, const uint8_t *P) {
  int64_t V;
  convertScalar(K, P, BK::Int64, reinterpret_cast<uint8_t *>(&V));
  return V;
}

bool interp::scalarTruth(const Type *T, const uint8_t *P) {
  T = T->getUnqualified();
  if (!llvm::isa<BuiltinType>(T))
    return loadAs<uint64_t>(P) != 0;
  uint8_t B;
  convertScalar(scalarKind(T), P, BK::Bool, &B);
  return B != 0;
}

std::string interp::rankList(llvm::ArrayRef<uint32_t> Ranks) {
  std::string S;
  size_t Shown = std::min<size_t>(Ranks.size(), 8);
  for (size_t I = 0; I < Shown; ++I) {
    if (I)
      S += I + 1 == Ranks.size() ? " and " : ", ";
    S += std::to_string(Ranks[I]);
  }
  if (Ranks.size() > Shown)
    S += " and " + std::to_string(Ranks.size() - Shown) + " more";
  return S;
}

Column Interpreter::splat(const uint8_t *V, uint32_t Size, uint32_t N) {
  Column C(Size, N);
  for (uint32_t K = 0; K < N; ++K)
    std::memcpy(C.at(K), V, Size);
  return C;
}

Column Interpreter::convert(const Column &C, const Type *From, const Type *To) {
  From = From->getUnqualified();
  To = To->getUnqualified();
  if (From == To)
    return C;
  uint32_t N = C.N;
  uint32_t OutSize = sizeOf(To);
  Column R(OutSize, N);
  bool FromPtr = llvm::isa<PointerType, NullType, ArrayType>(From);
  bool ToPtr = llvm::isa<PointerType>(To);
  if (FromPtr || ToPtr) {
    // Pointers are 64-bit addresses; to and from integers they convert like
    // uint64, and to bool they test against null.
    BK FK = FromPtr ? BK::UInt64 : scalarKind(From);
    BK TK = ToPtr ? BK::UInt64 : scalarKind(To);
    for (uint32_t K = 0; K < N; ++K)
      convertScalar(FK, C.at(K), TK, R.at(K));
    return R;
  }
  unsigned FN = numComponents(From), TN = numComponents(To);
  BK FK = scalarKind(From), TK = scalarKind(To);
  uint32_t FS = componentSize(From), TS = componentSize(To);
  for (uint32_t K = 0; K < N; ++K)
    for (unsigned J = 0; J < TN; ++J)
      convertScalar(FK, C.at(K) + (FN == 1 ? 0 : J) * FS, TK, R.at(K) + J * TS);
  return R;
}
