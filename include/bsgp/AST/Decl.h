//===- Decl.h - declarations ------------------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The declarations of the BSGP AST (AST.h describes the whole).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_DECL_H
#define BSGP_AST_DECL_H

#include "bsgp/AST/Type.h"
#include "bsgp/Basic/SourceManager.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

namespace bsgp {

class ASTContext;
class CompoundStmt;
class FunctionTemplateDecl;
class Expr;
class Stmt;

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

class Decl {
public:
  enum DeclKind {
    DK_Var,
    DK_Function,
    DK_Struct,
    DK_Field,
    DK_Typedef,
    DK_Import,
    DK_FunctionTemplate
  };
  DeclKind getKind() const { return Kind; }
  SourceRange getRange() const { return Range; }
  SourceLocation getLoc() const { return NameLoc; }
  llvm::StringRef getName() const { return Name; }
  /// Renames the declaration (Sema names a template instantiation by its
  /// mangled name, docs/language.md "Generic functions").
  void setName(llvm::StringRef N) { Name = N; }

  void *operator new(size_t Size, ASTContext &Ctx);
  void operator delete(void *) {}

protected:
  Decl(DeclKind K, SourceRange R, SourceLocation NameLoc, llvm::StringRef Name)
      : Kind(K), Range(R), NameLoc(NameLoc), Name(Name) {}

private:
  DeclKind Kind;
  SourceRange Range;
  SourceLocation NameLoc;
  llvm::StringRef Name;
};

class VarDecl : public Decl {
public:
  enum StorageKind { Global, Param, Local };
  VarDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
          const Type *T, Expr *Init, StorageKind S)
      : Decl(DK_Var, R, NameLoc, Name), Ty(T), Init(Init), Storage(S) {}

  /// The declared type; for `auto` and inferred locals, set by Sema.
  const Type *getType() const { return Ty; }
  void setType(const Type *T) { Ty = T; }
  Expr *getInit() const { return Init; }
  void setInit(Expr *E) { Init = E; }
  StorageKind getStorage() const { return Storage; }

  /// Declared by `auto x = e;`.
  bool isAuto() const { return IsAuto; }
  void setAuto(bool V) { IsAuto = V; }
  /// Introduced by its first assignment, with no declaration in the source.
  bool isImplicit() const { return IsImplicit; }
  void setImplicit(bool V) { IsImplicit = V; }
  /// Lives on the host (parameters, host locals, globals, variables first
  /// assigned in a require block). Variables of a spawn body are
  /// thread-local (isHost() false). Set by Sema.
  bool isHost() const { return IsHost; }
  void setHost(bool V) { IsHost = V; }
  /// Declared inside a require block.
  bool isRequireDecl() const { return IsRequire; }
  void setRequireDecl(bool V) { IsRequire = V; }
  bool isRead() const { return IsRead; }
  void setRead() { IsRead = true; }
  /// Declared `local T a[N];`: one array shared by the threads of a work
  /// group (CUDA __shared__), not a private array.
  bool isGroupLocal() const { return IsGroupLocal; }
  void setGroupLocal(bool V) { IsGroupLocal = V; }

  static bool classof(const Decl *D) { return D->getKind() == DK_Var; }

private:
  const Type *Ty;
  Expr *Init;
  StorageKind Storage;
  bool IsAuto = false, IsImplicit = false, IsHost = true, IsRequire = false,
       IsRead = false, IsGroupLocal = false;
};

class FunctionDecl : public Decl {
public:
  /// Classification computed by Sema (docs/language.md, "Function kinds").
  enum FunctionKind {
    FK_Device,     ///< Callable from host and device code.
    FK_Host,       ///< Contains spawn, is main, calls host-only things, or
                   ///< is extern "C".
    FK_Collective, ///< inline and contains barriers or collectives.
  };

  FunctionDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
               const Type *WrittenRet, llvm::ArrayRef<VarDecl *> Params,
               CompoundStmt *Body)
      : Decl(DK_Function, R, NameLoc, Name), WrittenRet(WrittenRet),
        Params(Params), Body(Body) {}

  /// The return type as written; null when omitted (the function returns
  /// void, as `findFaces(...) {` in the paper).
  const Type *getWrittenReturnType() const { return WrittenRet; }
  const Type *getReturnType() const;
  llvm::ArrayRef<VarDecl *> getParams() const { return Params; }
  CompoundStmt *getBody() const { return Body; }
  bool isDefinition() const { return Body != nullptr; }

  bool isInline() const { return IsInline; }
  void setInline(bool V) { IsInline = V; }
  bool isExternC() const { return IsExternC; }
  void setExternC(bool V) { IsExternC = V; }
  bool isVarargs() const { return IsVarargs; }
  void setVarargs(bool V) { IsVarargs = V; }
  /// What `[[library(kind)]]` says a function of the collective library
  /// is (MLIRGen's #bsgp.library<kind>); empty if not annotated.
  llvm::StringRef getLibraryKind() const { return LibraryKind; }
  void setLibraryKind(llvm::StringRef K) { LibraryKind = K; }
  /// The operator of `[[library(kind, op)]]`: the function implements its
  /// primitive for that operator alone (the one-pass scan is for `+`), and
  /// a generic one has no operator parameter. Empty if not given.
  llvm::StringRef getLibraryOp() const { return LibraryOp; }
  void setLibraryOp(llvm::StringRef O) { LibraryOp = O; }

  const FunctionType *getFunctionType() const { return FnTy; }
  void setFunctionType(const FunctionType *T) { FnTy = T; }
  FunctionKind getFunctionKind() const { return FKind; }
  void setFunctionKind(FunctionKind K) { FKind = K; }

  /// For an instantiation of a generic function (`f<int>`): the template
  /// it was instantiated from and its arguments; null otherwise. Every
  /// program that uses an instantiation defines its own (private) copy.
  FunctionTemplateDecl *getInstantiatedFrom() const { return From; }
  llvm::ArrayRef<const Type *> getTemplateArgs() const { return TArgs; }
  void setInstantiatedFrom(FunctionTemplateDecl *T,
                           llvm::ArrayRef<const Type *> Args) {
    From = T;
    TArgs = Args;
  }

  /// For an explicit specialization, `template <> R f<A, B>(...) {...}`:
  /// the template arguments as written. Sema makes the function the
  /// instantiation of template f for them (and names it as one). Empty
  /// otherwise.
  llvm::ArrayRef<const Type *> getSpecializationArgs() const {
    return SpecArgs;
  }
  void setSpecializationArgs(llvm::ArrayRef<const Type *> A) { SpecArgs = A; }
  bool isExplicitSpecialization() const { return !SpecArgs.empty(); }

  /// A function of the collective library that the program does not
  /// reach: Sema did not check it and MLIRGen does not emit it.
  bool isUnchecked() const { return IsUnchecked; }
  void setUnchecked(bool V) { IsUnchecked = V; }

  static bool classof(const Decl *D) { return D->getKind() == DK_Function; }

private:
  const Type *WrittenRet;
  llvm::ArrayRef<VarDecl *> Params;
  CompoundStmt *Body;
  const FunctionType *FnTy = nullptr;
  FunctionKind FKind = FK_Device;
  bool IsInline = false, IsExternC = false, IsVarargs = false,
       IsUnchecked = false;
  llvm::StringRef LibraryKind, LibraryOp;
  FunctionTemplateDecl *From = nullptr;
  llvm::ArrayRef<const Type *> TArgs;
  llvm::ArrayRef<const Type *> SpecArgs;
};

