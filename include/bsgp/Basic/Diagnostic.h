//===- Diagnostic.h - clang-style diagnostics -------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The DiagnosticEngine formats messages from DiagnosticKinds.def and prints
/// them as `file:line:col: error: message`, followed by the source line and a
/// caret with a `~~~` underline. It implements -Werror, -w, colours and the
/// error limit; once the limit is hit it reports a fatal error and sets
/// hasFatalError() so that the parser and Sema stop early. A
/// DiagnosticConsumer may take the formatted diagnostics instead of the
/// printer (bsgpc -verify collects them and compares them with the
/// expectations written in the source).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BASIC_DIAGNOSTIC_H
#define BSGP_BASIC_DIAGNOSTIC_H

#include "bsgp/Basic/SourceManager.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bsgp {

namespace diag {
enum Kind : unsigned {
#define DIAG(Id, Severity, Format) Id,
#include "bsgp/Basic/DiagnosticKinds.def"
  NumDiagnostics
};
} // namespace diag

enum class Severity { Note, Warning, Error, Fatal };

class DiagnosticEngine;

/// Receives every diagnostic the engine would print, after -Werror, -w and
/// the error limit have been applied: \p Sev is the final severity.
class DiagnosticConsumer {
public:
  virtual ~DiagnosticConsumer();
  virtual void handleDiagnostic(Severity Sev, SourceRange R,
                                llvm::StringRef Message) = 0;
};

/// A change to the source that fixes what a diagnostic reports: printed
/// under the caret line, as clang prints its fix-it hints.
struct FixItHint {
  SourceRange Range;
  std::string Code;
  /// Replace the text of \p R with \p Code.
  static FixItHint replace(SourceRange R, llvm::StringRef Code) {
    return FixItHint{R, Code.str()};
  }
};

/// Collects arguments with << and emits when destroyed.
class DiagnosticBuilder {
public:
  DiagnosticBuilder(DiagnosticEngine &E, diag::Kind K, SourceRange R)
      : Engine(&E), Kind(K), Range(R) {}
  DiagnosticBuilder(DiagnosticBuilder &&O)
      : Engine(O.Engine), Kind(O.Kind), Range(O.Range), Args(std::move(O.Args)),
        Fix(std::move(O.Fix)) {
    O.Engine = nullptr;
  }
  DiagnosticBuilder(const DiagnosticBuilder &) = delete;
  ~DiagnosticBuilder();

  DiagnosticBuilder &operator<<(llvm::StringRef S) {
    Args.push_back(S.str());
    return *this;
  }
  DiagnosticBuilder &operator<<(const std::string &S) {
    Args.push_back(S);
    return *this;
  }
  DiagnosticBuilder &operator<<(const char *S) {
    Args.push_back(S);
    return *this;
  }
  DiagnosticBuilder &operator<<(uint64_t V) {
    Args.push_back(std::to_string(V));
    return *this;
  }
  DiagnosticBuilder &operator<<(int V) {
    Args.push_back(std::to_string(V));
    return *this;
  }
  DiagnosticBuilder &operator<<(unsigned V) {
    Args.push_back(std::to_string(V));
    return *this;
  }
  DiagnosticBuilder &operator<<(FixItHint F) {
    Fix = std::move(F);
    return *this;
  }

private:
  DiagnosticEngine *Engine;
  diag::Kind Kind;
  SourceRange Range;
  llvm::SmallVector<std::string, 4> Args;
  std::optional<FixItHint> Fix;
};

class DiagnosticEngine {
public:
  DiagnosticEngine(SourceManager &SM, llvm::raw_ostream &OS) : SM(SM), OS(OS) {}

  /// Reports \p K at \p R; arguments follow with <<.
  DiagnosticBuilder report(SourceRange R, diag::Kind K) {
    return DiagnosticBuilder(*this, K, R);
  }
  /// Reports \p K with no location (driver errors).
  DiagnosticBuilder report(diag::Kind K) {
    return DiagnosticBuilder(*this, K, SourceRange());
  }

