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
    Templates.ByLibraryKind[P->getLibraryKind()].push_back(T);
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

/// The symbol of T's instantiation for Args (`f_int_add` for f<int, +>)
/// and, in \p Display, how diagnostics write it (`f<int, +>`).
std::string Sema::mangleInstantiation(FunctionTemplateDecl *T,
                                      llvm::ArrayRef<const Type *> Args,
                                      std::string *Display) {
  std::string Mangled = T->getName().str();
  std::string Shown = T->getName().str() + "<";
  for (size_t I = 0; I < Args.size(); ++I) {
    Mangled += "_" + mangleTemplateArg(Args[I]);
    const Type *VT = T->getValueTypes()[I];
    auto *V = dyn_cast<ValueType>(Args[I]);
    Shown += (I ? ", " : "") + (VT && V && VT->isBool()
                                    ? (V->getBits() ? "true" : "false")
                                    : Args[I]->str());
  }
  if (Display)
    *Display = Shown + ">";
  return Mangled;
}

/// `template <> R f<A, B>(...) {...}`: the function is the instantiation
/// of template f for (A, B), as in C++. It takes the instantiation's place
/// in the cache, so that every request of f<A, B> gets it, and its name,
/// so that it is emitted as the instantiation would be (a private copy in
/// each program). The template must be declared before, with as many
/// parameters; the specialization must take as many parameters as its
/// function (their types are the specialization's own, as written).
void Sema::registerSpecialization(FunctionDecl *F) {
  FunctionDecl *P = Functions.lookup(F->getName());
  FunctionTemplateDecl *T = P ? Templates.Patterns.lookup(P) : nullptr;
  SourceRange At(F->getLoc());
  if (!T) {
    Diags.report(At, diag::err_explicit_specialization_not_template)
        << F->getName();
    return;
  }
  auto Args = F->getSpecializationArgs();
  if (Args.size() != T->getPlaceholders().size()) {
    Diags.report(At, diag::err_explicit_specialization_args)
        << F->getName() << unsigned(Args.size())
        << unsigned(T->getPlaceholders().size());
    Diags.report(SourceRange(T->getLoc()), diag::note_declared_here)
        << T->getName();
    return;
  }
  // As explicit arguments of a call are checked: values for value
  // parameters, in their range; types otherwise.
  auto *R = new (Ctx) DeclRefExpr(At, F->getName());
  if (!checkValueArgs(T, Args, R))
    return;
  for (const Type *A : Args)
    if (!isValidTemplateArg(A)) {
      Diags.report(At, diag::err_template_arg_type) << A->str() << T->getName();
      return;
    }
  std::string Display;
  std::string Mangled = mangleInstantiation(T, Args, &Display);
  if (F->getParams().size() != T->getPattern()->getParams().size()) {
    Diags.report(At, diag::err_explicit_specialization_params)
        << Display << unsigned(F->getParams().size())
        << unsigned(T->getPattern()->getParams().size());
    Diags.report(SourceRange(T->getLoc()), diag::note_declared_here)
        << T->getName();
    return;
  }
  auto Key =
      std::make_pair(T, std::vector<const Type *>(Args.begin(), Args.end()));
  FunctionDecl *&Slot = Templates.Cache[Key];
  if (Slot) {
    Diags.report(At, diag::err_explicit_specialization_twice) << Display;
    Diags.report(SourceRange(Slot->getLoc()), diag::note_previous_decl);
    return;
  }
  if (Functions.lookup(Mangled)) {
    Diags.report(At, diag::err_template_mangled_clash) << Display << Mangled;
    return;
  }
  Slot = F;
  F->setName(Ctx.copyString(Mangled));
  F->setInstantiatedFrom(T, Ctx.copyArray<const Type *>(Args));
  Templates.Specializations.insert(F);
  functionType(F);
  Functions[F->getName()] = F;
  if (!Ctx.isLibraryFile(F->getLoc().File))
    ProgramFunctions.insert(F->getName());
  collectFunctionInfo(F);
}

