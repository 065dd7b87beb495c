// Text from outside nicd (sysfs values, device, netdev and counter names, kernel lines, plugin
// messages, config) made safe to show: a log line, a journal field, a D-Bus string or a textfile
// label never carries a control byte or a byte that is not UTF-8 as it came. Each such byte is
// written as the four visible characters \xNN (lower-case hex), as systemd and the kernel's
// printk do, so an operator sees what was there: a terminal escape cannot recolour or rewrite a
// log line, a newline cannot forge one, and D-Bus (which rejects a message whose string is not
// valid UTF-8) never fails a publish.
//
// Escaped: C0 controls (0x00-0x1f, newline and tab included), DEL (0x7f), the C1 controls
// U+0080-U+009F (each of their two bytes), and every byte that does not start a well-formed UTF-8
// sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). Everything else,
// other languages' letters included, passes unchanged. A backslash is left as it is.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nicd {

// Length of the well-formed UTF-8 sequence starting at s[i] (1 for ASCII), or 0 when the bytes
// there are not one.
size_t utf8SequenceLength(std::string_view s, size_t i);

// Length of the character starting at s[i] when it may be shown as it is, or 0 when the byte at
// s[i] is to be escaped (a control, DEL, the first byte of a C1 control, or not UTF-8).
size_t showableLength(std::string_view s, size_t i);

// Appends the escape of one byte: \xNN.
void appendHexEscape(std::string& out, unsigned char c);

// True when printable(s) would return s unchanged (the common case, checked without copying).
bool isPrintable(std::string_view s);

// `s` with every byte named above written as \xNN.
std::string printable(std::string_view s);

// Appends printable(s) to `out`.
void appendPrintable(std::string& out, std::string_view s);

// Text of several lines for a terminal (nicd --once's report): each line made printable, the
// newlines between them kept.
std::string printableLines(std::string_view text);

} // namespace nicd
