//===- bsgp-smith.cpp - random BSGP programs for differential testing -----===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `bsgp-smith --seed N [--size S] [--disable=f,g] [-o file]` prints a valid,
// terminating BSGP program free of undefined behaviour whose main prints a
// checksum of everything it computed. The output depends only on the seed,
// the size and the feature set, on every platform.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace bsgp::smith;

static cl::OptionCategory SmithCat("bsgp-smith options");
static cl::opt<uint64_t> Seed("seed", cl::desc("the program's seed"),
                              cl::init(0), cl::cat(SmithCat));
static cl::opt<unsigned>
    Size("size", cl::desc("1 (tiny) to 10 (large): spawns and statements"),
         cl::init(3), cl::cat(SmithCat));
static cl::opt<std::string> FeatureList(
    "features",
    cl::desc("comma-separated features to use, instead of the defaults "
             "('all' for every feature)"),
    cl::cat(SmithCat));
static cl::opt<std::string> Enable("enable",
                                   cl::desc("comma-separated features to add"),
                                   cl::cat(SmithCat));
static cl::opt<std::string>
    Disable("disable", cl::desc("comma-separated features to leave out"),
            cl::cat(SmithCat));
static cl::opt<bool> ListFeatures("list-features",
                                  cl::desc("print the features and exit"),
                                  cl::cat(SmithCat));
static cl::opt<bool> ListContexts(
    "list-contexts",
    cl::desc("print which feature is generated in which control context, as "
             "markdown tables, and exit"),
    cl::cat(SmithCat));
static cl::opt<bool> PlantError(
    "plant-error",
    cl::desc("write the seed's program with one invalid construct, on a line "
             "marked 'bsgp-smith: error here', that bsgpc must reject"),
    cl::cat(SmithCat));
static cl::opt<std::string> Output("o", cl::desc("output file (default: -)"),
                                   cl::value_desc("file"), cl::init("-"),
                                   cl::cat(SmithCat));

/// Sets each feature named in the comma-separated \p List to \p On.
static bool applyList(Options &Opts, StringRef List, bool On) {
  SmallVector<StringRef, 16> Names;
  List.split(Names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Name : Names) {
    Name = Name.trim();
    if (Name == "all") {
      for (bool &E : Opts.Enabled)
        E = On;
      continue;
    }
    Feature F = featureByName(Name);
    if (F == Feature::NumFeatures) {
      WithColor::error(errs(), "bsgp-smith")
          << "unknown feature '" << Name << "' (see --list-features)\n";
      return false;
    }
    Opts.Enabled[static_cast<unsigned>(F)] = On;
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(SmithCat);
  cl::ParseCommandLineOptions(argc, argv, "bsgp-smith: random BSGP programs\n");
  if (ListFeatures) {
    for (unsigned K = 0; K < static_cast<unsigned>(Feature::NumFeatures); ++K)
      outs() << featureName(static_cast<Feature>(K))
             << (featureOnByDefault(static_cast<Feature>(K)) ? "" : " (off)")
             << "\n";
    return 0;
  }
  if (ListContexts) {
    printContextTable(outs());
    return 0;
  }
  if (Size < 1 || Size > 10) {
    WithColor::error(errs(), "bsgp-smith") << "--size must be 1 to 10\n";
    return 1;
  }
  Options Opts;
  Opts.Seed = Seed;
  Opts.Size = Size;
  Opts.PlantError = PlantError;
  for (unsigned K = 0; K < static_cast<unsigned>(Feature::NumFeatures); ++K)
    Opts.Enabled[K] = FeatureList.getNumOccurrences()
                          ? false
                          : featureOnByDefault(static_cast<Feature>(K));
  if (!applyList(Opts, FeatureList, true) || !applyList(Opts, Enable, true) ||
      !applyList(Opts, Disable, false))
    return 1;

  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_Text);
  if (EC) {
    WithColor::error(errs(), "bsgp-smith")
        << "cannot write '" << Output << "': " << EC.message() << "\n";
    return 1;
  }
  Generator G(Opts);
  G.run(OS);
  return 0;
}
