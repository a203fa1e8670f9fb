//===- Driver.cpp - the bsgpc command line --------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Driver/Driver.h"
#include "bsgp/AST/ASTDumper.h"
#include "bsgp/Basic/VerifyDiagnosticConsumer.h"
#include "bsgp/Driver/Codegen.h"
#include "bsgp/Driver/Link.h"
#include "bsgp/Driver/Outputs.h"
#include "bsgp/Parse/Parser.h"
#include "bsgp/Sema/Sema.h"
#include "bsgp/Target/CUDA/PTX.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

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
  PS.setPreprocessorOptions(Opts.PP);
  size_t First = Ctx.getTranslationUnits().size();
  Ctx.setMainFileId(FileId);
  if (Opts.MainIsLibrary)
    Ctx.addLibraryFileId(FileId);
  PS.parseMainFile(FileId);
  // The collective library is parsed after the main file (and its
  // imports); MLIRGen tells the main file by getMainFileId().
  for (const std::string &Path : Opts.ImplicitImports) {
    if (Diags.hasFatalError())
      break;
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buf) {
      Diags.report(diag::err_drv_cannot_open)
          << Path << Buf.getError().message();
      break;
    }
    uint32_t LibId = Diags.getSourceManager().addBuffer(std::move(*Buf), Path);
    Ctx.addLibraryFileId(LibId);
    PS.parseMainFile(LibId);
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

/// True if LLVM knows the host CPU -march names (LLVM would only warn,
/// then fail on the first kernel: "64-bit code requested on a subtarget
/// that doesn't support it").
static bool isKnownHostCPU(const CodegenOptions &CG) {
  llvm::InitializeNativeTarget();
  llvm::Triple Triple(CG.Triple.empty() ? llvm::sys::getDefaultTargetTriple()
                                        : CG.Triple);
  std::string Error;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(Triple, Error);
  if (!T)
    return true; // The code generator reports the triple itself.
  std::unique_ptr<llvm::MCSubtargetInfo> STI(
      T->createMCSubtargetInfo(Triple, "", ""));
  return STI && STI->isCPUStringValid(CG.CPU);
}

