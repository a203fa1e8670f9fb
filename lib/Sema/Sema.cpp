//===- Sema.cpp - BSGP semantic analysis ----------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The entry point, analyzeProgram, and phase 1 of SemaImpl.h: every
/// function of the program is collected and classified (host, device,
/// collective). Phase 2 (checking each body) starts in run() and goes on in
/// SemaDecl.cpp, SemaStmt.cpp, SemaSync.cpp, SemaExpr.cpp and SemaBuiltin.cpp.
///
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"
#include "bsgp/AST/MathFunctions.h"

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Phase 1: functions and their kinds
//===----------------------------------------------------------------------===//

const Type *Sema::functionType(FunctionDecl *F) {
  if (F->getFunctionType())
    return F->getFunctionType();
  llvm::SmallVector<const Type *, 4> Params;
  for (VarDecl *P : F->getParams())
    Params.push_back(P->getType());
  const Type *Ret =
      F->getWrittenReturnType() ? F->getWrittenReturnType() : Ctx.getVoidType();
  auto *FT = Ctx.getFunctionType(Ret, Params, F->isVarargs());
  F->setFunctionType(FT);
  return FT;
}

/// The names a function declares (parameters and locals, wherever their
/// scope): a use of one of them is not of a global of that name.
static void collectLocalNames(Stmt *S, llvm::StringSet<> &Names) {
  if (auto *D = dyn_cast<DeclStmt>(S))
    for (Decl *X : D->decls())
      Names.insert(X->getName());
  forEachChild(S, [&](Stmt *X) { collectLocalNames(X, Names); });
}

void Sema::collectInfo(Stmt *S, FunctionInfo &Info,
                       const llvm::StringSet<> &Locals) {
  if (auto *R = dyn_cast<DeclRefExpr>(S))
    if (Info.Global.empty() && MutableGlobals.contains(R->getName()) &&
        !Locals.contains(R->getName()))
      Info.Global = R->getName();
  if (isa<SpawnStmt>(S))
    Info.HasSpawn = true;
  if (isa<NewExpr>(S))
    Info.HasNew = true;
  // A require or par must run once at a superstep's level, which only the
  // caller's spawn body can give an inline function: inlined like the
  // collectives.
  if (isa<BarrierStmt, RequireStmt, ParStmt>(S))
    Info.HasCollective = true;
  if (auto *B = dyn_cast<BuiltinCallExpr>(S)) {
    if (BuiltinCallExpr::isCollective(B->getBuiltinKind()))
      Info.HasCollective = true;
    // The runtime's list primitives allocate nothing, but run on the host
    // as dnew does.
    if (BuiltinCallExpr::isHostOnly(B->getBuiltinKind()))
      Info.HasNew = true;
  }
  if (auto *C = dyn_cast<CallExpr>(S))
    if (auto *R = dyn_cast<DeclRefExpr>(C->getCallee()))
      Info.Calls.push_back({R->getName(), C});
  forEachChild(S, [&](Stmt *X) { collectInfo(X, Info, Locals); });
}

void Sema::collectFunctionInfo(FunctionDecl *F) {
  llvm::StringSet<> Locals;
  for (VarDecl *P : F->getParams())
    Locals.insert(P->getName());
  collectLocalNames(F->getBody(), Locals);
  collectInfo(F->getBody(), Infos[F], Locals);
}

