//===- FallOffEnd.h - -Wreturn-type's control flow --------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Whether control can reach the end of a function's body, which a non-void
// function must not (clang's -Wreturn-type). BSGP's control flow is
// structured (no goto, no switch), so the question is answered on the
// checked AST, statement by statement, with what clang's CFG would give.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_SEMA_FALLOFFEND_H
#define BSGP_LIB_SEMA_FALLOFFEND_H

namespace bsgp {

class CompoundStmt;

/// How the end of a function body is reached.
enum class FallOff {
  /// Every path returns, or loops forever.
  Never,
  /// Some paths return, others reach the end.
  Sometimes,
  /// No reachable return; the end is reached (or the body is empty).
  Always,
};

/// Follows every path through \p Body. A condition that is an integer
/// constant expression (`while (1)`, `for (;;)`, `if (0)`, a value
/// parameter's test in an instantiation) takes only the branch it selects;
/// any other condition may go either way.
FallOff analyzeFallOff(const CompoundStmt *Body);

} // namespace bsgp

#endif // BSGP_LIB_SEMA_FALLOFFEND_H
