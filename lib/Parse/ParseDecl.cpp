//===- ParseDecl.cpp - types and top-level declarations -------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Types (base types, pointers, array suffixes, struct bodies, spawn
/// attributes) and the declarations of a translation unit: imports, typedefs,
/// structs, functions and global variables.
///
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "bsgp/AST/ConstantEval.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

using namespace bsgp;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool Parser::isTypeStart(const Token &T) const {
  if (isBuiltinTypeKw(T.Kind) || T.is(tok::kw_const) || T.is(tok::kw_struct))
    return true;
  if (T.isNot(tok::identifier))
    return false;
  // C's spellings (`(long)x`, `sizeof(size_t)`) are read as types, to be
  // reported as such (parseUnknownTypeName).
  return Session.getTypedefs().count(T.Text) ||
         (isCTypeWord(T.Text) && !isValueName(T.Text));
}

bool Parser::startsUnknownType() const {
  if (Tok.isNot(tok::identifier) || Session.getTypedefs().count(Tok.Text) ||
      isValueName(Tok.Text))
    return false;
  if (isCTypeWord(Tok.Text) || Next.is(tok::identifier))
    return true;
  // `P *q;` with no variable P multiplies nothing.
  return Next.is(tok::star) && Ctx.findStructType(Tok.Text);
}

/// The builtin type or typedef spelt most like \p Name, if one is close
/// enough to be a typo of it (as clang's typo correction judges: at most
/// a third of the letters differ).
static std::optional<std::pair<llvm::StringRef, const Type *>>
correctTypeTypo(llvm::StringRef Name, ASTContext &Ctx,
                const llvm::StringMap<const Type *> &Typedefs) {
  unsigned Best = (Name.size() + 2) / 3 + 1;
  std::optional<std::pair<llvm::StringRef, const Type *>> Found;
  auto Try = [&](llvm::StringRef Candidate, const Type *T) {
    unsigned D = Name.edit_distance(Candidate, /*AllowReplacements=*/true,
                                    /*MaxEditDistance=*/Best - 1);
    if (D < Best && !llvm::isa<OperatorType>(T)) {
      Best = D;
      Found = {Candidate, T};
    }
  };
  using BK = BuiltinType::BuiltinKind;
  for (BK K : {BK::Void, BK::Bool, BK::Char, BK::Int, BK::UInt, BK::Int64,
               BK::UInt64, BK::Float, BK::Double}) {
    const BuiltinType *T = Ctx.getBuiltinType(K);
    Try(Ctx.copyString(T->str()), T);
    if (K == BK::Int || K == BK::UInt || K == BK::Float)
      for (unsigned N = 2; N <= 4; ++N) {
        const Type *V = Ctx.getVectorType(T, N);
        Try(Ctx.copyString(V->str()), V);
      }
  }
  for (const auto &Entry : Typedefs)
    Try(Entry.getKey(), Entry.getValue());
  return Found;
}

