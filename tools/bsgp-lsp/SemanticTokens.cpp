//===- SemanticTokens.cpp - what each name in the document is -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Semantic tokens colour names by what Sema resolved them to, which a
// grammar cannot know: variables, parameters, fields and functions, and,
// BSGP's own distinction, whether a variable is one per thread (the
// `threadLocal` modifier) or lives on the host.
//
//===----------------------------------------------------------------------===//

#include "Document.h"

using namespace bsgp;
using namespace bsgp::lspserver;
namespace lsp = llvm::lsp;

namespace {
// Indices into the legend below.
enum TokenType { TT_Variable, TT_Parameter, TT_Property, TT_Function };
enum TokenModifier { TM_Declaration = 1, TM_ThreadLocal = 2 };
} // namespace

llvm::json::Object BSGPDocument::semanticTokensLegend() {
  return llvm::json::Object{
      {"tokenTypes",
       llvm::json::Array{"variable", "parameter", "property", "function"}},
      {"tokenModifiers", llvm::json::Array{"declaration", "threadLocal"}}};
}

std::vector<uint32_t> BSGPDocument::semanticTokens() {
  struct Token {
    unsigned Line, Col, Length, Type, Modifiers;
  };
  std::vector<Token> Tokens;
  for (const Occurrence &O : Occurrences) {
    const Decl *D = O.Target;
    SourceRange R = O.Range;
    if (!D || !R.isValid() || R.Begin.File != MainFile ||
        R.End.Line != R.Begin.Line || D->getName().empty() ||
        R.End.Col + 1 - R.Begin.Col != D->getName().size())
      continue;
    unsigned Type, Modifiers = 0;
    if (auto *V = llvm::dyn_cast<VarDecl>(D)) {
      Type = V->getStorage() == VarDecl::Param ? TT_Parameter : TT_Variable;
      if (!V->isHost())
        Modifiers |= TM_ThreadLocal;
    } else if (llvm::isa<FieldDecl>(D)) {
      Type = TT_Property;
    } else if (llvm::isa<FunctionDecl, FunctionTemplateDecl>(D)) {
      Type = TT_Function;
    } else {
      continue;
    }
    if (D->getLoc().File == R.Begin.File && D->getLoc().Line == R.Begin.Line &&
        D->getLoc().Col == R.Begin.Col)
      Modifiers |= TM_Declaration;
    Tokens.push_back({R.Begin.Line - 1, R.Begin.Col - 1,
                      unsigned(D->getName().size()), Type, Modifiers});
  }
  llvm::sort(Tokens, [](const Token &A, const Token &B) {
    return std::make_pair(A.Line, A.Col) < std::make_pair(B.Line, B.Col);
  });
  // Each token relative to the one before (the protocol's encoding); one
  // token per place.
  std::vector<uint32_t> Data;
  unsigned Line = 0, Col = 0;
  bool First = true;
  for (const Token &T : Tokens) {
    if (!First && T.Line == Line && T.Col == Col)
      continue;
    Data.push_back(T.Line - Line);
    Data.push_back(T.Line == Line ? T.Col - Col : T.Col);
    Data.push_back(T.Length);
    Data.push_back(T.Type);
    Data.push_back(T.Modifiers);
    Line = T.Line;
    Col = T.Col;
    First = false;
  }
  return Data;
}
