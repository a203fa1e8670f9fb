//===- Driver.cpp - the bsgpc command line --------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Driver/Driver.h"
#include "bsgp/AST/ASTDumper.h"
#include "bsgp/Parse/Parser.h"
#include "bsgp/Sema/Sema.h"

#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace bsgp;

namespace {

using namespace llvm::opt;

enum ID {
  OPT_INVALID = 0,
#define OPTION(...) LLVM_MAKE_OPT_ID(__VA_ARGS__),
#include "Options.inc"
#undef OPTION
};

#define OPTTABLE_STR_TABLE_CODE
#include "Options.inc"
#undef OPTTABLE_STR_TABLE_CODE

#define OPTTABLE_PREFIXES_TABLE_CODE
#include "Options.inc"
#undef OPTTABLE_PREFIXES_TABLE_CODE

static constexpr llvm::opt::OptTable::Info InfoTable[] = {
#define OPTION(...) LLVM_CONSTRUCT_OPT_INFO(__VA_ARGS__),
#include "Options.inc"
#undef OPTION
};

class BSGPOptTable : public llvm::opt::GenericOptTable {
public:
  BSGPOptTable()
      : GenericOptTable(OptionStrTable, OptionPrefixesTable, InfoTable) {}
};

} // namespace

TranslationUnit *bsgp::parseAndAnalyzeBuffer(uint32_t FileId, ASTContext &Ctx,
                                             DiagnosticEngine &Diags,
                                             const FrontendOptions &Opts) {
  ParseSession PS(Ctx, Diags);
  PS.setIncludePaths(Opts.IncludePaths);
  PS.setAllowImports(Opts.AllowImports);
  size_t First = Ctx.getTranslationUnits().size();
  PS.parseMainFile(FileId);
  if (!Opts.ParseOnly && !Diags.hasFatalError())
    analyzeProgram(Ctx, Diags);
  if (Diags.hasErrors())
    return nullptr;
  // The main file finishes parsing last (imports complete first).
  auto &TUs = Ctx.getTranslationUnits();
  for (size_t I = First; I < TUs.size(); ++I)
    if (TUs[I].FileId == FileId)
      return &TUs[I];
  return nullptr;
}

TranslationUnit *bsgp::parseAndAnalyze(llvm::StringRef Path, ASTContext &Ctx,
                                       DiagnosticEngine &Diags,
                                       const FrontendOptions &Opts) {
  auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buf) {
    Diags.report(diag::err_drv_cannot_open) << Path << Buf.getError().message();
    return nullptr;
  }
  uint32_t Id = Diags.getSourceManager().addBuffer(
      std::move(*Buf), Path == "-" ? llvm::StringRef("<stdin>") : Path);
  return parseAndAnalyzeBuffer(Id, Ctx, Diags, Opts);
}

int bsgp::runDriver(llvm::ArrayRef<const char *> Argv) {
  BSGPOptTable Table;
  unsigned MissingIndex, MissingCount;
  llvm::opt::InputArgList Args =
      Table.ParseArgs(Argv.drop_front(), MissingIndex, MissingCount);

  SourceManager SM;
  DiagnosticEngine Diags(SM, llvm::errs());
  Diags.setProgramName("bsgpc");

  bool Color = llvm::errs().has_colors();
  if (auto *A = Args.getLastArg(OPT_fcolor_diagnostics,
                                OPT_fno_color_diagnostics))
    Color = A->getOption().matches(OPT_fcolor_diagnostics);
  Diags.setShowColors(Color);
  Diags.setWarningsAsErrors(Args.hasArg(OPT_Werror));
  Diags.setIgnoreWarnings(Args.hasArg(OPT_w));

  if (MissingCount) {
    Diags.report(diag::err_drv_missing_argument)
        << Args.getArgString(MissingIndex);
    return 1;
  }
  for (const llvm::opt::Arg *A : Args.filtered(OPT_UNKNOWN))
    Diags.report(diag::err_drv_unknown_argument) << A->getAsString(Args);
  if (const llvm::opt::Arg *A = Args.getLastArg(OPT_ferror_limit_EQ)) {
    unsigned N;
    if (llvm::StringRef(A->getValue()).getAsInteger(10, N))
      Diags.report(diag::err_drv_bad_error_limit) << A->getValue();
    else
      Diags.setErrorLimit(N);
  }
  if (Diags.hasErrors())
    return 1;

  if (Args.hasArg(OPT_help)) {
    Table.printHelp(llvm::outs(), "bsgpc [options] <file.bsgp>",
                    "bsgpc: the BSGP (bulk-synchronous GPU programming) "
                    "compiler");
    return 0;
  }
  if (Args.hasArg(OPT_version)) {
    llvm::outs() << "bsgpc version 0.1.0\n";
    return 0;
  }

  std::vector<std::string> Inputs = Args.getAllArgValues(OPT_INPUT);
  if (Inputs.empty()) {
    Diags.report(diag::err_drv_no_input);
    return 1;
  }
  if (Inputs.size() > 1) {
    Diags.report(diag::err_drv_too_many_inputs) << Inputs[0] << Inputs[1];
    return 1;
  }

  // A dump implies -fsyntax-only (as in clang); between the two dumps the
  // last one wins. A new stage (-emit-mlir, -S, -c) adds an Action, its
  // option in Options.td, and a case below that runs after the frontend
  // succeeded.
  enum class Action { None, SyntaxOnly, ASTDump, ASTDumpParse };
  Action Act = Action::None;
  if (const llvm::opt::Arg *A =
          Args.getLastArg(OPT_ast_dump, OPT_ast_dump_parse))
    Act = A->getOption().matches(OPT_ast_dump) ? Action::ASTDump
                                               : Action::ASTDumpParse;
  else if (Args.hasArg(OPT_fsyntax_only))
    Act = Action::SyntaxOnly;
  if (Act == Action::None) {
    Diags.report(diag::err_drv_no_codegen);
    return 1;
  }

  FrontendOptions Opts;
  Opts.IncludePaths = Args.getAllArgValues(OPT_I);
  Opts.ParseOnly = Act == Action::ASTDumpParse;
  ASTContext Ctx;
  TranslationUnit *TU = parseAndAnalyze(Inputs[0], Ctx, Diags, Opts);
  if (!TU)
    return 1;

  if (Act == Action::ASTDump || Act == Action::ASTDumpParse) {
    std::string Out = Args.getLastArgValue(OPT_o, "-").str();
    std::error_code EC;
    llvm::ToolOutputFile OF(Out, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      Diags.report(diag::err_drv_cannot_open) << Out << EC.message();
      return 1;
    }
    dumpAST(Ctx, SM, OF.os());
    OF.keep();
  }
  return 0;
}
