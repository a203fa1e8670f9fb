//===- stdio.h - C's standard I/O for BSGP --------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <stdio.h>` in a BSGP program declares the C library's I/O that
// host code calls (device code has printf alone, docs/language.md).
// FILE * is spelled void *: BSGP has no FILE type.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_STDIO_H
#define BSGP_STDIO_H

extern "C" int printf(const char *fmt, ...);
extern "C" int sprintf(char *s, const char *fmt, ...);
extern "C" int snprintf(char *s, uint64 n, const char *fmt, ...);
extern "C" int puts(const char *s);
extern "C" int putchar(int c);
extern "C" void *fopen(const char *path, const char *mode);
extern "C" int fclose(void *f);
extern "C" int fprintf(void *f, const char *fmt, ...);
extern "C" int fscanf(void *f, const char *fmt, ...);
extern "C" int sscanf(const char *s, const char *fmt, ...);
extern "C" int fgetc(void *f);
extern "C" char *fgets(char *s, int n, void *f);
extern "C" uint64 fread(void *p, uint64 size, uint64 n, void *f);
extern "C" uint64 fwrite(const void *p, uint64 size, uint64 n, void *f);

#endif // BSGP_STDIO_H