/// Reads the code generation options shared by -c, -S, -emit-* and
/// linking. Reports bad values and returns false.
static bool parseCodegenArgs(const llvm::opt::InputArgList &Args,
                             DiagnosticEngine &Diags, CodegenOptions &CG) {
  bool EmitLLVM = Args.hasArg(OPT_emit_llvm);
  if (Args.hasArg(OPT_emit_spirv))
    CG.Action = CodegenOptions::EmitSPIRV;
  else if (Args.hasArg(OPT_emit_mlir))
    CG.Action = Args.hasArg(OPT_lower_mlir) ? CodegenOptions::EmitLowered
                                            : CodegenOptions::EmitMLIR;
  else if (Args.hasArg(OPT_S))
    CG.Action =
        EmitLLVM ? CodegenOptions::EmitLLVM : CodegenOptions::EmitAssembly;
  else if (Args.hasArg(OPT_c))
    CG.Action =
        EmitLLVM ? CodegenOptions::EmitBitcode : CodegenOptions::EmitObject;
  else
    CG.Action = CodegenOptions::EmitObject;
  CG.PrintIRAfterAll = Args.hasArg(OPT_mlir_print_ir_after_all);
  CG.DebugInfo = Args.hasArg(OPT_g);
  CG.TimeReport = Args.hasArg(OPT_ftime_report);
  if (const llvm::opt::Arg *A = Args.getLastArg(OPT_O)) {
    llvm::StringRef V = A->getValue();
    unsigned Level = 2;
    if (V.empty() || V == "s" || V == "z")
      Level = 2;
    else if (V.getAsInteger(10, Level) || Level > 3) {
      Diags.report(diag::err_drv_bad_opt_level) << A->getAsString(Args);
      return false;
    }
    CG.OptLevel = Level;
  }
  if (const llvm::opt::Arg *A = Args.getLastArg(OPT_target_EQ)) {
    std::string Bad;
    std::optional<TargetSet> Targets = TargetSet::parse(A->getValue(), &Bad);
    if (!Targets) {
      Diags.report(diag::err_drv_unknown_target) << Bad;
      return false;
    }
    CG.Targets = *Targets;
  }
  if (const llvm::opt::Arg *A = Args.getLastArg(OPT_cuda_arch_EQ)) {
    llvm::StringRef Arch = A->getValue();
    if (!Arch.starts_with("sm_") || !bsgp::isKnownCUDAArch(Arch)) {
      Diags.report(diag::err_drv_bad_cuda_arch) << Arch;
      return false;
    }
    CG.CUDAArch = Arch.str();
  }
  if (const llvm::opt::Arg *A = Args.getLastArg(OPT_cuda_groups_per_block_EQ)) {
    llvm::StringRef Value = A->getValue();
    unsigned N = 0;
    if (Value.getAsInteger(10, N) || N == 0 || N > 16 || (N & (N - 1))) {
      Diags.report(diag::err_drv_bad_groups_per_block) << Value;
      return false;
    }
    CG.CUDAGroupsPerBlock = N;
  }
  if (CG.Action == CodegenOptions::EmitSPIRV)
    CG.Targets.insert(Target::SPIRV);
  CG.CUDAPath = Args.getLastArgValue(OPT_cuda_path_EQ).str();
  CG.CPU = Args.getLastArgValue(OPT_march_EQ).str();
  if (!CG.CPU.empty() && CG.CPU != "native" && !isKnownHostCPU(CG)) {
    Diags.report(diag::err_drv_bad_march)
        << CG.CPU
        << (CG.Triple.empty() ? llvm::sys::getDefaultTargetTriple()
                              : CG.Triple);
    return false;
  }
  if (const llvm::opt::Arg *A =
          Args.getLastArg(OPT_print_supersteps, OPT_print_supersteps_EQ)) {
    CG.PrintSupersteps = "table";
    if (A->getOption().matches(OPT_print_supersteps_EQ)) {
      CG.PrintSupersteps = A->getValue();
      if (CG.PrintSupersteps != "table" && CG.PrintSupersteps != "dot" &&
          CG.PrintSupersteps != "all") {
        Diags.report(diag::err_drv_bad_superstep_format) << A->getValue();
        return false;
      }
    }
    // Printing is an action of its own, like -emit-mlir: it writes the
    // tables to -o or the standard output and builds nothing, so the
    // options that ask for a build are unused (as clang says of -c with
    // -E).
    for (const llvm::opt::Arg *U :
         Args.filtered(OPT_c, OPT_S, OPT_emit_llvm, OPT_emit_mlir,
                       OPT_lower_mlir, OPT_emit_spirv))
      Diags.report(diag::warn_drv_unused_with_print_supersteps)
          << U->getAsString(Args);
    CG.Action = CodegenOptions::EmitMLIR;
  }
  return true;
}

namespace {
/// An input file and the language -x gave it ("" where none did: its
/// extension says).
struct InputFile {
  std::string Path;
  std::string Language;

  bool isBSGP() const {
    if (!Language.empty())
      return Language == "bsgp";
    return llvm::StringRef(Path).ends_with(".bsgp") || Path == "-";
  }
  bool isCUDA() const {
    if (!Language.empty())
      return Language == "cuda";
    llvm::StringRef Ext = llvm::sys::path::extension(Path);
    return Ext == ".cu" || Ext == ".cuh";
  }
  /// The input on Clang's command line, after a -x where its language is
  /// not \p Current, the one in effect there (updated).
  void renderForClang(std::vector<std::string> &Out,
                      std::string &Current) const {
    if (Language != Current) {
      Out.push_back("-x");
      Out.push_back(Language.empty() ? "none" : Language);
      Current = Language;
    }
    Out.push_back(Path);
  }
};
} // namespace

