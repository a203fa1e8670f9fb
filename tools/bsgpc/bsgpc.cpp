//===- bsgpc.cpp - the BSGP compiler driver -------------------------------===//
//
// Part of bsgpc, the BSGP compiler. All logic lives in lib/Driver so that
// tests and other tools can run the same pipeline.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Driver/Driver.h"

#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  return bsgp::runDriver(llvm::ArrayRef<const char *>(argv, argc));
}
