// hip/hip_hostcall_printf.cpp - hostcall messages and the printf service (HIP-PRINTF-1, HIP-PRINTF-2).
//
// A message spans packets: slot[0] is a descriptor (bit 0 begin, bit 1 end, bits 5..7 the
// number of data words in slot[1..7], bits 8..63 the message id the host gave on begin). The
// printf message is formatted as HIP 5.2.3 does (ROCclr device/devhcprintf.cpp): the format
// string is cut at each conversion, and each piece is printed with its own arguments by the C
// library's printf rules.
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "hip/hip_hostcall.h"
#include "hip/hip_mutant.h"

namespace rocref::hip {
namespace {

constexpr uint64_t kBeginFlag = 1u << 0;
constexpr uint64_t kEndFlag = 1u << 1;
uint64_t descriptor_length(uint64_t d) { return (d >> 5) & 7; }
uint64_t descriptor_id(uint64_t d) { return d >> 8; }

void append_formatted(std::string* out, const char* spec, ...) __attribute__((format(printf, 2, 3)));
void append_formatted(std::string* out, const char* spec, ...) {
  va_list args;
  va_start(args, spec);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, spec, args);
  va_end(args);
  if (n > 0) {
    std::string piece(static_cast<size_t>(n) + 1, '\0');
    std::vsnprintf(piece.data(), piece.size(), spec, again);
    piece.resize(static_cast<size_t>(n));
    *out += piece;
  }
  va_end(again);
}

// One conversion `spec` (from '%' to its conversion character) with `stars` leading int
// arguments for '*' widths and precisions, then its value. Integers and pointers travel as one
// word, floating-point values as one double, strings inline.
template <typename T>
void print_one(std::string* out, const std::string& spec, const int* stars, int count, T value) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
  if (count == 0) append_formatted(out, spec.c_str(), value);
  if (count == 1) append_formatted(out, spec.c_str(), stars[0], value);
  if (count == 2) append_formatted(out, spec.c_str(), stars[0], stars[1], value);
#pragma GCC diagnostic pop
}

// The length modifier's argument type for an integer conversion (what printf's va_arg reads).
void print_integer(std::string* out, const std::string& spec, const int* stars, int count, uint64_t word) {
  const size_t l = spec.find('l');
  const bool wide = l != std::string::npos || spec.find_first_of("jzt") != std::string::npos;
  if (spec.back() == 'c' || !wide) {
    print_one(out, spec, stars, count, static_cast<int>(word));
  } else if (spec.find("ll") != std::string::npos || spec.find_first_of("jzt") != std::string::npos) {
    print_one(out, spec, stars, count, static_cast<long long>(word));
  } else {
    print_one(out, spec, stars, count, static_cast<long>(word));
  }
}

// HIP-PRINTF-2 mutant: flags, width and precision are dropped ("%08.3f" prints as "%f").
std::string planted(const std::string& spec) {
  if (!hip_mutant_active(HipMutant::PrintfWidthDropped)) return spec;
  std::string s = "%";
  for (size_t i = 1; i < spec.size(); ++i) {
    if (std::strchr("-+ #0123456789.*", spec[i]) == nullptr) s += spec[i];
  }
  return s;
}

}  // namespace

bool HostcallMessages::handle(uint32_t service, uint64_t* slot) {
  uint64_t d = slot[0];
  uint64_t id = 0;
  if ((d & kBeginFlag) != 0) {
    if (!free_.empty()) {
      id = free_.back();
      free_.pop_back();
    } else {
      id = messages_.size();
      messages_.emplace_back();
    }
    messages_[id].live = true;
    // The reply's descriptor names the message for the wave's next packets.
    d = (d & ~kBeginFlag & 0xff) | (id << 8);
    slot[0] = d;
  } else {
    id = descriptor_id(d);
    if (id >= messages_.size() || !messages_[id].live) return false;
  }
  Message& m = messages_[id];
  m.words.insert(m.words.end(), slot + 1, slot + 1 + descriptor_length(d));
  if ((d & kEndFlag) == 0) return true;
  if (service == kServicePrintf) {
    std::string text;
    if (format_printf_message(m.words.data(), m.words.size(), &text)) {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
      slot[0] = text.size();
    } else {
      slot[0] = ~uint64_t{0};
    }
  }
  m.words.clear();
  m.live = false;
  free_.push_back(id);
  return true;
}

bool format_printf_message(const uint64_t* words, size_t count, std::string* out) {
  if (count == 0 || words[0] != 0) return false;  // version 0 only
  const uint64_t* ptr = words + 1;
  const uint64_t* const end = words + count;
  if (ptr == end) return true;
  const size_t fmt_max = static_cast<size_t>(end - ptr) * 8;
  const char* raw = reinterpret_cast<const char*>(ptr);
  const std::string fmt(raw, strnlen(raw, fmt_max));
  ptr += (fmt.size() + 1 + 7) / 8;
  if (ptr > end) ptr = end;
  size_t point = 0;
  while (true) {
    const size_t mark = point;
    point = fmt.find('%', point);
    if (point == std::string::npos) {
      out->append(fmt, mark, std::string::npos);
      return true;
    }
    out->append(fmt, mark, point - mark);
    const size_t percent = point++;
    if (point < fmt.size() && fmt[point] == '%') {
      *out += '%';
      ++point;
      continue;
    }
    if (ptr == end) return true;  // no argument left: the rest is not printed
    point = fmt.find_first_of("diouxXfFeEgGaAcspn", point);
    if (point == std::string::npos) return true;
    ++point;
    const std::string spec = planted(fmt.substr(percent, point - percent));
    int stars[2] = {0, 0};
    int star_count = 0;
    for (char c : spec) star_count += c == '*' ? 1 : 0;
    if (star_count > 2 || end - ptr < star_count + 1) return true;
    for (int i = 0; i < star_count; ++i) stars[i] = static_cast<int>(*ptr++);
    switch (spec.back()) {
      case 'd':
      case 'i':
      case 'o':
      case 'u':
      case 'x':
      case 'X':
      case 'c': print_integer(out, spec, stars, star_count, *ptr++); break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        double v;
        std::memcpy(&v, ptr++, sizeof v);
        print_one(out, spec, stars, star_count, v);
        break;
      }
      case 's': {
        const size_t max = static_cast<size_t>(end - ptr) * 8;
        const char* s = reinterpret_cast<const char*>(ptr);
        const std::string str(s, strnlen(s, max));
        const size_t before = out->size();
        print_one(out, spec, stars, star_count, str.c_str());
        // HIP 5.2.3 (Debian's libamdhip64) steps over as many words as the conversion's output
        // and a NUL fill: "%s" of "abcdefgh" takes 2 words, "%8s" of "rt" takes 2 as well.
        ptr += (out->size() - before + 1 + 7) / 8;
        if (ptr > end) ptr = end;
        break;
      }
      case 'p': print_one(out, spec, stars, star_count, reinterpret_cast<void*>(*ptr++)); break;
      default:  // 'n': nothing is stored, its argument is skipped
        ++ptr;
        break;
    }
  }
}

}  // namespace rocref::hip
