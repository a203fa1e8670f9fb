//===- bsgp-frontend-fuzzer.cpp - libFuzzer entry for the frontend --------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs lexer, parser, Sema and the AST dumper on arbitrary bytes. Imports
/// are disabled so that no input reads the file system. Any crash, hang,
/// sanitizer report or unbounded allocation is a frontend bug: bad input must
/// only ever produce diagnostics.
///
//===----------------------------------------------------------------------===//

#include "bsgp/AST/ASTDumper.h"
#include "bsgp/Parse/Parser.h"
#include "bsgp/Sema/Sema.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  bsgp::SourceManager SM;
  llvm::raw_null_ostream Null;
  bsgp::DiagnosticEngine Diags(SM, Null);
  uint32_t Id = SM.addBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(Data), Size),
          "fuzz.bsgp"),
      "fuzz.bsgp");
  bsgp::ASTContext Ctx;
  bsgp::ParseSession PS(Ctx, Diags);
  PS.setAllowImports(false);
  PS.parseMainFile(Id);
  if (!Diags.hasFatalError())
    bsgp::analyzeProgram(Ctx, Diags);
  // Dump even after errors: the dumper must cope with whatever Sema left.
  bsgp::dumpAST(Ctx, SM, Null);
  return 0;
}
