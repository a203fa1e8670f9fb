//===- Memory.cpp - allocation table, checked loads and stores ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace bsgp;
using namespace bsgp::interp;

Memory::~Memory() {
  for (auto &[Base, A] : Allocs)
    if (A.Owned)
      std::free(A.Base);
}

uint8_t *Memory::allocate(uint64_t Size, AllocKind K, uint64_t Stride,
                          llvm::StringRef What) {
  if (Size > UINT64_MAX - 16)
    return nullptr; // Rounding up would wrap around.
  uint64_t Rounded = (std::max<uint64_t>(Size, 1) + 15) / 16 * 16;
  auto *P = static_cast<uint8_t *>(std::aligned_alloc(16, Rounded));
  if (!P)
    return nullptr;
  std::memset(P, 0, Rounded);
  Allocation &A = Allocs[reinterpret_cast<uintptr_t>(P)];
  A = Allocation();
  A.Base = P;
  A.Size = Size;
  A.Kind = K;
  A.Stride = Stride;
  A.Owned = true;
  A.What = What.str();
  if (K == AllocKind::List || K == AllocKind::TempList)
    A.Init.assign((Size + 7) / 8, 0);
  Last = nullptr;
  return P;
}

void Memory::adopt(void *P, uint64_t Size, AllocKind K) {
  if (!P)
    return;
  Allocation &A = Allocs[reinterpret_cast<uintptr_t>(P)];
  A = Allocation();
  A.Base = static_cast<uint8_t *>(P);
  A.Size = Size;
  A.Kind = K;
  Last = nullptr;
}

bool Memory::release(void *P) {
  auto It = Allocs.find(reinterpret_cast<uintptr_t>(P));
  if (It == Allocs.end())
    return false;
  if (It->second.Owned)
    std::free(It->second.Base);
  Allocs.erase(It);
  Last = nullptr;
  ++Epoch;
  return true;
}

bool Memory::retire(void *P) {
  auto It = Allocs.find(reinterpret_cast<uintptr_t>(P));
  if (It == Allocs.end() || It->second.Freed)
    return false;
  Allocation &A = It->second;
  A.Freed = true;
  // The bytes stay allocated (until the interpreter ends), so that no new
  // allocation takes the address: an access through an old pointer, or a
  // second free (`ddelete` twice), is then reported rather than landing in
  // whatever reused the memory.
  A.Init.clear();
  A.Init.shrink_to_fit();
  A.Writes = RaceLog();
  A.Reads = RaceLog();
  return true;
}

Allocation *Memory::find(const void *P) {
  auto U = reinterpret_cast<uintptr_t>(P);
  if (Last && U >= (uintptr_t)Last->Base &&
      U < (uintptr_t)Last->Base + Last->Size)
    return Last;
  auto It = Allocs.upper_bound(U);
  if (It == Allocs.begin())
    return nullptr;
  --It;
  if (U >= It->first + std::max<uint64_t>(It->second.Size, 1))
    return nullptr;
  Last = &It->second;
  return Last;
}

Allocation *Memory::findBase(const void *P) {
  if (Allocation *A = find(P))
    return A;
  // One past the end of an allocation still names it.
  auto U = reinterpret_cast<uintptr_t>(P);
  auto It = Allocs.upper_bound(U);
  if (It == Allocs.begin())
    return nullptr;
  --It;
  return U == It->first + It->second.Size ? &It->second : nullptr;
}

/// Prints `file:line:col: <Kind>: <Msg>` and the source line with a caret.
static void printDiag(SourceManager &SM, SourceRange R, const char *Kind,
                      const llvm::Twine &Msg) {
  llvm::raw_ostream &OS = llvm::errs();
  if (R.isValid()) {
    OS << SM.getFileName(R.Begin.File) << ':' << R.Begin.Line << ':'
       << R.Begin.Col << ": ";
  } else {
    OS << "bsgpi: ";
  }
  OS << Kind << ": " << Msg << '\n';
  if (R.isValid()) {
    llvm::StringRef Line = SM.getLineText(R.Begin.File, R.Begin.Line);
    OS << Line << '\n';
    OS.indent(R.Begin.Col > 0 ? R.Begin.Col - 1 : 0) << "^\n";
  }
}

void Interpreter::fatal(SourceRange R, const llvm::Twine &Msg) {
  std::fflush(stdout);
  printDiag(SM, R, "error", Msg);
  llvm::errs().flush();
  std::_Exit(1);
}

void Interpreter::fatal(SourceRange R, const llvm::Twine &Msg,
                        SourceRange NoteAt, const llvm::Twine &Note) {
  std::fflush(stdout);
  printDiag(SM, R, "error", Msg);
  printDiag(SM, NoteAt, "note", Note);
  llvm::errs().flush();
  std::_Exit(1);
}

static bool isList(AllocKind K) {
  return K == AllocKind::List || K == AllocKind::TempList;
}

static const char *kindName(AllocKind K) {
  switch (K) {
  case AllocKind::List:
    return "list";
  case AllocKind::TempList:
    return "temporary list";
  case AllocKind::Heap:
    return "heap block";
  case AllocKind::Variable:
    return "variable";
  case AllocKind::String:
    return "string";
  }
  return "block";
}

