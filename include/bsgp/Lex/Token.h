//===- Token.h - BSGP tokens ------------------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LEX_TOKEN_H
#define BSGP_LEX_TOKEN_H

#include "bsgp/Basic/SourceManager.h"

#include "llvm/ADT/StringRef.h"

namespace bsgp {

namespace tok {
enum Kind : unsigned short {
#define TOK(Name) Name,
#include "bsgp/Lex/TokenKinds.def"
  NumTokens
};
/// The spelling of a punctuator or keyword, or a description of a token
/// class ("identifier").
const char *getSpelling(Kind K);
} // namespace tok

struct Token {
  tok::Kind Kind = tok::eof;
  llvm::StringRef Text;  ///< The token's characters in the buffer.
  SourceLocation Loc;    ///< First character.
  SourceLocation EndLoc; ///< Last character.

  bool is(tok::Kind K) const { return Kind == K; }
  bool isNot(tok::Kind K) const { return Kind != K; }
  SourceRange getRange() const { return SourceRange(Loc, EndLoc); }
};

} // namespace bsgp

#endif // BSGP_LEX_TOKEN_H
