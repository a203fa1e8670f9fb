//===- Lexer.h - BSGP lexer -------------------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns one buffer into tokens. Bad bytes (NUL, invalid UTF-8, stray
/// characters) are reported and skipped, so the lexer always makes progress
/// and always ends with tok::eof.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LEX_LEXER_H
#define BSGP_LEX_LEXER_H

#include "bsgp/Basic/Diagnostic.h"
#include "bsgp/Lex/Token.h"

namespace bsgp {

class Lexer {
public:
  /// Identifiers longer than this are rejected (clang has no limit, but an
  /// unbounded name only ever comes from a broken or hostile file).
  static constexpr unsigned MaxIdentifierLength = 1024;

  Lexer(uint32_t FileId, llvm::StringRef Buffer, DiagnosticEngine &Diags)
      : FileId(FileId), Buf(Buffer), Diags(Diags),
        Preprocessed(
            FileId && FileId <= Diags.getSourceManager().getNumFiles() &&
            !Diags.getSourceManager().getFile(FileId).TokenLocs.empty()) {}

  Token lex();
  /// Continues lexing at byte \p Offset of the buffer (the start of a
  /// token), as when a generic function is parsed again.
  void seek(size_t Offset) { Pos = Offset; }

private:
  SourceLocation locAt(size_t Offset);
  char peek(size_t Ahead = 0) const {
    return Pos + Ahead < Buf.size() ? Buf[Pos + Ahead] : '\0';
  }
  bool atEnd() const { return Pos >= Buf.size(); }
  void skipTrivia();
  Token makeToken(tok::Kind K, size_t Start);
  Token lexNumber(size_t Start);
  Token lexQuoted(size_t Start, char Quote);

  uint32_t FileId;
  llvm::StringRef Buf;
  DiagnosticEngine &Diags;
  /// The buffer is the file's preprocessed text (SourceManager::TokenLocs).
  bool Preprocessed;
  size_t Pos = 0;
  // Cached line bookkeeping for locAt(); offsets only move forward.
  size_t LineStart = 0;
  uint32_t Line = 1;
  size_t ScanPos = 0;
};

} // namespace bsgp

#endif // BSGP_LEX_LEXER_H