/// Checks an access of \p Bytes at \p P and returns its allocation (null for
/// memory the interpreter does not know, such as a FILE).
static Allocation *checkAccess(Interpreter &I, uint8_t *P, uint64_t Bytes,
                               bool Write, uint32_t Rank, bool InSpawn,
                               SourceRange R) {
  auto Who = [&] {
    return InSpawn ? " by rank " + std::to_string(Rank) : std::string();
  };
  if (reinterpret_cast<uintptr_t>(P) < 4096)
    I.fatal(R, llvm::Twine(Write ? "write" : "read") +
                   " through a null pointer" + Who());
  Allocation *A = I.Mem.find(P);
  if (!A) {
    // Just past the end of an allocation is out of it, not foreign memory.
    A = I.Mem.findBase(P);
    if (!A)
      return nullptr;
  }
  if (A->Freed)
    I.fatal(R, llvm::Twine(Write ? "write to" : "read of") + " a " +
                   kindName(A->Kind) + " that was freed" + Who());
  // Device memory is not host memory on the GPU backends (only the cpu
  // backend shares them), so a program that passes on the cpu backend
  // would read garbage or crash there.
  bool DeviceMemory =
      A->Kind == AllocKind::List || A->Kind == AllocKind::TempList;
  if (!InSpawn && DeviceMemory)
    I.fatal(R, llvm::Twine("host code ") + (Write ? "writes to" : "reads") +
                   " a device " + kindName(A->Kind) +
                   " directly, which only the cpu backend allows; copy it "
                   "with bsgprt_memcpy_" +
                   (Write ? "htod" : "dtoh") + " (docs/language.md, Memory)");
  if (InSpawn && A->Kind == AllocKind::Heap)
    I.fatal(R, llvm::Twine("device code ") + (Write ? "writes to" : "reads") +
                   " host memory (a heap block)" + Who() +
                   ", which only the cpu backend allows; copy it to a dnew "
                   "list with bsgprt_memcpy_htod (docs/language.md, Memory)");
  uint64_t Off = P - A->Base;
  bool Out = Off + Bytes > A->Size;
  if (!Out && A->Stride)
    Out = Off / A->Stride != (Off + Bytes - 1) / A->Stride;
  if (Out)
    I.fatal(R, llvm::Twine("out-of-bounds ") + (Write ? "write" : "read") +
                   " of " + llvm::Twine(Bytes) + " bytes at offset " +
                   llvm::Twine(Off) + " of a " + llvm::Twine(A->Size) +
                   "-byte " + kindName(A->Kind) + Who());
  return A;
}

void Interpreter::loadOne(Frame &F, uint8_t *P, uint32_t Size, uint32_t Lane,
                          SourceRange R, bool Track, uint32_t &Site,
                          uint8_t *Dst) {
  uint32_t Rank = F.Device ? rankOf(F, Lane) : 0;
  Allocation *A = checkAccess(*this, P, Size, false, Rank, F.Device, R);
  if (A && !A->Init.empty()) {
    uint64_t Off = P - A->Base;
    for (uint64_t B = Off; B < Off + Size; ++B)
      if (!(A->Init[B / 8] & (1u << (B % 8))))
        fatal(R, "read of an uninitialized element (byte offset " +
                     llvm::Twine(Off) + ") of a " + kindName(A->Kind) + " of " +
                     llvm::Twine(A->Size) + " bytes" +
                     (F.Device ? " by rank " + llvm::Twine(Rank)
                               : llvm::Twine("")));
  }
  if (Track && A && isList(A->Kind)) {
    if (!Site)
      Site = raceSite(R);
    checkRace(*A, P, nullptr, Size, Rank, Site, R);
  }
  std::memcpy(Dst, P, Size);
}

void Interpreter::storeOne(Frame &F, uint8_t *P, const uint8_t *Src,
                           uint32_t Size, uint32_t Lane, SourceRange R,
                           bool Track, uint32_t &Site) {
  uint32_t Rank = F.Device ? rankOf(F, Lane) : 0;
  Allocation *A = checkAccess(*this, P, Size, true, Rank, F.Device, R);
  if (A) {
    if (Track && isList(A->Kind)) {
      if (!Site)
        Site = raceSite(R);
      checkRace(*A, P, Src, Size, Rank, Site, R);
    }
    uint64_t Off = P - A->Base;
    if (!A->Init.empty())
      for (uint64_t B = Off; B < Off + Size; ++B)
        A->Init[B / 8] |= 1u << (B % 8);
  }
  std::memcpy(P, Src, Size);
}

Column Interpreter::load(Frame &F, const Column &Addr, const Type *T, Lanes &L,
                         SourceRange R, bool Untracked) {
  uint32_t Size = sizeOf(T);
  Column V(Size, Addr.N);
  bool Track = F.Device && Spawn && Opts.CheckRaces && !Untracked;
  uint32_t Site = 0;
  for (uint32_t K = 0; K < Addr.N; ++K)
    loadOne(F, reinterpret_cast<uint8_t *>(Addr.get<uint64_t>(K)), Size, L[K],
            R, Track, Site, V.at(K));
  return V;
}

void Interpreter::store(Frame &F, const Column &Addr, const Column &V,
                        const Type *T, Lanes &L, SourceRange R,
                        bool Untracked) {
  uint32_t Size = sizeOf(T);
  bool Track = F.Device && Spawn && Opts.CheckRaces && !Untracked;
  uint32_t Site = 0;
  for (uint32_t K = 0; K < Addr.N; ++K)
    storeOne(F, reinterpret_cast<uint8_t *>(Addr.get<uint64_t>(K)), V.at(K),
             Size, L[K], R, Track, Site);
}