/// The inputs in command-line order, each with the language of the last -x
/// before it (`-x none` goes back to extensions). A CUDA source is an
/// error: Clang would compile it in its CUDA mode, which is not BSGP.
static bool collectInputs(const llvm::opt::InputArgList &Args,
                          DiagnosticEngine &Diags,
                          std::vector<InputFile> &Inputs) {
  std::string Language;
  for (const llvm::opt::Arg *A : Args) {
    if (A->getOption().matches(OPT_x)) {
      Language = A->getValue();
      if (Language == "none")
        Language.clear();
      continue;
    }
    if (!A->getOption().matches(OPT_INPUT))
      continue;
    InputFile In{A->getValue(), Language};
    if (In.isCUDA())
      Diags.report(diag::err_drv_cuda_input) << In.Path;
    Inputs.push_back(std::move(In));
  }
  return !Diags.hasErrors();
}

/// The options Clang's driver gets as given, for the C and C++ inputs it
/// compiles and (unless \p Compile) for the link.
static void forwardClangArgs(const llvm::opt::InputArgList &Args, bool Compile,
                             std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::opt::OptSpecifier> IDs = {
      OPT_I,      OPT_D,        OPT_U,        OPT_O,           OPT_g,
      OPT_std_EQ, OPT_W_Joined, OPT_f_Joined, OPT_ftime_report};
  if (Compile)
    IDs.append({OPT_MD, OPT_MMD, OPT_MF, OPT_MP, OPT_MT, OPT_MQ});
  else
    IDs.append({OPT_L, OPT_l, OPT_Wl_COMMA, OPT_pthread, OPT_shared});
  for (const llvm::opt::Arg *A : Args) {
    if (!llvm::any_of(IDs, [&](llvm::opt::OptSpecifier Id) {
          return A->getOption().matches(Id);
        }))
      continue;
    llvm::opt::ArgStringList Rendered;
    A->render(Args, Rendered);
    for (const char *S : Rendered)
      Out.push_back(S);
  }
}

/// `bsgpc -c main.cpp -o main.o`: a C or C++ input compiled by Clang, as
/// clang and nvcc compile what is not theirs, so that a Makefile may use
/// bsgpc for every file.
static int compileWithClang(const char *Argv0,
                            const llvm::opt::InputArgList &Args,
                            const InputFile &Input, DiagnosticEngine &Diags) {
  LinkOptions LO;
  LO.Action = Args.hasArg(OPT_S) ? LinkOptions::Mode::CompileAssembly
                                 : LinkOptions::Mode::CompileObject;
  std::string Language;
  Input.renderForClang(LO.Inputs, Language);
  forwardClangArgs(Args, /*Compile=*/true, LO.ExtraArgs);
  LO.Verbose = Args.hasArg(OPT_v);
  // Clang's own default output name (main.o in the current directory).
  if (const llvm::opt::Arg *A = Args.getLastArg(OPT_o))
    LO.Output = A->getValue();
  else
    LO.Output =
        (llvm::sys::path::stem(Input.Path) +
         (LO.Action == LinkOptions::Mode::CompileAssembly ? ".s" : ".o"))
            .str();
  return runLink(Argv0, LO, Diags);
}

/// Clang's options for C and C++ on a compile of a .bsgp file: -W is
/// accepted quietly (bsgpc's warnings are always on) and -fPIC and its kin
/// describe what bsgpc always emits; -std= is unused (BSGP has one
/// version, and a Makefile passes its CFLAGS to every file), with a
/// warning; any other -f is an unknown argument, as a misspelt bsgpc flag
/// must be. Returns false after reporting.
static bool checkClangOnlyArgs(const llvm::opt::InputArgList &Args,
                               DiagnosticEngine &Diags) {
  for (const llvm::opt::Arg *A : Args.filtered(OPT_std_EQ, OPT_f_Joined)) {
    llvm::StringRef V = A->getValue();
    if (A->getOption().matches(OPT_std_EQ)) {
      Diags.report(diag::warn_drv_std_unused) << A->getAsString(Args);
      continue;
    }
    if (V == "PIC" || V == "pic" || V == "PIE" || V == "pie")
      continue;
    Diags.report(diag::err_drv_unknown_argument) << A->getAsString(Args);
  }
  return !Diags.hasErrors();
}

