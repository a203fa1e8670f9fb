//===- string.h - C's string functions for BSGP ---------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <string.h>` in a BSGP program declares the C library's byte and
// string functions that host code calls.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_STRING_H
#define BSGP_STRING_H

extern "C" void *memcpy(void *dst, const void *src, uint64 bytes);
extern "C" void *memmove(void *dst, const void *src, uint64 bytes);
extern "C" void *memset(void *dst, int value, uint64 bytes);
extern "C" int memcmp(const void *a, const void *b, uint64 bytes);
extern "C" uint64 strlen(const char *s);
extern "C" int strcmp(const char *a, const char *b);
extern "C" int strncmp(const char *a, const char *b, uint64 n);
extern "C" char *strcpy(char *dst, const char *src);
extern "C" char *strncpy(char *dst, const char *src, uint64 n);
extern "C" char *strchr(const char *s, int c);
extern "C" char *strstr(const char *s, const char *t);

#endif // BSGP_STRING_H