/// `template <typename T, ...> function-definition`: a generic function.
/// The parser reads the function once with each parameter standing for a
/// placeholder type (getPattern(), never checked, used for deduction and
/// to classify calls); Sema instantiates it on demand by parsing the
/// definition again (from getFileId()/getOffset()) with the parameters
/// naming the argument types, which gives an ordinary FunctionDecl.
class FunctionTemplateDecl : public Decl {
public:
  FunctionTemplateDecl(SourceRange R, SourceLocation NameLoc,
                       llvm::StringRef Name,
                       llvm::ArrayRef<llvm::StringRef> ParamNames,
                       llvm::ArrayRef<const Type *> Placeholders,
                       llvm::ArrayRef<const Type *> ValueTypes,
                       FunctionDecl *Pattern, uint32_t FileId, size_t Offset)
      : Decl(DK_FunctionTemplate, R, NameLoc, Name), ParamNames(ParamNames),
        Placeholders(Placeholders), ValueTypes(ValueTypes), Pattern(Pattern),
        FileId(FileId), Offset(Offset) {}
  llvm::ArrayRef<llvm::StringRef> getParamNames() const { return ParamNames; }
  /// The type each parameter stands for in getPattern() (for a value
  /// parameter, a type nothing in the pattern has, so nothing deduces it).
  llvm::ArrayRef<const Type *> getPlaceholders() const { return Placeholders; }
  /// Per parameter, null for a type parameter (`typename T`), the declared
  /// type of a value parameter (`int N`, `bool B`) otherwise.
  llvm::ArrayRef<const Type *> getValueTypes() const { return ValueTypes; }
  FunctionDecl *getPattern() const { return Pattern; }
  uint32_t getFileId() const { return FileId; }
  /// Byte offset of the function definition after the template header.
  size_t getOffset() const { return Offset; }
  static bool classof(const Decl *D) {
    return D->getKind() == DK_FunctionTemplate;
  }

private:
  llvm::ArrayRef<llvm::StringRef> ParamNames;
  llvm::ArrayRef<const Type *> Placeholders;
  llvm::ArrayRef<const Type *> ValueTypes;
  FunctionDecl *Pattern;
  uint32_t FileId;
  size_t Offset;
};

class FieldDecl : public Decl {
public:
  FieldDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
            const Type *T, unsigned Index)
      : Decl(DK_Field, R, NameLoc, Name), Ty(T), Index(Index) {}
  const Type *getType() const { return Ty; }
  unsigned getIndex() const { return Index; }
  static bool classof(const Decl *D) { return D->getKind() == DK_Field; }

private:
  const Type *Ty;
  unsigned Index;
};

class StructDecl : public Decl {
public:
  StructDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
             StructType *T, llvm::ArrayRef<FieldDecl *> Fields)
      : Decl(DK_Struct, R, NameLoc, Name), Ty(T), Fields(Fields) {}
  StructType *getType() const { return Ty; }
  llvm::ArrayRef<FieldDecl *> getFields() const { return Fields; }
  FieldDecl *getField(llvm::StringRef Name) const {
    for (FieldDecl *F : Fields)
      if (F->getName() == Name)
        return F;
    return nullptr;
  }
  static bool classof(const Decl *D) { return D->getKind() == DK_Struct; }

private:
  StructType *Ty;
  llvm::ArrayRef<FieldDecl *> Fields;
};

class TypedefDecl : public Decl {
public:
  TypedefDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
              const Type *T)
      : Decl(DK_Typedef, R, NameLoc, Name), Ty(T) {}
  const Type *getUnderlyingType() const { return Ty; }
  static bool classof(const Decl *D) { return D->getKind() == DK_Typedef; }

private:
  const Type *Ty;
};

/// `import "file.bsgp";`. getName() is the path as written.
class ImportDecl : public Decl {
public:
  ImportDecl(SourceRange R, llvm::StringRef Path)
      : Decl(DK_Import, R, R.Begin, Path) {}
  /// The SourceManager file id of the imported file; 0 until resolved.
  uint32_t getImportedFile() const { return FileId; }
  void setImportedFile(uint32_t Id) { FileId = Id; }
  static bool classof(const Decl *D) { return D->getKind() == DK_Import; }

private:
  uint32_t FileId = 0;
};

} // namespace bsgp

#endif // BSGP_AST_DECL_H
