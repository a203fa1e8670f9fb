//===- DevicePrintf.cpp - printing what the threads printf ----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of printf in device code (docs/language.md, "Device
/// printf"; the bsgp-lower-device-printf pass): one print buffer in device
/// memory, in which threads store records (a format's number and its
/// arguments as 32-bit words), and the formatting of those records with C's
/// printf after each superstep. Each record is formatted whole and written
/// with one call, so lines of different threads never mix.
///
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace {

/// The buffer's header words: the words used, the capacity and the flag
/// that a record was lost.
constexpr uint32_t kHeaderWords = 3;
/// 4 MiB of records unless BSGP_PRINTF_BUFFER says how many bytes.
constexpr uint64_t kDefaultBytes = 4u << 20;

struct PrintBuffer {
  std::mutex mutex;
  void *device = nullptr;
  uint32_t capacity = 0;
};

PrintBuffer &printBuffer() {
  // Never destroyed: kernels may still run while static destructors do.
  static PrintBuffer *b = new PrintBuffer;
  return *b;
}

struct Format {
  const char *kinds; ///< One letter per argument: i, I, f or d.
  const char *text;
};

/// The entries of a table made by bsgp-lower-device-printf.
std::vector<Format> readTable(const char *table) {
  std::vector<Format> formats;
  while (*table == ':') {
    Format f;
    f.kinds = table + 1;
    f.text = f.kinds + std::strlen(f.kinds) + 1;
    table = f.text + std::strlen(f.text) + 1;
    formats.push_back(f);
  }
  return formats;
}

/// One conversion of `text` at `at` (just after its '%'): its end and
/// whether its length modifier asks for a 64-bit integer.
const char *conversionEnd(const char *at, bool &wide) {
  at += std::strspn(at, "-+ #0'");
  at += std::strspn(at, "0123456789");
  if (*at == '.')
    at += 1 + std::strspn(at + 1, "0123456789");
  wide = false;
  if (*at == 'h' || *at == 'l') {
    wide = *at == 'l';
    if (at[1] == at[0])
      ++at;
    ++at;
  } else if (*at == 'j' || *at == 'z' || *at == 't') {
    wide = true;
    ++at;
  }
  return *at ? at + 1 : at;
}

template <typename T>
void append(std::string &out, const char *spec, size_t len, T value) {
  std::string one(spec, len);
  int n = std::snprintf(nullptr, 0, one.c_str(), value);
  if (n <= 0)
    return;
  size_t at = out.size();
  out.resize(at + n + 1);
  std::snprintf(&out[at], n + 1, one.c_str(), value);
  out.resize(at + n);
}

/// The text of the record at `words`, `f`'s format with its arguments (as
/// Sema checked them against the conversions). False where the record is
/// not one this table makes.
bool formatRecord(const Format &f, const uint32_t *words, size_t count,
                  std::string &out) {
  size_t used = 0;
  const char *kind = f.kinds;
  auto word = [&]() -> uint64_t { return used < count ? words[used++] : 0; };
  for (const char *p = f.text; *p;) {
    if (*p != '%') {
      out.push_back(*p++);
      continue;
    }
    if (p[1] == '%') {
      out.push_back('%');
      p += 2;
      continue;
    }
    bool wide;
    const char *end = conversionEnd(p + 1, wide);
    size_t len = end - p;
    char k = *kind ? *kind++ : 'i';
    uint64_t bits = word();
    if (k == 'I' || k == 'd')
      bits |= word() << 32;
    if (k == 'f') {
      float v;
      uint32_t b32 = (uint32_t)bits;
      std::memcpy(&v, &b32, 4);
      append(out, p, len, (double)v);
    } else if (k == 'd') {
      double v;
      std::memcpy(&v, &bits, 8);
      append(out, p, len, v);
    } else if (wide) {
      append(out, p, len, (long long)bits);
    } else {
      // int and uint are passed as C passes them: a 32-bit value.
      append(out, p, len, (unsigned)(uint32_t)bits);
    }
    p = end;
  }
  return used == count;
}

} // namespace

void *bsgprt_printf_buffer(void) {
  PrintBuffer &b = printBuffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  if (!b.device) {
    uint64_t bytes = kDefaultBytes;
    if (const char *env = std::getenv("BSGP_PRINTF_BUFFER")) {
      char *end = nullptr;
      unsigned long long v = std::strtoull(env, &end, 0);
      if (end != env && *end == '\0' && v >= 1024 && v <= (1ull << 34))
        bytes = v;
      else
        std::fprintf(stderr,
                     "bsgprt: warning: ignoring BSGP_PRINTF_BUFFER='%s' "
                     "(expected a byte count from 1024 to 2^34)\n",
                     env);
    }
    uint32_t capacity = (uint32_t)(bytes / 4 - kHeaderWords);
    b.device = bsgprt_dnew((uint64_t)(capacity + kHeaderWords) * 4,
                           "the buffer of printf in device code");
    if (!b.device)
      return nullptr;
    // Records start with a nonzero word: zero marks where none was
    // written.
    bsgprt_memset_d(b.device, 0, (uint64_t)(capacity + kHeaderWords) * 4);
    uint32_t header[kHeaderWords] = {0, capacity, 0};
    bsgprt_memcpy_htod(b.device, header, sizeof header);
    b.capacity = capacity;
  }
  return b.device;
}

void bsgprt_printf_flush(void *buffer, const char *table) {
  if (!buffer)
    return;
  PrintBuffer &b = printBuffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  uint32_t header[kHeaderWords];
  bsgprt_memcpy_dtoh(header, buffer, sizeof header);
  uint32_t used = header[0];
  if (used == 0 && header[2] == 0)
    return;
  uint32_t valid = used < b.capacity ? used : b.capacity;
  std::vector<uint32_t> words(valid);
  if (valid)
    bsgprt_memcpy_dtoh(words.data(), (uint32_t *)buffer + kHeaderWords,
                       (uint64_t)valid * 4);
  std::vector<Format> formats = readTable(table);
  std::string text;
  size_t at = 0;
  for (; at < valid; text.clear()) {
    uint32_t index = words[at];
    if (index == 0 || index > formats.size())
      break;
    const Format &f = formats[index - 1];
    size_t args = 0;
    for (const char *k = f.kinds; *k; ++k)
      args += *k == 'I' || *k == 'd' ? 2 : 1;
    if (at + 1 + args > valid)
      break;
    formatRecord(f, &words[at + 1], args, text);
    std::fwrite(text.data(), 1, text.size(), stdout);
    at += 1 + args;
  }
  if (header[2])
    std::fprintf(stderr,
                 "bsgprt: warning: output of printf in device code was "
                 "lost: the print buffer of %llu bytes is full (set "
                 "BSGP_PRINTF_BUFFER to a larger size)\n",
                 (unsigned long long)(b.capacity + kHeaderWords) * 4);
  if (valid)
    bsgprt_memset_d((uint32_t *)buffer + kHeaderWords, 0, (uint64_t)valid * 4);
  uint32_t empty[kHeaderWords] = {0, b.capacity, 0};
  bsgprt_memcpy_htod(buffer, empty, sizeof empty);
}
