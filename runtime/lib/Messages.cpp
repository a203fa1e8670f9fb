//===- Messages.cpp - how runtime messages name places --------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "Messages.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>

namespace bsgprt {

std::string rangeStart(const char *srcloc) {
  if (!srcloc || !*srcloc)
    return "bsgprt";
  std::string s(srcloc);
  size_t dash = s.rfind('-');
  if (dash == std::string::npos || dash + 1 == s.size())
    return s;
  auto allDigitsOrColon = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      if (!(s[i] == ':' || (s[i] >= '0' && s[i] <= '9')))
        return false;
    return true;
  };
  if (!allDigitsOrColon(dash + 1, s.size()))
    return s;
  // The part before the dash must end in ":<line>:<col>".
  size_t colCol = s.rfind(':', dash);
  if (colCol == std::string::npos || colCol + 1 == dash ||
      !allDigitsOrColon(colCol + 1, dash))
    return s;
  size_t lineCol = colCol ? s.rfind(':', colCol - 1) : std::string::npos;
  if (lineCol == std::string::npos || lineCol + 1 == colCol ||
      !allDigitsOrColon(lineCol + 1, colCol))
    return s;
  return s.substr(0, dash);
}

std::string hexPointer(const void *p) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIxPTR,
                reinterpret_cast<uintptr_t>(p));
  return buf;
}

} // namespace bsgprt
