//===- ParseExpr.cpp - expression parsing ---------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Precedence climbing for binary operators, then unary, postfix and
/// primary expressions, including literals and the builtin forms (thread.*,
/// group.*, target queries, collectives).
///
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstdlib>

using namespace bsgp;

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
    L = new (Ctx)
        BinaryOperator(rangeFrom(Begin), BinaryOperator::Comma, L, R, OpLoc);
  }
  return L;
}

static bool getAssignOp(tok::Kind K, BinaryOperator::Opcode &Op) {
  using B = BinaryOperator;
  switch (K) {
  case tok::equal:
    Op = B::Assign;
    return true;
  case tok::starequal:
    Op = B::MulAssign;
    return true;
  case tok::slashequal:
    Op = B::DivAssign;
    return true;
  case tok::percentequal:
    Op = B::RemAssign;
    return true;
  case tok::plusequal:
    Op = B::AddAssign;
    return true;
  case tok::minusequal:
    Op = B::SubAssign;
    return true;
  case tok::lesslessequal:
    Op = B::ShlAssign;
    return true;
  case tok::greatergreaterequal:
    Op = B::ShrAssign;
    return true;
  case tok::ampequal:
    Op = B::AndAssign;
    return true;
  case tok::caretequal:
    Op = B::XorAssign;
    return true;
  case tok::pipeequal:
    Op = B::OrAssign;
    return true;
  default:
    return false;
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
  unsigned Uses = ValueParamUses;
  Expr *C = parseBinary(1);
  if (!C || Tok.isNot(tok::question))
    return C;
  std::optional<bool> Decided = decidedCondition(C, Uses);
  consume();
  Expr *T = parseExpression();
  if (!T || !expect(tok::colon))
    return nullptr;
  Expr *F = parseAssignment();
  if (!F)
    return nullptr;
  auto *Cond = new (Ctx) ConditionalOperator(rangeFrom(Begin), C, T, F);
  if (!Decided)
    return Cond;
  // `Spirv ? target.spirv : target.cpu` in an instantiation is the target
  // query itself, which Sema and the target folding know. Where both arms
  // are integer constants, the arm taken keeps the type C gives the whole
  // (`B ? -1 : 0u` is a uint).
  Expr *Taken = *Decided ? T : F;
  std::optional<IntConstant> Whole = evaluateConstant(Cond);
  std::optional<IntConstant> Arm = evaluateConstant(Taken);
  if (Whole && Arm && Whole->getKind() != Arm->getKind())
    Taken = new (Ctx) CastExpr(Taken->getRange(),
                               Ctx.getBuiltinType(Whole->getKind()), Taken);
  return new (Ctx) ParenExpr(rangeFrom(Begin), Taken);
}

/// C binary precedence: 1 is ||, 10 is * / %.
static unsigned getBinaryPrec(tok::Kind K, BinaryOperator::Opcode &Op) {
  using B = BinaryOperator;
  switch (K) {
  case tok::pipepipe:
    Op = B::LOr;
    return 1;
  case tok::ampamp:
    Op = B::LAnd;
    return 2;
  case tok::pipe:
    Op = B::Or;
    return 3;
  case tok::caret:
    Op = B::Xor;
    return 4;
  case tok::amp:
    Op = B::And;
    return 5;
  case tok::equalequal:
    Op = B::EQ;
    return 6;
  case tok::exclaimequal:
    Op = B::NE;
    return 6;
  case tok::less:
    Op = B::LT;
    return 7;
  case tok::greater:
    Op = B::GT;
    return 7;
  case tok::lessequal:
    Op = B::LE;
    return 7;
  case tok::greaterequal:
    Op = B::GE;
    return 7;
  case tok::lessless:
    Op = B::Shl;
    return 8;
  case tok::greatergreater:
    Op = B::Shr;
    return 8;
  case tok::plus:
    Op = B::Add;
    return 9;
  case tok::minus:
    Op = B::Sub;
    return 9;
  case tok::star:
    Op = B::Mul;
    return 10;
  case tok::slash:
    Op = B::Div;
    return 10;
  case tok::percent:
    Op = B::Rem;
    return 10;
  default:
    return 0;
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
  case tok::plus:
    Op = U::Plus;
    break;
  case tok::minus:
    Op = U::Minus;
    break;
  case tok::exclaim:
    Op = U::Not;
    break;
  case tok::tilde:
    Op = U::BitNot;
    break;
  case tok::star:
    Op = U::Deref;
    break;
  case tok::amp:
    Op = U::AddrOf;
    break;
  case tok::plusplus:
    Op = U::PreInc;
    break;
  case tok::minusminus:
    Op = U::PreDec;
    break;
  default:
    IsUnary = false;
    break;
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
  // Cast: `(type) expr`, and C99's compound literal `(type){...}`, a cast
  // of an initializer list.
  if (Tok.is(tok::l_paren) && isTypeStart(Next)) {
    consume();
    const Type *T = parseTypeName();
    // `(int[]){1, 2}`, `(float[4]){0}`: an array compound literal.
    if (T && Tok.is(tok::l_square))
      T = parseArraySuffix(T, /*AllowUnsized=*/true);
    if (!T || !expect(tok::r_paren))
      return nullptr;
    if (Tok.is(tok::l_brace)) {
      Expr *List = parseInitList();
      if (!List)
        return nullptr;
      return parsePostfix(new (Ctx) CastExpr(rangeFrom(Begin), T, List));
    }
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
      E = new (Ctx)
          MemberExpr(rangeFrom(Begin), E, Ctx.copyString(M.Text), Arrow, M.Loc);
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
  while (SuffixStart > 0 &&
         (Text[SuffixStart - 1] == 'u' || Text[SuffixStart - 1] == 'U' ||
          Text[SuffixStart - 1] == 'l' || Text[SuffixStart - 1] == 'L'))
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
  // `0` is decimal; `0x1f`, `0b101` and `017` are not (C types them
  // differently).
  bool Decimal = Digits.size() == 1 || Digits[0] != '0';
  return new (Ctx) IntegerLiteral(T.getRange(), V, Unsigned, Long, Decimal);
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
    case 'n':
      Out.push_back('\n');
      break;
    case 't':
      Out.push_back('\t');
      break;
    case 'r':
      Out.push_back('\r');
      break;
    case '0':
      Out.push_back('\0');
      break;
    case 'a':
      Out.push_back('\a');
      break;
    case 'b':
      Out.push_back('\b');
      break;
    case 'f':
      Out.push_back('\f');
      break;
    case 'v':
      Out.push_back('\v');
      break;
    case '\\':
    case '\'':
    case '"':
    case '?':
      Out.push_back(E);
      break;
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
  // An operator named by a type (a template parameter bound to `+`): Sema
  // checks that it is one.
  const Type *OpType = nullptr;
  SourceRange OpRange;
  if (BuiltinCallExpr::hasReduceOp(K)) {
    OpRange = Tok.getRange();
    switch (Tok.Kind) {
    case tok::plus:
      Op = BuiltinCallExpr::OpAdd;
      break;
    case tok::star:
      Op = BuiltinCallExpr::OpMul;
      break;
    case tok::amp:
      Op = BuiltinCallExpr::OpAnd;
      break;
    case tok::pipe:
      Op = BuiltinCallExpr::OpOr;
      break;
    case tok::caret:
      Op = BuiltinCallExpr::OpXor;
      break;
    case tok::identifier:
      if (Tok.Text == "min")
        Op = BuiltinCallExpr::OpMin;
      else if (Tok.Text == "max")
        Op = BuiltinCallExpr::OpMax;
      else if (auto It = Session.getTypedefs().find(Tok.Text);
               It != Session.getTypedefs().end())
        OpType = It->second;
      break;
    default:
      break;
    }
    if (Op == BuiltinCallExpr::None && !OpType) {
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
  auto *B = new (Ctx) BuiltinCallExpr(rangeFrom(Begin), K, Op, OpRange,
                                      Ctx.copyArray<Expr *>(Args));
  B->setOperatorTypeArg(OpType);
  return B;
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
                 .Case("x", ThreadAttrExpr::X)
                 .Case("y", ThreadAttrExpr::Y)
                 .Case("z", ThreadAttrExpr::Z)
                 .Case("nx", ThreadAttrExpr::NX)
                 .Case("ny", ThreadAttrExpr::NY)
                 .Case("nz", ThreadAttrExpr::NZ)
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
  std::optional<Target> T = parseTargetName(M.Text);
  if (!T) {
    Diags.report(M.getRange(), diag::err_bad_target_query) << M.Text;
    return nullptr;
  }
  return new (Ctx) TargetQueryExpr(rangeFrom(Begin), *T);
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
                     .Case("threads", GE::GroupThreads)
                     .Case("barrier", GE::GroupBarrier)
                     .Default(-1);
  if (Op < 0) {
    Diags.report(M.getRange(), diag::err_bad_group_member)
        << Base << M.Text
        << (Sub ? "rank, size, shuffle, shuffle_xor, shuffle_up, "
                  "shuffle_down, any, all, ballot, add, min, max, and, or, "
                  "xor or match"
                : "rank, size, id, count, threads or barrier");
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

Expr *Parser::parseCharLiteral() {
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

Expr *Parser::parseStringLiteral(SourceLocation Begin) {
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

/// An identifier: `target.*`, an atomic or collective builtin called by name
/// (unless a user function hides it), or a reference to a declaration.
Expr *Parser::parseIdentifierExpr(SourceLocation Begin) {
  Token Name = Tok;
  if (Name.Text == "target" && Next.is(tok::period))
    return parseTargetQuery();
  if (const ParseSession::ValueParam *P = Session.lookupValueParam(Name.Text))
    if (P->Value)
      return parseValueParamRef(*P);
  if (Next.is(tok::less) && Session.isTemplateName(FileId, Name.Text) &&
      !isLocalName(Name.Text))
    return parseTemplateRef();
  // `T(x)` with a typedef name, as `int(x)`: in a generic function a
  // functional cast to a type parameter, or `Op(a, b)`, an operator type
  // applied to two values.
  if (Next.is(tok::l_paren)) {
    auto It = Session.getTypedefs().find(Name.Text);
    if (It != Session.getTypedefs().end()) {
      const Type *T = It->second;
      consume();
      llvm::SmallVector<Expr *, 2> Args;
      if (!parseArgs(Args))
        return nullptr;
      return new (Ctx)
          ConstructExpr(rangeFrom(Begin), T, Ctx.copyArray<Expr *>(Args));
    }
  }
  // `long(x)`, `size_t(x)`: a functional cast with C's spelling of a type,
  // reported as one (parseUnknownTypeName) and read with BSGP's.
  if (Next.is(tok::l_paren) && isCTypeWord(Name.Text) &&
      !isValueName(Name.Text)) {
    const Type *T = parseUnknownTypeName();
    llvm::SmallVector<Expr *, 2> Args;
    if (!parseArgs(Args))
      return nullptr;
    return new (Ctx)
        ConstructExpr(rangeFrom(Begin), T, Ctx.copyArray<Expr *>(Args));
  }
  if (Next.is(tok::l_paren) && !Functions.count(Name.Text)) {
    // Builtins called like functions: the atomics and min/max/clamp/abs.
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
                .Case("__threadfence", AtomicExpr::Fence)
                .Default(-1);
    int M = llvm::StringSwitch<int>(Name.Text)
                .Case("min", MathBuiltinExpr::Min)
                .Case("max", MathBuiltinExpr::Max)
                .Case("clamp", MathBuiltinExpr::Clamp)
                .Case("abs", MathBuiltinExpr::Abs)
                .Default(-1);
    if (A >= 0 || M >= 0) {
      consume();
      llvm::SmallVector<Expr *, 3> Args;
      if (!parseArgs(Args))
        return nullptr;
      auto Copied = Ctx.copyArray<Expr *>(Args);
      if (A >= 0)
        return new (Ctx)
            AtomicExpr(rangeFrom(Begin), AtomicExpr::AtomicOp(A), Copied);
      return new (Ctx)
          MathBuiltinExpr(rangeFrom(Begin), MathBuiltinExpr::MathOp(M), Copied);
    }
  }
  if (Next.is(tok::l_paren) && !Functions.count(Name.Text)) {
    int K =
        llvm::StringSwitch<int>(Name.Text)
            .Case("reduce", BuiltinCallExpr::Reduce)
            .Case("scan", BuiltinCallExpr::Scan)
            .Case("segreduce", BuiltinCallExpr::SegReduce)
            .Case("segscan", BuiltinCallExpr::SegScan)
            .Case("compact", BuiltinCallExpr::Compact)
            .Case("split", BuiltinCallExpr::Split)
            .Case("sort_idx", BuiltinCallExpr::SortIdx)
            .Case("__bsgp_chunk_reduce", BuiltinCallExpr::ChunkReduce)
            .Case("__bsgp_chunk_scan", BuiltinCallExpr::ChunkScan)
            .Case("__bsgp_group_lookback", BuiltinCallExpr::GroupLookback)
            .Case("__bsgp_single_pass", BuiltinCallExpr::SinglePass)
            .Case("__bsgp_native_reduce", BuiltinCallExpr::NativeReduce)
            .Case("__bsgp_native_scan_exclusive",
                  BuiltinCallExpr::NativeScanExclusive)
            .Case("__bsgp_native_sort_pairs", BuiltinCallExpr::NativeSortPairs)
            .Default(-1);
    if (K >= 0) {
      // The chunk builtins are exact only where the library puts them
      // (straight-line code under `if (target.cpu)`), so programs cannot
      // call them.
      if (BuiltinCallExpr::isLibraryOnly(BuiltinCallExpr::BuiltinKind(K)) &&
          !Ctx.isLibraryFile(FileId))
        Diags.report(Name.getRange(), diag::err_library_builtin) << Name.Text;
      consume();
      return parseCollective(BuiltinCallExpr::BuiltinKind(K), Name.Loc);
    }
  }
  consume();
  return new (Ctx) DeclRefExpr(Name.getRange(), Ctx.copyString(Name.Text));
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
  case tok::char_literal:
    return parseCharLiteral();
  case tok::string_literal:
    return parseStringLiteral(Begin);
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
  case tok::identifier:
    return parseIdentifierExpr(Begin);
  default:
    break;
  }
  if (isBuiltinTypeKw(Tok.Kind) && Next.is(tok::l_paren)) {
    const Type *T = parseBaseType();
    llvm::SmallVector<Expr *, 4> Args;
    if (!T || !parseArgs(Args))
      return nullptr;
    return new (Ctx)
        ConstructExpr(rangeFrom(Begin), T, Ctx.copyArray<Expr *>(Args));
  }
  if (!Aborted)
    Diags.report(Tok.getRange(), diag::err_expected_expr);
  return nullptr;
}
