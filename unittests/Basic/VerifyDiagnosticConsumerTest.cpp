//===- VerifyDiagnosticConsumerTest.cpp - Tests for bsgpc -verify ---------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The matcher on its own: a source buffer with directives, diagnostics
// reported at chosen lines, and the verdict and report of finish().
//
//===----------------------------------------------------------------------===//

#include "bsgp/Basic/VerifyDiagnosticConsumer.h"

#include "gtest/gtest.h"

using namespace bsgp;

namespace {

/// A file in a source manager, an engine printing into a string, and a
/// verifier installed on the engine.
struct Fixture {
  SourceManager SM;
  std::string Out;
  llvm::raw_string_ostream OS{Out};
  DiagnosticEngine Diags{SM, OS};
  uint32_t File;
  VerifyDiagnosticConsumer Verifier{Diags};

  explicit Fixture(llvm::StringRef Text) {
    File = SM.addBuffer(llvm::MemoryBuffer::getMemBufferCopy(Text, "t.bsgp"),
                        "t.bsgp");
  }
  SourceLocation at(uint32_t Line) { return {File, Line, 1}; }
};

TEST(VerifyDiagnosticConsumer, MatchesOnTheDirectiveLine) {
  Fixture F("x = y; // expected-error {{undeclared identifier 'y'}}\n");
  F.Diags.report(F.at(1), diag::err_codegen)
      << "use of undeclared identifier 'y'";
  EXPECT_TRUE(F.Verifier.finish()) << F.Out;
  EXPECT_EQ(F.Out, "");
}

TEST(VerifyDiagnosticConsumer, RelativeAndAbsoluteLines) {
  Fixture F("// expected-error@+2 {{a}}\n"
            "// expected-error@3 {{b}}\n"
            "\n"
            "// expected-warning@-3 {{c}}\n");
  F.Diags.report(F.at(3), diag::err_codegen) << "a";
  F.Diags.report(F.at(3), diag::err_codegen) << "b";
  F.Diags.report(F.at(1), diag::warn_codegen) << "c";
  EXPECT_TRUE(F.Verifier.finish()) << F.Out;
}

TEST(VerifyDiagnosticConsumer, CountsAreExact) {
  Fixture F("// expected-error 2 {{x}}\n");
  for (int I = 0; I < 3; ++I)
    F.Diags.report(F.at(1), diag::err_codegen) << "x";
  EXPECT_FALSE(F.Verifier.finish());
  EXPECT_NE(F.Out.find("'error' diagnostics seen but not expected:\n"
                       "  File t.bsgp Line 1: x"),
            std::string::npos)
      << F.Out;
}

TEST(VerifyDiagnosticConsumer, AtLeastAndAnywhere) {
  Fixture F("// expected-error 1+ {{x}}\n"
            "// expected-note@* 0+ {{n}}\n");
  for (int I = 0; I < 3; ++I)
    F.Diags.report(F.at(1), diag::err_codegen) << "x";
  // A location-less note is matched by @* only.
  F.Diags.report(diag::note_codegen) << "n";
  EXPECT_TRUE(F.Verifier.finish()) << F.Out;
}

TEST(VerifyDiagnosticConsumer, FatalErrorsAreErrors) {
  Fixture F("// expected-error@* {{too many errors}}\n");
  F.Diags.report(diag::fatal_too_many_errors);
  EXPECT_TRUE(F.Verifier.finish()) << F.Out;
}

TEST(VerifyDiagnosticConsumer, MissingAndUnexpectedAreBothReported) {
  Fixture F("// expected-error@+1 {{here}}\n"
            "\n"
            "\n");
  F.Diags.report(F.at(3), diag::err_codegen) << "here";
  EXPECT_FALSE(F.Verifier.finish());
  EXPECT_NE(F.Out.find("'expected-error' diagnostics expected but not seen:\n"
                       "  File t.bsgp Line 2 (directive at t.bsgp:1): here"),
            std::string::npos)
      << F.Out;
  EXPECT_NE(F.Out.find("'error' diagnostics seen but not expected:\n"
                       "  File t.bsgp Line 3: here"),
            std::string::npos)
      << F.Out;
}

TEST(VerifyDiagnosticConsumer, OnlyCommentsHoldDirectives) {
  // Neither the string nor the word "expected-errors" is a directive, so
  // the file has none.
  Fixture F("s = \"// expected-error {{a}}\"; // expected-errors\n");
  EXPECT_FALSE(F.Verifier.finish());
  EXPECT_NE(F.Out.find("no expected directives found"), std::string::npos)
      << F.Out;
}

TEST(VerifyDiagnosticConsumer, NoDiagnosticsMeansClean) {
  Fixture Clean("// expected-no-diagnostics\n");
  EXPECT_TRUE(Clean.Verifier.finish()) << Clean.Out;
  Fixture Dirty("// expected-no-diagnostics\n");
  Dirty.Diags.report(Dirty.at(1), diag::warn_codegen) << "w";
  EXPECT_FALSE(Dirty.Verifier.finish());
}

TEST(VerifyDiagnosticConsumer, MalformedDirectives) {
  Fixture F("// expected-error@+x {{a}}\n"
            "// expected-error {{never closed\n");
  EXPECT_FALSE(F.Verifier.finish());
  EXPECT_NE(F.Out.find("t.bsgp:1:4: error: missing or invalid line number"),
            std::string::npos)
      << F.Out;
  EXPECT_NE(F.Out.find("t.bsgp:2:4: error: cannot find end ('}}')"),
            std::string::npos)
      << F.Out;
}

} // namespace
