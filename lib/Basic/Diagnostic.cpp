//===- Diagnostic.cpp - clang-style diagnostics ---------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Basic/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace bsgp;

namespace {
struct DiagInfo {
  Severity Sev;
  const char *Format;
  const char *Name;
};
} // namespace

static const DiagInfo DiagTable[] = {
#define DIAG(Id, Sev, Format) {Severity::Sev, Format, #Id},
#include "bsgp/Basic/DiagnosticKinds.def"
};

Severity DiagnosticEngine::getSeverity(diag::Kind K) {
  return DiagTable[K].Sev;
}
llvm::StringRef DiagnosticEngine::getFormat(diag::Kind K) {
  return DiagTable[K].Format;
}
llvm::StringRef DiagnosticEngine::getName(diag::Kind K) {
  return DiagTable[K].Name;
}

DiagnosticConsumer::~DiagnosticConsumer() = default;

DiagnosticBuilder::~DiagnosticBuilder() {
  if (Engine)
    Engine->emit(Kind, Range, Args, Fix ? &*Fix : nullptr);
}

static std::string formatMessage(llvm::StringRef Fmt,
                                 llvm::ArrayRef<std::string> Args) {
  std::string Out;
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt[I] == '%' && I + 1 < Fmt.size() && llvm::isDigit(Fmt[I + 1])) {
      unsigned N = Fmt[I + 1] - '0';
      if (N < Args.size())
        Out += Args[N];
      ++I;
      continue;
    }
    Out += Fmt[I];
  }
  return Out;
}

/// Source text may hold anything; print only printable ASCII so that a
/// diagnostic about a bad byte does not itself emit garbage.
static std::string sanitizeLine(llvm::StringRef Line) {
  std::string S;
  for (char C : Line) {
    if (C == '\t')
      S += ' ';
    else if (static_cast<unsigned char>(C) < 0x20 ||
             static_cast<unsigned char>(C) >= 0x7f)
      S += '?';
    else
      S += C;
  }
  return S;
}

void DiagnosticEngine::printSourceLine(SourceRange R, const FixItHint *Fix) {
  llvm::StringRef Line = SM.getLineText(R.Begin.File, R.Begin.Line);
  // Very long lines (minified or fuzzed input) are not worth echoing.
  if (Line.size() > 4096)
    return;
  OS << sanitizeLine(Line) << '\n';
  std::string Marks(std::max<size_t>(Line.size() + 1, R.Begin.Col), ' ');
  unsigned Begin = R.Begin.Col ? R.Begin.Col - 1 : 0;
  unsigned End = Begin;
  if (R.End.isValid() && R.End.File == R.Begin.File &&
      R.End.Line == R.Begin.Line && R.End.Col >= R.Begin.Col)
    End = R.End.Col - 1;
  else if (R.End.isValid() && R.End.Line > R.Begin.Line)
    End = Line.size() ? Line.size() - 1 : Begin;
  if (End >= Marks.size())
    Marks.resize(End + 1, ' ');
  for (unsigned I = Begin; I <= End; ++I)
    Marks[I] = '~';
  Marks[Begin] = '^';
  llvm::StringRef M(Marks);
  M = M.rtrim(' ');
  if (ShowColors)
    OS.changeColor(llvm::raw_ostream::GREEN, true);
  OS << M << '\n';
  if (ShowColors)
    OS.resetColor();
  // The replacement text, under the text it replaces (one line only).
  SourceRange F = Fix ? Fix->Range : SourceRange();
  if (!F.isValid() || F.Begin.File != R.Begin.File ||
      F.Begin.Line != R.Begin.Line || !F.Begin.Col ||
      Fix->Code.find('\n') != std::string::npos)
    return;
  if (ShowColors)
    OS.changeColor(llvm::raw_ostream::GREEN, false);
  OS.indent(F.Begin.Col - 1) << sanitizeLine(Fix->Code) << '\n';
  if (ShowColors)
    OS.resetColor();
}

void DiagnosticEngine::printIncludeStack(uint32_t File) {
  SourceLocation Inc = SM.getFile(File).IncludeLoc;
  if (Inc == LastIncludeLoc)
    return;
  LastIncludeLoc = Inc;
  // Outermost first, each with the line of its #include.
  llvm::SmallVector<SourceLocation, 4> Stack;
  for (; Inc.isValid() && Stack.size() < 256;
       Inc = SM.getFile(Inc.File).IncludeLoc)
    Stack.push_back(Inc);
  for (SourceLocation L : llvm::reverse(Stack))
    OS << "In file included from " << SM.getFileName(L.File) << ':' << L.Line
       << ":\n";
}