const Type *Parser::parseUnknownTypeName() {
  SourceLocation Begin = Tok.Loc;
  // C's type specifiers combine (`unsigned long long int`); any other name
  // is one word.
  bool Specifiers = continuesCTypeName(Tok.Text);
  llvm::SmallVector<llvm::StringRef, 4> Words;
  do {
    Words.push_back(Tok.Text);
    consume();
  } while (Specifiers &&
           (Tok.is(tok::identifier) || isBuiltinTypeKw(Tok.Kind)) &&
           continuesCTypeName(Tok.Text) && !isValueName(Tok.Text));
  SourceRange R = rangeFrom(Begin);
  std::string Written = llvm::join(Words, " ");
  if (const CTypeName *C = lookupCTypeName(Words)) {
    // C's spelling of a BSGP type (`long`, `unsigned int`, `size_t`) is
    // that type, as a C programmer means it; one of a type BSGP lacks
    // (`short`) is an error that goes on with the nearest.
    const Type *T = Ctx.getBuiltinType(C->BSGP);
    if (C->Missing)
      Diags.report(R, diag::err_unknown_type_name_nearest)
          << Written << T->str() << C->Missing
          << FixItHint::replace(R, T->str());
    return T;
  }
  if (Words.size() == 1) {
    if (StructType *ST = Ctx.findStructType(Written)) {
      std::string Tagged = "struct " + Written;
      Diags.report(R, diag::err_unknown_type_name_suggest)
          << Written << Tagged << FixItHint::replace(R, Tagged);
      return ST;
    }
    if (auto Typo = correctTypeTypo(Written, Ctx, Session.getTypedefs())) {
      Diags.report(R, diag::err_unknown_type_name_suggest)
          << Written << Typo->first << FixItHint::replace(R, Typo->first.str());
      return Typo->second;
    }
  }
  Diags.report(R, diag::err_unknown_type_name) << Written;
  return Ctx.getErrorType();
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
  case tok::kw_void:
    T = Ctx.getVoidType();
    break;
  case tok::kw_bool:
    T = Ctx.getBoolType();
    break;
  case tok::kw_char:
    T = Ctx.getCharType();
    break;
  case tok::kw_int:
    T = Ctx.getIntType();
    break;
  case tok::kw_uint:
    T = Ctx.getUIntType();
    break;
  case tok::kw_int64:
    T = Ctx.getBuiltinType(BuiltinType::Int64);
    break;
  case tok::kw_uint64:
    T = Ctx.getBuiltinType(BuiltinType::UInt64);
    break;
  case tok::kw_float:
    T = Ctx.getFloatType();
    break;
  case tok::kw_double:
    T = Ctx.getDoubleType();
    break;
  case tok::kw_int2:
    T = Vec(BuiltinType::Int, 2);
    break;
  case tok::kw_int3:
    T = Vec(BuiltinType::Int, 3);
    break;
  case tok::kw_int4:
    T = Vec(BuiltinType::Int, 4);
    break;
  case tok::kw_uint2:
    T = Vec(BuiltinType::UInt, 2);
    break;
  case tok::kw_uint3:
    T = Vec(BuiltinType::UInt, 3);
    break;
  case tok::kw_uint4:
    T = Vec(BuiltinType::UInt, 4);
    break;
  case tok::kw_float2:
    T = Vec(BuiltinType::Float, 2);
    break;
  case tok::kw_float3:
    T = Vec(BuiltinType::Float, 3);
    break;
  case tok::kw_float4:
    T = Vec(BuiltinType::Float, 4);
    break;
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
      // An operator has no values: outside template arguments a template
      // parameter bound to one is only an operator (reduce(Op, x),
      // Op(a, b)), which the expression parser takes before any type.
      if (auto *OT = llvm::dyn_cast<OperatorType>(T);
          OT && !AllowOperatorType) {
        Diags.report(Tok.getRange(), diag::err_operator_type_use)
            << Tok.Text << OT->getSpelling();
        return nullptr;
      }
      break;
    }
    T = parseUnknownTypeName();
    while (tryConsume(tok::kw_const))
      Const = true;
    return Const && !T->isError() ? Ctx.getConstType(T) : T;
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
      Diags.report(Tok.getRange(), diag::err_spawn_attribute_twice) << Tok.Text;
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

const Type *Parser::sizeFromInit(const Type *T, Expr *Init) {
  auto *AT = llvm::dyn_cast<ArrayType>(T->getUnqualified());
  auto *IL = llvm::dyn_cast_or_null<InitListExpr>(Init);
  if (!AT || AT->getSize() != 0 || !IL)
    return T;
  // Sized here, not in Sema, so that sizeof of the array is known to the
  // array sizes and constants after it. An empty list stays unsized for
  // Sema to report.
  uint64_t N = initListArraySize(IL, AT);
  return N ? Ctx.getArrayType(AT->getElementType(), N) : T;
}

