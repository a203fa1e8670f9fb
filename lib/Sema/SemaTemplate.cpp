//===- SemaTemplate.cpp - generic functions -------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Generic functions (docs/language.md, "Generic functions"), and the
/// collective library checked on demand.
///
/// A template's name resolves to its pattern (the definition parsed with
/// placeholder types), which is classified like any function from its
/// syntax: every instantiation has the same statements, hence the same
/// kind. A call deduces the arguments the call does not give from its
/// argument types, asks the parser for the instantiation (the definition
/// parsed again, the parameters now naming the arguments) and calls that:
/// an ordinary FunctionDecl named `f_int` (the template's name and the
/// mangled arguments, joined by `_`), checked after the functions of the
/// program with "in instantiation of 'f<int>' requested here" after every
/// diagnostic, and added to its template's translation unit, so that
/// MLIRGen and bsgpi see an ordinary function. Only what is called is
/// instantiated, checked and emitted.
///
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "llvm/ADT/StringSet.h"

#include <cctype>

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// How a template argument appears in an instantiation's name: the type's
/// name for scalars, vectors and structs, `p` before a pointer's pointee,
/// `k` before a const type (`const uint *` is `pkuint`).
std::string mangleTemplateArg(const Type *T) {
  if (auto *C = dyn_cast<ConstType>(T))
    return "k" + mangleTemplateArg(C->getInner());
  if (auto *P = dyn_cast<PointerType>(T))
    return "p" + mangleTemplateArg(P->getPointee());
  if (auto *S = dyn_cast<StructType>(T))
    return S->getName().str();
  if (auto *O = dyn_cast<OperatorType>(T))
    return O->getName().str();
  // `m` for minus: `f<-3>` is f_m3 (names have no '-').
  if (auto *V = dyn_cast<ValueType>(T))
    return V->isNegative() ? "m" + std::to_string(0 - V->getBits())
                           : std::to_string(V->getBits());
  return T->str();
}

/// True if \p V is a value of the integer (or bool) type \p T: the
/// argument converts to the parameter without changing its value (C++
/// forbids a narrowing conversion there).
bool fitsValueParam(const ValueType *V, const Type *T) {
  auto *B = cast<BuiltinType>(T->getUnqualified());
  unsigned Bits = B->getBitWidth();
  if (!B->isSignedInteger())
    return !V->isNegative() && (Bits >= 64 || V->getBits() >> Bits == 0);
  if (Bits >= 64)
    return V->isNegative() || V->getBits() >> 63 == 0;
  int64_t X = static_cast<int64_t>(V->getBits());
  return (V->isNegative() || X >= 0) && X >= -(int64_t(1) << (Bits - 1)) &&
         X < (int64_t(1) << (Bits - 1));
}

bool isValidTemplateArg(const Type *T) {
  const Type *U = T->getUnqualified();
  if (U->isVoid() || U->isError() || isa<ArrayType, FunctionType, NullType>(U))
    return false;
  if (auto *P = dyn_cast<PointerType>(U))
    return !isa<FunctionType>(P->getPointee()->getUnqualified());
  return true;
}

/// Deduces template arguments from parameter type \p P (of the pattern)
/// and argument type \p A, as C++ does for the types BSGP has: a parameter
/// `T` takes the argument's type without top-level const; `T *` (or `const
/// T *`) a pointer's pointee (without its const). Arguments given
/// explicitly (\p Fixed) are not deduced. Returns false on a conflict, with
/// the parameter's index and the second type in \p Conflict.
struct Deduction {
  llvm::ArrayRef<const Type *> Placeholders;
  llvm::MutableArrayRef<const Type *> Args;
  size_t Fixed;
  std::pair<size_t, const Type *> Conflict{0, nullptr};