void Sema::collect() {
  Scopes.emplace_back(); // Globals.
  // Global variables that are not const live in host memory: a function
  // that names one runs on the host only (classify).
  for (TranslationUnit &TU : Ctx.getTranslationUnits())
    for (Decl *D : TU.Decls)
      if (auto *V = dyn_cast<VarDecl>(D)) {
        const Type *T = V->getType();
        while (auto *A = dyn_cast_or_null<ArrayType>(T ? T->getUnqualified()
                                                       : nullptr))
          T = A->getElementType();
        if (T && !T->isConst())
          MutableGlobals.insert(V->getName());
      }
  llvm::SmallVector<FunctionDecl *, 8> Specializations;
  for (TranslationUnit &TU : Ctx.getTranslationUnits()) {
    for (Decl *D : TU.Decls) {
      if (auto *T = dyn_cast<FunctionTemplateDecl>(D))
        registerTemplate(T);
      auto *F = dyn_cast<FunctionDecl>(D);
      // Bound to their templates once every template is known.
      if (F && F->isExplicitSpecialization()) {
        Specializations.push_back(F);
        continue;
      }
      if (F) {
        // `extern "C"` on a definition changes nothing: every BSGP function
        // has C linkage already (docs/language.md). Only a declaration
        // without a body names a function of C code.
        if (F->isDefinition() && F->isExternC() && !F->isVarargs())
          F->setExternC(false);
        const Type *FT = functionType(F);
        if (!Ctx.isLibraryFile(F->getLoc().File))
          ProgramFunctions.insert(F->getName());
        FunctionDecl *&Slot = Functions[F->getName()];
        if (Slot) {
          if (Slot->getFunctionType() != FT) {
            Diags.report(SourceRange(F->getLoc()), diag::err_conflicting_types)
                << F->getName();
            Diags.report(SourceRange(Slot->getLoc()), diag::note_previous_decl);
            continue;
          }
          if (Slot->isDefinition() && F->isDefinition()) {
            Diags.report(SourceRange(F->getLoc()), diag::err_redefinition)
                << F->getName();
            Diags.report(SourceRange(Slot->getLoc()), diag::note_previous_decl);
            continue;
          }
          if (F->isDefinition()) {
            F->setInline(F->isInline() || Slot->isInline());
            Slot = F;
          }
        } else {
          Slot = F;
        }
        if (F->isDefinition())
          collectFunctionInfo(F);
        if (F->isDefinition() && !F->getLibraryKind().empty() &&
            Ctx.isLibraryFile(F->getLoc().File))
          Templates.FunctionByLibraryKind[F->getLibraryKind()].push_back(F);
      } else if (auto *S = dyn_cast<StructDecl>(D)) {
        llvm::StringMap<FieldDecl *> Seen;
        for (FieldDecl *Fd : S->getFields()) {
          auto Ins = Seen.insert({Fd->getName(), Fd});
          if (!Ins.second) {
            Diags.report(SourceRange(Fd->getLoc()), diag::err_duplicate_field)
                << Fd->getName();
            Diags.report(SourceRange(Ins.first->second->getLoc()),
                         diag::note_previous_decl);
          }
        }
      }
    }
  }
  for (FunctionDecl *F : Specializations)
    registerSpecialization(F);
  classify();
}

/// Struct values are passed as their fields (MLIRGenStructValues.cpp),
/// which only BSGP's own calls do. (A host or device function that takes
/// one by value is BSGP's alone: MLIRGen gives it no external symbol.)
void Sema::checkStructByValue(FunctionDecl *F) {
  // A call of a C function passes structs as C's ABI says (MLIRGenCABI.cpp);
  // a definition would have to receive them so, which it does not yet.
  if (!F->isExternC() || !F->getBody())
    return;
  llvm::SmallVector<const Type *, 8> Types;
  if (F->getReturnType())
    Types.push_back(F->getReturnType());
  for (VarDecl *P : F->getParams())
    Types.push_back(P->getType());
  for (const Type *T : Types)
    // A template's parameter types are structs without a definition.
    if (auto *ST =
            dyn_cast_or_null<StructType>(T ? T->getUnqualified() : nullptr);
        ST && ST->getDecl()) {
      Diags.report(SourceRange(F->getLoc()), diag::err_struct_by_value_host)
          << "extern \"C\"" << F->getName() << ST->getName();
      return;
    }
}

