//===- SemaFormat.cpp - printf in device code -----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// C's printf called from device code (docs/language.md, "Device printf").
/// The threads do not format: each call appends its format's number and
/// its arguments to a buffer that the runtime formats on the host after the
/// superstep (the bsgp-lower-device-printf pass). So the format must be a
/// string literal known at compile time, each conversion must take the
/// argument it is given (as clang's -Wformat checks, but an error here:
/// the host would read the wrong bits), and conversions that would read
/// device memory from the host (`%s`, `%n`) or take their width from an
/// argument (`*`) are not supported.
///
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

using namespace bsgp;
using namespace bsgp::sema;
using llvm::dyn_cast;

bool Sema::isPrintfDecl(const FunctionDecl *F) {
  if (!F->isExternC() || F->getName() != "printf")
    return false;
  const FunctionType *FT = F->getFunctionType();
  if (!FT->isVarargs() || FT->getParams().size() != 1)
    return false;
  auto *P = dyn_cast<PointerType>(FT->getParams()[0]->getUnqualified());
  auto *B =
      P ? dyn_cast<BuiltinType>(P->getPointee()->getUnqualified()) : nullptr;
  return B && B->getBuiltinKind() == BuiltinType::Char;
}

namespace {
/// One conversion of a format: its text range and what it takes.
struct Conversion {
  size_t Begin, End;
  char Spec;
  bool Wide; ///< l, ll, j, z or t: a 64-bit integer.
};
} // namespace

/// The conversions of \p Fmt, or the offset and text of the first one
/// device printf does not support.
static bool parseFormat(llvm::StringRef Fmt,
                        llvm::SmallVectorImpl<Conversion> &Out,
                        std::string &Bad) {
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt[I] != '%')
      continue;
    size_t Begin = I++;
    if (I < Fmt.size() && Fmt[I] == '%')
      continue;
    while (I < Fmt.size() && llvm::StringRef("-+ #0'").contains(Fmt[I]))
      ++I;
    auto Digits = [&] {
      while (I < Fmt.size() && Fmt[I] >= '0' && Fmt[I] <= '9')
        ++I;
    };
    auto Fail = [&] {
      Bad = Fmt.substr(Begin, I + 1 - Begin).str();
      return false;
    };
    if (I < Fmt.size() && Fmt[I] == '*')
      return Fail();
    Digits();
    if (I < Fmt.size() && Fmt[I] == '.') {
      ++I;
      if (I < Fmt.size() && Fmt[I] == '*')
        return Fail();
      Digits();
    }
    bool Wide = false;
    if (I < Fmt.size() && (Fmt[I] == 'h' || Fmt[I] == 'l')) {
      char L = Fmt[I++];
      Wide = L == 'l';
      if (I < Fmt.size() && Fmt[I] == L)
        ++I;
    } else if (I < Fmt.size() && llvm::StringRef("jzt").contains(Fmt[I])) {
      Wide = true;
      ++I;
    } else if (I < Fmt.size() && Fmt[I] == 'L') {
      return Fail();
    }
    if (I >= Fmt.size()) {
      Bad = Fmt.substr(Begin).str();
      return false;
    }
    if (!llvm::StringRef("diouxXcfFeEgGaA").contains(Fmt[I]))
      return Fail();
    Out.push_back({Begin, I + 1, Fmt[I], Wide});
  }
  return true;
}

/// The type a conversion takes, as clang's -Wformat names it.
static std::string wantedType(const Conversion &C) {
  switch (C.Spec) {
  case 'd':
  case 'i':
    return C.Wide ? "long" : "int";
  case 'c':
    return "int";
  case 'o':
  case 'u':
  case 'x':
  case 'X':
    return C.Wide ? "unsigned long" : "unsigned int";
  default:
    return "double";
  }
}

/// Whether argument type \p T (after the default promotions) is what
/// conversion \p C reads. Signedness may differ, as in C.
static bool takes(const Conversion &C, const Type *T) {
  T = T->getUnqualified();
  if (llvm::StringRef("fFeEgGaA").contains(C.Spec))
    return T->isFloating();
  auto *B = dyn_cast<BuiltinType>(T);
  if (!B || !T->isInteger())
    return false;
  bool Is64 = B->getBitWidth() == 64;
  if (C.Spec == 'c')
    return !C.Wide && !Is64;
  return C.Wide == Is64;
}

bool Sema::checkDevicePrintf(CallExpr *C, bool Report) {
  auto *Lit = dyn_cast<StringLiteral>(C->args()[0]->ignoreParenImpCasts());
  if (!Lit) {
    if (Report)
      Diags.report(C->args()[0]->getRange(),
                   diag::err_device_printf_not_literal);
    return false;
  }
  llvm::SmallVector<Conversion, 4> Convs;
  std::string Bad;
  if (!parseFormat(Lit->getValue(), Convs, Bad)) {
    if (Report)
      Diags.report(Lit->getRange(), diag::err_device_printf_conversion) << Bad;
    return false;
  }
  size_t NArgs = C->args().size() - 1;
  bool Ok = true;
  for (size_t I = 0; I < Convs.size() && I < NArgs; ++I) {
    Expr *A = C->args()[I + 1];
    if (A->getType()->isError() || takes(Convs[I], A->getType()))
      continue;
    Ok = false;
    if (Report)
      Diags.report(A->getRange(), diag::err_device_printf_arg_type)
          << wantedType(Convs[I]) << A->getType()->str()
          << Lit->getValue()
                 .substr(Convs[I].Begin, Convs[I].End - Convs[I].Begin)
                 .str();
  }
  if (Convs.size() > NArgs) {
    Ok = false;
    if (Report)
      Diags.report(Lit->getRange(), diag::err_device_printf_too_few);
  } else if (Convs.size() < NArgs) {
    Ok = false;
    if (Report)
      Diags.report(C->args()[Convs.size() + 1]->getRange(),
                   diag::err_device_printf_too_many);
  }
  return Ok;
}
