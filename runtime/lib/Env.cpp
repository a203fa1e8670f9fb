//===- Env.cpp - Values of the runtime's environment variables ------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "Backend.h"

#include <cerrno>
#include <cstdlib>

namespace bsgprt {

/// Parses "<digits>[K|M|G]" (binary multiples); false on anything else.
bool parseByteCount(const char *s, uint64_t &out) {
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || errno != 0 || *s == '-')
    return false;
  unsigned shift = 0;
  switch (*end) {
  case '\0':
    break;
  case 'k':
  case 'K':
    shift = 10;
    break;
  case 'm':
  case 'M':
    shift = 20;
    break;
  case 'g':
  case 'G':
    shift = 30;
    break;
  default:
    return false;
  }
  if (*end && end[1] != '\0')
    return false;
  if (shift && v > (UINT64_MAX >> shift))
    return false;
  out = static_cast<uint64_t>(v) << shift;
  return true;
}

} // namespace bsgprt