  bool match(const Type *P, const Type *A) {
    auto It = llvm::find(Placeholders, P);
    if (It != Placeholders.end()) {
      size_t I = It - Placeholders.begin();
      if (I < Fixed || isa<NullType>(A) || A->isError())
        return true;
      if (!Args[I] || Args[I] == A) {
        Args[I] = A;
        return true;
      }
      Conflict = {I, A};
      return false;
    }
    auto *PP = dyn_cast<PointerType>(P);
    auto *AP = dyn_cast<PointerType>(A);
    if (!PP || !AP)
      return true;
    const Type *PE = PP->getPointee(), *AE = AP->getPointee();
    if (PE->isConst()) {
      PE = PE->getUnqualified();
      AE = AE->getUnqualified();
    }
    return match(PE, AE);
  }
};

} // namespace

void Sema::registerTemplate(FunctionTemplateDecl *T) {
  FunctionDecl *P = T->getPattern();
  if (!Ctx.isLibraryFile(T->getFileId()))
    ProgramFunctions.insert(T->getName());
  FunctionDecl *&Slot = Functions[T->getName()];
  // A template declared before its definition (the library's mutually
  // recursive ones): the definition is the template.
  if (Slot && !Slot->isDefinition() && P->isDefinition() &&
      Templates.Patterns.count(Slot)) {
    Templates.Patterns.erase(Slot);
    Slot = nullptr;
  }
  if (Slot) {
    Diags.report(SourceRange(T->getLoc()), diag::err_redefinition)
        << T->getName();
    Diags.report(SourceRange(Slot->getLoc()), diag::note_previous_decl);
    return;
  }
  Slot = P;
  functionType(P);
  Templates.Patterns[P] = T;
  if (!P->getLibraryKind().empty() && Ctx.isLibraryFile(T->getFileId()))
    Templates.ByLibraryKind[P->getLibraryKind()] = T;
  if (P->getBody())
    collectFunctionInfo(P);
}

FunctionDecl *Sema::instantiateForCall(CallExpr *C, DeclRefExpr *R,
                                       FunctionDecl *Pattern) {
  for (Expr *&A : C->args())
    A = rvalue(checkExpr(A));
  auto It = Templates.Patterns.find(Pattern);
  if (It == Templates.Patterns.end()) {
    Diags.report(R->getRange(), diag::err_template_args_not_generic)
        << R->getName();
    return nullptr;
  }
  FunctionTemplateDecl *T = It->second;
  llvm::ArrayRef<const Type *> Placeholders = T->getPlaceholders();
  llvm::ArrayRef<const Type *> Explicit = R->getTemplateArgs();
  auto NoteTemplate = [&] {
    Diags.report(SourceRange(T->getLoc()), diag::note_declared_here)
        << T->getName();
  };
  if (Explicit.size() > Placeholders.size()) {
    Diags.report(R->getRange(), diag::err_template_too_many_args)
        << T->getName() << unsigned(Placeholders.size())
        << unsigned(Explicit.size());
    NoteTemplate();
    return nullptr;
  }
  auto Params = Pattern->getParams();
  if (C->args().size() != Params.size()) {
    Diags.report(C->getRange(), diag::err_call_arity)
        << T->getName() << unsigned(Params.size())
        << unsigned(C->args().size());
    NoteTemplate();
    return nullptr;
  }
  llvm::SmallVector<const Type *, 2> Args(Placeholders.size(), nullptr);
  llvm::copy(Explicit, Args.begin());
  Deduction D{Placeholders, Args, Explicit.size()};
  for (size_t I = 0; I < Params.size(); ++I) {
    const Type *A = C->args()[I]->getType()->getUnqualified();
    if (A->isError())
      return nullptr;
    if (!D.match(Params[I]->getType()->getUnqualified(), A)) {
      size_t K = D.Conflict.first;
      Diags.report(C->args()[I]->getRange(),
                   diag::err_template_deduced_conflict)
          << T->getParamNames()[K] << T->getName() << Args[K]->str()
          << D.Conflict.second->str();
      NoteTemplate();
      return nullptr;
    }
  }
  if (!checkValueArgs(T, Args, R))
    return nullptr;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (!Args[I]) {
      Diags.report(C->getRange(), diag::err_template_cannot_deduce)
          << T->getParamNames()[I] << T->getName();
      NoteTemplate();
      return nullptr;
    }
    if (!isValidTemplateArg(Args[I])) {
      Diags.report(R->getRange(), diag::err_template_arg_type)
          << Args[I]->str() << T->getName();
      return nullptr;
    }
  }
  return instantiate(T, Args, C->getRange());
}