void DiagnosticEngine::printMacroNotes(uint32_t Macro) {
  // The chain runs from the innermost macro out; clang prints the macro
  // used in the source first.
  llvm::SmallVector<uint32_t, 4> Chain;
  for (; Macro && Chain.size() < 256;
       Macro = SM.getMacroExpansion(Macro).Parent)
    Chain.push_back(Macro);
  for (uint32_t Id : llvm::reverse(Chain)) {
    const MacroExpansion &E = SM.getMacroExpansion(Id);
    print(Severity::Note, SourceRange(E.DefLoc),
          "expanded from macro '" + E.Name + "'");
  }
}

void DiagnosticEngine::emit(diag::Kind K, SourceRange R,
                            llvm::ArrayRef<std::string> Args,
                            const FixItHint *Fix) {
  Severity Sev = getSeverity(K);
  if (Sev == Severity::Note) {
    if (LastWasSuppressed)
      return;
  } else {
    LastWasSuppressed = false;
    if (FatalOccurred) {
      LastWasSuppressed = true;
      return;
    }
    if (Sev == Severity::Warning) {
      if (IgnoreWarnings) {
        LastWasSuppressed = true;
        return;
      }
      if (WarningsAsErrors)
        Sev = Severity::Error;
    }
    if (Sev == Severity::Error && ErrorLimit && NumErrors >= ErrorLimit) {
      // The fatal error itself sets FatalOccurred once printed.
      emit(diag::fatal_too_many_errors, SourceRange(), {});
      LastWasSuppressed = true;
      return;
    }
  }

  std::string Msg = formatMessage(getFormat(K), Args);
  if (Sev == Severity::Warning)
    ++NumWarnings;
  else if (Sev != Severity::Note)
    ++NumErrors;
  if (Sev == Severity::Fatal)
    FatalOccurred = true;
  if (Consumer)
    Consumer->handleDiagnostic(Sev, R, Msg);
  else
    print(Sev, R, Msg, Fix);
  if (Sev == Severity::Error || Sev == Severity::Warning)
    emitContextNotes();
}

void DiagnosticEngine::emitContextNotes() {
  // Where clang's PrintInstantiationStack cuts a long chain: the notes
  // [SkipStart, SkipEnd) are replaced by one saying how many they were, at
  // the first of them.
  size_t N = ContextNotes.size();
  size_t SkipStart = N, SkipEnd = N;
  unsigned Limit = TemplateBacktraceLimit;
  if (Limit && Limit < N) {
    SkipStart = Limit / 2 + Limit % 2;
    SkipEnd = N - Limit / 2;
  }
  for (size_t I = 0; I < N; ++I) {
    const auto &[NoteRange, Name] = ContextNotes[I];
    if (I < SkipStart || I >= SkipEnd) {
      emit(diag::note_template_instantiation, NoteRange, {Name});
    } else if (I == SkipStart) {
      size_t Skipped = SkipEnd - SkipStart;
      emit(diag::note_template_instantiations_skipped, NoteRange,
           {std::to_string(Skipped), Skipped == 1 ? "context" : "contexts"});
    }
  }
}

void DiagnosticEngine::print(Severity Sev, SourceRange R, llvm::StringRef Msg,
                             const FixItHint *Fix) {
  if (R.isValid() && Sev != Severity::Note)
    printIncludeStack(R.Begin.File);
  if (ShowColors)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  if (R.isValid())
    OS << SM.getFileName(R.Begin.File) << ':' << R.Begin.Line << ':'
       << R.Begin.Col << ": ";
  else
    OS << ProgName << ": ";
  const char *Label = "error";
  llvm::raw_ostream::Colors Color = llvm::raw_ostream::RED;
  switch (Sev) {
  case Severity::Note:
    Label = "note";
    Color = llvm::raw_ostream::BLACK;
    break;
  case Severity::Warning:
    Label = "warning";
    Color = llvm::raw_ostream::MAGENTA;
    break;
  case Severity::Error:
    break;
  case Severity::Fatal:
    Label = "fatal error";
    break;
  }
  if (ShowColors)
    OS.changeColor(Color, true);
  OS << Label << ": ";
  if (ShowColors)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  OS << Msg << '\n';
  if (ShowColors)
    OS.resetColor();
  if (R.isValid())
    printSourceLine(R, Fix);
  if (R.isValid() && R.Begin.Macro)
    printMacroNotes(R.Begin.Macro);
  OS.flush();
}
