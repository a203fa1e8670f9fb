//===- SuperstepTable.h - saved-value tables of spawns ----------*- C++ -*-===//
//
// The data dependency analysis of §4.2 step 5 (Tables 1 and 2 of the
// paper), read off the superstep form, for `--print-supersteps` and for the
// superstep graph of Fig. 4.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TRANSFORMS_SUPERSTEPTABLE_H
#define BSGP_TRANSFORMS_SUPERSTEPTABLE_H

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace bsgp {

/// One row of the table: a value defined at the top level of a superstep.
struct SuperstepValueInfo {
  /// From the value's NameLoc (the source variable), else "%<n>".
  std::string name;
  /// Supersteps numbered from 1, as in the paper.
  unsigned defStep = 0;
  /// Sorted, without duplicates; includes defStep when used there.
  llvm::SmallVector<unsigned, 4> useSteps;
  /// Used in a superstep other than defStep.
  bool saved = false;
  /// 32-bit stream words of the type (getStreamWordCount).
  unsigned words = 0;
  /// The last use loads it at another thread's index (after a
  /// rank-reassigning barrier, or through bsgp.get).
  bool needsWholeLastStep = false;
  /// Where the value is defined in the source (the call site for code
  /// inlined from a collective): file name as MLIRGen wrote it, 1-based line
  /// and column; empty file and 0 where no position is known.
  std::string file;
  unsigned line = 0, col = 0;
};

/// The table of one spawn in superstep form.
struct SpawnSuperstepTable {
  std::string function;    ///< Enclosing function's symbol name.
  unsigned spawnIndex = 0; ///< Index of the spawn in that function, from 0.
  unsigned numSupersteps = 0;
  /// For a spawn that bsgp-rematerialize-loads versioned: which copy
  /// ("reads again" or "saves"); else empty.
  std::string version;
  /// Where the spawn is in the source, as SuperstepValueInfo::file/line/col.
  std::string file;
  unsigned line = 0, col = 0;
  /// Saved values, and unsaved values that carry a source name.
  llvm::SmallVector<SuperstepValueInfo, 8> values;
};

/// Tables of all spawns of `module` that are in superstep form (after
/// bsgp-split-supersteps and before bsgp-save-restore): the program's own,
/// and with \p includeLibrary also those of the collective library.
llvm::SmallVector<SpawnSuperstepTable, 2>
computeSuperstepTables(mlir::ModuleOp module, bool includeLibrary = false);

/// Prints one table per spawn in the layout of Tables 1 and 2, with the
/// temporary stream of each word of a saved value:
///   spawn 0 in @findFaces: 3 supersteps
///     value  def  uses   saved  words  streams
///     f      1    2      yes    1      0
void printSuperstepTable(mlir::ModuleOp module, llvm::raw_ostream &os,
                         bool includeLibrary = false);

/// Writes the superstep graph with its minimum flow (Fig. 4) of every spawn
/// in superstep form, one Graphviz digraph per spawn.
void writeSuperstepDot(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace bsgp

#endif // BSGP_TRANSFORMS_SUPERSTEPTABLE_H
