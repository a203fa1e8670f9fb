//===- FFI.cpp - calling C functions through libffi -----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// An `extern "C"` function is looked up with dlsym and called through
// libffi with the types of its prototype (variadic arguments with their
// promoted types), so printf, fopen or sqrtf are the C library's own. The
// allocation functions are called the same way and their results entered
// in the allocation table. The bsgprt_* functions of the BSGP runtime ABI
// (docs/runtime.md) are implemented here: device memory is host memory.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/AST/AST.h"

#include "llvm/ADT/StringSwitch.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <dlfcn.h>
#include <ffi.h>

using namespace bsgp;
using namespace bsgp::interp;
using BK = BuiltinType::BuiltinKind;

namespace {
/// CUDA's math functions that the C library lacks (<math.h> declares them
/// for host and device code): bsgpi computes them here, rounding once
/// more than a fused instruction would.
extern "C" float bsgpiRsqrtf(float X) { return 1.0f / std::sqrt(X); }
extern "C" double bsgpiRsqrt(double X) { return 1.0 / std::sqrt(X); }

/// The C call in progress, for the report if it crashes.
Interpreter *CrashInterp = nullptr;
const FunctionDecl *CrashFn = nullptr;
SourceRange CrashWhere;

/// A C function called with bad arguments (atoi(NULL)) crashes in the C
/// library; bsgpi reports where the program called it instead.
void onCrash(int Sig) {
  std::signal(Sig, SIG_DFL);
  if (CrashInterp && CrashFn)
    CrashInterp->fatal(CrashWhere, "the C function '" + CrashFn->getName() +
                                       "' crashed (signal " + llvm::Twine(Sig) +
                                       ")");
  std::_Exit(1);
}
} // namespace

static ffi_type *ffiType(Interpreter &I, const Type *T, SourceRange R);

/// Appends the libffi types of \p T's scalars in memory order: a struct's
/// fields (nested structs and arrays flattened, as C lays them out the
/// same), a vector's lanes (a 3-vector's padding lane too).
static void ffiElements(Interpreter &I, const Type *T, SourceRange R,
                        std::vector<ffi_type *> &Out) {
  T = T->getUnqualified();
  if (auto *ST = llvm::dyn_cast<StructType>(T)) {
    for (FieldDecl *F : ST->getDecl()->getFields())
      ffiElements(I, F->getType(), R, Out);
    return;
  }
  if (auto *AT = llvm::dyn_cast<ArrayType>(T)) {
    for (uint64_t K = 0; K < AT->getSize(); ++K)
      ffiElements(I, AT->getElementType(), R, Out);
    return;
  }
  if (auto *VT = llvm::dyn_cast<VectorType>(T)) {
    unsigned Lanes = llvm::PowerOf2Ceil(VT->getNumElements());
    for (unsigned K = 0; K < Lanes; ++K)
      Out.push_back(ffiType(I, VT->getElementType(), R));
    return;
  }
  Out.push_back(ffiType(I, T, R));
}

/// A struct passed to or returned by a C function by value: libffi lays
/// it out and classifies it as the C compiler does. Made once per type.
static ffi_type *ffiStructType(Interpreter &I, const StructType *ST,
                               SourceRange R) {
  static llvm::DenseMap<const StructType *, std::unique_ptr<ffi_type>> Types;
  static std::vector<std::unique_ptr<std::vector<ffi_type *>>> Elements;
  std::unique_ptr<ffi_type> &Slot = Types[ST];
  if (Slot)
    return Slot.get();
  auto &Elems =
      *Elements.emplace_back(std::make_unique<std::vector<ffi_type *>>());
  ffiElements(I, ST, R, Elems);
  Elems.push_back(nullptr);
  Slot = std::make_unique<ffi_type>();
  Slot->size = 0;
  Slot->alignment = 0;
  Slot->type = FFI_TYPE_STRUCT;
  Slot->elements = Elems.data();
  return Slot.get();
}

static ffi_type *ffiType(Interpreter &I, const Type *T, SourceRange R) {
  T = T->getUnqualified();
  if (llvm::isa<PointerType, NullType>(T))
    return &ffi_type_pointer;
  if (auto *ST = llvm::dyn_cast<StructType>(T); ST && ST->getDecl())
    return ffiStructType(I, ST, R);
  if (auto *B = llvm::dyn_cast<BuiltinType>(T)) {
    switch (B->getBuiltinKind()) {
    case BK::Void:
      return &ffi_type_void;
    case BK::Bool:
      return &ffi_type_uint8;
    case BK::Char:
      return &ffi_type_sint8;
    case BK::UChar:
      return &ffi_type_uint8;
    case BK::Short:
      return &ffi_type_sint16;
    case BK::UShort:
      return &ffi_type_uint16;
    case BK::Int:
      return &ffi_type_sint32;
    case BK::UInt:
      return &ffi_type_uint32;
    case BK::Int64:
      return &ffi_type_sint64;
    case BK::UInt64:
      return &ffi_type_uint64;
    case BK::Float:
      return &ffi_type_float;
    case BK::Double:
      return &ffi_type_double;
    }
  }
  I.fatal(R, "bsgpi cannot pass a value of type '" + T->str() +
                 "' to a C function");
}

