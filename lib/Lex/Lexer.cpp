//===- Lexer.cpp - BSGP lexer ---------------------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Lex/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"

using namespace bsgp;

const char *tok::getSpelling(Kind K) {
  switch (K) {
#define TOK(Name)                                                              \
  case Name:                                                                   \
    return #Name;
#define PUNCT(Name, Spelling)                                                  \
  case Name:                                                                   \
    return Spelling;
#define KEYWORD(Name, Spelling)                                                \
  case kw_##Name:                                                              \
    return Spelling;
#include "bsgp/Lex/TokenKinds.def"
  default:
    return "?";
  }
}

SourceLocation Lexer::locAt(size_t Offset) {
  // A preprocessed buffer maps its offsets to where the tokens were written.
  if (Preprocessed)
    return Diags.getSourceManager().getPreprocessedLoc(FileId, Offset);
  if (Offset < ScanPos) {
    ScanPos = 0;
    LineStart = 0;
    Line = 1;
  }
  for (; ScanPos < Offset && ScanPos < Buf.size(); ++ScanPos) {
    if (Buf[ScanPos] == '\n') {
      ++Line;
      LineStart = ScanPos + 1;
    }
  }
  return SourceLocation{FileId, Line, uint32_t(Offset - LineStart + 1)};
}

Token Lexer::makeToken(tok::Kind K, size_t Start) {
  Token T;
  T.Kind = K;
  T.Text = Buf.slice(Start, Pos);
  T.Loc = locAt(Start);
  T.EndLoc = locAt(Pos > Start ? Pos - 1 : Start);
  return T;
}

void Lexer::skipTrivia() {
  while (!atEnd()) {
    char C = peek();
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\v' ||
        C == '\f') {
      ++Pos;
      continue;
    }
    if (C == '/' && peek(1) == '/') {
      size_t E = Buf.find('\n', Pos);
      Pos = E == llvm::StringRef::npos ? Buf.size() : E;
      continue;
    }
    if (C == '/' && peek(1) == '*') {
      size_t E = Buf.find("*/", Pos + 2);
      if (E == llvm::StringRef::npos) {
        Diags.report(SourceRange(locAt(Pos), locAt(Pos + 1)),
                     diag::err_lex_unterminated_comment);
        Pos = Buf.size();
        return;
      }
      Pos = E + 2;
      continue;
    }
    return;
  }
}

static bool isIdentStart(char C) { return llvm::isAlpha(C) || C == '_'; }
static bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

Token Lexer::lexNumber(size_t Start) {
  bool IsFloat = false;
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
    Pos += 2;
    while (llvm::isHexDigit(peek()))
      ++Pos;
  } else {
    while (llvm::isDigit(peek()))
      ++Pos;
    if (peek() == '.') {
      IsFloat = true;
      ++Pos;
      while (llvm::isDigit(peek()))
        ++Pos;
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (llvm::isDigit(peek(1)) ||
         ((peek(1) == '+' || peek(1) == '-') && llvm::isDigit(peek(2))))) {
      IsFloat = true;
      Pos += 2;
      while (llvm::isDigit(peek()))
        ++Pos;
    }
  }
  // Suffixes: f/F for float, u/U and l/L for integers. Anything else glued to
  // the number makes the literal invalid, as in C.
  size_t SuffixStart = Pos;
  while (isIdentChar(peek()))
    ++Pos;
  llvm::StringRef Suffix = Buf.slice(SuffixStart, Pos);
  Token T = makeToken(IsFloat ? tok::float_literal : tok::int_literal, Start);
  bool Ok;
  if (IsFloat)
    Ok = Suffix.empty() || Suffix.equals_insensitive("f");
  else
    Ok = llvm::StringSwitch<bool>(Suffix.lower())
             .Cases({"", "u", "l", "ul", "lu", "ll", "ull", "llu"}, true)
             .Case("f", false)
             .Default(false);
  llvm::StringRef Digits = Buf.slice(Start, SuffixStart);
  if (Digits.size() == 2 && Digits.starts_with_insensitive("0x"))
    Ok = false;
  if (!Ok) {
    Diags.report(T.getRange(), diag::err_lex_bad_number)
        << T.Text.take_front(64);
    T.Kind = tok::unknown;
  }
  return T;
}

Token Lexer::lexQuoted(size_t Start, char Quote) {
  ++Pos; // opening quote
  while (!atEnd() && peek() != Quote && peek() != '\n') {
    if (peek() == '\\' && Pos + 1 < Buf.size() && Buf[Pos + 1] != '\n')
      ++Pos;
    ++Pos;
  }
  if (atEnd() || peek() != Quote) {
    Token T = makeToken(tok::unknown, Start);
    Diags.report(SourceRange(T.Loc), Quote == '"'
                                         ? diag::err_lex_unterminated_string
                                         : diag::err_lex_unterminated_char);
    return T;
  }
  ++Pos;
  return makeToken(Quote == '"' ? tok::string_literal : tok::char_literal,
                   Start);
}

