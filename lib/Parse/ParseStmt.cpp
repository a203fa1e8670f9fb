//===- ParseStmt.cpp - statement parsing ----------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Blocks, declaration statements and every other statement: control
/// flow, spawn, require, par, barrier and `local` declarations.
///
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/ScopeExit.h"

#include <algorithm>

using namespace bsgp;

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
  size_t Locals = LocalNames.size();
  llvm::scope_exit CloseScope(
      [&] { LocalNames.truncate(std::min(Locals, LocalNames.size())); });
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

Stmt *Parser::parseIfStmt(SourceLocation Begin) {
  consume();
  if (!expect(tok::l_paren)) {
    skipToStmtEnd();
    return nullptr;
  }
  unsigned Uses = ValueParamUses;
  Expr *C = parseExpression();
  if (!C || !expect(tok::r_paren)) {
    skipToStmtEnd();
    return nullptr;
  }
  std::optional<bool> Decided = decidedCondition(C, Uses);
  Stmt *Then = parseStatement();
  Stmt *Else = nullptr;
  bool ElseOk = true;
  if (tryConsume(tok::kw_else)) {
    Else = parseStatement();
    ElseOk = Else != nullptr;
  }
  if (!Then || !ElseOk)
    return nullptr;
  // Only the branch taken stays (ParseTemplate.cpp, decidedCondition), in
  // a block of its own as a branch is.
  if (Decided) {
    Stmt *Taken = *Decided ? Then : Else;
    if (!Taken)
      return new (Ctx) CompoundStmt(rangeFrom(Begin), {});
    return new (Ctx) CompoundStmt(rangeFrom(Begin),
                                  Ctx.copyArray<Stmt *>(llvm::ArrayRef(Taken)));
  }
  return new (Ctx) IfStmt(rangeFrom(Begin), C, Then, Else);
}

Stmt *Parser::parseWhileStmt(SourceLocation Begin) {
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

Stmt *Parser::parseDoStmt(SourceLocation Begin) {
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

Stmt *Parser::parseForStmt(SourceLocation Begin) {
  consume();
  // The init's variables are the loop's.
  size_t Locals = LocalNames.size();
  llvm::scope_exit CloseScope(
      [&] { LocalNames.truncate(std::min(Locals, LocalNames.size())); });
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

Stmt *Parser::parseBreakOrContinue(SourceLocation Begin) {
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

Stmt *Parser::parseReturnStmt(SourceLocation Begin) {
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

/// `spawn (n) [attributes] { ... }`, `spawn (nx, ny) ...`,
/// `spawn (nx, ny, nz) ...`.
Stmt *Parser::parseSpawnStmt(SourceLocation Begin) {
  consume();
  SourceLocation Open = Tok.getRange().Begin;
  llvm::SmallVector<Expr *, 3> Extents;
  if (!parseArgs(Extents)) {
    skipToStmtEnd();
    return nullptr;
  }
  if (Extents.empty() || Extents.size() > 3) {
    Diags.report(SourceRange(Open, PrevEnd), diag::err_spawn_dims)
        << unsigned(Extents.size());
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
  auto *Spawn = new (Ctx)
      SpawnStmt(rangeFrom(Begin), Ctx.copyArray<Expr *>(Extents), Body);
  Spawn->setBlockSize(BlockSize);
  Spawn->setMinBlocks(MinBlocks);
  return Spawn;
}

/// `barrier;` or `barrier(RANK_REASSIGNED);`.
Stmt *Parser::parseBarrierStmt(SourceLocation Begin) {
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

Stmt *Parser::parseParStmt(SourceLocation Begin) {
  consume();
  if (Tok.isNot(tok::l_brace)) {
    Diags.report(Tok.getRange(), diag::err_expected_after) << "'{'" << "'par'";
    skipToStmtEnd();
    return nullptr;
  }
  CompoundStmt *Body = parseCompound();
  if (!Body)
    return nullptr;
  return new (Ctx) ParStmt(rangeFrom(Begin), Body);
}

/// `local T x...;`: a declaration of work-group local variables.
Stmt *Parser::parseLocalDeclStmt(SourceLocation Begin) {
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

/// Dispatches on the first token of the statement; each parseXStmt(Begin)
/// below is called at its keyword, \p Begin being the keyword's location.
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
  case tok::kw_if:
    return parseIfStmt(Begin);
  case tok::kw_while:
    return parseWhileStmt(Begin);
  case tok::kw_do:
    return parseDoStmt(Begin);
  case tok::kw_for:
    return parseForStmt(Begin);
  case tok::kw_break:
  case tok::kw_continue:
    return parseBreakOrContinue(Begin);
  case tok::kw_return:
    return parseReturnStmt(Begin);
  case tok::kw_spawn:
    return parseSpawnStmt(Begin);
  case tok::kw_barrier:
    return parseBarrierStmt(Begin);
  case tok::kw_require: {
    consume();
    Stmt *Body = parseStatement();
    if (!Body)
      return nullptr;
    return new (Ctx) RequireStmt(rangeFrom(Begin), Body);
  }
  case tok::kw_par:
    return parseParStmt(Begin);
  case tok::kw_ddelete: {
    consume();
    Expr *List = parseExpression();
    if (!List || !expect(tok::semi)) {
      skipToStmtEnd();
      return nullptr;
    }
    return new (Ctx) DeleteStmt(rangeFrom(Begin), List);
  }
  case tok::kw_import:
    Diags.report(Tok.getRange(), diag::err_import_not_top);
    skipToStmtEnd();
    return nullptr;
  case tok::kw_auto:
    return parseDeclStmt();
  case tok::kw_local:
    return parseLocalDeclStmt(Begin);
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
