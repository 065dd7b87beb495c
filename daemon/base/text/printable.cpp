#include "text/printable.hpp"

#include <array>
#include <cstdint>

namespace nicd {

namespace {

// Bytes that end a run copied as it is: controls, DEL and everything non-ASCII (which is then
// checked as UTF-8).
constexpr std::array<bool, 256> kStops = [] {
    std::array<bool, 256> t{};
    for (size_t c = 0; c < 0x20; ++c)
        t[c] = true;
    for (size_t c = 0x7f; c < 256; ++c)
        t[c] = true;
    return t;
}();

bool stops(char c)
{
    return kStops[static_cast<unsigned char>(c)];
}

} // namespace

size_t utf8SequenceLength(std::string_view s, size_t i)
{
    auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
    auto cont = [&](size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
    unsigned char c = b(0);
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2))
            return 0;
        if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F))
            return 0; // overlong, or a UTF-16 surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3))
            return 0;
        if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F))
            return 0; // overlong, or above U+10FFFF
        return 4;
    }
    return 0;
}

size_t showableLength(std::string_view s, size_t i)
{
    if (!stops(s[i]))
        return 1;
    size_t n = utf8SequenceLength(s, i);
    if (n == 2 && static_cast<unsigned char>(s[i]) == 0xC2 &&
        static_cast<unsigned char>(s[i + 1]) < 0xA0)
        return 0;          // a C1 control (U+0080-U+009F): its two bytes are shown as \xc2\xNN
    return n == 1 ? 0 : n; // a one-byte sequence here is a control or DEL
}

void appendHexEscape(std::string& out, unsigned char c)
{
    constexpr std::string_view kDigits = "0123456789abcdef";
    out += "\\x";
    out += kDigits[c >> 4];
    out += kDigits[c & 0x0f];
}

bool isPrintable(std::string_view s)
{
    size_t i = 0;
    while (i < s.size()) {
        size_t n = showableLength(s, i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

void appendPrintable(std::string& out, std::string_view s)
{
    size_t i = 0;
    while (i < s.size()) {
        size_t run = i; // plain ASCII is copied in one go
        while (run < s.size() && !stops(s[run]))
            ++run;
        out.append(s.substr(i, run - i));
        i = run;
        if (i == s.size())
            break;
        if (size_t n = showableLength(s, i); n > 0) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            appendHexEscape(out, static_cast<unsigned char>(s[i]));
            ++i;
        }
    }
}

std::string printableLines(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    size_t start = 0;
    while (start < text.size()) {
        size_t nl = text.find('\n', start);
        appendPrintable(out, text.substr(start, nl == std::string_view::npos ? nl : nl - start));
        if (nl == std::string_view::npos)
            break;
        out += '\n';
        start = nl + 1;
    }
    return out;
}

std::string printable(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    appendPrintable(out, s);
    return out;
}

} // namespace nicd
