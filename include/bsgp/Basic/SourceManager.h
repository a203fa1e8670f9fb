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
  /// 1-based index of the macro expansion this location comes from
  /// (SourceManager::getMacroExpansion), 0 if written in the file. The
  /// diagnostic printer adds "expanded from macro" notes for it; it takes
  /// no part in comparisons.
  uint32_t Macro = 0;

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

/// Where a token of a preprocessed buffer was written: the token starts at
/// byte Offset of the buffer and spans Len bytes.
struct PPTokenLoc {
  uint32_t Offset = 0;
  uint32_t Len = 0;
  SourceLocation Loc;
};

/// One level of a macro expansion: a token came from the body of macro Name,
/// at DefLoc in its #define; Parent is the expansion this one happened in
/// (0: the macro was used in a file).
struct MacroExpansion {
  std::string Name;
  SourceLocation DefLoc;
  uint32_t Parent = 0;
};

class SourceManager {
public:
  struct File {
    std::string Name;
    /// The text as written: diagnostics quote its lines and -verify reads
    /// its comments.
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    /// The preprocessed text the lexer reads instead, if the file went
    /// through the preprocessor (lib/Lex/Preprocess.cpp), and where each of
    /// its tokens was written, sorted by offset.
    std::unique_ptr<llvm::MemoryBuffer> Preprocessed;
    std::vector<PPTokenLoc> TokenLocs;
    /// For a header: the location of the #include that first entered it.
    SourceLocation IncludeLoc;
    /// Not a file on disk (the preprocessor's <built-in> buffer).
    bool IsVirtual = false;
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
  /// The text the lexer reads: the preprocessed buffer if there is one.
  llvm::StringRef getLexBuffer(uint32_t Id) const {
    const File &F = Files[Id - 1];
    return (F.Preprocessed ? F.Preprocessed : F.Buffer)->getBuffer();
  }
  unsigned getNumFiles() const { return Files.size(); }
  File &getFileMutable(uint32_t Id) { return Files[Id - 1]; }
  /// The id of the file called \p Name, or 0.
  uint32_t findFile(llvm::StringRef Name) const;

  /// Where byte \p Offset of file \p Id's preprocessed buffer was written;
  /// an invalid location if the file was not preprocessed.
  SourceLocation getPreprocessedLoc(uint32_t Id, size_t Offset) const;

  uint32_t addMacroExpansion(MacroExpansion E) {
    Macros.push_back(std::move(E));
    return Macros.size();
  }
  const MacroExpansion &getMacroExpansion(uint32_t Id) const {
    return Macros[Id - 1];
  }

  /// The text of line \p Line of file \p Id without its line terminator.
  llvm::StringRef getLineText(uint32_t Id, uint32_t Line);

private:
  std::vector<File> Files;
  std::vector<MacroExpansion> Macros;
};

} // namespace bsgp

#endif // BSGP_BASIC_SOURCEMANAGER_H
