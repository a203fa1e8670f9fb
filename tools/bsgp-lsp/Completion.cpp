//===- Completion.cpp - completion and signature help ---------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Completion reads the text before the cursor, since what is being typed
// is rarely a program the parser accepts: after `thread.`, `group.`,
// `subgroup.` and `target.` it offers their members; after `x.` or `x->`,
// the fields of x's struct (x as last declared before the cursor, in the
// document's last index); elsewhere the keywords, the collectives, the
// names in scope (the enclosing function's parameters and locals declared
// before the cursor) and the functions, structs and globals of the program
// and its imports. Signature help finds the call around the cursor the
// same way and shows the function's parameters.
//
//===----------------------------------------------------------------------===//

#include "Document.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace bsgp;
using namespace bsgp::lspserver;
namespace lsp = llvm::lsp;

namespace {

/// A member of `thread.`, `group.`, `subgroup.` or `target.` (as
/// lib/Parse/ParseExpr.cpp accepts them), or a collective.
struct Builtin {
  const char *Name;
  const char *Detail;
};

/// As docs/language.md, "thread attributes and primitives", lists them.
const Builtin ThreadMembers[] = {
    {"rank", "int: the rank of the thread"},
    {"size", "int: the number of threads (uniform)"},
    {"oldrank", "int: the rank before the most recent rank reassignment"},
    {"x", "int: the thread's x in the spawn's domain"},
    {"y", "int: the thread's y in the spawn's domain"},
    {"z", "int: the thread's z in the spawn's domain"},
    {"nx", "int: the spawn domain's x extent (uniform)"},
    {"ny", "int: the spawn domain's y extent (uniform)"},
    {"nz", "int: the spawn domain's z extent (uniform)"},
    {"get", "thread.get(r, e): e as thread r had it at the end of the "
            "previous superstep"},
    {"put", "thread.put(r, p, v): store v into p of thread r"},
    {"fork", "thread.fork(n): fork n children, returns the child id"},
    {"kill", "thread.kill(flag): kill the thread if flag"},
    {"sortby", "thread.sortby(key): reassign ranks by key (stable)"},
    {"split", "thread.split(side): false side first, stable"},
    {"rebind", "thread.rebind(x, e): x holds the value of e in this thread"},
};

const Builtin GroupMembers[] = {
    {"rank", "int: the thread's rank in its work group"},
    {"size", "int: the work group's size"},
    {"id", "int: the work group's index"},
    {"count", "int: the number of work groups"},
    {"threads", "int: the threads of this work group that exist"},
    {"barrier", "group.barrier(): synchronizes the work group"},
};

const Builtin SubgroupMembers[] = {
    {"rank", "int: the thread's lane"},
    {"size", "int: the subgroup's width"},
    {"shuffle", "subgroup.shuffle(x, lane)"},
    {"shuffle_xor", "subgroup.shuffle_xor(x, mask)"},
    {"shuffle_up", "subgroup.shuffle_up(x, delta)"},
    {"shuffle_down", "subgroup.shuffle_down(x, delta)"},
    {"any", "subgroup.any(c)"},
    {"all", "subgroup.all(c)"},
    {"ballot", "subgroup.ballot(c): the lanes where c holds, as bits"},
    {"add", "subgroup.add(x)"},
    {"min", "subgroup.min(x)"},
    {"max", "subgroup.max(x)"},
    {"and", "subgroup.and(x)"},
    {"or", "subgroup.or(x)"},
    {"xor", "subgroup.xor(x)"},
    {"match", "subgroup.match(x): the lanes whose x equals this lane's"},
};

const Builtin TargetMembers[] = {
    {"cpu", "bool: the kernel is compiled for the cpu backend"},
    {"cuda", "bool: the kernel is compiled for CUDA"},
    {"spirv", "bool: the kernel is compiled for Vulkan (SPIR-V)"},
};

/// The collectives, with their parameters for signature help.
struct Collective {
  const char *Name;
  const char *Label;
  std::vector<const char *> Params;
};

const Collective Collectives[] = {
    {"reduce", "reduce(op, x)", {"op", "x"}},
    {"scan", "scan(op, x)", {"op", "x"}},
    {"segreduce", "segreduce(op, x, head)", {"op", "x", "head"}},
    {"segscan", "segscan(op, x, head)", {"op", "x", "head"}},
    {"sort_idx", "sort_idx(key)", {"key"}},
    {"compact",
     "compact(list, src, keep, flag)",
     {"list", "src", "keep", "flag"}},
    {"split", "split(list, src, side, flag)", {"list", "src", "side", "flag"}},
};

bool isIdent(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The identifier that ends at \p End in \p Text (exclusive), or "".
llvm::StringRef identBefore(llvm::StringRef Text, size_t End) {
  size_t B = End;
  while (B > 0 && isIdent(Text[B - 1]))
    --B;
  return Text.slice(B, End);
}

} // namespace

size_t BSGPDocument::offsetOf(const lsp::Position &Pos) const {
  llvm::StringRef Text = SM.getBuffer(MainFile);
  size_t Offset = 0;
  for (int L = 0; L < Pos.line && Offset < Text.size(); ++L) {
    size_t NL = Text.find('\n', Offset);
    if (NL == llvm::StringRef::npos)
      return Text.size();
    Offset = NL + 1;
  }
  return std::min(Text.size(), Offset + size_t(std::max(Pos.character, 0)));
}

const VarDecl *BSGPDocument::lastVarNamed(llvm::StringRef Name,
                                          const lsp::Position &Pos) const {
  const VarDecl *Best = nullptr;
  for (const Occurrence &O : Occurrences) {
    auto *V = llvm::dyn_cast_or_null<VarDecl>(O.Target);
    if (!V || V->getName() != Name || V->getLoc().File != MainFile)
      continue;
    lsp::Position At(V->getLoc().Line - 1, V->getLoc().Col - 1);
    if (Pos < At)
      continue;
    if (!Best || (Best->getLoc().Line < V->getLoc().Line ||
                  (Best->getLoc().Line == V->getLoc().Line &&
                   Best->getLoc().Col < V->getLoc().Col)))
      Best = V;
  }
  return Best;
}

void BSGPDocument::completion(const lsp::Position &Pos,
                              lsp::CompletionList &List) {
  llvm::StringRef Text = SM.getBuffer(MainFile);
  size_t At = offsetOf(Pos);
  llvm::StringRef Word = identBefore(Text, At);
  size_t WordBegin = At - Word.size();
  auto Add = [&](llvm::StringRef Label, lsp::CompletionItemKind Kind,
                 llvm::StringRef Detail) {
    lsp::CompletionItem Item(Label, Kind);
    Item.detail = Detail.str();
    List.items.push_back(std::move(Item));
  };

  // Members: `thread.`, `x.`, `p->`.
  size_t Dot = WordBegin;
  bool Member = false;
  if (Dot > 0 && Text[Dot - 1] == '.') {
    Member = true;
    --Dot;
  } else if (Dot > 1 && Text[Dot - 1] == '>' && Text[Dot - 2] == '-') {
    Member = true;
    Dot -= 2;
  }
  if (Member) {
    llvm::StringRef Base = identBefore(Text, Dot);
    llvm::ArrayRef<Builtin> Members;
    if (Base == "thread")
      Members = ThreadMembers;
    else if (Base == "group")
      Members = GroupMembers;
    else if (Base == "subgroup")
      Members = SubgroupMembers;
    else if (Base == "target")
      Members = TargetMembers;
    for (const Builtin &B : Members)
      Add(B.Name,
          llvm::StringRef(B.Detail).contains('(')
              ? lsp::CompletionItemKind::Method
              : lsp::CompletionItemKind::Property,
          B.Detail);
    if (!Members.empty() || Base.empty())
      return;
    // The fields of a struct variable (or of what a pointer points to).
    const VarDecl *V = lastVarNamed(Base, Pos);
    const Type *T = V ? V->getType() : nullptr;
    if (T)
      T = T->getUnqualified();
    if (auto *P = llvm::dyn_cast_or_null<PointerType>(T))
      T = P->getPointee()->getUnqualified();
    if (auto *S = llvm::dyn_cast_or_null<StructType>(T))
      if (S->getDecl())
        for (const FieldDecl *F : S->getDecl()->getFields())
          if (F)
            Add(F->getName(), lsp::CompletionItemKind::Field,
                F->getType() ? F->getType()->str() : "");
    return;
  }

  // Keywords, then the collectives, then names.
#define KEYWORD(Id, Spelling)                                                  \
  Add(Spelling, lsp::CompletionItemKind::Keyword, "");
#include "bsgp/Lex/TokenKinds.def"
  for (const Collective &C : Collectives)
    Add(C.Name, lsp::CompletionItemKind::Function, C.Label);

  llvm::StringSet<> Seen;
  auto AddDecl = [&](const Decl *D) {
    if (!D || D->getName().empty() || D->getName().starts_with("__") ||
        !Seen.insert(D->getName()).second)
      return;
    std::string Detail;
    lsp::CompletionItemKind Kind = lsp::CompletionItemKind::Variable;
    if (auto *V = llvm::dyn_cast<VarDecl>(D)) {
      Detail = V->getType() ? V->getType()->str() : "";
    } else if (auto *F = llvm::dyn_cast<FunctionDecl>(D)) {
      Kind = lsp::CompletionItemKind::Function;
      Detail = signatureOf(F);
    } else if (llvm::isa<FunctionTemplateDecl>(D)) {
      Kind = lsp::CompletionItemKind::Function;
      Detail = "generic function";
    } else if (llvm::isa<StructDecl>(D)) {
      Kind = lsp::CompletionItemKind::Struct;
      Detail = "struct";
    } else if (auto *T = llvm::dyn_cast<TypedefDecl>(D)) {
      Kind = lsp::CompletionItemKind::TypeParameter;
      Detail = T->getUnderlyingType() ? T->getUnderlyingType()->str() : "";
    } else {
      return;
    }
    Add(D->getName(), Kind, Detail);
  };
  // The parameters and locals of the function around the cursor, declared
  // before it (innermost first: the latest declaration of a name wins).
  unsigned Line = Pos.line + 1, Col = Pos.character + 1;
  for (const TranslationUnit &TU : Ctx.getTranslationUnits()) {
    if (TU.FileId != MainFile)
      continue;
    for (const Decl *D : TU.Decls) {
      auto *F = llvm::dyn_cast_or_null<FunctionDecl>(D);
      SourceRange R = F ? F->getRange() : SourceRange();
      if (!F || !R.isValid() || R.Begin.File != MainFile ||
          std::make_pair(Line, Col) <
              std::make_pair(R.Begin.Line, R.Begin.Col) ||
          std::make_pair(R.End.Line, R.End.Col) < std::make_pair(Line, Col))
        continue;
      std::vector<const VarDecl *> Locals;
      for (const Occurrence &O : Occurrences)
        if (auto *V = llvm::dyn_cast_or_null<VarDecl>(O.Target))
          if (V->getLoc().File == MainFile &&
              std::make_pair(V->getLoc().Line, V->getLoc().Col) <
                  std::make_pair(Line, Col) &&
              std::make_pair(R.Begin.Line, R.Begin.Col) <
                  std::make_pair(V->getLoc().Line, V->getLoc().Col))
            Locals.push_back(V);
      llvm::sort(Locals, [](const VarDecl *A, const VarDecl *B) {
        return std::make_pair(B->getLoc().Line, B->getLoc().Col) <
               std::make_pair(A->getLoc().Line, A->getLoc().Col);
      });
      for (const VarDecl *V : Locals)
        AddDecl(V);
      for (const VarDecl *P : F->getParams())
        AddDecl(P);
    }
  }
  // The program's declarations (its headers' among them), then its
  // imports'. The collective library's are its implementation: programs
  // use it through the collectives.
  for (bool Main : {true, false})
    for (const TranslationUnit &TU : Ctx.getTranslationUnits())
      if ((TU.FileId == MainFile) == Main && !Ctx.isLibraryFile(TU.FileId))
        for (const Decl *D : TU.Decls)
          AddDecl(D);
}

std::string BSGPDocument::signatureOf(const FunctionDecl *F,
                                      std::vector<std::string> *Params) {
  std::string S;
  const Type *Ret = F->getReturnType();
  S +=
      (Ret ? Ret->str() : std::string("void")) + " " + F->getName().str() + "(";
  for (auto [K, P] : llvm::enumerate(F->getParams())) {
    std::string Param = P && P->getType() ? P->getType()->str() : "?";
    if (P && !P->getName().empty())
      Param += " " + P->getName().str();
    if (Params)
      Params->push_back(Param);
    S += (K ? ", " : "") + Param;
  }
  return S + ")";
}

std::optional<lsp::SignatureHelp>
BSGPDocument::signatureHelp(const lsp::Position &Pos) {
  llvm::StringRef Text = SM.getBuffer(MainFile);
  size_t At = offsetOf(Pos);
  // The innermost call still open at the cursor: its `(` and the commas
  // before the cursor at its level.
  int Depth = 0, Commas = 0;
  size_t Open = llvm::StringRef::npos;
  for (size_t I = At; I > 0; --I) {
    char C = Text[I - 1];
    if (C == ')' || C == ']' || C == '}') {
      ++Depth;
    } else if (C == '(' || C == '[' || C == '{') {
      if (Depth == 0) {
        if (C == '(')
          Open = I - 1;
        break;
      }
      --Depth;
    } else if (C == ',' && Depth == 0) {
      ++Commas;
    } else if (C == ';' && Depth == 0) {
      break;
    }
  }
  if (Open == llvm::StringRef::npos)
    return std::nullopt;
  size_t End = Open;
  while (End > 0 && (Text[End - 1] == ' ' || Text[End - 1] == '\t'))
    --End;
  llvm::StringRef Name = identBefore(Text, End);
  if (Name.empty())
    return std::nullopt;
  lsp::SignatureHelp Help;
  lsp::SignatureInformation Sig;
  std::vector<std::string> Params;
  bool Found = false;
  for (const Collective &C : Collectives)
    if (Name == C.Name) {
      Sig.label = C.Label;
      Params.assign(C.Params.begin(), C.Params.end());
      Found = true;
    }
  if (!Found) {
    // The program's function of that name, else an import's or the
    // library's.
    const FunctionDecl *F = nullptr;
    for (bool Main : {true, false})
      for (const TranslationUnit &TU : Ctx.getTranslationUnits())
        if ((TU.FileId == MainFile) == Main)
          for (const Decl *D : TU.Decls) {
            if (F || !D || D->getName() != Name)
              continue;
            if (auto *FD = llvm::dyn_cast<FunctionDecl>(D))
              F = FD;
            else if (auto *T = llvm::dyn_cast<FunctionTemplateDecl>(D))
              F = T->getPattern();
          }
    if (!F)
      return std::nullopt;
    Sig.label = signatureOf(F, &Params);
  }
  // Each parameter as offsets into the label, found in order.
  size_t From = Sig.label.find('(');
  for (const std::string &P : Params) {
    lsp::ParameterInformation Info;
    size_t B = Sig.label.find(P, From);
    if (B == std::string::npos)
      B = From;
    Info.labelOffsets = std::make_pair(unsigned(B), unsigned(B + P.size()));
    Info.labelString = P;
    From = B + P.size();
    Sig.parameters.push_back(std::move(Info));
  }
  Help.signatures.push_back(std::move(Sig));
  Help.activeParameter =
      Params.empty() ? 0 : std::min<int>(Commas, int(Params.size()) - 1);
  return Help;
}