/// Explicit arguments given for a value parameter must be values in its
/// type's range, those for a type parameter types (`f<int, 3>` for
/// `template <typename T, int N>`).
bool Sema::checkValueArgs(FunctionTemplateDecl *T,
                          llvm::ArrayRef<const Type *> Args, DeclRefExpr *R) {
  for (size_t I = 0; I < Args.size(); ++I) {
    const Type *A = Args[I], *VT = T->getValueTypes()[I];
    if (!A)
      continue;
    auto *V = dyn_cast<ValueType>(A);
    if (VT && !V)
      Diags.report(R->getRange(), diag::err_template_arg_kind_type)
          << T->getParamNames()[I] << T->getName() << VT->str() << A->str();
    else if (!VT && V)
      Diags.report(R->getRange(), diag::err_template_arg_kind_value)
          << T->getParamNames()[I] << T->getName() << A->str();
    else if (VT && !fitsValueParam(V, VT))
      Diags.report(R->getRange(), diag::err_template_arg_range)
          << A->str() << T->getParamNames()[I] << VT->str() << T->getName();
    else
      continue;
    Diags.report(SourceRange(T->getLoc()), diag::note_declared_here)
        << T->getName();
    return false;
  }
  return true;
}

FunctionDecl *Sema::instantiate(FunctionTemplateDecl *T,
                                llvm::ArrayRef<const Type *> Args,
                                SourceRange At, llvm::StringRef Name) {
  auto Key =
      std::make_pair(T, std::vector<const Type *>(Args.begin(), Args.end()));
  auto Cached = Templates.Cache.find(Key);
  if (Cached != Templates.Cache.end())
    return Cached->second;
  FunctionDecl *&Slot = Templates.Cache[Key];
  unsigned Depth = 0;
  for (int J = Templates.Current; J >= 0; J = Templates.Instances[J].Parent)
    ++Depth;
  if (Depth >= TemplateState::MaxDepth) {
    Diags.report(At, diag::err_template_depth) << TemplateState::MaxDepth;
    return nullptr;
  }
  std::string Mangled = T->getName().str();
  std::string Display = T->getName().str() + "<";
  for (size_t I = 0; I < Args.size(); ++I) {
    Mangled += "_" + mangleTemplateArg(Args[I]);
    const Type *VT = T->getValueTypes()[I];
    auto *V = dyn_cast<ValueType>(Args[I]);
    Display += (I ? ", " : "") + (VT && V && VT->isBool()
                                      ? (V->getBits() ? "true" : "false")
                                      : Args[I]->str());
  }
  Display += ">";
  if (!Name.empty())
    Mangled = Name.str();
  if (FunctionDecl *Existing = Functions.lookup(Mangled)) {
    // The collective library specializes its templates by name: a function
    // of the library named as an instantiation of a library template would
    // be is that instantiation (__bsgp_native_reduce_add_int for
    // __bsgp_native_reduce<+, int>; docs/collectives.md).
    if (Ctx.isLibraryFile(T->getFileId()) &&
        Ctx.isLibraryFile(Existing->getLoc().File) &&
        Existing->isDefinition() && !Templates.Patterns.count(Existing)) {
      Templates.LibraryNames.push_back(Mangled);
      Slot = Existing;
      return Existing;
    }
    Diags.report(At, diag::err_template_mangled_clash) << Display << Mangled;
    return nullptr;
  }
  // Errors in the instantiation's syntax (an operator type where a value
  // type must be) show the chain of requests, as those of its checking.
  std::vector<std::pair<SourceRange, std::string>> Notes{{At, Display}};
  for (int J = Templates.Current; J >= 0; J = Templates.Instances[J].Parent)
    Notes.push_back(
        {Templates.Instances[J].At, Templates.Instances[J].Display});
  if (!T->getPattern()->isDefinition()) {
    auto Saved = Diags.getContextNotes();
    Diags.setContextNotes(Notes);
    Diags.report(At, diag::err_template_no_definition) << Display << Mangled;
    Diags.setContextNotes(Saved);
    return nullptr;
  }
  const ASTContext::TemplateParser &Parse = Ctx.getTemplateParser();
  auto Saved = Diags.getContextNotes();
  Diags.setContextNotes(Notes);
  FunctionDecl *F = Parse ? Parse(T, Args) : nullptr;
  Diags.setContextNotes(Saved);
  if (!F)
    return nullptr;
  F->setName(Ctx.copyString(Mangled));
  F->setInstantiatedFrom(T, Ctx.copyArray<const Type *>(Args));
  F->setFunctionKind(T->getPattern()->getFunctionKind());
  functionType(F);
  Functions[F->getName()] = F;
  collectFunctionInfo(F);
  Slot = F;
  Templates.Instances.push_back({F, Display, At, Templates.Current});
  return F;
}

