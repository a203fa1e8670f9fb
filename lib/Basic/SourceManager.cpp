//===- SourceManager.cpp - source files and locations ---------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Basic/SourceManager.h"

using namespace bsgp;

uint32_t SourceManager::addBuffer(std::unique_ptr<llvm::MemoryBuffer> Buf,
                                  llvm::StringRef Name) {
  File F;
  F.Name = Name.str();
  F.Buffer = std::move(Buf);
  Files.push_back(std::move(F));
  return Files.size();
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