FunctionDecl *Sema::instantiate(FunctionTemplateDecl *T,
                                llvm::ArrayRef<const Type *> Args,
                                SourceRange At, llvm::StringRef Name) {
  auto Key =
      std::make_pair(T, std::vector<const Type *>(Args.begin(), Args.end()));
  auto Cached = Templates.Cache.find(Key);
  if (Cached != Templates.Cache.end()) {
    // A library specialization is checked once a program reaches it, as
    // the library's other functions are.
    if (Cached->second && Templates.Specializations.count(Cached->second))
      Templates.LibraryNames.push_back(Cached->second->getName().str());
    return Cached->second;
  }
  FunctionDecl *&Slot = Templates.Cache[Key];
  unsigned Depth = 0;
  for (int J = Templates.Current; J >= 0; J = Templates.Instances[J].Parent)
    ++Depth;
  if (Depth >= TemplateState::MaxDepth) {
    Diags.report(At, diag::err_template_depth) << TemplateState::MaxDepth;
    return nullptr;
  }
  std::string Display;
  std::string Mangled = mangleInstantiation(T, Args, &Display);
  if (!Name.empty())
    Mangled = Name.str();
  if (Functions.lookup(Mangled)) {
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
    Diags.report(At, diag::err_template_no_definition) << Display;
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

/// The collective library's functions (lib/Collectives/*.bsgp) declared
/// with `[[library(<kind>)]]` implement the primitives: Sema binds each
/// call of one to the function of its kind that fits the call
/// (bindLibraryCollective), as Clang binds a call to an overload, and
/// MLIRGen calls that function.
void Sema::instantiateLibraryFor(BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  if (B->getType()->isError() || !BK::isCollective(B->getBuiltinKind()))
    return;
  for (Expr *A : B->args())
    if (A->getType()->isError())
      return;
  if (BK::isBoundByLibraryKind(B->getBuiltinKind()))
    bindLibraryCollective(B);
}

/// The primitives bound by their library kind (BuiltinCallExpr::
/// isBoundByLibraryKind) call the library's function declared
/// `[[library(<kind>)]]` that fits the call (instantiateLibraryKind).
/// scan has three: the scan (`scan`), which returns the scanned value and
/// the total as a 2-vector, or the scanned value alone; where it returns
/// the value alone, the total is the reduce of the same operator; and the
/// scan without the total (`scan_only`), which MLIRGen calls for a scan
/// written as a statement, where the library has one.
void Sema::bindLibraryCollective(BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  FunctionDecl *F =
      instantiateLibraryKind(BK::getLibraryKindName(B->getBuiltinKind()), B);
  B->setCallee(F);
  if (B->getBuiltinKind() != BK::Scan)
    return;
  B->setCalleeWithoutTotal(instantiateLibraryKind("scan_only", B));
  if (F && F->getReturnType()->getUnqualified() ==
               B->args()[0]->getType()->getUnqualified())
    B->setTotalCallee(
        instantiateLibraryKind(BK::getLibraryKindName(BK::Reduce), B));
}

/// The library's function of \p Kind for the call \p B. A function that is
/// not generic fits if the arguments have its parameters' types. A generic
/// one is instantiated for the call: its first template parameter is the
/// operator where the primitive has one (`template <typename Op, typename
/// T>` for reduce, segreduce, segscan), and the others are deduced from
/// the arguments as for a call (`compact(list, v, keep, flag)` with `int
/// *list` gives `T = int`). A function declared `[[library(kind, op)]]` is
/// for that operator alone, and has no operator parameter. Where several
/// fit, the best wins, as among overloaded C++ templates: a function that
/// is not generic, then the template whose parameters that are not
/// generic convert the fewest arguments, then the one with the fewest
/// parameters to deduce (scan's `template <typename Op> int2 f(int)`
/// before `template <typename Op, typename T> T g(T)`), then the first
/// declared. Without one (a library given by -fcollective-library that
/// lacks it), or, for the reductions, scans and sorts, for a type other
/// than the scalars of 32 and 64 bits (the element types of the library's
/// list primitives), the call stays unbound, and MLIRGen reports the
/// primitive as not provided.
FunctionDecl *Sema::instantiateLibraryKind(llvm::StringRef Kind,
                                           BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  auto Args = B->args();
  BK::BuiltinKind K = B->getBuiltinKind();
  llvm::StringRef Op =
      B->getReduceOp() != BK::None ? BK::getOpSpelling(B->getReduceOp()) : "";
  if (!Op.empty() || K == BK::SortIdx || K == BK::ThreadSortBy) {
    auto *BT = dyn_cast<BuiltinType>(Args[0]->getType()->getUnqualified());
    if (!BT || BT->getBitWidth() < 32)
      return nullptr;
  }
  auto ForOp = [&](FunctionDecl *F) {
    return F->getLibraryOp().empty() || F->getLibraryOp() == Op;
  };
  for (FunctionDecl *F : Templates.FunctionByLibraryKind.lookup(Kind)) {
    if (!ForOp(F) || F->getParams().size() != Args.size())
      continue;
    bool Same = true;
    for (size_t I = 0; I < Args.size(); ++I)
      Same &= F->getParams()[I]->getType()->getUnqualified() ==
              Args[I]->getType()->getUnqualified();
    if (!Same)
      continue;
    // Checked on demand, as the functions MLIRGen calls by name are.
    Templates.LibraryNames.push_back(F->getName().str());
    return F;
  }
  FunctionTemplateDecl *Best = nullptr;
  llvm::SmallVector<const Type *, 2> BestArgs;
  std::pair<size_t, size_t> BestRank;
  for (FunctionTemplateDecl *T : Templates.ByLibraryKind.lookup(Kind)) {
    FunctionDecl *P = T->getPattern();
    if (!ForOp(P) || P->getParams().size() != Args.size())
      continue;
    size_t Fixed = !Op.empty() && P->getLibraryOp().empty() ? 1 : 0;
    auto Placeholders = T->getPlaceholders();
    if (Placeholders.size() < Fixed)
      continue;
    llvm::SmallVector<const Type *, 2> TArgs(Placeholders.size(), nullptr);
    if (Fixed)
      TArgs[0] = Ctx.getOperatorType(Op);
    Deduction D{Placeholders, TArgs, Fixed};
    // Parameters whose types name no template parameter convert the
    // arguments as a call does; the fewer conversions the better.
    auto Generic = [&](const Type *T) {
      while (auto *PT = dyn_cast<PointerType>(T))
        T = PT->getPointee()->getUnqualified();
      return llvm::is_contained(Placeholders, T);
    };
    bool Fits = true;
    size_t Converted = 0;
    for (size_t I = 0; I < Args.size() && Fits; ++I) {
      const Type *PT = P->getParams()[I]->getType()->getUnqualified();
      const Type *AT = Args[I]->getType()->getUnqualified();
      Fits = D.match(PT, AT);
      Converted += !Generic(PT) && PT != AT;
    }
    if (!Fits || llvm::is_contained(TArgs, nullptr) ||
        !llvm::all_of(TArgs, isValidTemplateArg))
      continue;
    std::pair<size_t, size_t> Rank{Converted, Placeholders.size() - Fixed};
    if (!Best || Rank < BestRank) {
      Best = T;
      BestArgs.assign(TArgs.begin(), TArgs.end());
      BestRank = Rank;
    }
  }
  return Best ? instantiate(Best, BestArgs, B->getRange(), "") : nullptr;
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
