//===- Trace.cpp - host-side timings and Chrome trace-event output --------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The trace is the Trace Event Format that chrome://tracing and Perfetto
// read: one process, a "host" track with the runtime's own steps, a
// "device" track with the kernels (named by kernel, with their BSGP source
// range and thread count), and a "memory" counter track. Events are kept in
// memory and written at exit.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "bsgp/runtime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace bsgprt {

namespace {

enum Track { HostTrack = 1, DeviceTrack = 2 };

struct StepStats {
  uint64_t calls = 0;
  uint64_t bytes = 0;
  double totalUs = 0;
};

struct TraceState {
  std::mutex mutex;
  std::string path;
  std::vector<std::string> events;
  std::map<std::string, StepStats> steps;
  std::atomic<bool> hostTimings{false};
  std::chrono::steady_clock::time_point origin =
      std::chrono::steady_clock::now();
};

void writeTraceAtExit();

TraceState &traceState() {
  static TraceState *s = [] {
    auto *t = new TraceState();
    if (const char *p = std::getenv("BSGP_TRACE"); p && *p) {
      t->path = p;
      std::atexit(writeTraceAtExit);
    }
    return t;
  }();
  return *s;
}

/// A JSON string literal of \p s.
std::string quote(const char *s) {
  std::string out = "\"";
  for (const char *c = s ? s : ""; *c; ++c) {
    unsigned char u = static_cast<unsigned char>(*c);
    if (u == '"' || u == '\\') {
      out += '\\';
      out += *c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += *c;
    }
  }
  return out + "\"";
}

void addEvent(std::string event) {
  TraceState &t = traceState();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.events.push_back(std::move(event));
}

std::string complete(Track track, const char *name, double start, double end,
                     const std::string &args) {
  char times[96];
  std::snprintf(times, sizeof times,
                ",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f",
                track, start, std::max(0.0, end - start));
  return "{\"name\":" + quote(name) + times + ",\"args\":{" + args + "}}";
}

void writeTraceAtExit() {
  TraceState &t = traceState();
  std::lock_guard<std::mutex> lock(t.mutex);
  FILE *f = std::fopen(t.path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "bsgprt: cannot write the trace to '%s'\n",
                 t.path.c_str());
    return;
  }
  std::fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", f);
  std::fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{"
             "\"name\":\"bsgp program\"}},\n",
             f);
  std::fprintf(f,
               "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
               "\"args\":{\"name\":\"host\"}},\n"
               "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
               "\"args\":{\"name\":\"device\"}}",
               HostTrack, DeviceTrack);
  for (const std::string &e : t.events)
    std::fprintf(f, ",\n%s", e.c_str());
  std::fputs("\n]}\n", f);
  std::fclose(f);
}

} // namespace

bool traceEnabled() { return !traceState().path.empty(); }

void setHostTimings(bool on) { traceState().hostTimings = on; }

void resetHostTimings() {
  TraceState &t = traceState();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.steps.clear();
}

double traceNow() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - traceState().origin)
      .count();
}

namespace {
thread_local std::vector<const char *> callSites;
} // namespace

const char *currentCallSite() {
  // The outermost: the program's own call, not the library's calls within.
  return callSites.empty() ? nullptr : callSites.front();
}

std::string describeLaunchSite(const char *srcloc, const char *callsite) {
  std::string where = srcloc ? srcloc : "?";
  if (!callsite)
    return where;
  // "lib/bsgp/collectives.bsgp:739:5-739:24" -> "collectives.bsgp:739".
  if (size_t slash = where.find_last_of('/'); slash != std::string::npos)
    where = where.substr(slash + 1);
  if (size_t colon = where.find(':'); colon != std::string::npos)
    if (size_t second = where.find(':', colon + 1); second != std::string::npos)
      where = where.substr(0, second);
  return std::string(callsite) + " (" + where + ")";
}

void traceKernel(const char *name, const char *srcloc, uint64_t threads,
                 double start, double end) {
  if (!traceEnabled())
    return;
  if (const char *callsite = currentCallSite())
    srcloc = callsite;
  char count[32];
  std::snprintf(count, sizeof count, "%" PRIu64, threads);
  // Named by the superstep's place in the source (its file's name and first
  // line), then the kernel: what a reader of the timeline looks for.
  std::string where = srcloc ? srcloc : "?";
  if (size_t slash = where.find_last_of('/'); slash != std::string::npos)
    where = where.substr(slash + 1);
  if (size_t colon = where.find(':'); colon != std::string::npos)
    if (size_t second = where.find(':', colon + 1); second != std::string::npos)
      where = where.substr(0, second);
  std::string label = where + " " + (name ? name : "?");
  addEvent(complete(DeviceTrack, label.c_str(), start, end,
                    "\"srcloc\":" + quote(srcloc) + ",\"threads\":" + count));
}

void traceMemory(uint64_t deviceBytes, uint64_t liveBytes) {
  if (!traceEnabled())
    return;
  char event[192];
  std::snprintf(event, sizeof event,
                "{\"name\":\"memory\",\"ph\":\"C\",\"pid\":1,\"ts\":%.3f,"
                "\"args\":{\"held bytes\":%" PRIu64 ",\"live bytes\":%" PRIu64
                "}}",
                traceNow(), deviceBytes, liveBytes);
  addEvent(event);
}

void printHostTimings(FILE *out) {
  TraceState &t = traceState();
  std::vector<std::pair<std::string, StepStats>> rows;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    rows.assign(t.steps.begin(), t.steps.end());
  }
  if (rows.empty())
    return;
  std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
    return a.second.totalUs > b.second.totalUs;
  });
  std::fprintf(out, "%-28s  %10s  %12s  %12s  %14s\n", "host step", "calls",
               "total ms", "mean ms", "bytes");
  for (const auto &[name, s] : rows)
    std::fprintf(out, "%-28s  %10" PRIu64 "  %12.3f  %12.3f  %14" PRIu64 "\n",
                 name.c_str(), s.calls, s.totalUs / 1000,
                 s.calls ? s.totalUs / 1000 / s.calls : 0.0, s.bytes);
}

HostStep::HostStep(const char *what, uint64_t bytes)
    : what(what), bytes(bytes) {
  TraceState &t = traceState();
  if (t.hostTimings || !t.path.empty())
    start = traceNow();
}

HostStep::~HostStep() {
  if (start < 0)
    return;
  double end = traceNow();
  TraceState &t = traceState();
  if (t.hostTimings) {
    std::lock_guard<std::mutex> lock(t.mutex);
    StepStats &s = t.steps[what];
    ++s.calls;
    s.bytes += bytes;
    s.totalUs += end - start;
  }
  if (!t.path.empty()) {
    char args[48];
    std::snprintf(args, sizeof args, "\"bytes\":%" PRIu64, bytes);
    addEvent(complete(HostTrack, what, start, end, args));
  }
}

} // namespace bsgprt

extern "C" {

void bsgprt_callsite_push(const char *srcloc) {
  bsgprt::callSites.push_back(srcloc);
}

void bsgprt_callsite_pop(void) {
  if (!bsgprt::callSites.empty())
    bsgprt::callSites.pop_back();
}

} // extern "C"
