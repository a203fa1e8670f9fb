//===- ParserImpl.h - the recursive-descent parser's class ------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Parser class, private to lib/Parse and shared by its files: Parser.cpp
/// (translation units, the tree-depth bound, ParseSession), ParseDecl.cpp
/// (types and top-level declarations), ParseStmt.cpp, ParseExpr.cpp and
/// ParseTemplate.cpp (generic functions).
///
/// Every parse function either returns a complete node or returns null after
/// reporting an error, so that Sema never sees a half-built tree. Recursion is
/// bounded by ParseSession::MaxNestingDepth; once that bound (or the error
/// limit) is hit the parser stops reading the file, which guarantees
/// termination with bounded stack on any input.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_PARSE_PARSERIMPL_H
#define BSGP_LIB_PARSE_PARSERIMPL_H

#include "CTypeNames.h"

#include "bsgp/Lex/Lexer.h"
#include "bsgp/Parse/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

namespace bsgp {

class Parser {
public:
  Parser(ParseSession &S, ASTContext &Ctx, DiagnosticEngine &Diags,
         uint32_t FileId, llvm::StringSet<> &Functions, size_t Offset = 0)
      : Session(S), Ctx(Ctx), Diags(Diags), FileId(FileId),
        Lex(FileId, Diags.getSourceManager().getLexBuffer(FileId), Diags),
        Functions(Functions) {
    Lex.seek(Offset);
    Tok = Lex.lex();
    Next = Lex.lex();
  }

