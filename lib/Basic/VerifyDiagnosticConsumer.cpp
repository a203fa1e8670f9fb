//===- VerifyDiagnosticConsumer.cpp - bsgpc -verify -----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The directives are read after the compilation, from every file the source
// manager holds (the main file and its imports), so a directive may name a
// line of any of them. Matching follows clang: each directive, in file
// order, takes up to its maximum count of unclaimed diagnostics of its
// severity at its line whose message contains its text; a directive that
// got fewer than its minimum is "expected but not seen", and every
// unclaimed diagnostic is "seen but not expected".
//
//===----------------------------------------------------------------------===//

#include "bsgp/Basic/VerifyDiagnosticConsumer.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <climits>
#include <cstring>

using namespace bsgp;

VerifyDiagnosticConsumer::VerifyDiagnosticConsumer(DiagnosticEngine &Diags)
    : Diags(Diags) {
  Diags.setConsumer(this);
}

VerifyDiagnosticConsumer::~VerifyDiagnosticConsumer() {
  if (Installed)
    Diags.setConsumer(nullptr);
}

void VerifyDiagnosticConsumer::handleDiagnostic(Severity Sev, SourceRange R,
                                                llvm::StringRef Message) {
  // A fatal error (the error limit) is an error to the directives, as in
  // clang.
  if (Sev == Severity::Fatal)
    Sev = Severity::Error;
  Diagnostics.push_back({Sev, R.Begin, Message.str()});
}

/// The 1-based line of byte \p Offset, given the offsets of the newlines.
static uint32_t lineOf(llvm::ArrayRef<size_t> Newlines, size_t Offset) {
  return std::lower_bound(Newlines.begin(), Newlines.end(), Offset) -
         Newlines.begin() + 1;
}

static bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Reads a decimal number at \p Pos of \p S; returns false if there is none
/// or it does not fit.
static bool readNumber(llvm::StringRef S, size_t &Pos, unsigned &N) {
  size_t Begin = Pos;
  while (Pos < S.size() && llvm::isDigit(S[Pos]))
    ++Pos;
  return Pos != Begin && !S.slice(Begin, Pos).getAsInteger(10, N);
}

/// The id of the file called \p Name (its whole name, or the part after a
/// '/'), or 0.
static uint32_t findFile(SourceManager &SM, llvm::StringRef Name) {
  for (uint32_t Id = 1; Id <= SM.getNumFiles(); ++Id) {
    llvm::StringRef F = SM.getFileName(Id);
    if (F == Name || (F.ends_with(Name) && F.size() > Name.size() &&
                      F[F.size() - Name.size() - 1] == '/'))
      return Id;
  }
  return 0;
}