/// Checks that [P, P + Bytes) lies in P's allocation, if the interpreter
/// knows it; returns that allocation.
static Allocation *checkRange(Interpreter &I, uint64_t P, uint64_t Bytes,
                              SourceRange R, const char *What) {
  if (!Bytes)
    return nullptr;
  if (P < 4096)
    I.fatal(R, llvm::Twine(What) + " is a null pointer");
  Allocation *A = I.Mem.find(reinterpret_cast<void *>(P));
  if (A && P - (uint64_t)A->Base + Bytes > A->Size)
    I.fatal(R, llvm::Twine("out-of-bounds copy: ") + What + " covers " +
                   llvm::Twine(Bytes) + " bytes at offset " +
                   llvm::Twine(P - (uint64_t)A->Base) + " of a " +
                   llvm::Twine(A->Size) + "-byte block");
  return A;
}

static void markInit(Allocation *A, uint64_t P, uint64_t Bytes,
                     Allocation *From = nullptr, uint64_t FromP = 0) {
  if (!A || A->Init.empty())
    return;
  uint64_t Off = P - (uint64_t)A->Base;
  for (uint64_t B = 0; B < Bytes; ++B) {
    bool Set = true;
    if (From && !From->Init.empty()) {
      uint64_t S = FromP - (uint64_t)From->Base + B;
      Set = From->Init[S / 8] & (1u << (S % 8));
    }
    uint64_t D = Off + B;
    if (Set)
      A->Init[D / 8] |= 1u << (D % 8);
  }
}

/// The bsgprt_* functions bsgpi implements; false if \p Name is not one.
static bool callRuntime(Interpreter &I, llvm::StringRef Name,
                        llvm::ArrayRef<uint64_t> A, uint64_t &Ret,
                        SourceRange R) {
  if (Name == "bsgprt_memcpy_htod" || Name == "bsgprt_memcpy_dtoh" ||
      Name == "bsgprt_memcpy_dtod") {
    Allocation *D = checkRange(I, A[0], A[2], R, "the destination");
    Allocation *S = checkRange(I, A[1], A[2], R, "the source");
    if (A[2])
      std::memmove(reinterpret_cast<void *>(A[0]),
                   reinterpret_cast<void *>(A[1]), A[2]);
    markInit(D, A[0], A[2], S, A[1]);
    return true;
  }
  if (Name == "bsgprt_memset_d") {
    Allocation *D = checkRange(I, A[0], A[2], R, "the destination");
    if (A[2])
      std::memset(reinterpret_cast<void *>(A[0]), (int)A[1], A[2]);
    markInit(D, A[0], A[2]);
    return true;
  }
  if (Name == "bsgprt_dnew" || Name == "bsgprt_temp_alloc") {
    Ret = reinterpret_cast<uint64_t>(I.Mem.allocate(A[0], AllocKind::List));
    return true;
  }
  if (Name == "bsgprt_dfree" || Name == "bsgprt_temp_free") {
    if (A[0] && !I.Mem.retire(reinterpret_cast<void *>(A[0])))
      I.fatal(R, "bsgprt_dfree of a pointer that is not a live device list");
    return true;
  }
  if (Name == "bsgprt_synchronize" || Name == "bsgprt_profile_enable" ||
      Name == "bsgprt_profile_reset")
    return true;
  if (Name == "bsgprt_time_ms") {
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
    std::memcpy(&Ret, &Ms, sizeof(Ms));
    return true;
  }
  if (Name == "bsgprt_target") {
    Ret = 0;
    return true;
  }
  if (Name.starts_with("bsgprt_"))
    I.fatal(R, "bsgpi does not implement the runtime function '" + Name + "'");
  return false;
}