/// `bsgpc a.bsgp b.o main.cpp -o app`: each .bsgp input is compiled to a
/// temporary object, then Clang's driver compiles the rest and links it all
/// with libbsgprt.
static int compileAndLink(const char *Argv0,
                          const llvm::opt::InputArgList &Args,
                          llvm::ArrayRef<InputFile> Inputs,
                          DiagnosticEngine &Diags, CodegenOptions CG) {
  FrontendOptions Opts;
  Opts.IncludePaths = Args.getAllArgValues(OPT_I);
  Opts.PP = getPreprocessorOptions(Argv0, Args);
  if (!Args.hasArg(OPT_fno_collectives)) {
    std::string Lib = findCollectiveLibrary(Argv0);
    if (!Lib.empty())
      Opts.ImplicitImports.push_back(Lib);
  }
  LinkOptions LO;
  std::vector<std::unique_ptr<llvm::FileRemover>> Temporaries;
  // The language in effect on Clang's command line; a .bsgp input's object
  // goes back to extensions.
  std::string Language;
  for (const InputFile &Input : Inputs) {
    if (!Input.isBSGP()) {
      Input.renderForClang(LO.Inputs, Language);
      continue;
    }
    const std::string &In = Input.Path;
    llvm::SmallString<128> Obj;
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "bsgpc-" + llvm::sys::path::stem(In), "o", Obj)) {
      Diags.report(diag::err_drv_cannot_open) << Obj << EC.message();
      return 1;
    }
    Temporaries.push_back(std::make_unique<llvm::FileRemover>(Obj));
    if (Args.hasArg(OPT_v))
      llvm::errs() << "bsgpc: compiling " << In << " to " << Obj << "\n";
    ASTContext Ctx;
    TranslationUnit *TU = parseAndAnalyze(In, Ctx, Diags, Opts);
    if (!TU)
      return 1;
    CG.Action = CodegenOptions::EmitObject;
    CG.Output = std::string(Obj);
    if (runCodegen(Ctx, Diags, CG) != 0)
      return 1;
    InputFile{std::string(Obj), ""}.renderForClang(LO.Inputs, Language);
  }
  forwardClangArgs(Args, /*Compile=*/false, LO.ExtraArgs);
  LO.StaticRuntime = Args.hasArg(OPT_static_bsgprt);
  LO.Verbose = Args.hasArg(OPT_v);
  LO.Output = Args.getLastArgValue(OPT_o, "a.out").str();
  return runLink(Argv0, LO, Diags);
}

PreprocessorOptions
bsgp::getPreprocessorOptions(const char *Argv0,
                             const llvm::opt::InputArgList &Args) {
  PreprocessorOptions PP;
  PP.IncludePaths = Args.getAllArgValues(OPT_I);
  for (const llvm::opt::Arg *A : Args.filtered(OPT_D, OPT_U))
    PP.Macros.push_back({A->getValue(), A->getOption().matches(OPT_U)});
  std::string Dir = findResourceIncludeDir(
      Argv0, reinterpret_cast<void *>(&findCollectiveLibrary));
  if (!Dir.empty())
    PP.SystemIncludePaths.push_back(Dir);
  return PP;
}

std::string bsgp::findCollectiveLibrary(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findCollectiveLibrary));
  if (Exe.empty())
    return "";
  llvm::SmallString<256> Path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Path, "lib", "bsgp", "collectives.bsgp");
  if (!llvm::sys::fs::exists(Path))
    return "";
  return std::string(Path);
}

static int runActions(const char *Argv0, const llvm::opt::InputArgList &Args,
                      llvm::ArrayRef<InputFile> Inputs,
                      DiagnosticEngine &Diags);