void VerifyDiagnosticConsumer::parseComment(uint32_t File,
                                            llvm::StringRef Buffer,
                                            llvm::ArrayRef<size_t> Newlines,
                                            size_t Begin, size_t End,
                                            std::vector<Directive> &Out,
                                            bool &NoDiagnostics) {
  llvm::StringRef Text = Buffer.slice(0, End);
  const llvm::StringRef Prefix = "expected-";
  size_t Pos = Begin;
  while ((Pos = Text.find(Prefix, Pos)) != llvm::StringRef::npos) {
    size_t DirPos = Pos;
    Pos += Prefix.size();
    llvm::StringRef Rest = Text.substr(Pos);
    size_t KindLen = 0;
    Severity Sev = Severity::Error;
    if (Rest.starts_with("no-diagnostics")) {
      KindLen = strlen("no-diagnostics");
    } else if (Rest.starts_with("error")) {
      KindLen = strlen("error");
    } else if (Rest.starts_with("warning")) {
      Sev = Severity::Warning;
      KindLen = strlen("warning");
    } else if (Rest.starts_with("note")) {
      Sev = Severity::Note;
      KindLen = strlen("note");
    }
    // Words such as "expected-semi.bsgp" are not directives.
    if (!KindLen || (KindLen < Rest.size() &&
                     (isIdentChar(Rest[KindLen]) || Rest[KindLen] == '-')))
      continue;
    if (Rest.starts_with("no-diagnostics")) {
      NoDiagnostics = true;
      Pos += KindLen;
      continue;
    }
    Pos += KindLen;

    Directive D;
    D.Sev = Sev;
    D.DirFile = D.File = File;
    D.DirLine = D.Line = lineOf(Newlines, DirPos);
    SourceLocation DirLoc;
    DirLoc.File = File;
    DirLoc.Line = D.DirLine;
    size_t LineStart = D.DirLine > 1 ? Newlines[D.DirLine - 2] + 1 : 0;
    DirLoc.Col = DirPos - LineStart + 1;

    if (Pos < Text.size() && Text[Pos] == '@') {
      ++Pos;
      bool Ok = true;
      unsigned N = 0;
      if (Pos < Text.size() && Text[Pos] == '*') {
        D.File = 0;
        D.AnyLine = true;
        ++Pos;
      } else if (Pos < Text.size() && (Text[Pos] == '+' || Text[Pos] == '-')) {
        bool Up = Text[Pos++] == '-';
        Ok = readNumber(Text, Pos, N) && (!Up || N < D.DirLine);
        D.Line = Up ? D.DirLine - N : D.DirLine + N;
      } else if (Pos < Text.size() && llvm::isDigit(Text[Pos])) {
        Ok = readNumber(Text, Pos, N) && N > 0;
        D.Line = N;
      } else {
        // @file:line or @file:*
        size_t NameEnd = Pos;
        while (NameEnd < Text.size() && Text[NameEnd] != ':' &&
               !llvm::isSpace(Text[NameEnd]))
          ++NameEnd;
        llvm::StringRef Name = Text.slice(Pos, NameEnd);
        Pos = NameEnd;
        Ok = !Name.empty() && Pos < Text.size() && Text[Pos++] == ':';
        if (Ok && Pos < Text.size() && Text[Pos] == '*') {
          D.AnyLine = true;
          ++Pos;
        } else if (Ok) {
          Ok = readNumber(Text, Pos, N) && N > 0;
          D.Line = N;
        }
        if (Ok && !(D.File = findFile(Diags.getSourceManager(), Name))) {
          Diags.report(DirLoc, diag::err_verify_unknown_file) << Name;
          continue;
        }
      }
      if (!Ok) {
        Diags.report(DirLoc, diag::err_verify_bad_line);
        continue;
      }
    }

    while (Pos < Text.size() && llvm::isSpace(Text[Pos]))
      ++Pos;
    unsigned Count = 0;
    if (readNumber(Text, Pos, Count)) {
      D.Min = D.Max = Count;
      if (Pos < Text.size() && Text[Pos] == '+') {
        D.Max = UINT_MAX;
        ++Pos;
      }
      while (Pos < Text.size() && llvm::isSpace(Text[Pos]))
        ++Pos;
    }
    if (!Text.substr(Pos).starts_with("{{")) {
      Diags.report(DirLoc, diag::err_verify_missing_start);
      continue;
    }
    size_t Close = Text.find("}}", Pos + 2);
    if (Close == llvm::StringRef::npos) {
      Diags.report(DirLoc, diag::err_verify_missing_end);
      break;
    }
    D.Text = Text.slice(Pos + 2, Close).str();
    Pos = Close + 2;
    Out.push_back(std::move(D));
  }
}

