//===- MathFunctions.cpp - C math functions device code may call ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/AST/MathFunctions.h"

#include "llvm/ADT/StringSwitch.h"

bsgp::MathFunction bsgp::getMathFunction(llvm::StringRef Name) {
  // The float versions end in 'f'; `fmodf` and `fmaxf` are longer names
  // whose base ends in 'f' too, so try the exact name first.
  auto lookup = [](llvm::StringRef N) {
    return llvm::StringSwitch<MathFunction>(N)
        .Case("sin", MathFunction::Sin)
        .Case("cos", MathFunction::Cos)
        .Case("tan", MathFunction::Tan)
        .Case("asin", MathFunction::Asin)
        .Case("acos", MathFunction::Acos)
        .Case("atan", MathFunction::Atan)
        .Case("atan2", MathFunction::Atan2)
        .Case("sinh", MathFunction::Sinh)
        .Case("cosh", MathFunction::Cosh)
        .Case("tanh", MathFunction::Tanh)
        .Case("exp", MathFunction::Exp)
        .Case("exp2", MathFunction::Exp2)
        .Case("log", MathFunction::Log)
        .Case("log2", MathFunction::Log2)
        .Case("log10", MathFunction::Log10)
        .Case("sqrt", MathFunction::Sqrt)
        .Case("pow", MathFunction::Pow)
        .Case("fabs", MathFunction::Fabs)
        .Case("floor", MathFunction::Floor)
        .Case("ceil", MathFunction::Ceil)
        .Case("round", MathFunction::Round)
        .Case("trunc", MathFunction::Trunc)
        .Case("fmin", MathFunction::Fmin)
        .Case("fmax", MathFunction::Fmax)
        .Case("fmod", MathFunction::Fmod)
        .Case("copysign", MathFunction::Copysign)
        .Case("fma", MathFunction::Fma)
        .Case("rsqrt", MathFunction::Rsqrt)
        .Default(MathFunction::None);
  };
  MathFunction F = lookup(Name);
  if (F == MathFunction::None && Name.ends_with("f"))
    F = lookup(Name.drop_back());
  return F;
}