void Sema::checkInstantiations() {
  auto &Instances = Templates.Instances;
  for (size_t &I = Templates.Checked; I < Instances.size(); ++I) {
    if (Diags.hasFatalError())
      break;
    std::vector<std::pair<SourceRange, std::string>> Notes;
    for (int J = int(I); J >= 0; J = Instances[J].Parent)
      Notes.push_back({Instances[J].At, Instances[J].Display});
    // The engine cuts a long chain (-ftemplate-backtrace-limit).
    Diags.setContextNotes(std::move(Notes));
    Templates.Current = int(I);
    FunctionDecl *F = Instances[I].F;
    checkFunction(F);
    Templates.Current = -1;
    Diags.setContextNotes({});
  }
}

/// Each instantiation joins its template's file, after its declarations.
static void addInstantiationsToUnits(ASTContext &Ctx,
                                     const TemplateState &Templates) {
  const auto &Instances = Templates.Instances;
  for (TranslationUnit &TU : Ctx.getTranslationUnits()) {
    llvm::SmallVector<Decl *, 16> Decls;
    for (const TemplateState::Instance &I : Instances)
      if (I.F->getInstantiatedFrom()->getFileId() == TU.FileId)
        Decls.push_back(I.F);
    if (Decls.empty())
      continue;
    Decls.insert(Decls.begin(), TU.Decls.begin(), TU.Decls.end());
    TU.Decls = Ctx.copyArray<Decl *>(Decls);
  }
}

