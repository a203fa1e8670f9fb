//===- ASTDumper.h - textual dump of the AST --------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_ASTDUMPER_H
#define BSGP_AST_ASTDUMPER_H

#include "llvm/Support/raw_ostream.h"

namespace bsgp {

class ASTContext;
class SourceManager;

/// Prints every declaration of every translation unit as an indented tree,
/// like clang's -ast-dump: node kind, `<line:col, line:col>` range, names and
/// types.
void dumpAST(ASTContext &Ctx, SourceManager &SM, llvm::raw_ostream &OS);

} // namespace bsgp

#endif // BSGP_AST_ASTDUMPER_H