/// --version: what a bug report needs, as clang's says it.
static void printVersion(const char *Argv0) {
  llvm::raw_ostream &OS = llvm::outs();
  OS << "bsgpc version " BSGP_VERSION "\n";
  OS << "LLVM and MLIR " LLVM_VERSION_STRING "\n";
  OS << "Targets: cpu (" << llvm::sys::getDefaultTargetTriple()
     << "), cuda (PTX, default " << CodegenOptions().CUDAArch
     << "), spirv (Vulkan 1.3)\n";
  OS << "Runtime ABI: " << BSGP_RUNTIME_ABI << "\n";
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findCollectiveLibrary));
  OS << "InstalledDir: " << llvm::sys::path::parent_path(Exe) << "\n";
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
  if (auto *A =
          Args.getLastArg(OPT_fcolor_diagnostics, OPT_fno_color_diagnostics))
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
  if (const llvm::opt::Arg *A =
          Args.getLastArg(OPT_ftemplate_backtrace_limit_EQ)) {
    unsigned N;
    if (llvm::StringRef(A->getValue()).getAsInteger(10, N))
      Diags.report(diag::err_drv_bad_template_backtrace_limit) << A->getValue();
    else
      Diags.setTemplateBacktraceLimit(N);
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
    printVersion(Argv[0]);
    return 0;
  }

  std::vector<InputFile> Inputs;
  if (!collectInputs(Args, Diags, Inputs))
    return 1;
  if (Inputs.empty()) {
    Diags.report(diag::err_drv_no_input);
    return 1;
  }
  if (!Args.hasArg(OPT_verify))
    return runActions(Argv[0], Args, Inputs, Diags);
  // Like clang's -verify: every diagnostic is collected (with no error limit
  // unless one is asked for) and the exit status says whether they matched
  // the expected-* comments.
  if (!Args.hasArg(OPT_ferror_limit_EQ))
    Diags.setErrorLimit(0);
  VerifyDiagnosticConsumer Verifier(Diags);
  runActions(Argv[0], Args, Inputs, Diags);
  return Verifier.finish() ? 0 : 1;
}

/// The text output named by -o (the standard output by default), or null
/// after reporting that it cannot be opened.
static std::unique_ptr<llvm::ToolOutputFile>
openTextOutput(const llvm::opt::InputArgList &Args, DiagnosticEngine &Diags) {
  std::string Out = Args.getLastArgValue(OPT_o, "-").str();
  std::error_code EC;
  auto OF =
      std::make_unique<llvm::ToolOutputFile>(Out, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    Diags.report(diag::err_drv_cannot_open) << Out << EC.message();
    return nullptr;
  }
  return OF;
}

/// -E: the preprocessed source of each input, as clang -E writes it, to -o
/// or the standard output.
static int preprocessOnly(const char *Argv0,
                          const llvm::opt::InputArgList &Args,
                          llvm::ArrayRef<InputFile> Inputs,
                          DiagnosticEngine &Diags) {
  auto OF = openTextOutput(Args, Diags);
  if (!OF)
    return 1;
  PreprocessorOptions PP = getPreprocessorOptions(Argv0, Args);
  bool Ok = true;
  for (const InputFile &Input : Inputs) {
    const std::string &In = Input.Path;
    auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(In, /*IsText=*/true);
    if (!Buf) {
      Diags.report(diag::err_drv_cannot_open) << In << Buf.getError().message();
      return 1;
    }
    uint32_t Id = Diags.getSourceManager().addBuffer(
        std::move(*Buf), In == "-" ? llvm::StringRef("<stdin>") : In);
    Ok &= printPreprocessed(Id, Diags, PP, OF->os());
  }
  if (!Ok || Diags.hasErrors())
    return 1;
  OF->keep();
  return 0;
}

namespace {
/// What one run of bsgpc does with each input (besides -E and linking).
enum class Action { Codegen, SyntaxOnly, ASTDump, ASTDumpParse };
} // namespace

