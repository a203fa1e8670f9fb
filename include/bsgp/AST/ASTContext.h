//===- ASTContext.h - owner of AST nodes and types --------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_ASTCONTEXT_H
#define BSGP_AST_ASTCONTEXT_H

#include "bsgp/AST/AST.h"
#include "bsgp/AST/Type.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

namespace bsgp {

/// Owns every AST node and type. Types are interned: getPointerType(T)
/// returns the same pointer for the same T, so types compare by identity.
class ASTContext {
public:
  ASTContext();
  ASTContext(const ASTContext &) = delete;
  ASTContext &operator=(const ASTContext &) = delete;

  void *allocate(size_t Size, size_t Align) {
    return Alloc.Allocate(Size, llvm::Align(Align));
  }
  /// Copies \p Items into the context.
  template <typename T>
  llvm::MutableArrayRef<T> copyArray(llvm::ArrayRef<T> Items) {
    if (Items.empty())
      return {};
    T *Mem = static_cast<T *>(allocate(sizeof(T) * Items.size(), alignof(T)));
    std::uninitialized_copy(Items.begin(), Items.end(), Mem);
    return llvm::MutableArrayRef<T>(Mem, Items.size());
  }
  llvm::StringRef copyString(llvm::StringRef S) {
    if (S.empty())
      return {};
    char *Mem = static_cast<char *>(allocate(S.size(), 1));
    memcpy(Mem, S.data(), S.size());
    return llvm::StringRef(Mem, S.size());
  }

  const BuiltinType *getBuiltinType(BuiltinType::BuiltinKind K) const {
    return Builtins[K];
  }
  const BuiltinType *getVoidType() const { return Builtins[BuiltinType::Void]; }
  const BuiltinType *getBoolType() const { return Builtins[BuiltinType::Bool]; }
  const BuiltinType *getCharType() const { return Builtins[BuiltinType::Char]; }
  const BuiltinType *getIntType() const { return Builtins[BuiltinType::Int]; }
  const BuiltinType *getUIntType() const { return Builtins[BuiltinType::UInt]; }
  const BuiltinType *getFloatType() const {
    return Builtins[BuiltinType::Float];
  }
  const BuiltinType *getDoubleType() const {
    return Builtins[BuiltinType::Double];
  }
  const NullType *getNullType() const { return &NullTy; }
  const ErrorType *getErrorType() const { return &ErrorTy; }

  const VectorType *getVectorType(const BuiltinType *Elem, unsigned N);
  const PointerType *getPointerType(const Type *Pointee);
  /// const T; const const T is const T.
  const Type *getConstType(const Type *T);
  const ArrayType *getArrayType(const Type *Elem, uint64_t Size);
  const FunctionType *getFunctionType(const Type *Ret,
                                      llvm::ArrayRef<const Type *> Params,
                                      bool Varargs);
  /// The one StructType named \p Name, created on first use.
  StructType *getStructType(llvm::StringRef Name);
  /// The StructType named \p Name if a struct of that name was declared or
  /// used so far; null otherwise.
  StructType *findStructType(llvm::StringRef Name) const {
    return Structs.lookup(Name);
  }
  /// The operator type of a reduce/scan operator as written (`+`, `min`,
  /// ...); null for anything else.
  const OperatorType *getOperatorType(llvm::StringRef Spelling);
  /// The one ValueType of the value with pattern \p Bits (a non-type
  /// template argument; \p Negative as ValueType has it).
  const ValueType *getValueType(uint64_t Bits, bool Negative);

  /// Source files in the order their parsing finished: a file's imports
  /// come before it, the collective library after the main file.
  std::vector<TranslationUnit> &getTranslationUnits() { return TUs; }
  /// The file being compiled (the others are imported); 0 if unknown.
  uint32_t getMainFileId() const { return MainFile; }
  void setMainFileId(uint32_t Id) { MainFile = Id; }
  /// Files imported implicitly (the collective library). Unlike other
  /// imports, which are compiled to objects of their own, their host
  /// functions are compiled into every program that calls them.
  void addLibraryFileId(uint32_t Id) { LibraryFiles.push_back(Id); }
  bool isLibraryFile(uint32_t Id) const {
    return std::find(LibraryFiles.begin(), LibraryFiles.end(), Id) !=
           LibraryFiles.end();
  }

  /// Parses a generic function again with its parameters naming \p Args
  /// (set by the ParseSession while it lives; Sema calls it to instantiate
  /// templates). Returns null after reporting a parse error.
  using TemplateParser = std::function<FunctionDecl *(
      FunctionTemplateDecl *, llvm::ArrayRef<const Type *>)>;
  void setTemplateParser(TemplateParser P) { TParser = std::move(P); }
  const TemplateParser &getTemplateParser() const { return TParser; }

private:
  TemplateParser TParser;
  llvm::BumpPtrAllocator Alloc;
  const BuiltinType *Builtins[BuiltinType::Double + 1];
  NullType NullTy;
  ErrorType ErrorTy;
  std::map<std::pair<const Type *, unsigned>, const VectorType *> Vectors;
  llvm::DenseMap<const Type *, const PointerType *> Pointers;
  llvm::DenseMap<const Type *, const ConstType *> Consts;
  std::map<std::pair<const Type *, uint64_t>, const ArrayType *> Arrays;
  std::map<std::vector<const void *>, const FunctionType *> Functions;
  llvm::StringMap<StructType *> Structs;
  llvm::StringMap<const OperatorType *> Operators;
  std::map<std::pair<uint64_t, bool>, const ValueType *> Values;
  std::vector<TranslationUnit> TUs;
  uint32_t MainFile = 0;
  std::vector<uint32_t> LibraryFiles;
};

} // namespace bsgp

#endif // BSGP_AST_ASTCONTEXT_H
