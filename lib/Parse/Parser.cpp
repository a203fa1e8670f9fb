//===- Parser.cpp - BSGP recursive-descent parser -------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every parse function either returns a complete node or returns null after
/// reporting an error, so that Sema never sees a half-built tree. Recursion is
/// bounded by ParseSession::MaxNestingDepth; once that bound (or the error
/// limit) is hit the parser stops reading the file, which guarantees
/// termination with bounded stack on any input.
///
//===----------------------------------------------------------------------===//

#include "bsgp/Parse/Parser.h"
#include "bsgp/Lex/Lexer.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace bsgp;

namespace {

class Parser {
public:
  Parser(ParseSession &S, ASTContext &Ctx, DiagnosticEngine &Diags,
         uint32_t FileId, llvm::StringSet<> &Functions, size_t Offset = 0)
      : Session(S), Ctx(Ctx), Diags(Diags), FileId(FileId),
        Lex(FileId, Diags.getSourceManager().getBuffer(FileId), Diags),
        Functions(Functions) {
    Lex.seek(Offset);
    Tok = Lex.lex();
    Next = Lex.lex();
  }

  TranslationUnit parseTranslationUnit();
  /// Generic functions (ParseTemplate.inc).
  FunctionDecl *parseFunctionOnly();

private:
  void parseTemplate(llvm::SmallVectorImpl<Decl *> &Out);
  Expr *parseTemplateRef();

  // Token handling.
  void consume() {
    PrevEnd = Tok.EndLoc;
    if (Aborted) {
      Tok.Kind = tok::eof;
      return;
    }
    Tok = Next;
    Next = Tok.is(tok::eof) ? Tok : Lex.lex();
    if (Diags.hasFatalError())
      abort();
  }
  void abort() {
    Aborted = true;
    Tok.Kind = tok::eof;
    Next.Kind = tok::eof;
  }
  bool tryConsume(tok::Kind K) {
    if (Tok.isNot(K))
      return false;
    consume();
    return true;
  }
  /// Reports `expected X` unless the current token is \p K.
  bool expect(tok::Kind K, const char *What = nullptr) {
    if (tryConsume(K))
      return true;
    std::string W = What ? What : std::string("'") + tok::getSpelling(K) + "'";
    Diags.report(Tok.getRange(), diag::err_expected) << W;
    return false;
  }
  void skipToStmtEnd() {
    unsigned Depth = 0;
    while (Tok.isNot(tok::eof)) {
      if (Tok.is(tok::l_brace))
        ++Depth;
      else if (Tok.is(tok::r_brace)) {
        if (Depth == 0)
          return;
        if (--Depth == 0) {
          consume();
          return;
        }
      } else if (Tok.is(tok::semi) && Depth == 0) {
        consume();
        return;
      }
      consume();
    }
  }

  /// Bounds recursion; the first overflow is reported and stops the parse.
  struct DepthGuard {
    Parser &P;
    bool Ok;
    explicit DepthGuard(Parser &P) : P(P) {
      Ok = ++P.Depth <= ParseSession::MaxNestingDepth;
      if (!Ok && !P.Aborted) {
        P.Diags.report(P.Tok.getRange(), diag::err_nesting_too_deep)
            << ParseSession::MaxNestingDepth;
        P.abort();
      }
    }
    ~DepthGuard() { --P.Depth; }
  };

  bool checkTreeDepth(Decl *D);

  // Types.
  bool isTypeStart(const Token &T) const;
  /// A declaration statement starts here; `float4(...)` and `int(x)` start
  /// expressions.
  bool startsDecl() const {
    return isTypeStart(Tok) &&
           !(isBuiltinTypeKw(Tok.Kind) && Next.is(tok::l_paren));
  }
  bool isBuiltinTypeKw(tok::Kind K) const {
    return K >= tok::kw_void && K <= tok::kw_float4;
  }
  const Type *parseBaseType();
  const Type *parsePointers(const Type *T);
  const Type *parseTypeName() {
    const Type *T = parseBaseType();
    return T ? parsePointers(T) : nullptr;
  }
  const Type *parseArraySuffix(const Type *T);
  bool parseSpawnAttributes(unsigned &BlockSize, unsigned &MinBlocks);
  StructType *parseStructBody(StructType *ST, SourceLocation Begin,
                              SourceLocation NameLoc);

  // Declarations.
  void parseTopLevel(llvm::SmallVectorImpl<Decl *> &Out);
  Decl *parseFunctionRest(SourceLocation Begin, const Type *Ret,
                          const Token &Name, bool Inline, bool ExternC);
  bool parseVarDeclarators(const Type *Base, SourceLocation Begin,
                           VarDecl::StorageKind S,
                           llvm::SmallVectorImpl<VarDecl *> &Out, bool IsAuto);

  // Statements.
  Stmt *parseStatement();
  CompoundStmt *parseCompound();
  Stmt *parseDeclStmt();

  // Expressions.
  Expr *parseExpression();
  Expr *parseAssignment();
  Expr *parseConditional();
  Expr *parseBinary(unsigned MinPrec);
  Expr *parseUnary();
  Expr *parsePostfix(Expr *E);
  Expr *parsePrimary();
  Expr *parseThread();
  Expr *parseGroup();
  Expr *parseTargetQuery();
  Expr *parseCollective(BuiltinCallExpr::BuiltinKind K, SourceLocation Begin);
  bool parseArgs(llvm::SmallVectorImpl<Expr *> &Args);
  Expr *parseIntLiteral();
  Expr *parseFloatLiteral();
  bool decodeQuoted(const Token &T, std::string &Out);

  SourceRange rangeFrom(SourceLocation B) const {
    return SourceRange(B, PrevEnd);
  }