  TranslationUnit parseTranslationUnit();
  /// Generic functions (ParseTemplate.cpp).
  FunctionDecl *parseFunctionOnly();

private:
  void parseTemplate(llvm::SmallVectorImpl<Decl *> &Out);
  void parseExplicitSpecialization(SourceLocation Begin,
                                   llvm::SmallVectorImpl<Decl *> &Out);
  Expr *parseTemplateRef();
  /// A template argument: a type, an operator (`+`, `min`, ...) followed
  /// by ',' or '>', or an integer constant expression (a ValueType).
  const Type *parseTemplateArg();
  const Type *parseTemplateValueArg();
  Expr *parseValueParamRef(const ParseSession::ValueParam &P);
  /// An evaluator of integer constant expressions whose names are global
  /// constants and bound value parameters; it sets \p Dependent (if given)
  /// when one names a value parameter of the pattern (which has no value).
  ConstantEvaluator constantEvaluator(bool *Dependent);
  /// The value of \p E if it is an integer constant expression.
  std::optional<IntConstant> evaluateConstant(const Expr *E,
                                              bool *Dependent = nullptr) {
    return constantEvaluator(Dependent).evaluate(E);
  }
  std::optional<bool> decidedCondition(const Expr *C, unsigned UsesBefore);
  /// True if \p Name is a parameter or local variable declared so far in
  /// the enclosing blocks: it hides a template of that name (`g < n`).
  bool isLocalName(llvm::StringRef Name) const {
    return llvm::any_of(LocalNames,
                        [&](const LocalName &L) { return L.first == Name; });
  }
  /// The type of \p E as declared, where the parser can tell it before
  /// Sema (a variable in scope, an element, a field, a cast, a literal), for
  /// `sizeof(expr)` in constant expressions; null otherwise.
  const Type *declaredTypeOf(const Expr *E) const;
  /// getBinaryPrec's level of < > <= >=, which a template argument's
  /// expression stops before.
  static constexpr unsigned RelationalPrec = 7;

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
    if (Next.is(tok::l_paren) &&
        (isBuiltinTypeKw(Tok.Kind) ||
         (Tok.is(tok::identifier) && isCTypeWord(Tok.Text))))
      return false;
    return isTypeStart(Tok) || startsUnknownType();
  }
  /// A name that is no type starts a declaration all the same: C's
  /// spelling of a type (`long`, `size_t`; CTypeNames.h), a struct named
  /// without `struct` (`P q;`, `P *q;`), or any name followed by a name
  /// (`flaot x;`, which no expression is). Variables and functions of that
  /// name are not types.
  bool startsUnknownType() const;
  /// Reads the type name at Tok that is no BSGP keyword or typedef and
  /// returns its type: C's spelling of a BSGP type (`long` is `int64`,
  /// `size_t` `uint64`); otherwise it reports an unknown type name, with
  /// BSGP's nearest spelling where it has one (`unknown type name 'short'
  /// (BSGP has no 16-bit integer type); did you mean 'int'?`), and returns
  /// the type to go on with: the one suggested, or the error type.
  const Type *parseUnknownTypeName();
  /// True if \p Name is a variable or function declared so far, which
  /// hides a C spelling of a type (a variable named `size_t`).
  bool isValueName(llvm::StringRef Name) const {
    return isLocalName(Name) || Functions.count(Name);
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
  /// `[N]...` after a declarator or type name. With \p AllowUnsized the
  /// first may be `[]` (a variable's, a parameter's or a compound
  /// literal's): an array of size 0, which sizeFromInit sizes for a
  /// declaration with a list and Sema for a compound literal or reports (a
  /// parameter's decays anyway).
  const Type *parseArraySuffix(const Type *T, bool AllowUnsized = false);
  /// \p T, an array type whose first size `[]` left out, sized by the
  /// initializer list \p Init (initListArraySize); other types unchanged.
  const Type *sizeFromInit(const Type *T, Expr *Init);
  bool parseSpawnAttributes(unsigned &BlockSize, unsigned &MinBlocks);
  void parseLibraryFunction(llvm::SmallVectorImpl<Decl *> &Out);
  StructType *parseStructBody(StructType *ST, SourceLocation Begin,
                              SourceLocation NameLoc);

  // Declarations.
  void parseTopLevel(llvm::SmallVectorImpl<Decl *> &Out);
  void parseImport(SourceLocation Begin, llvm::SmallVectorImpl<Decl *> &Out);
  void parseTypedef(SourceLocation Begin, llvm::SmallVectorImpl<Decl *> &Out);
  void parseStructDecl(SourceLocation Begin,
                       llvm::SmallVectorImpl<Decl *> &Out);
  Decl *parseFunctionRest(SourceLocation Begin, const Type *Ret,
                          const Token &Name, bool Inline, bool ExternC);
  bool parseVarDeclarators(const Type *Base, SourceLocation Begin,
                           VarDecl::StorageKind S,
                           llvm::SmallVectorImpl<VarDecl *> &Out, bool IsAuto);

  // Statements.
  Stmt *parseStatement();
  Stmt *parseIfStmt(SourceLocation Begin);
  Stmt *parseWhileStmt(SourceLocation Begin);
  Stmt *parseDoStmt(SourceLocation Begin);
  Stmt *parseForStmt(SourceLocation Begin);
  Stmt *parseBreakOrContinue(SourceLocation Begin);
  Stmt *parseReturnStmt(SourceLocation Begin);
  Stmt *parseSpawnStmt(SourceLocation Begin);
  Stmt *parseBarrierStmt(SourceLocation Begin);
  Stmt *parseParStmt(SourceLocation Begin);
  Stmt *parseLocalDeclStmt(SourceLocation Begin);
  CompoundStmt *parseCompound();
  Stmt *parseDeclStmt();

  // Expressions.
  Expr *parseExpression();
  Expr *parseInitList();
  Expr *parseDeclInit(const Type *T, const Token &Name, VarDecl::StorageKind S);
  Expr *parseAssignment();
  Expr *parseConditional();
  Expr *parseBinary(unsigned MinPrec);
  Expr *parseUnary();
  Expr *parsePostfix(Expr *E);
  Expr *parsePrimary();
  Expr *parseCharLiteral();
  Expr *parseStringLiteral(SourceLocation Begin);
  Expr *parseIdentifierExpr(SourceLocation Begin);
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
  /// Set while a template argument is parsed: the only type position where
  /// an operator type (a template parameter bound to `+`, ...) may appear.
  bool AllowOperatorType = false;
  /// Set while the function of `template <>` is parsed: its name takes
  /// template arguments (`f<int>(...)`, an explicit specialization).
  bool InExplicitSpecialization = false;
  /// Names of user functions declared so far (program-wide); a user function
  /// named like a collective (sort_idx in Listing 7) hides the builtin.
  llvm::StringSet<> &Functions;
  /// Value parameters replaced by their argument so far (decidedCondition
  /// compares it before and after a condition).
  unsigned ValueParamUses = 0;
  /// Parameters and local variables of the function being parsed, in the
  /// blocks open at this point (a block truncates it to its size at entry).
  /// Each with its declared type.
  using LocalName = std::pair<llvm::StringRef, const Type *>;
  llvm::SmallVector<LocalName, 16> LocalNames;
  /// The global variables declared so far, with their types.
  llvm::StringMap<const Type *> GlobalTypes;
  /// The StructDecl built by the last parseStructBody().
  StructDecl *LastStruct = nullptr;
  unsigned AnonCounter = 0;
};

} // namespace bsgp

#endif // BSGP_LIB_PARSE_PARSERIMPL_H