const Type *Parser::parseArraySuffix(const Type *T, bool AllowUnsized) {
  llvm::SmallVector<uint64_t, 2> Dims;
  while (Tok.is(tok::l_square)) {
    consume();
    if (AllowUnsized && Dims.empty() && tryConsume(tok::r_square)) {
      Dims.push_back(0);
      continue;
    }
    // An integer constant expression (ConstantEval.h): a literal, a global
    // constant, sizeof, and operators on them.
    SourceLocation SizeBegin = Tok.Loc;
    Expr *Size = parseConditional();
    if (!Size)
      return nullptr;
    bool Dependent = false;
    ConstantEvaluator Eval = constantEvaluator(&Dependent);
    std::optional<IntConstant> V = Eval.evaluate(Size);
    uint64_t N = 1;
    // A size of the pattern's value parameters is known per instantiation.
    if (!Dependent) {
      Eval.reportOverflow(Diags, /*AsError=*/false);
      if (!V || V->isNegative() || V->isZero() || V->getBits() > (1u << 30)) {
        // Go on with one element, so that the variable is still declared.
        Diags.report(rangeFrom(SizeBegin), diag::err_array_size_not_const);
        Eval.reportFailure(Diags);
      } else {
        N = V->getBits();
      }
    }
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

/// `import "file";`: the file is parsed now, so that its typedefs and
/// structs are known to the rest of this one.
void Parser::parseImport(SourceLocation Begin,
                         llvm::SmallVectorImpl<Decl *> &Out) {
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

/// `typedef T name;`, where T may be a struct definition, named or not.
void Parser::parseTypedef(SourceLocation Begin,
                          llvm::SmallVectorImpl<Decl *> &Out) {
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
        SName =
            Ctx.copyString("__anon_struct_" + std::to_string(AnonCounter++));
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

/// At `struct S`: a definition, a forward declaration or variables of type
/// S (or S*).
void Parser::parseStructDecl(SourceLocation Begin,
                             llvm::SmallVectorImpl<Decl *> &Out) {
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
  // `struct S f(...)` and `struct S *f(...)`: a function.
  if (Tok.is(tok::identifier) && Next.is(tok::l_paren)) {
    Token FnName = Tok;
    consume();
    if (Decl *D = parseFunctionRest(Begin, T, FnName, /*Inline=*/false,
                                    /*ExternC=*/false))
      Out.push_back(D);
    return;
  }
  llvm::SmallVector<VarDecl *, 2> Vars;
  if (parseVarDeclarators(T, Begin, VarDecl::Global, Vars, false))
    expect(tok::semi);
  else
    skipToStmtEnd();
  Out.append(Vars.begin(), Vars.end());
  return;
}

/// `[[library(kind)]]` or `[[library(kind, op)]]` and the function it
/// precedes: what that function of the collective library is to the
/// compiler (MLIRGen turns it into #bsgp.library<kind>, which also checks
/// the kind), and the operator it is for, if only one. Programs cannot use
/// it.
void Parser::parseLibraryFunction(llvm::SmallVectorImpl<Decl *> &Out) {
  SourceRange Range = Tok.getRange();
  if (!Ctx.isLibraryFile(FileId))
    Diags.report(Range, diag::err_library_attribute);
  consume();
  consume();
  if (Tok.isNot(tok::identifier) || Tok.Text != "library" ||
      Next.isNot(tok::l_paren)) {
    Diags.report(Tok.getRange(), diag::err_expected) << "'library('";
    skipToStmtEnd();
    return;
  }
  consume();
  consume();
  if (Tok.isNot(tok::identifier)) {
    Diags.report(Tok.getRange(), diag::err_expected) << "a library kind";
    skipToStmtEnd();
    return;
  }
  llvm::StringRef Kind = Ctx.copyString(Tok.Text);
  consume();
  // `[[library(kind, op)]]`: the function is the primitive's for that
  // operator alone.
  llvm::StringRef Op;
  if (tryConsume(tok::comma)) {
    using BK = BuiltinCallExpr;
    bool IsOp = false;
    for (int O = BK::OpAdd; O <= BK::OpXor; ++O)
      IsOp |= Tok.Text == BK::getOpSpelling(BK::ReduceOp(O));
    if (!IsOp) {
      Diags.report(Tok.getRange(), diag::err_expected)
          << "an operator of reduce";
      skipToStmtEnd();
      return;
    }
    Op = Ctx.copyString(Tok.Text);
    consume();
  }
  if (!expect(tok::r_paren) || !expect(tok::r_square) ||
      !expect(tok::r_square)) {
    skipToStmtEnd();
    return;
  }
  size_t NumBefore = Out.size();
  parseTopLevel(Out);
  auto *F = Out.size() == NumBefore + 1
                ? llvm::dyn_cast<FunctionDecl>(Out.back())
                : nullptr;
  if (!F) {
    Diags.report(Range, diag::err_library_attribute_not_function);
    return;
  }
  F->setLibraryKind(Kind);
  F->setLibraryOp(Op);
}

void Parser::parseTopLevel(llvm::SmallVectorImpl<Decl *> &Out) {
  SourceLocation Begin = Tok.Loc;
  if (tryConsume(tok::semi))
    return;
  if (Tok.is(tok::l_square) && Next.is(tok::l_square))
    return parseLibraryFunction(Out);
  if (Tok.is(tok::identifier) && Tok.Text == "template" && Next.is(tok::less))
    return parseTemplate(Out);
  if (Tok.is(tok::kw_import))
    return parseImport(Begin, Out);
  if (Tok.is(tok::kw_typedef))
    return parseTypedef(Begin, Out);
  if (Tok.is(tok::kw_struct) && Next.is(tok::identifier))
    return parseStructDecl(Begin, Out);

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
  if (!isTypeStart(Tok) && Tok.isNot(tok::kw_auto) && !startsUnknownType()) {
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
    if (InExplicitSpecialization && Tok.is(tok::identifier) &&
        Next.is(tok::less)) {
      // `template <> R f<A, B>(...)`: the arguments, then the function.
      Token Name = Tok;
      consume();
      consume(); // <
      llvm::SmallVector<const Type *, 2> Args;
      do {
        const Type *A = parseTemplateArg();
        if (!A)
          return skipToStmtEnd();
        Args.push_back(A);
      } while (tryConsume(tok::comma));
      if (!expect(tok::greater, "'>' after the template arguments") ||
          Tok.isNot(tok::l_paren)) {
        if (Tok.isNot(tok::l_paren))
          Diags.report(Tok.getRange(), diag::err_expected)
              << "'(' after the specialized function's name";
        return skipToStmtEnd();
      }
      if (auto *F = llvm::dyn_cast_or_null<FunctionDecl>(
              parseFunctionRest(Begin, T, Name, Inline, ExternC))) {
        F->setSpecializationArgs(Ctx.copyArray<const Type *>(Args));
        Out.push_back(F);
      }
      return;
    }
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
      const Type *VT = parseArraySuffix(T, /*AllowUnsized=*/true);
      Expr *Init = nullptr;
      if (VT && tryConsume(tok::equal)) {
        Init = parseDeclInit(VT, Name, VarDecl::Global);
        if (!Init)
          VT = nullptr;
      }
      if (VT)
        VT = sizeFromInit(VT, Init);
      if (VT) {
        Vars.push_back(new (Ctx) VarDecl(rangeFrom(Begin), Name.Loc,
                                         Ctx.copyString(Name.Text), VT, Init,
                                         VarDecl::Global));
        GlobalTypes[Vars.back()->getName()] = VT;
      } else
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
  LocalNames.clear();
  llvm::scope_exit ClearLocals([&] { LocalNames.clear(); });
  llvm::SmallVector<VarDecl *, 4> Params;
  bool Varargs = false;
  if (Tok.is(tok::kw_void) && Next.is(tok::r_paren))
    consume();
  SourceRange Ellipsis;
  while (Tok.isNot(tok::r_paren) && Tok.isNot(tok::eof)) {
    if (Tok.is(tok::ellipsis)) {
      if (!ExternC)
        Diags.report(Tok.getRange(), diag::err_varargs_not_extern);
      Ellipsis = Tok.getRange();
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
    T = parseArraySuffix(T, /*AllowUnsized=*/true);
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
    LocalNames.push_back({Params.back()->getName(), Params.back()->getType()});
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
    // A variadic function is C's, declared only (BSGP has no va_arg).
    if (Varargs && ExternC)
      Diags.report(Ellipsis, diag::err_varargs_not_extern);
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

/// The initializer after `=` of variable \p Name of type \p T (null for
/// auto): an expression or an initializer list. A global integer constant
/// (`const int N = 4;`) is remembered, as array sizes after it may use it.
Expr *Parser::parseDeclInit(const Type *T, const Token &Name,
                            VarDecl::StorageKind S) {
  Expr *Init = Tok.is(tok::l_brace) ? parseInitList() : parseAssignment();
  auto *B = T ? llvm::dyn_cast<BuiltinType>(T->getUnqualified()) : nullptr;
  // Sema reports what is wrong with the initializer.
  if (Init && B && S == VarDecl::Global && T->isConst() && B->isInteger())
    if (std::optional<IntConstant> V = evaluateConstant(Init))
      Session.defineConstant(Ctx.copyString(Name.Text),
                             V->convert(B->getBuiltinKind()));
  return Init;
}

/// `{a, b, {c, d}, }`: an initializer list, nested for arrays of arrays.
Expr *Parser::parseInitList() {
  SourceLocation Begin = Tok.Loc;
  consume(); // '{'
  llvm::SmallVector<Expr *, 8> Inits;
  while (Tok.isNot(tok::r_brace)) {
    Expr *E = Tok.is(tok::l_brace) ? parseInitList() : parseAssignment();
    if (!E)
      return nullptr;
    Inits.push_back(E);
    if (!tryConsume(tok::comma))
      break;
  }
  if (!expect(tok::r_brace, "'}' or ',' in the initializer list"))
    return nullptr;
  return new (Ctx) InitListExpr(rangeFrom(Begin), Ctx.copyArray<Expr *>(Inits));
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
      T = parseArraySuffix(T, /*AllowUnsized=*/true);
      if (!T)
        return false;
    }
    Expr *Init = nullptr;
    if (tryConsume(tok::equal)) {
      Init = parseDeclInit(T, Name, S);
      if (!Init)
        return false;
    } else if (IsAuto) {
      Diags.report(Name.getRange(), diag::err_auto_needs_init);
      return false;
    }
    if (!IsAuto)
      T = sizeFromInit(T, Init);
    auto *V = new (Ctx) VarDecl(rangeFrom(Begin), Name.Loc,
                                Ctx.copyString(Name.Text), T, Init, S);
    if (S != VarDecl::Global)
      LocalNames.push_back({V->getName(), T});
    else
      GlobalTypes[V->getName()] = T;
    V->setAuto(IsAuto);
    Out.push_back(V);
  } while (tryConsume(tok::comma));
  return true;
}
