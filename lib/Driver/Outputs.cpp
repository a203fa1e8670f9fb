//===- Outputs.cpp - dependency files and C headers -----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Two side outputs that make bsgpc fit build systems: make-style dependency
// files listing every imported .bsgp file (-MD/-MF/-MT, as clang's), and a
// C/C++ header declaring the file's host-callable functions (-emit-header).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Driver/Outputs.h"

#include "bsgp/AST/AST.h"
#include "bsgp/AST/ASTContext.h"
#include "bsgp/Basic/SourceManager.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace bsgp;

/// Make needs spaces and '$' escaped in file names.
std::string bsgp::quoteForMake(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name) {
    if (C == ' ' || C == '#')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

void bsgp::writeDependencyFile(const DependencyOptions &Opts, ASTContext &Ctx,
                               SourceManager &SM, llvm::raw_ostream &OS) {
  OS << llvm::join(Opts.Targets, " ") << ":";
  auto IsSystem = [&](llvm::StringRef Name) {
    return llvm::any_of(Opts.SystemPrefixes, [&](const std::string &P) {
      return !P.empty() && Name.starts_with(P);
    });
  };
  llvm::StringSet<> Seen;
  std::vector<std::string> Files;
  // The main file first, as clang does, then the imports.
  if (Ctx.getMainFileId()) {
    Seen.insert(SM.getFileName(Ctx.getMainFileId()));
    Files.push_back(SM.getFileName(Ctx.getMainFileId()).str());
  }
  // Then every other file read, in the order it was read: imports and the
  // headers that #include entered (the preprocessor's <built-in> buffer is
  // no file).
  for (uint32_t Id = Opts.FirstFileId, E = SM.getNumFiles(); Id <= E; ++Id) {
    llvm::StringRef Name = SM.getFileName(Id);
    if (!SM.getFile(Id).IsVirtual && !IsSystem(Name) &&
        Seen.insert(Name).second)
      Files.push_back(Name.str());
  }
  for (const std::string &F : Files)
    OS << " \\\n  " << quoteForMake(F);
  OS << "\n";
  if (!Opts.PhonyTargets)
    return;
  for (size_t I = 1; I < Files.size(); ++I)
    OS << "\n" << quoteForMake(Files[I]) << ":\n";
}

/// The C spelling of a BSGP type in a header, or "" if C has none. Vectors
/// are spelled only behind a pointer: a vector passed by value does not
/// follow the C ABI of a struct with the same fields.
namespace {
/// What the header must define before the declarations: the vector types
/// and the structs (in an order where a struct follows the structs it
/// holds by value).
struct HeaderTypes {
  llvm::StringSet<> Vectors;
  llvm::SmallVector<const StructType *, 4> Structs;
  llvm::SmallPtrSet<const StructType *, 4> Seen;
};
} // namespace

static std::string cType(const Type *T, HeaderTypes &H,
                         bool BehindPointer = false);

/// Records struct \p S for the header, after the structs its fields hold.
/// False when a field has no C spelling.
static bool addStruct(const StructType *S, HeaderTypes &H) {
  if (!S->getDecl())
    return false;
  if (!H.Seen.insert(S).second)
    return true;
  for (FieldDecl *F : S->getDecl()->getFields()) {
    const Type *FT = F->getType()->getUnqualified();
    while (auto *A = llvm::dyn_cast<ArrayType>(FT))
      FT = A->getElementType()->getUnqualified();
    if (cType(FT, H, /*BehindPointer=*/true).empty())
      return false;
  }
  H.Structs.push_back(S);
  return true;
}

static std::string cType(const Type *T, HeaderTypes &H, bool BehindPointer) {
  auto &Vectors = H.Vectors;
  bool Const = T->isConst();
  T = T->getUnqualified();
  std::string S;
  if (auto *B = llvm::dyn_cast<BuiltinType>(T)) {
    switch (B->getBuiltinKind()) {
    case BuiltinType::Void:
      S = "void";
      break;
    case BuiltinType::Bool:
      S = "bool";
      break;
    case BuiltinType::Char:
      S = "char";
      break;
    case BuiltinType::UChar:
      S = "uint8_t";
      break;
    case BuiltinType::Short:
      S = "int16_t";
      break;
    case BuiltinType::UShort:
      S = "uint16_t";
      break;
    case BuiltinType::Int:
      S = "int32_t";
      break;
    case BuiltinType::UInt:
      S = "uint32_t";
      break;
    case BuiltinType::Int64:
      S = "int64_t";
      break;
    case BuiltinType::UInt64:
      S = "uint64_t";
      break;
    case BuiltinType::Float:
      S = "float";
      break;
    case BuiltinType::Double:
      S = "double";
      break;
    }
  } else if (llvm::isa<VectorType>(T)) {
    if (!BehindPointer)
      return "";
    S = "bsgp_" + T->str();
    Vectors.insert(T->str());
  } else if (auto *P = llvm::dyn_cast<PointerType>(T)) {
    std::string Inner = cType(P->getPointee(), H, true);
    if (Inner.empty())
      return "";
    S = Inner + " *";
  } else if (auto *ST = llvm::dyn_cast<StructType>(T)) {
    // The struct's C definition, which has the BSGP layout
    // (docs/language.md, "Structs"); by value too, since a function taking
    // or returning one is exported with C's convention.
    if (!addStruct(ST, H))
      return "";
    S = "struct " + ST->getName().str();
  } else {
    return "";
  }
  return Const ? "const " + S : S;
}

bool bsgp::writeHeader(llvm::StringRef Guard, ASTContext &Ctx,
                       llvm::raw_ostream &OS) {
  std::string Decls;
  llvm::raw_string_ostream DS(Decls);
  HeaderTypes H;
  auto &TUs = Ctx.getTranslationUnits();
  if (TUs.empty())
    return false;
  const TranslationUnit *Main = &TUs.front();
  for (const TranslationUnit &TU : TUs)
    if (TU.FileId == Ctx.getMainFileId())
      Main = &TU;
  for (Decl *D : Main->Decls) {
    auto *F = llvm::dyn_cast<FunctionDecl>(D);
    // Inline functions are compiled into their callers: no symbol.
    if (!F || !F->isDefinition() || F->isInline() || F->isExternC())
      continue;
    std::string Ret = cType(F->getReturnType(), H);
    bool Ok = !Ret.empty();
    std::string Params;
    for (VarDecl *P : F->getParams()) {
      std::string PT = cType(P->getType(), H);
      Ok &= !PT.empty();
      if (!Params.empty())
        Params += ", ";
      Params += PT + (PT.back() == '*' ? "" : " ") + P->getName().str();
    }
    if (!Ok) {
      DS << "/* " << F->getName()
         << ": not callable from C (a vector passed by value) */\n";
      continue;
    }
    if (Params.empty())
      Params = "void";
    DS << Ret << (Ret.back() == '*' ? "" : " ") << F->getName() << "(" << Params
       << ");\n";
  }

  OS << "/* Generated by bsgpc -emit-header: the host-callable functions of a "
        "BSGP file. */\n";
  OS << "#ifndef " << Guard << "\n#define " << Guard << "\n\n";
  OS << "#include <stdbool.h>\n#include <stdint.h>\n\n";
  // BSGP vectors are aligned to their size rounded up to a power of two,
  // so a 3-vector is 16 bytes (docs/language.md): the first field carries
  // the alignment, which pads bsgp_float3 to the stride of a BSGP list.
  if (!H.Vectors.empty())
    OS << "#ifndef BSGP_ALIGNAS\n#ifdef __cplusplus\n"
          "#define BSGP_ALIGNAS(n) alignas(n)\n#else\n"
          "#define BSGP_ALIGNAS(n) _Alignas(n)\n#endif\n#endif\n\n";
  for (const auto &V : H.Vectors) {
    llvm::StringRef Name = V.getKey();
    llvm::StringRef Elem = Name.drop_back();
    unsigned N = Name.back() - '0';
    std::string ET = Elem == "float" ? "float"
                     : Elem == "int" ? "int32_t"
                                     : "uint32_t";
    OS << "#ifndef BSGP_TYPE_" << Name << "\n#define BSGP_TYPE_" << Name
       << "\ntypedef struct { BSGP_ALIGNAS(" << llvm::PowerOf2Ceil(4 * N)
       << ") " << ET << " x; " << ET << " y";
    if (N >= 3)
      OS << ", z";
    if (N >= 4)
      OS << ", w";
    OS << "; } bsgp_" << Name << ";\n#endif\n\n";
  }
  // Structs with the fields in order; C gives them the BSGP layout, as
  // every field type is aligned alike (the vectors by BSGP_ALIGNAS).
  for (const StructType *ST : H.Structs) {
    std::string Name = ST->getName().str();
    OS << "#ifndef BSGP_STRUCT_" << Name << "\n#define BSGP_STRUCT_" << Name
       << "\nstruct " << Name << " {\n";
    for (FieldDecl *F : ST->getDecl()->getFields()) {
      const Type *FT = F->getType()->getUnqualified();
      std::string Dims;
      while (auto *A = llvm::dyn_cast<ArrayType>(FT)) {
        Dims += "[" + std::to_string(A->getSize()) + "]";
        FT = A->getElementType()->getUnqualified();
      }
      std::string C = cType(FT, H, /*BehindPointer=*/true);
      OS << "  " << C << (C.back() == '*' ? "" : " ") << F->getName() << Dims
         << ";\n";
    }
    OS << "};\n#endif\n\n";
  }
  OS << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << Decls << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return true;
}
