//===- VerifyDiagnosticConsumer.h - bsgpc -verify ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `bsgpc -verify`, as clang's: the diagnostics are collected instead of
/// printed and compared with the expectations written in comments of the
/// files read:
///
///   x = y;  // expected-error {{use of undeclared identifier 'y'}}
///   // expected-warning@+1 {{...}}      the next line (@-N: N lines up)
///   // expected-note@12 {{...}}         line 12 of this file
///   // expected-error@other.bsgp:3 {{...}}   line 3 of another file read
///   // expected-error@* {{...}}          anywhere, or without a location
///   // expected-error 2 {{...}}          exactly twice (2+: at least twice)
///   // expected-no-diagnostics           the file must compile cleanly
///
/// The text between `{{` and `}}` must occur in the message. Every
/// diagnostic must be expected and every expectation met; mismatches are
/// reported like clang's ("'expected-error' diagnostics expected but not
/// seen:", "'error' diagnostics seen but not expected:").
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BASIC_VERIFYDIAGNOSTICCONSUMER_H
#define BSGP_BASIC_VERIFYDIAGNOSTICCONSUMER_H

#include "bsgp/Basic/Diagnostic.h"

#include <string>
#include <vector>

namespace bsgp {

class VerifyDiagnosticConsumer : public DiagnosticConsumer {
public:
  /// Installs itself as \p Diags' consumer until finish() or destruction.
  explicit VerifyDiagnosticConsumer(DiagnosticEngine &Diags);
  ~VerifyDiagnosticConsumer() override;

  void handleDiagnostic(Severity Sev, SourceRange R,
                        llvm::StringRef Message) override;

  /// Reads the expected-* directives of every file the source manager
  /// holds, matches them against the collected diagnostics and reports each
  /// mismatch (and each malformed directive) as an error through the engine,
  /// which prints again. Returns true when everything matched.
  bool finish();

  /// One expected-* comment.
  struct Directive {
    Severity Sev;
    /// Where the directive is written (for the report).
    uint32_t DirFile = 0, DirLine = 0;
    /// The line it refers to; AnyLine for `@*` and `@file:*`, and File 0
    /// with AnyLine for `@*`, which also matches location-less diagnostics.
    uint32_t File = 0, Line = 0;
    bool AnyLine = false;
    unsigned Min = 1, Max = 1;
    std::string Text;
  };

  /// A diagnostic as it was reported.
  struct Seen {
    Severity Sev;
    SourceLocation Loc;
    std::string Message;
  };

private:
  void parseFile(uint32_t File, std::vector<Directive> &Out,
                 bool &NoDiagnostics);
  void parseComment(uint32_t File, llvm::StringRef Buffer,
                    llvm::ArrayRef<size_t> Newlines, size_t Begin, size_t End,
                    std::vector<Directive> &Out, bool &NoDiagnostics);

  DiagnosticEngine &Diags;
  std::vector<Seen> Diagnostics;
  bool Installed = true;
};

} // namespace bsgp

#endif // BSGP_BASIC_VERIFYDIAGNOSTICCONSUMER_H
