//===- Messages.h - how runtime messages name places -------------*- C++
//-*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The pieces every runtime message is made of, shared by the runtime's
// core and its backends: the BSGP source position a message starts with,
// and pointers as the user sees them.
//
//===----------------------------------------------------------------------===//

#ifndef BSGPRT_LIB_MESSAGES_H
#define BSGPRT_LIB_MESSAGES_H

#include <string>

namespace bsgprt {

/// "find.bsgp:12:3-20:5" -> "find.bsgp:12:3": diagnostics point at the
/// start of a range. Anything not shaped like a range is kept as it is; no
/// position at all is "bsgprt".
std::string rangeStart(const char *srcloc);

/// \p p as "0x..." for messages.
std::string hexPointer(const void *p);

} // namespace bsgprt

#endif // BSGPRT_LIB_MESSAGES_H