  static Severity getSeverity(diag::Kind K);
  static llvm::StringRef getFormat(diag::Kind K);
  static llvm::StringRef getName(diag::Kind K);

  void setWarningsAsErrors(bool V) { WarningsAsErrors = V; }
  void setIgnoreWarnings(bool V) { IgnoreWarnings = V; }
  void setShowColors(bool V) { ShowColors = V; }
  void setErrorLimit(unsigned N) { ErrorLimit = N; }
  /// The most instantiation notes one diagnostic gets (0: all), as clang's
  /// -ftemplate-backtrace-limit: a longer chain shows its first half
  /// (rounded up) and its last half, with a note saying how many were left
  /// out.
  void setTemplateBacktraceLimit(unsigned N) { TemplateBacktraceLimit = N; }
  unsigned getTemplateBacktraceLimit() const { return TemplateBacktraceLimit; }
  /// Sends diagnostics to \p C instead of printing them (null: print).
  /// The counts and the error limit still apply.
  void setConsumer(DiagnosticConsumer *C) { Consumer = C; }
  DiagnosticConsumer *getConsumer() const { return Consumer; }
  /// Forgets the errors and warnings counted so far (and a fatal error), so
  /// that -verify's own report starts from a clean state.
  void resetCounts() {
    NumErrors = NumWarnings = 0;
    FatalOccurred = LastWasSuppressed = false;
  }
  /// Notes appended to every later error and warning, in order, until
  /// cleared: Sema sets them while it checks an instantiation of a generic
  /// function ("in instantiation of 'f<int>' requested here", as clang),
  /// innermost request first; the backtrace limit applies when they are
  /// printed.
  const std::vector<std::pair<SourceRange, std::string>> &
  getContextNotes() const {
    return ContextNotes;
  }
  void setContextNotes(std::vector<std::pair<SourceRange, std::string>> Notes) {
    ContextNotes = std::move(Notes);
  }
  /// The program name printed before location-less diagnostics.
  void setProgramName(llvm::StringRef N) { ProgName = N.str(); }

  unsigned getNumErrors() const { return NumErrors; }
  unsigned getNumWarnings() const { return NumWarnings; }
  bool hasErrors() const { return NumErrors != 0; }
  bool hasFatalError() const { return FatalOccurred; }

  SourceManager &getSourceManager() { return SM; }

private:
  friend class DiagnosticBuilder;
  void emit(diag::Kind K, SourceRange R, llvm::ArrayRef<std::string> Args,
            const FixItHint *Fix = nullptr);
  void print(Severity Sev, SourceRange R, llvm::StringRef Msg,
             const FixItHint *Fix = nullptr);
  void printSourceLine(SourceRange R, const FixItHint *Fix);
  void printIncludeStack(uint32_t File);
  void printMacroNotes(uint32_t Macro);
  void emitContextNotes();

  SourceManager &SM;
  llvm::raw_ostream &OS;
  DiagnosticConsumer *Consumer = nullptr;
  std::string ProgName = "bsgpc";
  bool WarningsAsErrors = false;
  bool IgnoreWarnings = false;
  bool ShowColors = false;
  unsigned ErrorLimit = 20;
  unsigned TemplateBacktraceLimit = 10;
  unsigned NumErrors = 0;
  unsigned NumWarnings = 0;
  bool FatalOccurred = false;
  /// Notes follow the diagnostic they belong to; they are dropped with it.
  bool LastWasSuppressed = false;
  std::vector<std::pair<SourceRange, std::string>> ContextNotes;
  /// The #include of the file the last printed diagnostic was in: the
  /// "In file included from" lines are printed again only when it changes,
  /// as clang does.
  SourceLocation LastIncludeLoc;
};

} // namespace bsgp

#endif // BSGP_BASIC_DIAGNOSTIC_H
