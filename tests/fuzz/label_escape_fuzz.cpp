// libFuzzer target for the textfile escapers (textfile/metric_writer.hpp): the bytes are a label
// value and a HELP text (device names, firmware strings, kernel-provided text all end up there).
// Whatever comes in, what comes out must be valid Prometheus text exposition (0.0.4): valid UTF-8,
// no raw newline, and a backslash only as the start of an escape the format knows (label value:
// \\ \" \n; HELP: \\ \n), with no raw double quote inside a label value. Input that is already
// valid UTF-8 and holds no control character comes back unchanged once unescaped; no control
// byte is ever written raw (text/printable.hpp: they become \\xNN). A whole sample written with
// that label is exactly one line.
#include "textfile/metric_writer.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629), or 0.
size_t utf8Length(std::string_view s, size_t i)
{
    auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
    auto cont = [&](size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
    unsigned char c = b(0);
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2) || (c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F))
            return 0;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3) || (c == 0xF0 && b(1) < 0x90) ||
            (c == 0xF4 && b(1) > 0x8F))
            return 0;
        return 4;
    }
    return 0;
}

bool validUtf8(std::string_view s)
{
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8Length(s, i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

// Valid UTF-8 without C0 controls, DEL or C1 controls (U+0080-U+009F, "\xC2\x80"-"\xC2\x9F"):
// text every escaper must pass through as it is.
bool plainText(std::string_view s)
{
    if (!validUtf8(s))
        return false;
    for (size_t i = 0; i < s.size(); ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7F)
            return false;
        if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F)
            return false;
    }
    return true;
}

// Undoes the format's escapes; aborts on a raw newline, a raw quote in a label value, or an
// escape the format does not know.
std::string unescape(std::string_view escaped, bool label)
{
    std::string out;
    for (size_t i = 0; i < escaped.size(); ++i) {
        char c = escaped[i];
        require(c != '\n' && (!label || c != '"'));
        if (c != '\\') {
            out += c;
            continue;
        }
        require(i + 1 < escaped.size());
        char e = escaped[++i];
        require(e == '\\' || e == 'n' || (label && e == '"'));
        out += e == 'n' ? '\n' : e;
    }
    return out;
}

// No control byte (C0, DEL) and no C1 control (U+0080-U+009F, C2 80-9F in UTF-8) stays raw: a
// terminal reading the file, or a tool that prints it, sees \\xNN instead.
bool noRawControl(std::string_view s)
{
    for (size_t i = 0; i < s.size(); ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f)
            return false;
        if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0)
            return false;
    }
    return true;
}

void checkEscape(std::string_view input, const std::string& escaped, bool label)
{
    require(validUtf8(escaped));
    require(noRawControl(escaped));
    std::string back = unescape(escaped, label);
    if (plainText(input))
        require(back == input);
}

// HELP, TYPE and one sample: three lines, the sample's label value escaped as above.
void checkSample(std::string_view input)
{
    nicd::textfile::MetricWriter w;
    w.family("nicd_fuzz_value", nicd::textfile::MetricType::Gauge, input);
    w.sample({{"label", input}}, 1.0);
    const std::string& text = w.text();
    require(std::count(text.begin(), text.end(), '\n') == 3 && text.back() == '\n');
    require(validUtf8(text));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view input(reinterpret_cast<const char*>(data), size);
    checkEscape(input, nicd::textfile::MetricWriter::escapeLabelValue(input), true);
    checkEscape(input, nicd::textfile::MetricWriter::escapeHelp(input), false);
    checkSample(input);
    return 0;
}