Token Lexer::lex() {
  for (;;) {
    skipTrivia();
    size_t Start = Pos;
    if (atEnd())
      return makeToken(tok::eof, Start);
    char C = peek();
    if (isIdentStart(C)) {
      while (isIdentChar(peek()))
        ++Pos;
      Token T = makeToken(tok::identifier, Start);
      if (T.Text.size() > MaxIdentifierLength) {
        Diags.report(SourceRange(T.Loc), diag::err_lex_identifier_too_long)
            << unsigned(T.Text.size()) << MaxIdentifierLength;
        continue;
      }
      T.Kind = llvm::StringSwitch<tok::Kind>(T.Text)
#define KEYWORD(Name, Spelling) .Case(Spelling, tok::kw_##Name)
#include "bsgp/Lex/TokenKinds.def"
                   .Default(tok::identifier);
      return T;
    }
    if (llvm::isDigit(C) || (C == '.' && llvm::isDigit(peek(1))))
      return lexNumber(Start);
    if (C == '"' || C == '\'')
      return lexQuoted(Start, C);

    // Punctuators: longest match first.
    static const struct {
      const char *Spelling;
      tok::Kind Kind;
    } Puncts[] = {
        {"<<=", tok::lesslessequal},
        {">>=", tok::greatergreaterequal},
        {"...", tok::ellipsis},
        {"->", tok::arrow},
        {"++", tok::plusplus},
        {"--", tok::minusminus},
        {"<<", tok::lessless},
        {">>", tok::greatergreater},
        {"<=", tok::lessequal},
        {">=", tok::greaterequal},
        {"==", tok::equalequal},
        {"!=", tok::exclaimequal},
        {"&&", tok::ampamp},
        {"||", tok::pipepipe},
        {"+=", tok::plusequal},
        {"-=", tok::minusequal},
        {"*=", tok::starequal},
        {"/=", tok::slashequal},
        {"%=", tok::percentequal},
        {"&=", tok::ampequal},
        {"|=", tok::pipeequal},
        {"^=", tok::caretequal},
        {"(", tok::l_paren},
        {")", tok::r_paren},
        {"{", tok::l_brace},
        {"}", tok::r_brace},
        {"[", tok::l_square},
        {"]", tok::r_square},
        {";", tok::semi},
        {",", tok::comma},
        {".", tok::period},
        {"?", tok::question},
        {":", tok::colon},
        {"+", tok::plus},
        {"-", tok::minus},
        {"*", tok::star},
        {"/", tok::slash},
        {"%", tok::percent},
        {"&", tok::amp},
        {"|", tok::pipe},
        {"^", tok::caret},
        {"~", tok::tilde},
        {"!", tok::exclaim},
        {"<", tok::less},
        {">", tok::greater},
        {"=", tok::equal},
    };
    llvm::StringRef Rest = Buf.substr(Pos);
    for (const auto &P : Puncts) {
      if (Rest.starts_with(P.Spelling)) {
        Pos += strlen(P.Spelling);
        return makeToken(P.Kind, Start);
      }
    }

    // Not a token: report the byte (or the whole UTF-8 sequence) and go on.
    unsigned char UC = static_cast<unsigned char>(C);
    if (UC == 0) {
      ++Pos;
      Diags.report(SourceRange(locAt(Start)), diag::err_lex_nul_char);
      continue;
    }
    if (UC >= 0x80) {
      unsigned Len = llvm::getNumBytesForUTF8(UC);
      const llvm::UTF8 *B = reinterpret_cast<const llvm::UTF8 *>(Rest.data());
      if (Len <= Rest.size() && llvm::isLegalUTF8Sequence(B, B + Len)) {
        Pos += Len;
        Diags.report(SourceRange(locAt(Start)), diag::err_lex_invalid_char)
            << Buf.slice(Start, Pos);
      } else {
        ++Pos;
        Diags.report(SourceRange(locAt(Start)), diag::err_lex_invalid_byte)
            << llvm::utohexstr(UC, /*LowerCase=*/true);
      }
      continue;
    }
    ++Pos;
    if (llvm::isPrint(C))
      Diags.report(SourceRange(locAt(Start)), diag::err_lex_invalid_char)
          << llvm::StringRef(&Buf.data()[Start], 1);
    else
      Diags.report(SourceRange(locAt(Start)), diag::err_lex_invalid_byte)
          << llvm::utohexstr(UC, true);
  }
}