/// The collective library's functions (lib/Collectives/*.bsgp) implement
/// primitives in two ways (docs/collectives.md). Those declared with
/// `[[library(<kind>)]]` (every primitive but scan) are bound here to the
/// call (bindLibraryCollective). scan's are still named as MLIRGen mangles
/// the primitive: `scan(+, x)` with an int x calls `__bsgp_scan_add_int`.
/// Where the library has no function of that name but a template named
/// like the primitive and operator (`__bsgp_scan_add`), the instantiation
/// for the call's argument types gets that name; so does the version
/// MLIRGen may call instead (`__bsgp_scan_only_<op>` without the total).
/// Nothing is instantiated for a scan whose argument does not deduce:
/// MLIRGen then reports it as not provided.
void Sema::instantiateLibraryFor(BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  if (B->getType()->isError() || !BK::isCollective(B->getBuiltinKind()))
    return;
  for (Expr *A : B->args())
    if (A->getType()->isError())
      return;
  if (BK::isBoundByLibraryKind(B->getBuiltinKind()))
    return bindLibraryCollective(B);
  if (B->getBuiltinKind() != BK::Scan)
    return;
  std::string Op;
  if (B->getReduceOp() != BK::None) {
    llvm::StringRef S = BK::getOpSpelling(B->getReduceOp());
    Op = S == "+"   ? "add"
         : S == "*" ? "mul"
         : S == "&" ? "and"
         : S == "|" ? "or"
         : S == "^" ? "xor"
                    : S.str();
  }
  auto Sanitize = [](std::string N) {
    for (char &C : N)
      if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
        C = '_';
    return N;
  };
  std::string Types;
  for (Expr *A : B->args())
    Types += "_" + A->getType()->getUnqualified()->str();
  auto Try = [&](llvm::StringRef Primitive) -> FunctionDecl * {
    std::string Base =
        Sanitize("__bsgp_" + Primitive.str() + (Op.empty() ? "" : "_" + Op));
    std::string Name = Sanitize(Base + Types);
    Templates.LibraryNames.push_back(Name);
    if (FunctionDecl *F = Functions.lookup(Name))
      return F;
    FunctionDecl *P = Functions.lookup(Base);
    auto It = Templates.Patterns.find(P);
    if (!P || It == Templates.Patterns.end() ||
        P->getParams().size() != B->args().size())
      return nullptr;
    FunctionTemplateDecl *T = It->second;
    llvm::SmallVector<const Type *, 2> Args(T->getPlaceholders().size(),
                                            nullptr);
    Deduction D{T->getPlaceholders(), Args, 0};
    for (size_t I = 0; I < B->args().size(); ++I)
      if (!D.match(P->getParams()[I]->getType()->getUnqualified(),
                   B->args()[I]->getType()->getUnqualified()))
        return nullptr;
    if (llvm::is_contained(Args, nullptr) ||
        !llvm::all_of(Args, isValidTemplateArg))
      return nullptr;
    return instantiate(T, Args, B->getRange(), Name);
  };
  FunctionDecl *F = Try("scan");
  Try("scan_only");
  // Where the library's scan returns the scanned value alone (no vector
  // of two holds a 64-bit pair), the total is the reduce of the same
  // operator.
  if (F && F->getReturnType()->getUnqualified() ==
               B->args()[0]->getType()->getUnqualified())
    B->setTotalCallee(
        instantiateLibraryKind(BK::getLibraryKindName(BK::Reduce), B));
}

/// The primitives bound by their library kind (BuiltinCallExpr::
/// isBoundByLibraryKind): the call is bound to the library's function
/// declared `[[library(<kind>)]]`. A generic one is instantiated for the
/// call: its first template parameter is the operator where the primitive
/// has one (`template <typename Op, typename T>` for reduce, segreduce,
/// segscan), and the others are deduced from the arguments as for a call
/// (`compact(list, v, keep, flag)` with `int *list` gives `T = int`). A
/// function that is not generic (thread.kill's) is bound if the arguments
/// have its parameters' types. Without one (a library given by
/// -fcollective-library that lacks it), where the arguments do not deduce,
/// or, for the reductions, scans and sorts, for a type other than the
/// scalars of 32 and 64 bits (the element types of the library's list
/// primitives), the call stays unbound, and MLIRGen reports the primitive
/// as not provided.
void Sema::bindLibraryCollective(BuiltinCallExpr *B) {
  B->setCallee(instantiateLibraryKind(
      BuiltinCallExpr::getLibraryKindName(B->getBuiltinKind()), B));
}