  ParseSession &Session;
  ASTContext &Ctx;
  DiagnosticEngine &Diags;
  uint32_t FileId;
  Lexer Lex;
  Token Tok, Next;
  SourceLocation PrevEnd;
  unsigned Depth = 0;
  bool Aborted = false;
  /// Names of user functions declared so far (program-wide); a user function
  /// named like a collective (sort_idx in Listing 7) hides the builtin.
  llvm::StringSet<> &Functions;
  /// The StructDecl built by the last parseStructBody().
  StructDecl *LastStruct = nullptr;
  unsigned AnonCounter = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool Parser::isTypeStart(const Token &T) const {
  if (isBuiltinTypeKw(T.Kind) || T.is(tok::kw_const) || T.is(tok::kw_struct))
    return true;
  return T.is(tok::identifier) && Session.getTypedefs().count(T.Text);
}

const Type *Parser::parseBaseType() {
  bool Const = false;
  while (tryConsume(tok::kw_const))
    Const = true;
  const Type *T = nullptr;
  using BK = BuiltinType::BuiltinKind;
  auto Vec = [&](BK K, unsigned N) {
    return Ctx.getVectorType(Ctx.getBuiltinType(K), N);
  };
  switch (Tok.Kind) {
  case tok::kw_void: T = Ctx.getVoidType(); break;
  case tok::kw_bool: T = Ctx.getBoolType(); break;
  case tok::kw_char: T = Ctx.getCharType(); break;
  case tok::kw_int: T = Ctx.getIntType(); break;
  case tok::kw_uint: T = Ctx.getUIntType(); break;
  case tok::kw_int64: T = Ctx.getBuiltinType(BuiltinType::Int64); break;
  case tok::kw_uint64: T = Ctx.getBuiltinType(BuiltinType::UInt64); break;
  case tok::kw_float: T = Ctx.getFloatType(); break;
  case tok::kw_double: T = Ctx.getDoubleType(); break;
  case tok::kw_int2: T = Vec(BuiltinType::Int, 2); break;
  case tok::kw_int3: T = Vec(BuiltinType::Int, 3); break;
  case tok::kw_int4: T = Vec(BuiltinType::Int, 4); break;
  case tok::kw_uint2: T = Vec(BuiltinType::UInt, 2); break;
  case tok::kw_uint3: T = Vec(BuiltinType::UInt, 3); break;
  case tok::kw_uint4: T = Vec(BuiltinType::UInt, 4); break;
  case tok::kw_float2: T = Vec(BuiltinType::Float, 2); break;
  case tok::kw_float3: T = Vec(BuiltinType::Float, 3); break;
  case tok::kw_float4: T = Vec(BuiltinType::Float, 4); break;
  case tok::kw_struct: {
    consume();
    if (Tok.isNot(tok::identifier)) {
      Diags.report(Tok.getRange(), diag::err_expected) << "a struct name";
      return nullptr;
    }
    T = Ctx.getStructType(Ctx.copyString(Tok.Text));
    break;
  }
  case tok::identifier: {
    auto It = Session.getTypedefs().find(Tok.Text);
    if (It != Session.getTypedefs().end()) {
      T = It->second;
      break;
    }
    [[fallthrough]];
  }
  default:
    Diags.report(Tok.getRange(), diag::err_expected_type);
    return nullptr;
  }
  consume();
  while (tryConsume(tok::kw_const))
    Const = true;
  return Const ? Ctx.getConstType(T) : T;
}

const Type *Parser::parsePointers(const Type *T) {
  while (Tok.is(tok::star)) {
    consume();
    T = Ctx.getPointerType(T);
    if (tryConsume(tok::kw_const))
      T = Ctx.getConstType(T);
  }
  return T;
}

/// `[[block_size(N), min_blocks(M)]]` after `spawn (n)`, either or both:
/// the CUDA thread-block size of the spawn's kernels (a multiple of 32 from
/// 32 to 1024) and the blocks per multiprocessor their registers should
/// allow (1 to 32).
bool Parser::parseSpawnAttributes(unsigned &BlockSize, unsigned &MinBlocks) {
  if (!expect(tok::l_square) || !expect(tok::l_square))
    return false;
  do {
    bool IsBlockSize = Tok.is(tok::identifier) && Tok.Text == "block_size";
    bool IsMinBlocks = Tok.is(tok::identifier) && Tok.Text == "min_blocks";
    if (!IsBlockSize && !IsMinBlocks) {
      Diags.report(Tok.getRange(), diag::err_spawn_attribute_unknown)
          << Tok.Text;
      return false;
    }
    unsigned &Slot = IsBlockSize ? BlockSize : MinBlocks;
    if (Slot) {
      Diags.report(Tok.getRange(), diag::err_spawn_attribute_twice)
          << Tok.Text;
      return false;
    }
    consume();
    if (!expect(tok::l_paren))
      return false;
    uint64_t N = 0;
    bool Bad = Tok.isNot(tok::int_literal) ||
               Tok.Text.take_while([](char C) { return llvm::isDigit(C); })
                   .getAsInteger(10, N);
    if (IsBlockSize && (Bad || N < 32 || N > 1024 || N % 32 != 0)) {
      Diags.report(Tok.getRange(), diag::err_spawn_block_size) << Tok.Text;
      return false;
    }
    if (IsMinBlocks && (Bad || N < 1 || N > 32)) {
      Diags.report(Tok.getRange(), diag::err_spawn_min_blocks) << Tok.Text;
      return false;
    }
    consume();
    if (!expect(tok::r_paren))
      return false;
    Slot = unsigned(N);
  } while (tryConsume(tok::comma));
  return expect(tok::r_square) && expect(tok::r_square);
}

const Type *Parser::parseArraySuffix(const Type *T) {
  llvm::SmallVector<uint64_t, 2> Dims;
  while (Tok.is(tok::l_square)) {
    consume();
    uint64_t N = 0;
    if (Tok.isNot(tok::int_literal) ||
        Tok.Text.take_while([](char C) { return llvm::isDigit(C); })
            .getAsInteger(10, N) ||
        N == 0 || N > (1u << 30)) {
      Diags.report(Tok.getRange(), diag::err_array_size_not_const);
      return nullptr;
    }
    consume();
    if (!expect(tok::r_square))
      return nullptr;
    Dims.push_back(N);
    if (Dims.size() > 8) {
      Diags.report(Tok.getRange(), diag::err_array_size_not_const);
      return nullptr;
    }
  }
  for (size_t I = Dims.size(); I-- > 0;)
    T = Ctx.getArrayType(T, Dims[I]);
  return T;
}

StructType *Parser::parseStructBody(StructType *ST, SourceLocation Begin,
                                    SourceLocation NameLoc) {
  // At '{'.
  consume();
  llvm::SmallVector<FieldDecl *, 8> Fields;
  while (Tok.isNot(tok::r_brace) && Tok.isNot(tok::eof)) {
    SourceLocation FB = Tok.Loc;
    const Type *Base = parseBaseType();
    if (!Base) {
      skipToStmtEnd();
      continue;
    }
    do {
      const Type *T = parsePointers(Base);
      if (Tok.isNot(tok::identifier)) {
        Diags.report(Tok.getRange(), diag::err_expected) << "a member name";
        T = nullptr;
      } else {
        Token Name = Tok;
        consume();
        T = parseArraySuffix(T);
        if (T)
          Fields.push_back(new (Ctx) FieldDecl(rangeFrom(FB), Name.Loc,
                                               Ctx.copyString(Name.Text), T,
                                               Fields.size()));
      }
      if (!T)
        break;
    } while (tryConsume(tok::comma));
    if (!expect(tok::semi))
      skipToStmtEnd();
  }
  expect(tok::r_brace);
  auto *D = new (Ctx) StructDecl(rangeFrom(Begin), NameLoc, ST->getName(), ST,
                                 Ctx.copyArray<FieldDecl *>(Fields));
  if (!ST->getDecl())
    ST->setDecl(D);
  LastStruct = D;
  return ST;
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

bool Parser::checkTreeDepth(Decl *D) {
  Stmt *Root = nullptr;
  if (auto *F = llvm::dyn_cast<FunctionDecl>(D))
    Root = F->getBody();
  else if (auto *V = llvm::dyn_cast<VarDecl>(D))
    Root = V->getInit();
  if (!Root)
    return true;
  // Iterative walk: the tree may be deeper than the stack could recurse.
  // Operator chains (`a+a+...`, `x------`) are built by loops, not by
  // recursion, so the parser's own depth bound does not cover them.
  llvm::SmallVector<std::pair<Stmt *, unsigned>, 64> Work{{Root, 1}};
  while (!Work.empty()) {
    auto [S, Depth] = Work.pop_back_val();
    if (Depth > ParseSession::MaxTreeDepth) {
      Diags.report(SourceRange(S->getBeginLoc()), diag::err_nesting_too_deep)
          << ParseSession::MaxTreeDepth;
      return false;
    }
    forEachChild(S, [&, D = Depth](Stmt *C) { Work.push_back({C, D + 1}); });
  }
  return true;
}

TranslationUnit Parser::parseTranslationUnit() {
  llvm::SmallVector<Decl *, 16> Decls;
  while (Tok.isNot(tok::eof)) {
    const char *Before = Tok.Text.data();
    size_t NumBefore = Decls.size();
    parseTopLevel(Decls);
    // Drop declarations whose tree is too deep for the recursive passes
    // after the parser (Sema, the dumper, MLIRGen).
    for (size_t I = NumBefore; I < Decls.size(); ++I)
      if (!checkTreeDepth(Decls[I]))
        Decls.erase(Decls.begin() + I--);
    if (Tok.isNot(tok::eof) && Tok.Text.data() == Before)
      consume(); // Guarantee progress on garbage.
  }
  TranslationUnit TU;
  TU.FileId = FileId;
  TU.Decls = Ctx.copyArray<Decl *>(Decls);
  return TU;
}

void Parser::parseTopLevel(llvm::SmallVectorImpl<Decl *> &Out) {
  SourceLocation Begin = Tok.Loc;
  if (tryConsume(tok::semi))
    return;
  if (Tok.is(tok::identifier) && Tok.Text == "template" && Next.is(tok::less))
    return parseTemplate(Out);
  if (Tok.is(tok::kw_import)) {
    consume();
    if (Tok.isNot(tok::string_literal)) {
      Diags.report(Tok.getRange(), diag::err_expected) << "a file name string";
      skipToStmtEnd();
      return;
    }
    std::string Path;
    Token PathTok = Tok;
    decodeQuoted(PathTok, Path);
    consume();
    expect(tok::semi);
    auto *D = new (Ctx) ImportDecl(rangeFrom(Begin), Ctx.copyString(Path));
    Out.push_back(D);
    Session.handleImport(D, FileId);
    return;
  }
  if (Tok.is(tok::kw_typedef)) {
    consume();
    const Type *T;
    if (Tok.is(tok::kw_struct) &&
        (Next.is(tok::l_brace) || Next.is(tok::identifier))) {
      SourceLocation SB = Tok.Loc;
      consume();
      Token Name = Tok;
      bool Anonymous = Tok.is(tok::l_brace);
      if (!Anonymous)
        consume();
      if (Tok.is(tok::l_brace)) {
        // The typedef name of `typedef struct {...} T;` is read only after
        // the body, so an anonymous struct gets a synthesized name.
        llvm::StringRef SName = Anonymous ? llvm::StringRef() : Name.Text;
        if (Anonymous)
          SName = Ctx.copyString("__anon_struct_" +
                                 std::to_string(AnonCounter++));
        StructType *ST = Ctx.getStructType(Ctx.copyString(SName));
        if (ST->getDecl()) {
          Diags.report(Name.getRange(), diag::err_redefinition) << SName;
        }
        parseStructBody(ST, SB, Anonymous ? SB : Name.Loc);
        Out.push_back(LastStruct);
        T = ST;
      } else {
        T = Ctx.getStructType(Ctx.copyString(Name.Text));
      }
      T = parsePointers(T);
    } else {
      T = parseTypeName();
    }
    if (!T) {
      skipToStmtEnd();
      return;
    }
    if (Tok.isNot(tok::identifier)) {
      Diags.report(Tok.getRange(), diag::err_expected) << "a typedef name";
      skipToStmtEnd();
      return;
    }
    Token Name = Tok;
    consume();
    T = parseArraySuffix(T);
    if (!T) {
      skipToStmtEnd();
      return;
    }
    expect(tok::semi);
    llvm::StringRef N = Ctx.copyString(Name.Text);
    Session.getTypedefs()[N] = T;
    Out.push_back(new (Ctx) TypedefDecl(rangeFrom(Begin), Name.Loc, N, T));
    return;
  }
  if (Tok.is(tok::kw_struct) && Next.is(tok::identifier)) {
    // `struct S { ... };` defines; `struct S x;` declares a variable.
    Token Name = Next;
    consume();
    consume();
    if (Tok.is(tok::l_brace)) {
      StructType *ST = Ctx.getStructType(Ctx.copyString(Name.Text));
      if (ST->getDecl())
        Diags.report(Name.getRange(), diag::err_redefinition) << Name.Text;
      parseStructBody(ST, Begin, Name.Loc);
      Out.push_back(LastStruct);
      expect(tok::semi);
      return;
    }
    if (tryConsume(tok::semi))
      return; // Forward declaration.
    const Type *T = parsePointers(Ctx.getStructType(Ctx.copyString(Name.Text)));
    llvm::SmallVector<VarDecl *, 2> Vars;
    if (parseVarDeclarators(T, Begin, VarDecl::Global, Vars, false))
      expect(tok::semi);
    else
      skipToStmtEnd();
    Out.append(Vars.begin(), Vars.end());
    return;
  }

  bool ExternC = false, Inline = false;
  if (Tok.is(tok::kw_extern)) {
    consume();
    if (Tok.isNot(tok::string_literal) || Tok.Text != "\"C\"") {
      Diags.report(Tok.getRange(), diag::err_extern_not_c);
      skipToStmtEnd();
      return;
    }
    consume();
    ExternC = true;
  }
  if (tryConsume(tok::kw_inline))
    Inline = true;

  // A function without a return type: `findFaces(int* pf, ...) { ... }`.
  if (Tok.is(tok::identifier) && Next.is(tok::l_paren) &&
      !Session.getTypedefs().count(Tok.Text)) {
    Token Name = Tok;
    consume();
    if (Decl *D = parseFunctionRest(Begin, nullptr, Name, Inline, ExternC))
      Out.push_back(D);
    return;
  }
  if (!isTypeStart(Tok) && Tok.isNot(tok::kw_auto)) {
    Diags.report(Tok.getRange(), diag::err_expected_decl);
    skipToStmtEnd();
    return;
  }
  bool IsAuto = tryConsume(tok::kw_auto);
  const Type *Base = IsAuto ? nullptr : parseBaseType();
  if (!IsAuto && !Base) {
    skipToStmtEnd();
    return;
  }
  if (!IsAuto) {
    // Function?
    const Type *T = parsePointers(Base);
    if (Tok.is(tok::identifier) && Next.is(tok::l_paren)) {
      Token Name = Tok;
      consume();
      if (Decl *D = parseFunctionRest(Begin, T, Name, Inline, ExternC))
        Out.push_back(D);
      return;
    }
    if (ExternC) {
      Diags.report(Tok.getRange(), diag::err_extern_needs_function);
      skipToStmtEnd();
      return;
    }
    llvm::SmallVector<VarDecl *, 2> Vars;
    // The first declarator's pointers were already read.
    if (Tok.isNot(tok::identifier)) {
      Diags.report(Tok.getRange(), diag::err_expected) << "a variable name";
      skipToStmtEnd();
      return;
    }
    bool Ok = true;
    {
      Token Name = Tok;
      consume();
      const Type *VT = parseArraySuffix(T);
      Expr *Init = nullptr;
      if (VT && tryConsume(tok::equal)) {
        Init = parseAssignment();
        if (!Init)
          VT = nullptr;
      }
      if (VT)
        Vars.push_back(new (Ctx) VarDecl(rangeFrom(Begin), Name.Loc,
                                         Ctx.copyString(Name.Text), VT, Init,
                                         VarDecl::Global));
      else
        Ok = false;
    }
    if (Ok && tryConsume(tok::comma))
      Ok = parseVarDeclarators(Base, Begin, VarDecl::Global, Vars, false);
    if (Ok)
      expect(tok::semi);
    else
      skipToStmtEnd();
    Out.append(Vars.begin(), Vars.end());
    return;
  }
  llvm::SmallVector<VarDecl *, 2> Vars;
  if (parseVarDeclarators(nullptr, Begin, VarDecl::Global, Vars, true))
    expect(tok::semi);
  else
    skipToStmtEnd();
  Out.append(Vars.begin(), Vars.end());
}

Decl *Parser::parseFunctionRest(SourceLocation Begin, const Type *Ret,
                                const Token &Name, bool Inline, bool ExternC) {
  // At '('.
  consume();
  llvm::SmallVector<VarDecl *, 4> Params;
  bool Varargs = false;
  if (Tok.is(tok::kw_void) && Next.is(tok::r_paren))
    consume();
  while (Tok.isNot(tok::r_paren) && Tok.isNot(tok::eof)) {
    if (Tok.is(tok::ellipsis)) {
      if (!ExternC)
        Diags.report(Tok.getRange(), diag::err_varargs_not_extern);
      consume();
      Varargs = true;
      break;
    }
    SourceLocation PB = Tok.Loc;
    const Type *T = parseTypeName();
    if (!T) {
      skipToStmtEnd();
      return nullptr;
    }
    Token PName;
    PName.Loc = Tok.Loc;
    if (Tok.is(tok::identifier)) {
      PName = Tok;
      consume();
    }
    T = parseArraySuffix(T);
    if (!T) {
      skipToStmtEnd();
      return nullptr;
    }
    // Array parameters decay to pointers, as in C.
    if (auto *AT = llvm::dyn_cast<ArrayType>(T))
      T = Ctx.getPointerType(AT->getElementType());
    Params.push_back(new (Ctx) VarDecl(rangeFrom(PB), PName.Loc,
                                       Ctx.copyString(PName.Text), T, nullptr,
                                       VarDecl::Param));
    if (!tryConsume(tok::comma))
      break;
  }
  if (!expect(tok::r_paren)) {
    skipToStmtEnd();
    return nullptr;
  }
  llvm::StringRef FName = Ctx.copyString(Name.Text);
  Functions.insert(FName);
  CompoundStmt *Body = nullptr;
  if (Tok.is(tok::l_brace)) {
    Body = parseCompound();
    if (!Body)
      return nullptr;
  } else if (!expect(tok::semi, "'{' or ';' after the function declarator")) {
    skipToStmtEnd();
    return nullptr;
  }
  auto *F = new (Ctx) FunctionDecl(rangeFrom(Begin), Name.Loc, FName, Ret,
                                   Ctx.copyArray<VarDecl *>(Params), Body);
  F->setInline(Inline);
  F->setExternC(ExternC);
  F->setVarargs(Varargs);
  return F;
}

bool Parser::parseVarDeclarators(const Type *Base, SourceLocation Begin,
                                 VarDecl::StorageKind S,
                                 llvm::SmallVectorImpl<VarDecl *> &Out,
                                 bool IsAuto) {
  do {
    const Type *T = IsAuto ? nullptr : parsePointers(Base);
    if (Tok.isNot(tok::identifier)) {
      Diags.report(Tok.getRange(), diag::err_expected) << "a variable name";
      return false;
    }
    Token Name = Tok;
    consume();
    if (!IsAuto) {
      T = parseArraySuffix(T);
      if (!T)
        return false;
    }
    Expr *Init = nullptr;
    if (tryConsume(tok::equal)) {
      Init = parseAssignment();
      if (!Init)
        return false;
    } else if (IsAuto) {
      Diags.report(Name.getRange(), diag::err_auto_needs_init);
      return false;
    }
    auto *V = new (Ctx) VarDecl(rangeFrom(Begin), Name.Loc,
                                Ctx.copyString(Name.Text), T, Init, S);
    V->setAuto(IsAuto);
    Out.push_back(V);
  } while (tryConsume(tok::comma));
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

CompoundStmt *Parser::parseCompound() {
  DepthGuard G(*this);
  if (!G.Ok)
    return nullptr;
  SourceLocation Begin = Tok.Loc;
  Token Open = Tok;
  if (!expect(tok::l_brace))
    return nullptr;
  llvm::SmallVector<Stmt *, 16> Body;
  while (Tok.isNot(tok::r_brace) && Tok.isNot(tok::eof)) {
    const char *Before = Tok.Text.data();
    if (Stmt *S = parseStatement())
      Body.push_back(S);
    else if (Tok.isNot(tok::eof) && Tok.Text.data() == Before &&
             Tok.isNot(tok::r_brace))
      consume();
  }
  if (Tok.isNot(tok::r_brace)) {
    if (!Aborted) {
      Diags.report(Tok.getRange(), diag::err_expected) << "'}'";
      Diags.report(Open.getRange(), diag::note_matching) << "{";
    }
    return nullptr;
  }
  consume();
  return new (Ctx) CompoundStmt(rangeFrom(Begin), Ctx.copyArray<Stmt *>(Body));
}

Stmt *Parser::parseDeclStmt() {
  SourceLocation Begin = Tok.Loc;
  bool IsAuto = tryConsume(tok::kw_auto);
  const Type *Base = nullptr;
  if (!IsAuto) {
    Base = parseBaseType();
    if (!Base) {
      skipToStmtEnd();
      return nullptr;
    }
  }
  llvm::SmallVector<VarDecl *, 2> Vars;
  if (!parseVarDeclarators(Base, Begin, VarDecl::Local, Vars, IsAuto)) {
    skipToStmtEnd();
    return nullptr;
  }
  if (!expect(tok::semi)) {
    skipToStmtEnd();
    return nullptr;
  }
  return new (Ctx) DeclStmt(rangeFrom(Begin), Ctx.copyArray<VarDecl *>(Vars));
}

Stmt *Parser::parseStatement() {
  DepthGuard G(*this);
  if (!G.Ok)
    return nullptr;
  SourceLocation Begin = Tok.Loc;
  switch (Tok.Kind) {
  case tok::l_brace:
    return parseCompound();
  case tok::semi:
    consume();
    return new (Ctx) NullStmt(rangeFrom(Begin));
  case tok::kw_if: {
    consume();
    if (!expect(tok::l_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    Expr *C = parseExpression();
    if (!C || !expect(tok::r_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    Stmt *Then = parseStatement();
    Stmt *Else = nullptr;
    bool ElseOk = true;
    if (tryConsume(tok::kw_else)) {
      Else = parseStatement();
      ElseOk = Else != nullptr;
    }
    if (!Then || !ElseOk)
      return nullptr;
    return new (Ctx) IfStmt(rangeFrom(Begin), C, Then, Else);
  }
  case tok::kw_while: {
    consume();
    if (!expect(tok::l_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    Expr *C = parseExpression();
    if (!C || !expect(tok::r_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    Stmt *Body = parseStatement();
    if (!Body)
      return nullptr;
    return new (Ctx) WhileStmt(rangeFrom(Begin), C, Body);
  }
  case tok::kw_do: {
    consume();
    Stmt *Body = parseStatement();
    if (!Body)
      return nullptr;
    if (!expect(tok::kw_while, "'while' after the body of 'do'") ||
        !expect(tok::l_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    Expr *C = parseExpression();
    if (!C || !expect(tok::r_paren) || !expect(tok::semi)) {
      skipToStmtEnd();
      return nullptr;
    }
    return new (Ctx) DoStmt(rangeFrom(Begin), Body, C);
  }
  case tok::kw_for: {
    consume();
    if (!expect(tok::l_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    Stmt *Init = nullptr;
    if (startsDecl())
      Init = parseDeclStmt();
    else if (Tok.is(tok::kw_auto))
      Init = parseDeclStmt();
    else if (!tryConsume(tok::semi)) {
      SourceLocation IB = Tok.Loc;
      Expr *E = parseExpression();
      if (!E || !expect(tok::semi)) {
        skipToStmtEnd();
        return nullptr;
      }
      Init = new (Ctx) ExprStmt(rangeFrom(IB), E);
    }
    if (Aborted)
      return nullptr;
    Expr *C = nullptr, *Inc = nullptr;
    if (Tok.isNot(tok::semi)) {
      C = parseExpression();
      if (!C) {
        skipToStmtEnd();
        return nullptr;
      }
    }
    if (!expect(tok::semi)) {
      skipToStmtEnd();
      return nullptr;
    }
    if (Tok.isNot(tok::r_paren)) {
      Inc = parseExpression();
      if (!Inc) {
        skipToStmtEnd();
        return nullptr;
      }
    }
    if (!expect(tok::r_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    Stmt *Body = parseStatement();
    if (!Body)
      return nullptr;
    return new (Ctx) ForStmt(rangeFrom(Begin), Init, C, Inc, Body);
  }
  case tok::kw_break:
  case tok::kw_continue: {
    bool IsBreak = Tok.is(tok::kw_break);
    consume();
    if (!expect(tok::semi)) {
      skipToStmtEnd();
      return nullptr;
    }
    if (IsBreak)
      return new (Ctx) BreakStmt(rangeFrom(Begin));
    return new (Ctx) ContinueStmt(rangeFrom(Begin));
  }
  case tok::kw_return: {
    consume();
    Expr *V = nullptr;
    if (Tok.isNot(tok::semi)) {
      V = parseExpression();
      if (!V) {
        skipToStmtEnd();
        return nullptr;
      }
    }
    if (!expect(tok::semi)) {
      skipToStmtEnd();
      return nullptr;
    }
    return new (Ctx) ReturnStmt(rangeFrom(Begin), V);
  }
  case tok::kw_spawn: {
    consume();
    if (!expect(tok::l_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    Expr *N = parseExpression();
    if (!N || !expect(tok::r_paren)) {
      skipToStmtEnd();
      return nullptr;
    }
    unsigned BlockSize = 0, MinBlocks = 0;
    if (Tok.is(tok::l_square) && !parseSpawnAttributes(BlockSize, MinBlocks)) {
      skipToStmtEnd();
      return nullptr;
    }
    if (Tok.isNot(tok::l_brace)) {
      Diags.report(Tok.getRange(), diag::err_expected_after)
          << "'{'" << "'spawn (...)'";
      skipToStmtEnd();
      return nullptr;
    }
    CompoundStmt *Body = parseCompound();
    if (!Body)
      return nullptr;
    auto *Spawn = new (Ctx) SpawnStmt(rangeFrom(Begin), N, Body);
    Spawn->setBlockSize(BlockSize);
    Spawn->setMinBlocks(MinBlocks);
    return Spawn;
  }
  case tok::kw_barrier: {
    consume();
    bool Reassigned = false;
    if (tryConsume(tok::l_paren)) {
      if (Tok.isNot(tok::identifier) || Tok.Text != "RANK_REASSIGNED") {
        Diags.report(Tok.getRange(), diag::err_bad_barrier_arg);
        skipToStmtEnd();
        return nullptr;
      }
      consume();
      Reassigned = true;
      if (!expect(tok::r_paren)) {
        skipToStmtEnd();
        return nullptr;
      }
    }
    if (!expect(tok::semi)) {
      skipToStmtEnd();
      return nullptr;
    }
    return new (Ctx) BarrierStmt(rangeFrom(Begin), Reassigned);
  }
  case tok::kw_require: {
    consume();
    Stmt *Body = parseStatement();
    if (!Body)
      return nullptr;
    return new (Ctx) RequireStmt(rangeFrom(Begin), Body);
  }
  case tok::kw_par: {
    consume();
    if (Tok.isNot(tok::l_brace)) {
      Diags.report(Tok.getRange(), diag::err_expected_after)
          << "'{'" << "'par'";
      skipToStmtEnd();
      return nullptr;
    }
    CompoundStmt *Body = parseCompound();
    if (!Body)
      return nullptr;
    return new (Ctx) ParStmt(rangeFrom(Begin), Body);
  }
  case tok::kw_import:
    Diags.report(Tok.getRange(), diag::err_import_not_top);
    skipToStmtEnd();
    return nullptr;
  case tok::kw_auto:
    return parseDeclStmt();
  case tok::kw_local: {
    consume();
    if (!startsDecl()) {
      Diags.report(Tok.getRange(), diag::err_local_expected_decl);
      skipToStmtEnd();
      return nullptr;
    }
    Stmt *S = parseDeclStmt();
    if (auto *D = llvm::dyn_cast_or_null<DeclStmt>(S))
      for (VarDecl *V : D->decls())
        V->setGroupLocal(true);
    return S;
  }
  default:
    break;
  }
  if (startsDecl())
    return parseDeclStmt();
  if (Tok.is(tok::r_brace) || Tok.is(tok::eof)) {
    Diags.report(Tok.getRange(), diag::err_expected_stmt);
    return nullptr;
  }
  Expr *E = parseExpression();
  if (!E) {
    skipToStmtEnd();
    return nullptr;
  }
  if (!expect(tok::semi)) {
    // Report at the end of the expression, like clang's "expected ';'".
    skipToStmtEnd();
    return nullptr;
  }
  return new (Ctx) ExprStmt(rangeFrom(Begin), E);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Expr *Parser::parseExpression() {
  SourceLocation Begin = Tok.Loc;
  Expr *L = parseAssignment();
  while (L && Tok.is(tok::comma)) {
    SourceLocation OpLoc = Tok.Loc;
    consume();
    Expr *R = parseAssignment();
    if (!R)
      return nullptr;
    L = new (Ctx) BinaryOperator(rangeFrom(Begin), BinaryOperator::Comma, L, R,
                                 OpLoc);
  }
  return L;
}

static bool getAssignOp(tok::Kind K, BinaryOperator::Opcode &Op) {
  using B = BinaryOperator;
  switch (K) {
  case tok::equal: Op = B::Assign; return true;
  case tok::starequal: Op = B::MulAssign; return true;
  case tok::slashequal: Op = B::DivAssign; return true;
  case tok::percentequal: Op = B::RemAssign; return true;
  case tok::plusequal: Op = B::AddAssign; return true;
  case tok::minusequal: Op = B::SubAssign; return true;
  case tok::lesslessequal: Op = B::ShlAssign; return true;
  case tok::greatergreaterequal: Op = B::ShrAssign; return true;
  case tok::ampequal: Op = B::AndAssign; return true;
  case tok::caretequal: Op = B::XorAssign; return true;
  case tok::pipeequal: Op = B::OrAssign; return true;
  default: return false;
  }
}

Expr *Parser::parseAssignment() {
  DepthGuard G(*this);
  if (!G.Ok)
    return nullptr;
  SourceLocation Begin = Tok.Loc;
  Expr *L = parseConditional();
  if (!L)
    return nullptr;
  BinaryOperator::Opcode Op;
  if (!getAssignOp(Tok.Kind, Op))
    return L;
  SourceLocation OpLoc = Tok.Loc;
  consume();
  Expr *R = parseAssignment();
  if (!R)
    return nullptr;
  return new (Ctx) BinaryOperator(rangeFrom(Begin), Op, L, R, OpLoc);
}

Expr *Parser::parseConditional() {
  SourceLocation Begin = Tok.Loc;
  Expr *C = parseBinary(1);
  if (!C || Tok.isNot(tok::question))
    return C;
  consume();
  Expr *T = parseExpression();
  if (!T || !expect(tok::colon))
    return nullptr;
  Expr *F = parseAssignment();
  if (!F)
    return nullptr;
  return new (Ctx) ConditionalOperator(rangeFrom(Begin), C, T, F);
}

/// C binary precedence: 1 is ||, 10 is * / %.
static unsigned getBinaryPrec(tok::Kind K, BinaryOperator::Opcode &Op) {
  using B = BinaryOperator;
  switch (K) {
  case tok::pipepipe: Op = B::LOr; return 1;
  case tok::ampamp: Op = B::LAnd; return 2;
  case tok::pipe: Op = B::Or; return 3;
  case tok::caret: Op = B::Xor; return 4;
  case tok::amp: Op = B::And; return 5;
  case tok::equalequal: Op = B::EQ; return 6;
  case tok::exclaimequal: Op = B::NE; return 6;
  case tok::less: Op = B::LT; return 7;
  case tok::greater: Op = B::GT; return 7;
  case tok::lessequal: Op = B::LE; return 7;
  case tok::greaterequal: Op = B::GE; return 7;
  case tok::lessless: Op = B::Shl; return 8;
  case tok::greatergreater: Op = B::Shr; return 8;
  case tok::plus: Op = B::Add; return 9;
  case tok::minus: Op = B::Sub; return 9;
  case tok::star: Op = B::Mul; return 10;
  case tok::slash: Op = B::Div; return 10;
  case tok::percent: Op = B::Rem; return 10;
  default: return 0;
  }
}

Expr *Parser::parseBinary(unsigned MinPrec) {
  SourceLocation Begin = Tok.Loc;
  Expr *L = parseUnary();
  if (!L)
    return nullptr;
  for (;;) {
    BinaryOperator::Opcode Op;
    unsigned Prec = getBinaryPrec(Tok.Kind, Op);
    if (Prec == 0 || Prec < MinPrec)
      return L;
    SourceLocation OpLoc = Tok.Loc;
    consume();
    // Left associative: the right operand binds tighter operators only.
    Expr *R = Prec == 10 ? parseUnary() : parseBinary(Prec + 1);
    if (!R)
      return nullptr;
    L = new (Ctx) BinaryOperator(rangeFrom(Begin), Op, L, R, OpLoc);
  }
}

Expr *Parser::parseUnary() {
  DepthGuard G(*this);
  if (!G.Ok)
    return nullptr;
  SourceLocation Begin = Tok.Loc;
  using U = UnaryOperator;
  U::Opcode Op;
  bool IsUnary = true;
  switch (Tok.Kind) {
  case tok::plus: Op = U::Plus; break;
  case tok::minus: Op = U::Minus; break;
  case tok::exclaim: Op = U::Not; break;
  case tok::tilde: Op = U::BitNot; break;
  case tok::star: Op = U::Deref; break;
  case tok::amp: Op = U::AddrOf; break;
  case tok::plusplus: Op = U::PreInc; break;
  case tok::minusminus: Op = U::PreDec; break;
  default: IsUnary = false; break;
  }
  if (IsUnary) {
    consume();
    Expr *Sub = parseUnary();
    if (!Sub)
      return nullptr;
    return new (Ctx) UnaryOperator(rangeFrom(Begin), Op, Sub, Begin);
  }
  if (Tok.is(tok::kw_sizeof)) {
    consume();
    if (Tok.is(tok::l_paren) && isTypeStart(Next)) {
      consume();
      const Type *T = parseTypeName();
      if (T)
        T = parseArraySuffix(T);
      if (!T || !expect(tok::r_paren))
        return nullptr;
      return new (Ctx) SizeofExpr(rangeFrom(Begin), T);
    }
    Expr *Sub = parseUnary();
    if (!Sub)
      return nullptr;
    return new (Ctx) SizeofExpr(rangeFrom(Begin), Sub);
  }
  // Cast: `(type) expr`.
  if (Tok.is(tok::l_paren) && isTypeStart(Next)) {
    consume();
    const Type *T = parseTypeName();
    if (!T || !expect(tok::r_paren))
      return nullptr;
    Expr *Sub = parseUnary();
    if (!Sub)
      return nullptr;
    return new (Ctx) CastExpr(rangeFrom(Begin), T, Sub);
  }
  Expr *P = parsePrimary();
  if (!P)
    return nullptr;
  return parsePostfix(P);
}

Expr *Parser::parsePostfix(Expr *E) {
  SourceLocation Begin = E->getBeginLoc();
  for (;;) {
    switch (Tok.Kind) {
    case tok::l_square: {
      consume();
      Expr *Idx = parseExpression();
      if (!Idx || !expect(tok::r_square))
        return nullptr;
      E = new (Ctx) IndexExpr(rangeFrom(Begin), E, Idx);
      break;
    }
    case tok::l_paren: {
      llvm::SmallVector<Expr *, 4> Args;
      if (!parseArgs(Args))
        return nullptr;
      E = new (Ctx) CallExpr(rangeFrom(Begin), E, Ctx.copyArray<Expr *>(Args));
      break;
    }
    case tok::period:
    case tok::arrow: {
      bool Arrow = Tok.is(tok::arrow);
      consume();
      if (Tok.isNot(tok::identifier)) {
        Diags.report(Tok.getRange(), diag::err_expected) << "a member name";
        return nullptr;
      }
      Token M = Tok;
      consume();
      E = new (Ctx) MemberExpr(rangeFrom(Begin), E, Ctx.copyString(M.Text),
                               Arrow, M.Loc);
      break;
    }
    case tok::plusplus:
    case tok::minusminus: {
      auto Op = Tok.is(tok::plusplus) ? UnaryOperator::PostInc
                                      : UnaryOperator::PostDec;
      SourceLocation OpLoc = Tok.Loc;
      consume();
      E = new (Ctx) UnaryOperator(rangeFrom(Begin), Op, E, OpLoc);
      break;
    }
    default:
      return E;
    }
  }
}

bool Parser::parseArgs(llvm::SmallVectorImpl<Expr *> &Args) {
  Token Open = Tok;
  if (!expect(tok::l_paren))
    return false;
  if (tryConsume(tok::r_paren))
    return true;
  for (;;) {
    Expr *A = parseAssignment();
    if (!A)
      return false;
    Args.push_back(A);
    if (tryConsume(tok::comma))
      continue;
    if (tryConsume(tok::r_paren))
      return true;
    Diags.report(Tok.getRange(), diag::err_expected) << "')'";
    Diags.report(Open.getRange(), diag::note_matching) << "(";
    return false;
  }
}

Expr *Parser::parseIntLiteral() {
  Token T = Tok;
  consume();
  llvm::StringRef Text = T.Text;
  size_t SuffixStart = Text.size();
  while (SuffixStart > 0 && (Text[SuffixStart - 1] == 'u' ||
                             Text[SuffixStart - 1] == 'U' ||
                             Text[SuffixStart - 1] == 'l' ||
                             Text[SuffixStart - 1] == 'L'))
    --SuffixStart;
  llvm::StringRef Digits = Text.take_front(SuffixStart);
  llvm::StringRef Suffix = Text.drop_front(SuffixStart);
  bool Unsigned = Suffix.contains_insensitive("u");
  bool Long = Suffix.contains_insensitive("l");
  uint64_t V = 0;
  if (Digits.getAsInteger(0, V)) {
    Diags.report(T.getRange(), diag::err_lex_int_too_large)
        << Text.take_front(64);
    return nullptr;
  }
  return new (Ctx) IntegerLiteral(T.getRange(), V, Unsigned, Long);
}

Expr *Parser::parseFloatLiteral() {
  Token T = Tok;
  consume();
  bool IsFloat = T.Text.ends_with_insensitive("f");
  std::string S = (IsFloat ? T.Text.drop_back() : T.Text).str();
  double V = std::strtod(S.c_str(), nullptr);
  return new (Ctx) FloatingLiteral(T.getRange(), V, IsFloat);
}

bool Parser::decodeQuoted(const Token &T, std::string &Out) {
  llvm::StringRef Body = T.Text.drop_front().drop_back();
  for (size_t I = 0; I < Body.size(); ++I) {
    char C = Body[I];
    if (C != '\\' || I + 1 == Body.size()) {
      Out.push_back(C);
      continue;
    }
    char E = Body[++I];
    switch (E) {
    case 'n': Out.push_back('\n'); break;
    case 't': Out.push_back('\t'); break;
    case 'r': Out.push_back('\r'); break;
    case '0': Out.push_back('\0'); break;
    case 'a': Out.push_back('\a'); break;
    case 'b': Out.push_back('\b'); break;
    case 'f': Out.push_back('\f'); break;
    case 'v': Out.push_back('\v'); break;
    case '\\': case '\'': case '"': case '?': Out.push_back(E); break;
    default:
      Diags.report(T.getRange(), diag::err_lex_bad_escape)
          << llvm::StringRef(&Body.data()[I], 1);
      return false;
    }
  }
  return true;
}

Expr *Parser::parseCollective(BuiltinCallExpr::BuiltinKind K,
                              SourceLocation Begin) {
  // At '('.
  Token Open = Tok;
  consume();
  auto Op = BuiltinCallExpr::None;
  SourceRange OpRange;
  if (BuiltinCallExpr::hasReduceOp(K)) {
    OpRange = Tok.getRange();
    switch (Tok.Kind) {
    case tok::plus: Op = BuiltinCallExpr::OpAdd; break;
    case tok::star: Op = BuiltinCallExpr::OpMul; break;
    case tok::amp: Op = BuiltinCallExpr::OpAnd; break;
    case tok::pipe: Op = BuiltinCallExpr::OpOr; break;
    case tok::caret: Op = BuiltinCallExpr::OpXor; break;
    case tok::identifier:
      if (Tok.Text == "min")
        Op = BuiltinCallExpr::OpMin;
      else if (Tok.Text == "max")
        Op = BuiltinCallExpr::OpMax;
      break;
    default: break;
    }
    if (Op == BuiltinCallExpr::None) {
      Diags.report(Tok.getRange(), diag::err_bad_reduce_op)
          << BuiltinCallExpr::getName(K);
      return nullptr;
    }
    consume();
    if (!expect(tok::comma))
      return nullptr;
  }
  llvm::SmallVector<Expr *, 4> Args;
  if (!(Op == BuiltinCallExpr::None && Tok.is(tok::r_paren))) {
    for (;;) {
      Expr *A = parseAssignment();
      if (!A)
        return nullptr;
      Args.push_back(A);
      if (!tryConsume(tok::comma))
        break;
    }
  }
  if (!tryConsume(tok::r_paren)) {
    Diags.report(Tok.getRange(), diag::err_expected) << "')'";
    Diags.report(Open.getRange(), diag::note_matching) << "(";
    return nullptr;
  }
  return new (Ctx) BuiltinCallExpr(rangeFrom(Begin), K, Op, OpRange,
                                   Ctx.copyArray<Expr *>(Args));
}

Expr *Parser::parseThread() {
  SourceLocation Begin = Tok.Loc;
  consume(); // thread
  if (!expect(tok::period, "'.' after 'thread'"))
    return nullptr;
  if (Tok.isNot(tok::identifier)) {
    Diags.report(Tok.getRange(), diag::err_expected) << "a thread attribute";
    return nullptr;
  }
  Token M = Tok;
  consume();
  int Attr = llvm::StringSwitch<int>(M.Text)
                 .Case("rank", ThreadAttrExpr::Rank)
                 .Case("size", ThreadAttrExpr::Size)
                 .Case("oldrank", ThreadAttrExpr::OldRank)
                 .Default(-1);
  if (Attr >= 0) {
    if (Tok.is(tok::l_paren)) {
      Diags.report(M.getRange(), diag::err_thread_attr_call) << M.Text;
      return nullptr;
    }
    return new (Ctx)
        ThreadAttrExpr(rangeFrom(Begin), ThreadAttrExpr::Attr(Attr));
  }
  int K = llvm::StringSwitch<int>(M.Text)
              .Case("get", BuiltinCallExpr::ThreadGet)
              .Case("put", BuiltinCallExpr::ThreadPut)
              .Case("fork", BuiltinCallExpr::ThreadFork)
              .Case("kill", BuiltinCallExpr::ThreadKill)
              .Case("sortby", BuiltinCallExpr::ThreadSortBy)
              .Case("split", BuiltinCallExpr::ThreadSplit)
              .Case("rebind", BuiltinCallExpr::ThreadRebind)
              .Default(-1);
  if (K < 0) {
    Diags.report(M.getRange(), diag::err_bad_thread_member) << M.Text;
    return nullptr;
  }
  if (Tok.isNot(tok::l_paren)) {
    Diags.report(M.getRange(), diag::err_thread_prim_no_call) << M.Text;
    return nullptr;
  }
  return parseCollective(BuiltinCallExpr::BuiltinKind(K), Begin);
}

/// `target.cpu`, `target.cuda`, `target.spirv`. `target` is an ordinary
/// identifier elsewhere; followed by '.', it always starts a target query.
Expr *Parser::parseTargetQuery() {
  SourceLocation Begin = Tok.Loc;
  consume(); // target
  consume(); // .
  if (Tok.isNot(tok::identifier)) {
    Diags.report(Tok.getRange(), diag::err_expected) << "a target name";
    return nullptr;
  }
  Token M = Tok;
  consume();
  int T = llvm::StringSwitch<int>(M.Text)
              .Case("cpu", TargetQueryExpr::CPU)
              .Case("cuda", TargetQueryExpr::CUDA)
              .Case("spirv", TargetQueryExpr::SPIRV)
              .Default(-1);
  if (T < 0) {
    Diags.report(M.getRange(), diag::err_bad_target_query) << M.Text;
    return nullptr;
  }
  return new (Ctx)
      TargetQueryExpr(rangeFrom(Begin), TargetQueryExpr::Target(T));
}

Expr *Parser::parseGroup() {
  SourceLocation Begin = Tok.Loc;
  bool Sub = Tok.is(tok::kw_subgroup);
  llvm::StringRef Base = Sub ? "subgroup" : "group";
  consume();
  if (!expect(tok::period, Sub ? "'.' after 'subgroup'" : "'.' after 'group'"))
    return nullptr;
  // `barrier` is a keyword of its own.
  if (Tok.isNot(tok::identifier) && Tok.isNot(tok::kw_barrier)) {
    Diags.report(Tok.getRange(), diag::err_expected)
        << (Sub ? "a subgroup attribute or operation"
                : "a group attribute or operation");
    return nullptr;
  }
  Token M = Tok;
  consume();
  using GE = GroupExpr;
  int Op = Sub ? llvm::StringSwitch<int>(M.Text)
                     .Case("rank", GE::SubgroupRank)
                     .Case("size", GE::SubgroupSize)
                     .Case("shuffle", GE::Shuffle)
                     .Case("shuffle_xor", GE::ShuffleXor)
                     .Case("shuffle_up", GE::ShuffleUp)
                     .Case("shuffle_down", GE::ShuffleDown)
                     .Case("any", GE::Any)
                     .Case("all", GE::All)
                     .Case("ballot", GE::Ballot)
                     .Case("add", GE::SubgroupAdd)
                     .Case("min", GE::SubgroupMin)
                     .Case("max", GE::SubgroupMax)
                     .Case("and", GE::SubgroupAnd)
                     .Case("or", GE::SubgroupOr)
                     .Case("xor", GE::SubgroupXor)
                     .Case("match", GE::SubgroupMatch)
                     .Default(-1)
               : llvm::StringSwitch<int>(M.Text)
                     .Case("rank", GE::GroupRank)
                     .Case("size", GE::GroupSize)
                     .Case("id", GE::GroupId)
                     .Case("count", GE::GroupCount)
                     .Case("barrier", GE::GroupBarrier)
                     .Default(-1);
  if (Op < 0) {
    Diags.report(M.getRange(), diag::err_bad_group_member)
        << Base << M.Text
        << (Sub ? "rank, size, shuffle, shuffle_xor, shuffle_up, "
                  "shuffle_down, any, all, ballot, add, min, max, and, or, "
                  "xor or match"
                : "rank, size, id, count or barrier");
    return nullptr;
  }
  auto K = GE::GroupOp(Op);
  if (GE::isQuery(K)) {
    if (Tok.is(tok::l_paren)) {
      Diags.report(M.getRange(), diag::err_group_attr_call) << GE::getName(K);
      return nullptr;
    }
    return new (Ctx) GroupExpr(rangeFrom(Begin), K, {});
  }
  if (Tok.isNot(tok::l_paren)) {
    Diags.report(M.getRange(), diag::err_group_op_no_call) << GE::getName(K);
    return nullptr;
  }
  Token Open = Tok;
  consume();
  llvm::SmallVector<Expr *, 2> Args;
  if (Tok.isNot(tok::r_paren)) {
    for (;;) {
      Expr *A = parseAssignment();
      if (!A)
        return nullptr;
      Args.push_back(A);
      if (!tryConsume(tok::comma))
        break;
    }
  }
  if (!tryConsume(tok::r_paren)) {
    Diags.report(Tok.getRange(), diag::err_expected) << "')'";
    Diags.report(Open.getRange(), diag::note_matching) << "(";
    return nullptr;
  }
  return new (Ctx) GroupExpr(rangeFrom(Begin), K, Ctx.copyArray<Expr *>(Args));
}

Expr *Parser::parsePrimary() {
  SourceLocation Begin = Tok.Loc;
  switch (Tok.Kind) {
  case tok::int_literal:
    return parseIntLiteral();
  case tok::float_literal:
    return parseFloatLiteral();
  case tok::unknown:
    // A bad numeric literal or an unterminated quote: the lexer reported
    // it already, so an "expected an expression" here would be noise.
    consume();
    return nullptr;
  case tok::char_literal: {
    Token T = Tok;
    consume();
    std::string V;
    if (!decodeQuoted(T, V))
      return nullptr;
    if (V.empty()) {
      Diags.report(T.getRange(), diag::err_lex_empty_char);
      return nullptr;
    }
    if (V.size() > 1) {
      Diags.report(T.getRange(), diag::err_lex_multichar);
      return nullptr;
    }
    return new (Ctx) CharLiteral(T.getRange(), (unsigned char)V[0]);
  }
  case tok::string_literal: {
    // Adjacent literals are one string, as in C ("a" "b" is "ab").
    std::string V;
    while (Tok.is(tok::string_literal)) {
      Token T = Tok;
      consume();
      std::string Part;
      if (!decodeQuoted(T, Part))
        return nullptr;
      V += Part;
    }
    return new (Ctx) StringLiteral(rangeFrom(Begin), Ctx.copyString(V));
  }
  case tok::kw_true:
  case tok::kw_false: {
    bool V = Tok.is(tok::kw_true);
    consume();
    return new (Ctx) BoolLiteral(rangeFrom(Begin), V);
  }
  case tok::kw_NULL:
    consume();
    return new (Ctx) NullLiteral(rangeFrom(Begin));
  case tok::kw_thread:
    return parseThread();
  case tok::kw_group:
  case tok::kw_subgroup:
    return parseGroup();
  case tok::kw_dnew:
  case tok::kw_dtempnew: {
    bool Temp = Tok.is(tok::kw_dtempnew);
    consume();
    if (!expect(tok::l_square))
      return nullptr;
    Expr *N = parseExpression();
    if (!N || !expect(tok::r_square))
      return nullptr;
    const Type *T = parseTypeName();
    if (!T)
      return nullptr;
    return new (Ctx) NewExpr(rangeFrom(Begin), Temp, N, T);
  }
  case tok::l_paren: {
    Token Open = Tok;
    consume();
    Expr *E = parseExpression();
    if (!E)
      return nullptr;
    if (!tryConsume(tok::r_paren)) {
      Diags.report(Tok.getRange(), diag::err_expected) << "')'";
      Diags.report(Open.getRange(), diag::note_matching) << "(";
      return nullptr;
    }
    return new (Ctx) ParenExpr(rangeFrom(Begin), E);
  }
  case tok::identifier: {
    Token Name = Tok;
    if (Name.Text == "target" && Next.is(tok::period))
      return parseTargetQuery();
    if (Next.is(tok::less) && Session.isTemplateName(Name.Text))
      return parseTemplateRef();
    if (Next.is(tok::l_paren) && !Functions.count(Name.Text)) {
      int A = llvm::StringSwitch<int>(Name.Text)
                  .Case("atomicAdd", AtomicExpr::Add)
                  .Case("atomicSub", AtomicExpr::Sub)
                  .Case("atomicMin", AtomicExpr::Min)
                  .Case("atomicMax", AtomicExpr::Max)
                  .Case("atomicAnd", AtomicExpr::And)
                  .Case("atomicOr", AtomicExpr::Or)
                  .Case("atomicXor", AtomicExpr::Xor)
                  .Case("atomicExch", AtomicExpr::Exch)
                  .Case("atomicCAS", AtomicExpr::CAS)
                  .Case("atomicLoad", AtomicExpr::Load)
                  .Default(-1);
      if (A >= 0) {
        consume();
        llvm::SmallVector<Expr *, 3> Args;
        if (!parseArgs(Args))
          return nullptr;
        return new (Ctx) AtomicExpr(rangeFrom(Begin), AtomicExpr::AtomicOp(A),
                                    Ctx.copyArray<Expr *>(Args));
      }
    }
    if (Next.is(tok::l_paren) && !Functions.count(Name.Text)) {
      int K = llvm::StringSwitch<int>(Name.Text)
                  .Case("reduce", BuiltinCallExpr::Reduce)
                  .Case("scan", BuiltinCallExpr::Scan)
                  .Case("compact", BuiltinCallExpr::Compact)
                  .Case("split", BuiltinCallExpr::Split)
                  .Case("sort_idx", BuiltinCallExpr::SortIdx)
                  .Case("__bsgp_chunk_reduce", BuiltinCallExpr::ChunkReduce)
                  .Case("__bsgp_chunk_scan", BuiltinCallExpr::ChunkScan)
                  .Case("__bsgp_group_lookback",
                        BuiltinCallExpr::GroupLookback)
                  .Case("__bsgp_single_pass", BuiltinCallExpr::SinglePass)
                  .Default(-1);
      if (K >= 0) {
        // The chunk builtins are exact only where the library puts them
        // (straight-line code under `if (target.cpu)`), so programs cannot
        // call them.
        if (BuiltinCallExpr::isLibraryOnly(BuiltinCallExpr::BuiltinKind(K)) &&
            !Ctx.isLibraryFile(FileId))
          Diags.report(Name.getRange(), diag::err_library_builtin)
              << Name.Text;
        consume();
        return parseCollective(BuiltinCallExpr::BuiltinKind(K), Name.Loc);
      }
    }
    consume();
    return new (Ctx) DeclRefExpr(Name.getRange(), Ctx.copyString(Name.Text));
  }
  default:
    break;
  }
  if (isBuiltinTypeKw(Tok.Kind) && Next.is(tok::l_paren)) {
    const Type *T = parseBaseType();
    llvm::SmallVector<Expr *, 4> Args;
    if (!T || !parseArgs(Args))
      return nullptr;
    return new (Ctx) ConstructExpr(rangeFrom(Begin), T,
                                   Ctx.copyArray<Expr *>(Args));
  }
  if (!Aborted)
    Diags.report(Tok.getRange(), diag::err_expected_expr);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// ParseSession
//===----------------------------------------------------------------------===//

void ParseSession::parseMainFile(uint32_t FileId) {
  llvm::SmallString<256> Real;
  llvm::StringRef Name = Diags.getSourceManager().getFileName(FileId);
  if (!llvm::sys::fs::real_path(Name, Real))
    Loaded[Real] = FileId;
  parseFile(FileId);
}

void ParseSession::parseFile(uint32_t FileId) {
  Parser P(*this, Ctx, Diags, FileId, Functions);
  Ctx.getTranslationUnits().push_back(P.parseTranslationUnit());
}

uint32_t ParseSession::handleImport(ImportDecl *D, uint32_t FromFile) {
  if (!AllowImports) {
    Diags.report(D->getRange(), diag::err_import_disabled);
    return 0;
  }
  SourceManager &SM = Diags.getSourceManager();
  llvm::SmallVector<std::string, 4> Candidates;
  llvm::SmallString<256> Dir(SM.getFileName(FromFile));
  llvm::sys::path::remove_filename(Dir);
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, D->getName());
  Candidates.push_back(std::string(P));
  for (const std::string &I : IncludePaths) {
    llvm::SmallString<256> Q(I);
    llvm::sys::path::append(Q, D->getName());
    Candidates.push_back(std::string(Q));
  }
  for (const std::string &C : Candidates) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::is_directory(C) || llvm::sys::fs::real_path(C, Real))
      continue;
    auto It = Loaded.find(Real);
    if (It != Loaded.end()) {
      D->setImportedFile(It->second);
      return It->second;
    }
    auto Buf = llvm::MemoryBuffer::getFile(C);
    if (!Buf)
      continue;
    uint32_t Id = SM.addBuffer(std::move(*Buf), C);
    Loaded[Real] = Id;
    D->setImportedFile(Id);
    if (++ImportDepth > MaxNestingDepth) {
      Diags.report(D->getRange(), diag::err_nesting_too_deep)
          << MaxNestingDepth;
    } else {
      parseFile(Id);
    }
    --ImportDepth;
    return Id;
  }
  Diags.report(D->getRange(), diag::err_import_not_found) << D->getName();
  return 0;
}

#include "ParseTemplate.inc"
