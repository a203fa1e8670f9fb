//===- stdlib.h - C's general utilities for BSGP --------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <stdlib.h>` in a BSGP program declares the C library's memory,
// conversion, integer division, random-number and environment functions
// that host code calls. abs is BSGP's own (every integer and float type) and
// needs no declaration.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_STDLIB_H
#define BSGP_STDLIB_H

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647

extern "C" void *malloc(uint64 bytes);
extern "C" void *calloc(uint64 n, uint64 size);
extern "C" void *realloc(void *p, uint64 bytes);
extern "C" void free(void *p);
extern "C" int atoi(const char *s);
extern "C" double atof(const char *s);
extern "C" long atol(const char *s);
extern "C" long strtol(const char *s, char **end, int base);
extern "C" unsigned long strtoul(const char *s, char **end, int base);
extern "C" long long strtoll(const char *s, char **end, int base);
extern "C" unsigned long long strtoull(const char *s, char **end, int base);
extern "C" double strtod(const char *s, char **end);
extern "C" float strtof(const char *s, char **end);
extern "C" long labs(long x);
// Structs by value, passed as C's ABI does (docs/language.md, "Structs").
typedef struct {
  int quot;
  int rem;
} div_t;
typedef struct {
  long quot;
  long rem;
} ldiv_t;
typedef struct {
  long long quot;
  long long rem;
} lldiv_t;
extern "C" div_t div(int a, int b);
extern "C" ldiv_t ldiv(long a, long b);
extern "C" lldiv_t lldiv(long long a, long long b);
extern "C" int rand();
extern "C" void srand(uint seed);
extern "C" char *getenv(const char *name);
extern "C" void exit(int status);
extern "C" void abort();

#endif // BSGP_STDLIB_H
