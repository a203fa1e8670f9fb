//===- SourceManager.cpp - source files and locations ---------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Basic/SourceManager.h"

#include <algorithm>

using namespace bsgp;

uint32_t SourceManager::addBuffer(std::unique_ptr<llvm::MemoryBuffer> Buf,
                                  llvm::StringRef Name) {
  File F;
  F.Name = Name.str();
  F.Buffer = std::move(Buf);
  Files.push_back(std::move(F));
  return Files.size();
}

uint32_t SourceManager::findFile(llvm::StringRef Name) const {
  for (size_t I = 0, E = Files.size(); I != E; ++I)
    if (Files[I].Name == Name)
      return I + 1;
  return 0;
}

SourceLocation SourceManager::getPreprocessedLoc(uint32_t Id,
                                                 size_t Offset) const {
  const std::vector<PPTokenLoc> &Locs = Files[Id - 1].TokenLocs;
  if (Locs.empty())
    return {};
  // The last token starting at or before Offset.
  auto It = std::upper_bound(
      Locs.begin(), Locs.end(), Offset,
      [](size_t O, const PPTokenLoc &T) { return O < T.Offset; });
  if (It != Locs.begin())
    --It;
  SourceLocation L = It->Loc;
  // Inside a token written in a file the columns run on; a token from a
  // macro body is reported at the macro's use as a whole.
  if (!L.Macro && Offset > It->Offset)
    L.Col += std::min<size_t>(Offset - It->Offset, It->Len);
  return L;
}

llvm::StringRef SourceManager::getLineText(uint32_t Id, uint32_t Line) {
  if (Id == 0 || Id > Files.size() || Line == 0)
    return {};
  File &F = Files[Id - 1];
  llvm::StringRef Buf = F.Buffer->getBuffer();
  if (F.LineStarts.empty()) {
    F.LineStarts.push_back(0);
    for (size_t I = 0, E = Buf.size(); I != E; ++I)
      if (Buf[I] == '\n')
        F.LineStarts.push_back(I + 1);
  }
  if (Line > F.LineStarts.size())
    return {};
  size_t Start = F.LineStarts[Line - 1];
  size_t End = Buf.find_first_of("\r\n", Start);
  if (End == llvm::StringRef::npos)
    End = Buf.size();
  return Buf.slice(Start, End);
}
