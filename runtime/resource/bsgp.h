//===- bsgp.h - the C functions BSGP programs call ---------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <bsgp.h>` declares, in BSGP syntax, the C library functions and
// the runtime's copies that host code calls (docs/runtime.md). bsgpc and
// bsgpi find it next to themselves, in <bindir>/../lib/bsgp/include, with no
// -I. A program may still declare one of these by hand with the same
// signature: identical extern "C" declarations agree.
//
// FILE * is spelled void *: BSGP has no FILE type.
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_H
#define BSGP_H

// <stdio.h>
extern "C" int printf(const char *fmt, ...);
extern "C" int puts(const char *s);
extern "C" void *fopen(const char *path, const char *mode);
extern "C" int fclose(void *f);
extern "C" int fprintf(void *f, const char *fmt, ...);
extern "C" int fscanf(void *f, const char *fmt, ...);
extern "C" uint64 fread(void *p, uint64 size, uint64 n, void *f);
extern "C" uint64 fwrite(const void *p, uint64 size, uint64 n, void *f);

// <stdlib.h> and <string.h>: host memory.
extern "C" void *malloc(uint64 bytes);
extern "C" void free(void *p);
extern "C" void *memcpy(void *dst, const void *src, uint64 bytes);
extern "C" void *memset(void *dst, int value, uint64 bytes);

// libbsgprt (runtime/include/bsgp/runtime.h): copies between host memory
// and the device lists that dnew returns, waiting for the device, and a
// clock.
extern "C" void bsgprt_memcpy_htod(void *dst, const void *src, uint64 bytes);
extern "C" void bsgprt_memcpy_dtoh(void *dst, const void *src, uint64 bytes);
extern "C" void bsgprt_memcpy_dtod(void *dst, const void *src, uint64 bytes);
extern "C" void bsgprt_memset_d(void *dst, int value, uint64 bytes);
extern "C" void bsgprt_synchronize();
extern "C" const char *bsgprt_device_name();
// A monotonic wall clock in milliseconds: time a spawn as the difference of
// two calls, each after bsgprt_synchronize().
extern "C" double bsgprt_time_ms();

#endif // BSGP_H
