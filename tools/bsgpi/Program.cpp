//===- Program.cpp - globals, main and its arguments ----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/AST/AST.h"

#include <cstdio>

using namespace bsgp;
using namespace bsgp::interp;

int Interpreter::run(llvm::ArrayRef<std::string> Args) {
  const FunctionDecl *Main = nullptr;
  for (TranslationUnit &TU : Ctx.getTranslationUnits())
    for (Decl *D : TU.Decls)
      if (auto *Fn = llvm::dyn_cast<FunctionDecl>(D)) {
        const FunctionDecl *&Slot = Functions[Fn->getName().str()];
        if (!Slot || Fn->isDefinition())
          Slot = Fn;
      }
  findGetVars();
  auto It = Functions.find("main");
  if (It != Functions.end() && It->second->isDefinition())
    Main = It->second;
  if (!Main)
    fatal({}, "the program has no main function");

  // Globals, initialized in declaration order.
  Lanes One{0};
  for (TranslationUnit &TU : Ctx.getTranslationUnits())
    for (Decl *D : TU.Decls)
      if (auto *V = llvm::dyn_cast<VarDecl>(D)) {
        bool PerLane;
        uint8_t *P = varBase(Globals, V, PerLane);
        if (Expr *Init = V->getInit()) {
          Column C = eval(Globals, Init, One);
          std::memcpy(P, C.at(0), sizeOf(V->getType()));
        }
      }

  // argc and argv, argv[0] being the program's path.
  std::vector<Column> MainArgs;
  auto Params = Main->getParams();
  if (!Params.empty()) {
    Column Argc(4, 1);
    Argc.set<int32_t>(0, Args.size());
    MainArgs.push_back(Argc);
  }
  if (Params.size() > 1) {
    auto *Argv = reinterpret_cast<uint64_t *>(
        Mem.allocate(8 * (Args.size() + 1), AllocKind::String));
    for (size_t I = 0; I < Args.size(); ++I) {
      uint8_t *S = Mem.allocate(Args[I].size() + 1, AllocKind::String);
      std::memcpy(S, Args[I].c_str(), Args[I].size() + 1);
      Argv[I] = reinterpret_cast<uint64_t>(S);
    }
    Column C(8, 1);
    C.set<uint64_t>(0, reinterpret_cast<uint64_t>(Argv));
    MainArgs.push_back(C);
  }
  Column Ret = callFunction(Globals, Main, MainArgs, One, Main->getRange());
  std::fflush(stdout);
  if (Ret.Size == 0)
    return 0;
  return (int)(scalarToInt(scalarKind(Main->getReturnType()), Ret.at(0)) &
               0xff);
}