Column Interpreter::callExternal(Frame &F, const FunctionDecl *Fn,
                                 llvm::ArrayRef<Column> Args,
                                 llvm::ArrayRef<const Type *> ArgTypes,
                                 Lanes &L, SourceRange R) {
  llvm::StringRef Name = Fn->getName();
  const Type *RT = Fn->getReturnType()->getUnqualified();
  Column Out(RT->isVoid() ? 0 : sizeOf(RT), L.size());
  // Argument types: the prototype's, then the promoted variadic ones.
  auto Params = Fn->getFunctionType()->getParams();
  llvm::SmallVector<ffi_type *, 8> Types;
  for (unsigned I = 0; I < Args.size(); ++I)
    Types.push_back(
        ffiType(*this, I < Params.size() ? Params[I] : ArgTypes[I], R));
  void *Sym = nullptr;
  bool Runtime = Name.starts_with("bsgprt_");
  if (!Runtime) {
    Sym = llvm::StringSwitch<void *>(Name)
              .Case("rsqrtf", reinterpret_cast<void *>(&bsgpiRsqrtf))
              .Case("rsqrt", reinterpret_cast<void *>(&bsgpiRsqrt))
              .Default(nullptr);
    if (!Sym)
      Sym = dlsym(RTLD_DEFAULT, Name.str().c_str());
    if (!Sym)
      fatal(R, "no C function named '" + Name + "' to call");
  }
  ffi_cif Cif;
  ffi_type *RetT = ffiType(*this, RT, R);
  ffi_status S = Fn->isVarargs()
                     ? ffi_prep_cif_var(&Cif, FFI_DEFAULT_ABI, Params.size(),
                                        Types.size(), RetT, Types.data())
                     : ffi_prep_cif(&Cif, FFI_DEFAULT_ABI, Types.size(), RetT,
                                    Types.data());
  if (S != FFI_OK)
    fatal(R, "libffi cannot call '" + Name + "'");
  if (!CrashInterp) {
    CrashInterp = this;
    std::signal(SIGSEGV, onCrash);
    std::signal(SIGBUS, onCrash);
    std::signal(SIGFPE, onCrash);
  }
  CrashFn = Fn;
  CrashWhere = R;
  // A C function may write any list it is given (fread into a dnew list):
  // those lists count as written from here on.
  if (!Runtime)
    for (uint32_t K = 0; K < L.size(); ++K)
      for (unsigned I = 0; I < Args.size(); ++I)
        if (llvm::isa<PointerType>(ArgTypes[I]->getUnqualified()))
          if (Allocation *A =
                  Mem.find(reinterpret_cast<void *>(Args[I].get<uint64_t>(K))))
            std::fill(A->Init.begin(), A->Init.end(), 0xff);
  for (uint32_t K = 0; K < L.size(); ++K) {
    llvm::SmallVector<void *, 8> Ptrs;
    llvm::SmallVector<uint64_t, 8> Words;
    for (unsigned I = 0; I < Args.size(); ++I) {
      uint64_t W = 0;
      std::memcpy(&W, Args[I].at(K), std::min<uint32_t>(Args[I].Size, 8));
      Words.push_back(W);
    }
    for (unsigned I = 0; I < Args.size(); ++I)
      Ptrs.push_back(const_cast<uint8_t *>(Args[I].at(K)));
    // A struct result may be larger than two words.
    std::vector<uint64_t> RetBuf(std::max<uint64_t>(2, (Out.Size + 7) / 8));
    uint64_t *Ret = RetBuf.data();
    if (Runtime) {
      if (!callRuntime(*this, Name, Words, Ret[0], R))
        fatal(R, "no C function named '" + Name + "' to call");
    } else {
      if (Name == "free" && Words[0])
        Mem.release(reinterpret_cast<void *>(Words[0]));
      if (Name == "realloc" && Words[0])
        Mem.release(reinterpret_cast<void *>(Words[0]));
      ffi_call(&Cif, FFI_FN(Sym), Ret, Ptrs.data());
      uint64_t Bytes =
          llvm::StringSwitch<uint64_t>(Name)
              .Case("malloc", Words[0])
              .Case("calloc", Words.size() > 1 ? Words[0] * Words[1] : 0)
              .Case("realloc", Words.size() > 1 ? Words[1] : 0)
              .Default(~0ull);
      if (Bytes != ~0ull)
        Mem.adopt(reinterpret_cast<void *>(Ret[0]), Bytes, AllocKind::Heap);
    }
    if (Out.Size)
      std::memcpy(Out.at(K), Ret, Out.Size);
  }
  CrashFn = nullptr;
  return Out;
}

/// snprintf through libffi with each lane's arguments (Sema checked them
/// against the format, and promoted them as for any variadic call).
void Interpreter::devicePrintf(llvm::ArrayRef<Column> Args,
                               llvm::ArrayRef<const Type *> ArgTypes, Lanes &L,
                               SourceRange R) {
  llvm::SmallVector<ffi_type *, 8> Types{&ffi_type_pointer, &ffi_type_uint64,
                                         &ffi_type_pointer};
  for (unsigned I = 1; I < Args.size(); ++I)
    Types.push_back(ffiType(*this, ArgTypes[I], R));
  ffi_cif Cif;
  if (ffi_prep_cif_var(&Cif, FFI_DEFAULT_ABI, 3, Types.size(), &ffi_type_sint,
                       Types.data()) != FFI_OK)
    fatal(R, "libffi cannot call 'snprintf'");
  std::string Text;
  for (uint32_t K = 0; K < L.size(); ++K) {
    for (uint64_t Size = 0;;) {
      char *Buf = Text.empty() ? nullptr : Text.data();
      llvm::SmallVector<void *, 8> Ptrs{&Buf, &Size};
      for (const Column &A : Args)
        Ptrs.push_back(const_cast<uint8_t *>(A.at(K)));
      ffi_arg N = 0;
      ffi_call(&Cif, FFI_FN(std::snprintf), &N, Ptrs.data());
      if (Size) {
        Text.resize(Size - 1);
        break;
      }
      Size = (uint64_t)(int)N + 1;
      Text.assign(Size, '\0');
    }
    Spawn->Printed += Text;
    Text.clear();
  }
}