/// The make rule of -MD/-MMD (with -MF, -MP, -MT, -MQ) for the input whose
/// files the source manager read from \p FirstFileId on, as clang writes
/// it. Returns false after reporting.
static bool writeDependencies(const llvm::opt::InputArgList &Args,
                              const FrontendOptions &Opts,
                              const std::string &Output, uint32_t FirstFileId,
                              ASTContext &Ctx, DiagnosticEngine &Diags) {
  DependencyOptions Deps;
  Deps.FirstFileId = FirstFileId;
  Deps.PhonyTargets = Args.hasArg(OPT_MP);
  for (const llvm::opt::Arg *A : Args.filtered(OPT_MT, OPT_MQ))
    Deps.Targets.push_back(A->getOption().matches(OPT_MQ)
                               ? quoteForMake(A->getValue())
                               : std::string(A->getValue()));
  if (Deps.Targets.empty())
    Deps.Targets.push_back(quoteForMake(Output));
  if (Args.hasArg(OPT_MMD) && !Args.hasArg(OPT_MD)) {
    Deps.SystemPrefixes = Opts.PP.SystemIncludePaths;
    llvm::append_range(Deps.SystemPrefixes, Opts.ImplicitImports);
  }
  std::string DepFile = Args.getLastArgValue(OPT_MF).str();
  if (DepFile.empty()) {
    llvm::SmallString<128> P(Output);
    llvm::sys::path::replace_extension(P, "d");
    DepFile = std::string(P);
  }
  std::error_code EC;
  llvm::ToolOutputFile DF(DepFile, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    Diags.report(diag::err_drv_cannot_open) << DepFile << EC.message();
    return false;
  }
  writeDependencyFile(Deps, Ctx, Diags.getSourceManager(), DF.os());
  DF.keep();
  return true;
}

/// Runs \p Act on one input: a dump, a syntax check or code generation
/// (\p CG, whose output is the input's own).
static int runOnInput(const char *Argv0, const llvm::opt::InputArgList &Args,
                      const InputFile &Input, Action Act, CodegenOptions CG,
                      DiagnosticEngine &Diags) {
  SourceManager &SM = Diags.getSourceManager();
  bool Codegen = Act == Action::Codegen;
  if (Codegen && !Input.isBSGP() &&
      (CG.Action == CodegenOptions::EmitObject ||
       CG.Action == CodegenOptions::EmitAssembly))
    return compileWithClang(Argv0, Args, Input, Diags);
  if (Codegen) {
    std::string Default = "-";
    if (CG.Action == CodegenOptions::EmitObject ||
        CG.Action == CodegenOptions::EmitBitcode ||
        CG.Action == CodegenOptions::EmitAssembly ||
        CG.Action == CodegenOptions::EmitSPIRV) {
      // Like clang: dir/a.bsgp -c writes a.o in the current directory.
      llvm::StringRef Stem = llvm::sys::path::stem(Input.Path);
      Default = (Stem + (CG.Action == CodegenOptions::EmitObject    ? ".o"
                         : CG.Action == CodegenOptions::EmitBitcode ? ".bc"
                         : CG.Action == CodegenOptions::EmitSPIRV   ? ".spv"
                                                                    : ".s"))
                    .str();
    }
    CG.Output = Args.getLastArgValue(OPT_o, Default).str();
  }

  FrontendOptions Opts;
  Opts.IncludePaths = Args.getAllArgValues(OPT_I);
  Opts.PP = getPreprocessorOptions(Argv0, Args);
  Opts.ParseOnly = Act == Action::ASTDumpParse;
  Opts.MainIsLibrary = Args.hasArg(OPT_fcollective_library);
  // Only code generation needs the library; AST dumps stay the user's own.
  if (Codegen && !Args.hasArg(OPT_fno_collectives)) {
    std::string Lib = findCollectiveLibrary(Argv0);
    if (!Lib.empty())
      Opts.ImplicitImports.push_back(Lib);
  }
  ASTContext Ctx;
  uint32_t FirstFileId = SM.getNumFiles() + 1;
  TranslationUnit *TU = parseAndAnalyze(Input.Path, Ctx, Diags, Opts);
  if (!TU)
    return 1;

  if (Args.hasArg(OPT_MD, OPT_MMD, OPT_MF) &&
      !writeDependencies(Args, Opts, CG.Output, FirstFileId, Ctx, Diags))
    return 1;
  if (const llvm::opt::Arg *A = Args.getLastArg(OPT_emit_header)) {
    std::string Header = A->getValue();
    std::error_code EC;
    llvm::ToolOutputFile HF(Header, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      Diags.report(diag::err_drv_cannot_open) << Header << EC.message();
      return 1;
    }
    std::string Guard = "BSGP_" + llvm::sys::path::filename(Header).upper();
    for (char &C : Guard)
      if (!llvm::isAlnum(static_cast<unsigned char>(C)))
        C = '_';
    writeHeader(Guard, Ctx, HF.os());
    HF.keep();
  }

  if (Codegen)
    return runCodegen(Ctx, Diags, CG);

  if (Act == Action::ASTDump || Act == Action::ASTDumpParse) {
    auto OF = openTextOutput(Args, Diags);
    if (!OF)
      return 1;
    dumpAST(Ctx, SM, OF->os());
    OF->keep();
  }
  return 0;
}

