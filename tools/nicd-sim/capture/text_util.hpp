// Small text helpers the capture's readers and scrubbers share.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace nicd::sim::capture {

// A character that continues a name (netdev, hostname, identifier): letters, digits, '_', '-'.
inline bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

inline bool isHex(char c)
{
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Whether t[i] may start a token: not inside a longer name (nor, `numeric`, a dotted number).
inline bool boundaryBefore(std::string_view t, size_t i, bool numeric)
{
    if (i == 0)
        return true;
    char c = t[i - 1];
    return !isWordChar(c) && !(numeric && c == '.');
}

// Whether a token may end before t[end]: not inside a longer name or dotted number.
inline bool boundaryAfter(std::string_view t, size_t end)
{
    if (end >= t.size())
        return true;
    char c = t[end];
    return !isWordChar(c) && !(c == '.' && end + 1 < t.size() && isDigit(t[end + 1]));
}

// `s` in lower case (ASCII: hex digits, host names).
inline std::string lowerCase(std::string_view s)
{
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// `s` without leading and trailing blanks and line ends.
inline std::string trimmed(std::string_view s)
{
    auto b = s.find_first_not_of(" \t\r\n");
    auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

// The first line of `text`, without its trailing blanks (a sysfs attribute's value).
inline std::string firstLine(std::string_view text)
{
    auto line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
        line.remove_suffix(1);
    return std::string(line);
}

} // namespace nicd::sim::capture