void VerifyDiagnosticConsumer::parseFile(uint32_t File,
                                         std::vector<Directive> &Out,
                                         bool &NoDiagnostics) {
  llvm::StringRef B = Diags.getSourceManager().getBuffer(File);
  std::vector<size_t> Newlines;
  for (size_t I = B.find('\n'); I < B.size(); I = B.find('\n', I + 1))
    Newlines.push_back(I);
  // Only comments hold directives; strings and character constants are
  // skipped so that a "//" inside them starts nothing.
  size_t N = B.size();
  for (size_t I = 0; I < N;) {
    char C = B[I];
    char Next = I + 1 < N ? B[I + 1] : '\0';
    if (C == '/' && Next == '/') {
      size_t E = std::min(B.find('\n', I), N);
      parseComment(File, B, Newlines, I + 2, E, Out, NoDiagnostics);
      I = E;
    } else if (C == '/' && Next == '*') {
      size_t E = std::min(B.find("*/", I + 2), N);
      parseComment(File, B, Newlines, I + 2, E, Out, NoDiagnostics);
      I = std::min(E + 2, N);
    } else if (C == '"' || C == '\'') {
      ++I;
      while (I < N && B[I] != C && B[I] != '\n')
        I += B[I] == '\\' ? 2 : 1;
      ++I;
    } else {
      ++I;
    }
  }
}

static const char *severityName(Severity Sev) {
  switch (Sev) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
  case Severity::Fatal:
    break;
  }
  return "error";
}

bool VerifyDiagnosticConsumer::finish() {
  // From here on the engine prints: the report and malformed directives
  // are the run's only errors.
  Diags.setConsumer(nullptr);
  Installed = false;
  Diags.resetCounts();
  SourceManager &SM = Diags.getSourceManager();

  std::vector<Directive> Directives;
  bool NoDiagnostics = false;
  for (uint32_t Id = 1; Id <= SM.getNumFiles(); ++Id)
    parseFile(Id, Directives, NoDiagnostics);
  if (NoDiagnostics && !Directives.empty())
    Diags.report(diag::err_verify_no_diags_and_directives);
  else if (!NoDiagnostics && Directives.empty())
    Diags.report(diag::err_verify_no_directives);

  std::vector<bool> Claimed(Diagnostics.size());
  std::vector<const Directive *> Unmet;
  for (const Directive &D : Directives) {
    unsigned Count = 0;
    for (size_t I = 0; I < Diagnostics.size() && Count < D.Max; ++I) {
      const Seen &S = Diagnostics[I];
      if (Claimed[I] || S.Sev != D.Sev)
        continue;
      bool At = (D.AnyLine && !D.File) ||
                (S.Loc.File == D.File && (D.AnyLine || S.Loc.Line == D.Line));
      if (!At || !llvm::StringRef(S.Message).contains(D.Text))
        continue;
      Claimed[I] = true;
      ++Count;
    }
    if (Count < D.Min)
      Unmet.push_back(&D);
  }

  for (Severity Sev : {Severity::Error, Severity::Warning, Severity::Note}) {
    std::string NotSeen, NotExpected;
    llvm::raw_string_ostream NS(NotSeen), NE(NotExpected);
    for (const Directive *D : Unmet) {
      if (D->Sev != Sev)
        continue;
      NS << "\n  File " << (D->File ? SM.getFileName(D->File) : "*")
         << " Line ";
      if (D->AnyLine)
        NS << '*';
      else
        NS << D->Line;
      if (D->File != D->DirFile || D->Line != D->DirLine || D->AnyLine)
        NS << " (directive at " << SM.getFileName(D->DirFile) << ':'
           << D->DirLine << ')';
      NS << ": " << D->Text;
    }
    for (size_t I = 0; I < Diagnostics.size(); ++I) {
      const Seen &S = Diagnostics[I];
      if (Claimed[I] || S.Sev != Sev)
        continue;
      if (S.Loc.isValid())
        NE << "\n  File " << SM.getFileName(S.Loc.File) << " Line "
           << S.Loc.Line << ": " << S.Message;
      else
        NE << "\n  (frontend): " << S.Message;
    }
    std::string Name = severityName(Sev);
    if (!NotSeen.empty())
      Diags.report(diag::err_verify_not_seen) << "expected-" + Name << NotSeen;
    if (!NotExpected.empty())
      Diags.report(diag::err_verify_not_expected) << Name << NotExpected;
  }
  return !Diags.hasErrors();
}
