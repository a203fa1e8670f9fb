//===- Trace.h - host-side timings and Chrome trace-event output -*- C++
//-*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// What the runtime does besides launching kernels (copies, allocations, the
// list primitives of the collective library's host side) is timed here for
// the profile table (BSGP_PROFILE), and every such step and every kernel is
// written to a Chrome trace-event file with BSGP_TRACE=<file.json>
// (docs/runtime.md, "Traces").
//
//===----------------------------------------------------------------------===//

#ifndef BSGPRT_TRACE_H
#define BSGPRT_TRACE_H

#include <cstdint>
#include <cstdio>

namespace bsgprt {

/// BSGP_TRACE names a file: kernels run one at a time (the host waits for
/// each), so that their start and end are those of the trace's clock.
bool traceEnabled();
/// The profile table wants the host-side steps too (BSGP_PROFILE, or
/// bsgprt_profile_enable).
void setHostTimings(bool on);
void resetHostTimings();
/// Microseconds on the trace's clock.
double traceNow();
/// A kernel of \p threads threads ran from \p start to \p end.
void traceKernel(const char *name, const char *srcloc, uint64_t threads,
                 double start, double end);
/// Bytes held from the device and bytes in live lists, after a change.
void traceMemory(uint64_t deviceBytes, uint64_t liveBytes);
/// Prints the host-side steps' rows of the profile table.
void printHostTimings(FILE *out);

/// Times one host-side step (a copy, an allocation, a list primitive) from
/// construction to destruction, where the profile or the trace wants it.
class HostStep {
public:
  HostStep(const char *what, uint64_t bytes);
  ~HostStep();
  HostStep(const HostStep &) = delete;
  HostStep &operator=(const HostStep &) = delete;

private:
  const char *what;
  uint64_t bytes;
  double start = -1;
};

} // namespace bsgprt

#endif // BSGPRT_TRACE_H