/// Runs what the command line asks for on \p Inputs: a dump, a syntax
/// check, code generation, or compiling and linking a program.
static int runActions(const char *Argv0, const llvm::opt::InputArgList &Args,
                      llvm::ArrayRef<InputFile> Inputs,
                      DiagnosticEngine &Diags) {
  if (Args.hasArg(OPT_E))
    return preprocessOnly(Argv0, Args, Inputs, Diags);
  // A dump implies -fsyntax-only (as in clang); between the two dumps the
  // last one wins. Without any of them bsgpc generates code: -emit-mlir,
  // -S or -c for one file, or compiling and linking a program.
  Action Act = Action::Codegen;
  if (const llvm::opt::Arg *A =
          Args.getLastArg(OPT_ast_dump, OPT_ast_dump_parse))
    Act = A->getOption().matches(OPT_ast_dump) ? Action::ASTDump
                                               : Action::ASTDumpParse;
  else if (Args.hasArg(OPT_fsyntax_only))
    Act = Action::SyntaxOnly;
  // -verify only checks the diagnostics unless an output is asked for.
  else if (Args.hasArg(OPT_verify) &&
           !Args.hasArg(OPT_emit_mlir, OPT_S, OPT_c, OPT_emit_spirv,
                        OPT_print_supersteps, OPT_print_supersteps_EQ))
    Act = Action::SyntaxOnly;

  CodegenOptions CG;
  bool Codegen = Act == Action::Codegen;
  if (Codegen && !parseCodegenArgs(Args, Diags, CG))
    return 1;
  if (Codegen && !Args.hasArg(OPT_emit_mlir) && !Args.hasArg(OPT_S) &&
      !Args.hasArg(OPT_c) && !Args.hasArg(OPT_emit_spirv) &&
      CG.PrintSupersteps.empty())
    return compileAndLink(Argv0, Args, Inputs, Diags, CG);
  // Several inputs, as clang takes them: each compiled to its own object
  // or assembly file (named after it) or checked; the outputs that name one
  // file cannot serve several.
  bool OneOutputEach = Act == Action::SyntaxOnly ||
                       (Codegen && (CG.Action == CodegenOptions::EmitObject ||
                                    CG.Action == CodegenOptions::EmitBitcode ||
                                    CG.Action == CodegenOptions::EmitAssembly));
  if (Inputs.size() > 1 && !OneOutputEach) {
    Diags.report(diag::err_drv_too_many_inputs)
        << Inputs[0].Path << Inputs[1].Path;
    return 1;
  }
  if (Inputs.size() > 1)
    for (const llvm::opt::Arg *A :
         Args.filtered(OPT_o, OPT_MF, OPT_emit_header))
      Diags.report(diag::err_drv_output_with_multiple_inputs)
          << A->getSpelling();
  if (Diags.hasErrors())
    return 1;
  // Inputs Clang compiles take its flags; every other one is read as BSGP.
  auto ToClang = [&](const InputFile &In) {
    return Codegen && !In.isBSGP() &&
           (CG.Action == CodegenOptions::EmitObject ||
            CG.Action == CodegenOptions::EmitAssembly);
  };
  if (!llvm::all_of(Inputs, ToClang) && !checkClangOnlyArgs(Args, Diags))
    return 1;
  int Status = 0;
  for (const InputFile &Input : Inputs)
    if (runOnInput(Argv0, Args, Input, Act, CG, Diags) != 0)
      Status = 1;
  return Status;
}
