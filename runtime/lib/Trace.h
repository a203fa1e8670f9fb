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
#include <string>

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

/// The program's call into the collective library that the current thread
/// is in (bsgprt_callsite_push), or null.
const char *currentCallSite();
/// What the profile and the trace call a kernel launched at \p srcloc from
/// the call site \p callsite: "callsite (srcloc)" where there is one.
std::string describeLaunchSite(const char *srcloc, const char *callsite);

/// A kernel's row of the profile: the kernel, and the program's call into
/// the library it was launched from (null for the program's own kernels).
struct LaunchSite {
  const void *module;
  uint32_t kernel;
  const char *callsite;
  bool operator<(const LaunchSite &o) const {
    if (module != o.module)
      return module < o.module;
    if (kernel != o.kernel)
      return kernel < o.kernel;
    return callsite < o.callsite;
  }
};

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
