#include <nicd/plugin/sdk/ethtool_text.h>

#include <charconv>
#include <cstring>

namespace nicd::plugin::sdk {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool isBlank(char c) // a space that does not end a line
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// The line at `p` (up to a '\n' or `end`) is: blanks, `expected`, blanks, ':', blanks, digits,
// blanks. Then its last ':' is the one after the name (only blanks and digits follow), so
// ethtoolLine trims the same name and number out of it. Returns what follows the line (past its
// '\n'), or null when the line is anything else. `expected` is a name ethtoolLine gave (the
// last poll's): trimmed, and free of '\n' as every line is.
const char* namedLine(const char* p, const char* end, std::string_view expected, uint64_t& value)
{
    if (expected.empty() || isSpace(expected.front()) || isSpace(expected.back()))
        return nullptr;
    while (p < end && isBlank(*p))
        ++p;
    if (static_cast<size_t>(end - p) < expected.size() ||
        std::memcmp(p, expected.data(), expected.size()) != 0)
        return nullptr;
    p += expected.size();
    while (p < end && isBlank(*p))
        ++p;
    if (p == end || *p != ':')
        return nullptr;
    ++p;
    while (p < end && isBlank(*p))
        ++p;
    const char* digits = p;
    uint64_t v = 0;
    while (p < end && static_cast<unsigned char>(*p - '0') < 10) {
        v = v * 10 + static_cast<uint64_t>(*p - '0'); // wraps past 19 digits: checked below
        ++p;
    }
    if (p == digits)
        return nullptr;
    if (p - digits > 19) { // may not fit: as ethtoolLine reads it
        auto [ptr, ec] = std::from_chars(digits, p, v);
        if (ec != std::errc() || ptr != p)
            return nullptr;
    }
    while (p < end && isBlank(*p))
        ++p;
    if (p < end && *p != '\n')
        return nullptr;
    value = v;
    return p < end ? p + 1 : end;
}

} // namespace

namespace detail {

bool ethtoolLine(std::string_view line, std::string_view& name, uint64_t& value)
{
    const auto colon = line.rfind(':');
    if (colon == std::string_view::npos)
        return false;
    name = trim(line.substr(0, colon));
    const auto text = trim(line.substr(colon + 1));
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !name.empty() && !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

bool ethtoolLineNamed(std::string_view line, std::string_view expected, uint64_t& value)
{
    if (line.find('\n') != std::string_view::npos || expected.find('\n') != std::string_view::npos)
        return false; // not a line, or not a name a line can have
    const char* end = line.data() + line.size();
    return namedLine(line.data(), end, expected, value) == end;
}

} // namespace detail

void addEthtoolText(std::string_view text, plugin::sdk::SampleBatchBuilder::Run& run)
{
    const char* p = text.data();
    const char* const end = p + text.size();
    while (p < end) {
        uint64_t value = 0;
        if (const std::string* name = run.expected()) {
            if (const char* next = namedLine(p, end, *name, value)) {
                run.addExpected(value);
                p = next;
                continue;
            }
        }
        const auto* nl =
            static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        const std::string_view line(p, static_cast<size_t>((nl ? nl : end) - p));
        p = nl ? nl + 1 : end;
        std::string_view name;
        if (detail::ethtoolLine(line, name, value))
            run.add(name, value);
    }
}

} // namespace nicd::plugin::sdk
