//===- CTypeNames.cpp - C's spellings of BSGP's types ---------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "CTypeNames.h"

#include "llvm/ADT/STLExtras.h"

#include <string>

using namespace bsgp;

namespace {

using BK = BuiltinType::BuiltinKind;

const CTypeName Table[] = {
    // C's type specifiers, combined.
    {"signed", BK::Int, nullptr},
    {"unsigned", BK::UInt, nullptr},
    {"short", BK::Short, nullptr},
    {"signed short", BK::Short, nullptr},
    {"unsigned short", BK::UShort, nullptr},
    {"long", BK::Int64, nullptr},
    {"signed long", BK::Int64, nullptr},
    {"unsigned long", BK::UInt64, nullptr},
    {"long long", BK::Int64, nullptr},
    {"signed long long", BK::Int64, nullptr},
    {"unsigned long long", BK::UInt64, nullptr},
    {"signed char", BK::Char, nullptr},
    {"unsigned char", BK::UChar, nullptr},
    {"long double", BK::Double, "floating type wider than 'double'"},
    // The C and C++ libraries' names.
    {"size_t", BK::UInt64, nullptr},
    {"ssize_t", BK::Int64, nullptr},
    {"ptrdiff_t", BK::Int64, nullptr},
    {"intptr_t", BK::Int64, nullptr},
    {"uintptr_t", BK::UInt64, nullptr},
    {"int8_t", BK::Char, nullptr},
    {"uint8_t", BK::UChar, nullptr},
    {"int16_t", BK::Short, nullptr},
    {"uint16_t", BK::UShort, nullptr},
    {"int32_t", BK::Int, nullptr},
    {"uint32_t", BK::UInt, nullptr},
    {"int64_t", BK::Int64, nullptr},
    {"uint64_t", BK::UInt64, nullptr},
    {"_Bool", BK::Bool, nullptr},
    // OpenCL's and CUDA's short names, which diagnostics print.
    {"uchar", BK::UChar, nullptr},
    {"ushort", BK::UShort, nullptr},
};

/// C's type specifiers that BSGP does not have.
bool isSpecifier(llvm::StringRef W) {
  return W == "unsigned" || W == "signed" || W == "short" || W == "long";
}

const CTypeName *find(llvm::StringRef Key) {
  for (const CTypeName &E : Table)
    if (Key == E.C)
      return &E;
  return nullptr;
}

} // namespace

bool bsgp::isCTypeWord(llvm::StringRef Word) {
  return isSpecifier(Word) || (find(Word) && !Word.contains(' '));
}

bool bsgp::continuesCTypeName(llvm::StringRef Word) {
  return isSpecifier(Word) || Word == "int" || Word == "char" ||
         Word == "double";
}

const CTypeName *bsgp::lookupCTypeName(llvm::ArrayRef<llvm::StringRef> Words) {
  if (Words.size() == 1 && !isSpecifier(Words[0]))
    return isCTypeWord(Words[0]) ? find(Words[0]) : nullptr;
  // C accepts the specifiers in any order (`long unsigned int`); the table
  // has them as signedness, size, base.
  unsigned Signs = 0, Shorts = 0, Longs = 0;
  llvm::StringRef Sign, Base;
  for (llvm::StringRef W : Words) {
    if (W == "unsigned" || W == "signed") {
      ++Signs;
      Sign = W;
    } else if (W == "short") {
      ++Shorts;
    } else if (W == "long") {
      ++Longs;
    } else if (continuesCTypeName(W) && Base.empty()) {
      Base = W;
    } else {
      return nullptr;
    }
  }
  if (Signs > 1 || Shorts > 1 || Longs > 2 || (Shorts && Longs))
    return nullptr;
  std::string Key = Sign.str();
  auto Add = [&](llvm::StringRef W) {
    if (!Key.empty())
      Key += ' ';
    Key += W;
  };
  if (Shorts)
    Add("short");
  for (unsigned I = 0; I < Longs; ++I)
    Add("long");
  // `int` after another specifier adds nothing (`unsigned int`).
  if (!Base.empty() && !(Base == "int" && !Key.empty()))
    Add(Base);
  return find(Key);
}
