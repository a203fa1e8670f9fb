//===- DiagnosticTest.cpp - Tests for the diagnostic printer --------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// What the engine prints around a message: the fix-it line under the caret,
// and the chain of instantiation notes cut by the backtrace limit.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Basic/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace bsgp;

namespace {

/// An engine printing into a string, with one file of source text.
struct Fixture {
  SourceManager SM;
  std::string Out;
  llvm::raw_string_ostream OS{Out};
  DiagnosticEngine Diags{SM, OS};
  uint32_t File;

  explicit Fixture(llvm::StringRef Text) {
    File = SM.addBuffer(llvm::MemoryBuffer::getMemBufferCopy(Text, "t.bsgp"),
                        "t.bsgp");
  }
  SourceRange range(uint32_t Line, uint32_t Col, uint32_t EndCol) {
    return SourceRange({File, Line, Col}, {File, Line, EndCol});
  }
  /// The lines printed that contain \p S.
  unsigned count(llvm::StringRef S) {
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(Out).split(Lines, '\n');
    return llvm::count_if(Lines,
                          [&](llvm::StringRef L) { return L.contains(S); });
  }
};

TEST(Diagnostic, FixItIsPrintedUnderTheCaret) {
  Fixture F("void f() {\n  long x;\n}\n");
  SourceRange R = F.range(2, 3, 6);
  F.Diags.report(R, diag::err_unknown_type_name_suggest)
      << "long" << "int64" << FixItHint::replace(R, "int64");
  EXPECT_EQ(F.Out, "t.bsgp:2:3: error: unknown type name 'long'; did you "
                   "mean 'int64'?\n"
                   "  long x;\n"
                   "  ^~~~\n"
                   "  int64\n");
}

TEST(Diagnostic, NoFixItLineWithoutAFixIt) {
  Fixture F("  Widget w;\n");
  F.Diags.report(F.range(1, 3, 8), diag::err_unknown_type_name) << "Widget";
  EXPECT_EQ(F.Out, "t.bsgp:1:3: error: unknown type name 'Widget'\n"
                   "  Widget w;\n"
                   "  ^~~~~~\n");
}

/// A chain of \p N instantiation notes, `f<0>` innermost, all on line 1.
std::vector<std::pair<SourceRange, std::string>> chain(Fixture &F, int N) {
  std::vector<std::pair<SourceRange, std::string>> Notes;
  for (int I = 0; I < N; ++I)
    Notes.push_back({F.range(1, 1, 1), "f<" + std::to_string(I) + ">"});
  return Notes;
}

TEST(Diagnostic, BacktraceKeepsTheFirstAndLastHalves) {
  Fixture F("x\n");
  F.Diags.setContextNotes(chain(F, 21));
  F.Diags.report(F.range(1, 1, 1), diag::err_codegen) << "boom";
  EXPECT_EQ(F.count("note: in instantiation of"), 10u) << F.Out;
  EXPECT_EQ(F.count("'f<4>'"), 1u);
  EXPECT_EQ(F.count("'f<5>'"), 0u);
  EXPECT_EQ(F.count("'f<15>'"), 0u);
  EXPECT_EQ(F.count("'f<16>'"), 1u);
  EXPECT_EQ(F.count("note: (skipping 11 contexts in backtrace; use "
                    "-ftemplate-backtrace-limit=0 to see all)"),
            1u);
  // The skip note comes where the notes it stands for would be.
  EXPECT_LT(F.Out.find("'f<4>'"), F.Out.find("skipping"));
  EXPECT_LT(F.Out.find("skipping"), F.Out.find("'f<16>'"));
}

TEST(Diagnostic, BacktraceLimitOddAndOff) {
  Fixture F("x\n");
  F.Diags.setContextNotes(chain(F, 11));
  F.Diags.setTemplateBacktraceLimit(3);
  F.Diags.report(F.range(1, 1, 1), diag::err_codegen) << "a";
  // 3: two first, one last.
  EXPECT_EQ(F.count("note: in instantiation of"), 3u) << F.Out;
  EXPECT_EQ(F.count("'f<1>'"), 1u);
  EXPECT_EQ(F.count("'f<10>'"), 1u);
  EXPECT_EQ(F.count("skipping 8 contexts"), 1u);

  Fixture G("x\n");
  G.Diags.setContextNotes(chain(G, 11));
  G.Diags.setTemplateBacktraceLimit(0);
  G.Diags.report(G.range(1, 1, 1), diag::err_codegen) << "a";
  EXPECT_EQ(G.count("note: in instantiation of"), 11u) << G.Out;
  EXPECT_EQ(G.count("skipping"), 0u);

  // One over the limit skips one context, in the singular.
  Fixture H("x\n");
  H.Diags.setContextNotes(chain(H, 11));
  H.Diags.report(H.range(1, 1, 1), diag::err_codegen) << "a";
  EXPECT_EQ(H.count("(skipping 1 context in backtrace"), 1u) << H.Out;
}

} // namespace
