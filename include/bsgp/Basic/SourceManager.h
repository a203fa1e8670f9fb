//===- SourceManager.h - source files and locations -------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every AST node carries a SourceRange made of SourceLocations that name the
/// file (an index into the SourceManager), the line and the column (both
/// 1-based). Locations are plain values so that MLIRGen can turn them into
/// FileLineColLoc without going back to the buffers.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BASIC_SOURCEMANAGER_H
#define BSGP_BASIC_SOURCEMANAGER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bsgp {

struct SourceLocation {
  uint32_t File = 0; ///< 1-based index into the SourceManager; 0 is invalid.
  uint32_t Line = 0;
  uint32_t Col = 0;

  bool isValid() const { return File != 0; }
  bool operator==(const SourceLocation &O) const {
    return File == O.File && Line == O.Line && Col == O.Col;
  }
  bool operator!=(const SourceLocation &O) const { return !(*this == O); }
};

/// A closed range: End is the location of the last character of the range.
struct SourceRange {
  SourceLocation Begin, End;
  SourceRange() = default;
  SourceRange(SourceLocation L) : Begin(L), End(L) {}
  SourceRange(SourceLocation B, SourceLocation E) : Begin(B), End(E) {}
  bool isValid() const { return Begin.isValid(); }
};

class SourceManager {
public:
  struct File {
    std::string Name;
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    /// Offsets of the first character of each line, computed on demand.
    std::vector<uint32_t> LineStarts;
  };

  /// Adds a buffer and returns its file id (1-based).
  uint32_t addBuffer(std::unique_ptr<llvm::MemoryBuffer> Buf,
                     llvm::StringRef Name);

  const File &getFile(uint32_t Id) const { return Files[Id - 1]; }
  llvm::StringRef getFileName(uint32_t Id) const { return Files[Id - 1].Name; }
  llvm::StringRef getBuffer(uint32_t Id) const {
    return Files[Id - 1].Buffer->getBuffer();
  }
  unsigned getNumFiles() const { return Files.size(); }

  /// The text of line \p Line of file \p Id without its line terminator.
  llvm::StringRef getLineText(uint32_t Id, uint32_t Line);

private:
  std::vector<File> Files;
};

} // namespace bsgp

#endif // BSGP_BASIC_SOURCEMANAGER_H
