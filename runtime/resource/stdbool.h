//===- stdbool.h - C's booleans for BSGP ----------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <stdbool.h>` in a BSGP program: `bool`, `true` and `false` are
// BSGP's own, so there is nothing to declare.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_STDBOOL_H
#define BSGP_STDBOOL_H

#define __bool_true_false_are_defined 1

#endif // BSGP_STDBOOL_H