void Sema::classify() {
  // A function is collective when it is inline and contains a barrier or a
  // collective, directly or through the inline functions it calls.
  llvm::DenseSet<FunctionDecl *> Collective;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &KV : Infos) {
      FunctionDecl *F = KV.first;
      if (!F->isInline() || Collective.count(F))
        continue;
      bool C = KV.second.HasCollective;
      for (auto &Call : KV.second.Calls) {
        auto It = Functions.find(Call.first);
        if (It != Functions.end() && Collective.count(It->second))
          C = true;
      }
      if (C) {
        Collective.insert(F);
        Changed = true;
      }
    }
  }
  // Functions that can only run on the host: those that spawn or allocate
  // (outside a spawn), and, when not inline, those that call one of them,
  // through any number of calls. As device functions, the callers were
  // compiled once per target and the host called the CPU's copy, whose
  // target queries say cpu: the library's scan of a short list took its
  // CPU form on CUDA in objects compiled for cpu and cuda. (Calls of
  // extern "C" functions do not count: device code calls printf.)
  llvm::DenseSet<FunctionDecl *> Spawning;
  for (auto &KV : Functions) {
    FunctionDecl *F = KV.second;
    auto It = Infos.find(F);
    if (!Collective.count(F) && It != Infos.end() &&
        (It->second.HasSpawn ||
         // dnew allocates from the host: a function that calls it outside
         // a spawn can only run there, as a host function. So does one
         // that names a global variable that is not const, which lives in
         // host memory.
         ((It->second.HasNew || !It->second.Global.empty()) && !F->isInline())))
      Spawning.insert(F);
  }
  Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &KV : Infos) {
      FunctionDecl *F = KV.first;
      if (F->isInline() || F->isExternC() || Collective.count(F) ||
          Spawning.count(F) || Functions.lookup(F->getName()) != F)
        continue;
      for (auto &Call : KV.second.Calls) {
        auto It = Functions.find(Call.first);
        if (It != Functions.end() && Spawning.count(It->second)) {
          Spawning.insert(F);
          HostThroughCall[F] = It->second->getName();
          Changed = true;
          break;
        }
      }
    }
  }
  llvm::DenseSet<FunctionDecl *> Host = Spawning;
  for (auto &KV : Functions) {
    FunctionDecl *F = KV.second;
    if (!Collective.count(F) &&
        ((F->isExternC() &&
          getMathFunction(F->getName()) == MathFunction::None) ||
         F->getName() == "main"))
      Host.insert(F);
  }
  for (auto &KV : Functions) {
    FunctionDecl *F = KV.second;
    if (Collective.count(F))
      F->setFunctionKind(FunctionDecl::FK_Collective);
    else if (Host.count(F))
      F->setFunctionKind(FunctionDecl::FK_Host);
    else
      F->setFunctionKind(FunctionDecl::FK_Device);
    checkStructByValue(F);
  }
  // Recursion among collective functions: F reaches itself through calls.
  // Visit functions in source order so the report order is stable.
  for (TranslationUnit &TU : Ctx.getTranslationUnits()) {
    for (Decl *D : TU.Decls) {
      auto *F = dyn_cast<FunctionDecl>(D);
      if (!F || !Collective.count(F) || Functions.lookup(F->getName()) != F)
        continue;
      llvm::SmallVector<FunctionDecl *, 8> Work{F};
      llvm::DenseSet<FunctionDecl *> Seen;
      bool Cycle = false;
      while (!Work.empty() && !Cycle) {
        FunctionDecl *G = Work.pop_back_val();
        for (auto &Call : Infos[G].Calls) {
          FunctionDecl *H = Functions.lookup(Call.first);
          if (!H || !Collective.count(H))
            continue;
          if (H == F) {
            Cycle = true;
            Diags.report(SourceRange(F->getLoc()),
                         diag::err_collective_recursion)
                << F->getName();
            Diags.report(Call.second->getRange(), diag::note_recursion_call)
                << G->getName() << F->getName();
            break;
          }
          if (Seen.insert(H).second)
            Work.push_back(H);
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Phase 2: the driver and scopes
//===----------------------------------------------------------------------===//

void Sema::run() {
  collect();
  computeUniformParams();
  for (TranslationUnit &TU : Ctx.getTranslationUnits()) {
    for (Decl *D : TU.Decls) {
      if (Diags.hasFatalError())
        return;
      if (auto *F = dyn_cast<FunctionDecl>(D)) {
        if (F->isDefinition() && Functions.lookup(F->getName()) == F &&
            !deferLibraryFunction(F))
          checkFunction(F);
      } else if (auto *V = dyn_cast<VarDecl>(D)) {
        checkGlobal(V);
      }
    }
  }
  checkInstantiations();
  checkLibraryOnDemand();
}

VarDecl *Sema::lookup(llvm::StringRef Name) {
  for (size_t I = Scopes.size(); I-- > 0;) {
    auto It = Scopes[I].Vars.find(Name);
    if (It != Scopes[I].Vars.end())
      return It->second;
  }
  return nullptr;
}

void Sema::declare(VarDecl *V) {
  if (V->getName().empty())
    return;
  auto Ins = Scopes.back().Vars.insert({V->getName(), V});
  if (!Ins.second) {
    Diags.report(SourceRange(V->getLoc()), diag::err_redefinition)
        << V->getName();
    Diags.report(SourceRange(Ins.first->second->getLoc()),
                 diag::note_previous_decl);
  }
}

void Sema::popScope() {
  for (auto &Entry : Scopes.back().Vars)
    if (Entry.second->isImplicit())
      EndedLocals.try_emplace(Entry.first(), Entry.second);
  Scopes.pop_back();
}

bool bsgp::analyzeProgram(ASTContext &Ctx, DiagnosticEngine &Diags) {
  unsigned Before = Diags.getNumErrors();
  Sema S(Ctx, Diags);
  S.run();
  return Diags.getNumErrors() == Before;
}
