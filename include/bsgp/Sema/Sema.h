//===- Sema.h - BSGP semantic analysis --------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sema resolves names, infers the types of first-assignment locals, inserts
/// ImplicitCastExpr nodes, classifies functions (host, device, collective)
/// and enforces the BSGP context rules (spawn, barrier, require, thread.*,
/// collectives, host-variable writes, divergent barriers). What it guarantees
/// about the AST afterwards is listed at the top of bsgp/AST/AST.h.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_SEMA_SEMA_H
#define BSGP_SEMA_SEMA_H

namespace bsgp {

class ASTContext;
class DiagnosticEngine;

/// Checks every translation unit of \p Ctx (all files of the program at
/// once, so that imported declarations are visible). Returns true when no
/// error was reported.
bool analyzeProgram(ASTContext &Ctx, DiagnosticEngine &Diags);

} // namespace bsgp

#endif // BSGP_SEMA_SEMA_H
