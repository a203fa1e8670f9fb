//===- bsgpi.cpp - the BSGP reference interpreter -------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `bsgpi [options] prog.bsgp [program args...]` parses and checks the
/// program as `bsgpc -fsyntax-only` does and runs its main by interpreting
/// the checked AST (docs/testing.md). It uses the frontend only (Lex, Parse,
/// AST, Sema), so that it is an oracle independent of MLIRGen, the passes
/// and the targets.
///
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/Basic/Diagnostic.h"
#include "bsgp/Parse/Parser.h"
#include "bsgp/Sema/Sema.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <new>
#include <pthread.h>

using namespace bsgp;

static void usage(llvm::raw_ostream &OS) {
  OS << "usage: bsgpi [options] prog.bsgp [program arguments...]\n"
        "  -I <dir>              search <dir> for #include and imports\n"
        "  -D <macro>[=<value>]  define <macro> (to 1 if no value)\n"
        "  -U <macro>            undefine <macro>\n"
        "  --target=cpu|cuda|spirv\n"
        "                        the target whose target.* query is true "
        "(default cpu)\n"
        "  --group-size=<n>      threads per work group (default 1 for cpu, "
        "256 for cuda and spirv)\n"
        "  --subgroup-size=<n>   lanes per subgroup (default 1 for cpu, 32 "
        "for cuda and spirv)\n"
        "  --max-steps=<n>       stop with an error after n loop iterations "
        "and calls\n"
        "  --no-check-races      do not report racing accesses\n"
        "  --check-get-range     report a thread.get of a rank outside the "
        "spawn\n"
        "                        (otherwise its value is zero)\n";
}

/// -I, -D and -U, as bsgpc reads them (clang's preprocessor gets them in
/// command-line order).
static void
addPreprocessorArg(char Opt, llvm::StringRef Value,
                   std::vector<std::string> &Includes,
                   std::vector<std::pair<std::string, bool>> &Macros) {
  if (Opt == 'I')
    Includes.push_back(Value.str());
  else
    Macros.push_back({Value.str(), Opt == 'U'});
}

static bool parseNumber(llvm::StringRef V, uint64_t &Out) {
  return !V.getAsInteger(10, Out);
}

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  // A program can ask for more than the machine has (a spawn of 2^31
  // threads): that is a report, not a crash.
  std::set_new_handler([] {
    llvm::errs() << "bsgpi: error: out of memory\n";
    std::_Exit(1);
  });
  interp::Options Opts;
  std::vector<std::string> Includes;
  std::vector<std::pair<std::string, bool>> Macros;
  bool GroupSizeGiven = false, SubgroupSizeGiven = false;
  int I = 1;
  auto Bad = [](const llvm::Twine &Msg) {
    llvm::errs() << "bsgpi: error: " << Msg << "\n";
    return 1;
  };
  for (; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    if (!A.starts_with("-") || A == "-")
      break;
    uint64_t N = 0;
    if (A == "--help" || A == "-help" || A == "-h") {
      usage(llvm::outs());
      return 0;
    } else if (A == "-I" || A == "-D" || A == "-U") {
      if (++I == argc)
        return Bad(
            (A == "-I" ? "missing directory after " : "missing macro after ") +
            A);
      addPreprocessorArg(A[1], argv[I], Includes, Macros);
    } else if (A.starts_with("-I") || A.starts_with("-D") ||
               A.starts_with("-U")) {
      addPreprocessorArg(A[1], A.drop_front(2), Includes, Macros);
    } else if (A.consume_front("--target=")) {
      std::optional<Target> T = parseTargetName(A);
      if (!T)
        return Bad("unknown target '" + A + "' (cpu, cuda or spirv)");
      Opts.Tgt = *T;
    } else if (A.consume_front("--group-size=")) {
      if (!parseNumber(A, N) || N == 0 || N > 1024)
        return Bad("bad --group-size '" + A + "' (1 to 1024)");
      Opts.GroupSize = N;
      GroupSizeGiven = true;
    } else if (A.consume_front("--subgroup-size=")) {
      if (!parseNumber(A, N) || N == 0 || N > 64)
        return Bad("bad --subgroup-size '" + A + "' (1 to 64)");
      Opts.SubgroupSize = N;
      SubgroupSizeGiven = true;
    } else if (A.consume_front("--max-steps=")) {
      if (!parseNumber(A, N))
        return Bad("bad --max-steps '" + A + "'");
      Opts.MaxSteps = N;
    } else if (A == "--no-check-races") {
      Opts.CheckRaces = false;
    } else if (A == "--check-get-range") {
      Opts.CheckGetRange = true;
    } else {
      return Bad("unknown option '" + A + "' (see --help)");
    }
  }
  if (I == argc)
    return Bad("no input file (see --help)");
  // The target's work groups (docs/language.md) unless asked otherwise;
  // where the device decides the subgroup size (SPIR-V), NVIDIA's 32.
  const TargetInfo &Info = getTargetInfo(Opts.Tgt);
  if (!GroupSizeGiven)
    Opts.GroupSize = Info.GroupSize;
  if (!SubgroupSizeGiven)
    Opts.SubgroupSize = Info.SubgroupSize ? Info.SubgroupSize : 32;
  if (Opts.GroupSize % Opts.SubgroupSize)
    return Bad("the group size must be a multiple of the subgroup size");

  SourceManager SM;
  DiagnosticEngine Diags(SM, llvm::errs());
  Diags.setProgramName("bsgpi");
  llvm::StringRef Path = argv[I];
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    Diags.report(diag::err_drv_cannot_open) << Path << Buf.getError().message();
    return 1;
  }
  uint32_t Id = SM.addBuffer(std::move(*Buf), Path);
  ASTContext Ctx;
  ParseSession PS(Ctx, Diags);
  PS.setIncludePaths(Includes);
  PreprocessorOptions PPOpts;
  PPOpts.IncludePaths = Includes;
  PPOpts.Macros = std::move(Macros);
  // <bsgp.h> next to the interpreter, as bsgpc finds it.
  std::string Resource =
      findResourceIncludeDir(argv[0], reinterpret_cast<void *>(&usage));
  if (!Resource.empty())
    PPOpts.SystemIncludePaths.push_back(Resource);
  PS.setPreprocessorOptions(std::move(PPOpts));
  Ctx.setMainFileId(Id);
  PS.parseMainFile(Id);
  if (!Diags.hasFatalError())
    analyzeProgram(Ctx, Diags);
  if (Diags.hasErrors())
    return 1;

  std::vector<std::string> Args;
  for (int J = I; J < argc; ++J)
    Args.push_back(argv[J]);
  interp::Interpreter Interp(Ctx, SM, Opts);
  // The interpreter recurses over the AST and over the program's calls:
  // it runs on a thread with a stack large enough for the call depth it
  // allows (interp::MaxCallDepth).
  struct Job {
    interp::Interpreter *I;
    std::vector<std::string> *Args;
    int Status = 1;
  } J{&Interp, &Args};
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, size_t(1) << 30);
  pthread_t T;
  auto Run = [](void *P) -> void * {
    auto *J = static_cast<Job *>(P);
    J->Status = J->I->run(*J->Args);
    return nullptr;
  };
  if (pthread_create(&T, &Attr, Run, &J) != 0)
    return Bad("cannot start the interpreter thread");
  pthread_join(T, nullptr);
  return J.Status;
}
