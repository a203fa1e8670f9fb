//===- time.h - C's clocks for BSGP ---------------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `#include <time.h>` in a BSGP program declares the C library's clocks
// that host code calls: `clock_gettime(CLOCK_MONOTONIC, &ts)` with a
// `struct timespec` laid out as Linux's (two longs), `clock()` and
// `time()`. A GPU's work is asynchronous: time it after
// bsgprt_synchronize() (<bsgp.h>, which also has bsgprt_time_ms()).
//
//===----------------------------------------------------------------------===//

#pragma once
#ifndef BSGP_TIME_H
#define BSGP_TIME_H

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCKS_PER_SEC 1000000l

struct timespec {
  long tv_sec;
  long tv_nsec;
};

extern "C" int clock_gettime(int clock, struct timespec *ts);
extern "C" long clock();
extern "C" long time(long *t);

#endif // BSGP_TIME_H
