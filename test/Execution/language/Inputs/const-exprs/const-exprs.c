/* The oracle of const-exprs.bsgp: the expressions of exprs.def as C
   evaluates them, with BSGP's integer types as C's (LP64: int64 is long
   long, uint64 unsigned long long). A template value argument is its
   value converted to the parameter's type, and an instantiation a
   function of that value, so a C function taking V computes what the
   instantiation folds. */
#include <stdbool.h>
#include <stdio.h>

typedef unsigned int uint;
typedef long long int64;
typedef unsigned long long uint64;
typedef unsigned short ushort;
typedef unsigned char uchar;

#define PRINT(N, V) printf("%s %llu\n", #N, (uint64)(V));

#define CE_CONST(N, T, E)
#define CE_SIZE(N, E)
#define CE_ARG(N, T, E)
#define CE_IF(N, T, A, C)                                                      \
  static uint64 N##_f(T V) {                                                   \
    if (C)                                                                     \
      return 1;                                                                \
    else                                                                       \
      return 2;                                                                \
  }
#define CE_SEL(N, T, A, E)                                                     \
  static uint64 N##_f(T V) { return (uint64)(E); }
#define CE_TSIZE(N, T, A, E)                                                   \
  static uint64 N##_f(T V) {                                                   \
    int a[E];                                                                  \
    return sizeof(a) / sizeof(int);                                            \
  }
#define CE_RT(N, E)
#include "exprs.def"
#undef CE_CONST
#undef CE_SIZE
#undef CE_ARG
#undef CE_IF
#undef CE_SEL
#undef CE_TSIZE
#undef CE_RT

int main(void) {
  /* The constants are locals here (C's constant expressions cannot name a
     const variable); their uses then compute at run time, in C's types. */
#define CE_CONST(N, T, E)                                                      \
  const T N = E;                                                               \
  PRINT(N, N)
#define CE_SIZE(N, E)                                                          \
  {                                                                            \
    int a[E];                                                                  \
    PRINT(N, sizeof(a) / sizeof(int))                                          \
  }
#define CE_ARG(N, T, E) PRINT(N, (T)(E))
#define CE_IF(N, T, A, C) PRINT(N, N##_f(A))
#define CE_SEL(N, T, A, E) PRINT(N, N##_f(A))
#define CE_TSIZE(N, T, A, E) PRINT(N, N##_f(A))
#define CE_RT(N, E) PRINT(N, E)
#include "exprs.def"
#undef CE_CONST
#undef CE_SIZE
#undef CE_ARG
#undef CE_IF
#undef CE_SEL
#undef CE_TSIZE
#undef CE_RT
  /* The device's values: the same expressions again. */
#define CE_CONST(N, T, E)
#define CE_SIZE(N, E)
#define CE_ARG(N, T, E)
#define CE_IF(N, T, A, C)
#define CE_SEL(N, T, A, E)
#define CE_TSIZE(N, T, A, E)
#define CE_RT(N, E) PRINT(N, E)
#include "exprs.def"
  return 0;
}
