//===- Driver.cpp - the bsgpc command line --------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Driver/Driver.h"
#include "bsgp/Driver/Codegen.h"
#include "bsgp/AST/ASTDumper.h"
#include "bsgp/Parse/Parser.h"
#include "bsgp/Sema/Sema.h"

#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
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
  // Implicit imports come after the main file, so the main file stays the
  // first translation unit and keeps its role in MLIRGen.
  for (const std::string &Path : Opts.ImplicitImports) {
    if (Diags.hasFatalError())
      break;
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buf) {
      Diags.report(diag::err_drv_cannot_open) << Path
                                              << Buf.getError().message();
      break;
    }
    PS.parseMainFile(
        Diags.getSourceManager().addBuffer(std::move(*Buf), Path));
  }
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

std::string bsgp::findCollectiveLibrary(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findCollectiveLibrary));
  if (Exe.empty())
    return "";
  llvm::SmallString<256> Path(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Path, "lib", "bsgp", "collectives.bsgp");
  if (!llvm::sys::fs::exists(Path))
    return "";
  return std::string(Path);
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

  bool DumpParse = Args.hasArg(OPT_ast_dump_parse);
  bool Dump = Args.hasArg(OPT_ast_dump) || DumpParse;
  bool SyntaxOnly = Args.hasArg(OPT_fsyntax_only);
  CodegenOptions CG;
  bool Codegen = !Dump && !SyntaxOnly;
  if (Codegen) {
    bool EmitLLVM = Args.hasArg(OPT_emit_llvm);
    if (Args.hasArg(OPT_emit_mlir))
      CG.Action = Args.hasArg(OPT_lower_mlir) ? CodegenOptions::EmitLowered
                                              : CodegenOptions::EmitMLIR;
    else if (Args.hasArg(OPT_S))
      CG.Action = EmitLLVM ? CodegenOptions::EmitLLVM
                           : CodegenOptions::EmitAssembly;
    else if (Args.hasArg(OPT_c))
      CG.Action = EmitLLVM ? CodegenOptions::EmitBitcode
                           : CodegenOptions::EmitObject;
    else {
      // Linking is not part of bsgpc yet: say what to use instead.
      Diags.report(diag::err_drv_no_codegen);
      return 1;
    }
    CG.PrintIRAfterAll = Args.hasArg(OPT_mlir_print_ir_after_all);
    if (const llvm::opt::Arg *A = Args.getLastArg(OPT_O)) {
      llvm::StringRef V = A->getValue();
      unsigned Level;
      if (V.empty())
        Level = 2;
      else if (V == "s" || V == "z")
        Level = 2;
      else if (V.getAsInteger(10, Level) || Level > 3) {
        Diags.report(diag::err_drv_bad_opt_level) << A->getAsString(Args);
        return 1;
      }
      CG.OptLevel = Level;
    }
    if (const llvm::opt::Arg *A = Args.getLastArg(OPT_target_EQ)) {
      CG.Target = A->getValue();
      if (CG.Target != "cpu") {
        Diags.report(diag::err_drv_unknown_target) << CG.Target;
        return 1;
      }
    }
    CG.CPU = Args.getLastArgValue(OPT_march_EQ).str();
    std::string Default = "-";
    if (CG.Action == CodegenOptions::EmitObject ||
        CG.Action == CodegenOptions::EmitBitcode ||
        CG.Action == CodegenOptions::EmitAssembly) {
      // Like clang: a.bsgp -c writes a.o next to the current directory.
      llvm::StringRef Stem = llvm::sys::path::stem(Inputs[0]);
      Default = (Stem + (CG.Action == CodegenOptions::EmitObject    ? ".o"
                         : CG.Action == CodegenOptions::EmitBitcode ? ".bc"
                                                                    : ".s"))
                    .str();
    }
    CG.Output = Args.getLastArgValue(OPT_o, Default).str();
  }

  FrontendOptions Opts;
  Opts.IncludePaths = Args.getAllArgValues(OPT_I);
  Opts.ParseOnly = DumpParse;
  // Only code generation needs the library; AST dumps stay the user's own.
  if (Codegen && !Args.hasArg(OPT_fno_collectives)) {
    std::string Lib = findCollectiveLibrary(Argv[0]);
    if (!Lib.empty())
      Opts.ImplicitImports.push_back(Lib);
  }
  ASTContext Ctx;
  TranslationUnit *TU = parseAndAnalyze(Inputs[0], Ctx, Diags, Opts);
  if (!TU)
    return 1;

  if (Codegen)
    return runCodegen(Ctx, Diags, CG);

  if (Dump) {
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