FunctionDecl *Sema::instantiateLibraryKind(llvm::StringRef Kind,
                                           BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  auto Args = B->args();
  if (FunctionDecl *F = Templates.FunctionByLibraryKind.lookup(Kind)) {
    if (F->getParams().size() != Args.size())
      return nullptr;
    for (size_t I = 0; I < Args.size(); ++I)
      if (F->getParams()[I]->getType()->getUnqualified() !=
          Args[I]->getType()->getUnqualified())
        return nullptr;
    // Checked on demand, as the functions MLIRGen calls by name are.
    Templates.LibraryNames.push_back(F->getName().str());
    return F;
  }
  FunctionTemplateDecl *T = Templates.ByLibraryKind.lookup(Kind);
  if (!T)
    return nullptr;
  FunctionDecl *P = T->getPattern();
  bool HasOp = B->getReduceOp() != BK::None;
  size_t Fixed = HasOp ? 1 : 0;
  if (P->getParams().size() != Args.size() ||
      T->getPlaceholders().size() <= Fixed)
    return nullptr;
  BK::BuiltinKind K = B->getBuiltinKind();
  if (HasOp || K == BK::SortIdx || K == BK::ThreadSortBy) {
    auto *BT = dyn_cast<BuiltinType>(Args[0]->getType()->getUnqualified());
    if (!BT || BT->getBitWidth() < 32)
      return nullptr;
  }
  llvm::SmallVector<const Type *, 2> TArgs(T->getPlaceholders().size(),
                                           nullptr);
  if (HasOp)
    TArgs[0] = Ctx.getOperatorType(BK::getOpSpelling(B->getReduceOp()));
  Deduction D{T->getPlaceholders(), TArgs, Fixed};
  for (size_t I = 0; I < Args.size(); ++I)
    if (!D.match(P->getParams()[I]->getType()->getUnqualified(),
                 Args[I]->getType()->getUnqualified()))
      return nullptr;
  if (llvm::is_contained(TArgs, nullptr) ||
      !llvm::all_of(TArgs, isValidTemplateArg))
    return nullptr;
  return instantiate(T, TArgs, B->getRange(), "");
}

/// The collective library (files the driver imports implicitly, unless one
/// is the main file, as with -fcollective-library) is checked on demand:
/// its function definitions wait until the program reaches them, by a call
/// or as the function MLIRGen calls for a primitive. Those never reached
/// are marked unchecked, and MLIRGen does not emit them, so that a program
/// with one reduce does not check or emit the whole library.
bool Sema::deferLibraryFunction(FunctionDecl *F) {
  uint32_t File = F->getLoc().File;
  if (!Ctx.isLibraryFile(File) || File == Ctx.getMainFileId())
    return false;
  Templates.Deferred.push_back(F);
  return true;
}

void Sema::checkLibraryOnDemand() {
  llvm::StringSet<> Needed;
  auto AddCalls = [&](FunctionDecl *F) {
    for (auto &Call : Infos[F].Calls)
      Needed.insert(Call.first);
  };
  llvm::DenseSet<FunctionDecl *> Waiting(Templates.Deferred.begin(),
                                         Templates.Deferred.end());
  for (TranslationUnit &TU : Ctx.getTranslationUnits())
    for (Decl *D : TU.Decls)
      if (auto *F = dyn_cast<FunctionDecl>(D))
        if (F->isDefinition() && !Waiting.count(F))
          AddCalls(F);
  size_t SeenInstances = 0, SeenNames = 0;
  bool Changed = true;
  while (Changed && !Diags.hasFatalError()) {
    Changed = false;
    for (; SeenInstances < Templates.Instances.size(); ++SeenInstances)
      AddCalls(Templates.Instances[SeenInstances].F);
    for (; SeenNames < Templates.LibraryNames.size(); ++SeenNames)
      Needed.insert(Templates.LibraryNames[SeenNames]);
    for (FunctionDecl *F : Templates.Deferred) {
      if (!Waiting.count(F) || !Needed.count(F->getName()))
        continue;
      Waiting.erase(F);
      checkFunction(F);
      AddCalls(F);
      Changed = true;
    }
    checkInstantiations();
    Changed |= SeenInstances < Templates.Instances.size() ||
               SeenNames < Templates.LibraryNames.size();
  }
  for (FunctionDecl *F : Templates.Deferred)
    if (Waiting.count(F))
      F->setUnchecked(true);
  addInstantiationsToUnits(Ctx, Templates);
}
