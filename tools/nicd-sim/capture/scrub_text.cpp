#include "capture/scrub_text.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>

namespace nicd::sim::capture {

namespace {

bool isHex(char c)
{
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

// A run of hex groups separated by single colons starting at `i`: its end and group lengths.
struct HexRun {
    size_t end = 0;
    std::vector<size_t> groups;
};

HexRun hexRun(std::string_view t, size_t i)
{
    HexRun r;
    size_t j = i;
    while (true) {
        size_t start = j;
        while (j < t.size() && isHex(t[j]))
            ++j;
        r.groups.push_back(j - start);
        if (j + 1 < t.size() && t[j] == ':' && isHex(t[j + 1]))
            ++j;
        else
            break;
    }
    r.end = j;
    return r;
}

bool allGroups(const HexRun& r, size_t len)
{
    for (size_t g : r.groups)
        if (g != len)
            return false;
    return true;
}

// The replacement of the hex run t[i, r.end), or nullopt when it is no identifier.
std::optional<std::string> hexIdentifier(std::string_view t, size_t i, const HexRun& r,
                                         IdentifierMap& ids)
{
    auto text = t.substr(i, r.end - i);
    if (r.groups.size() >= 6 && allGroups(r, 2))
        return ids.hwAddress(text);
    if (r.groups.size() == 4 && allGroups(r, 4))
        return ids.guid(text);
    if (r.groups.size() == 8) {
        std::array<uint8_t, 16> a{};
        std::string s(text);
        if (::inet_pton(AF_INET6, s.c_str(), a.data()) == 1) {
            auto fake = ids.ipv6(a);
            std::array<char, INET6_ADDRSTRLEN> buf{};
            ::inet_ntop(AF_INET6, fake.data(), buf.data(), buf.size());
            return fake == a ? std::string(text) : std::string(buf.data());
        }
    }
    return std::nullopt;
}

// A dotted IPv4 address starting at `i`: its end, or 0.
size_t ipv4End(std::string_view t, size_t i)
{
    size_t j = i;
    for (int part = 0; part < 4; ++part) {
        size_t start = j;
        while (j < t.size() && isDigit(t[j]) && j - start < 4)
            ++j;
        size_t len = j - start;
        if (len == 0 || len > 3)
            return 0;
        int v = 0;
        std::from_chars(t.data() + start, t.data() + j, v);
        if (v > 255)
            return 0;
        if (part < 3) {
            if (j >= t.size() || t[j] != '.')
                return 0;
            ++j;
        }
    }
    // Not followed by more of a longer dotted number or a word.
    if (j < t.size() &&
        (isWordChar(t[j]) || (t[j] == '.' && j + 1 < t.size() && isDigit(t[j + 1]))))
        return 0;
    return j;
}

bool boundaryBefore(std::string_view t, size_t i, bool numeric)
{
    if (i == 0)
        return true;
    char c = t[i - 1];
    return !isWordChar(c) && !(numeric && c == '.');
}

bool boundaryAfter(std::string_view t, size_t end)
{
    if (end >= t.size())
        return true;
    char c = t[end];
    return !isWordChar(c) && !(c == '.' && end + 1 < t.size() && isDigit(t[end + 1]));
}

uint32_t hexWord(std::string_view field)
{
    uint32_t v = 0;
    std::from_chars(field.data(), field.data() + field.size(), v, 16);
    return v;
}

// Calls fn(field_index, begin, end) for each whitespace-separated field of `line`.
template <typename Fn> void forEachField(std::string_view line, Fn fn)
{
    size_t i = 0;
    int index = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
            ++i;
        size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i])))
            ++i;
        if (i > start)
            fn(index++, start, i);
    }
}

// Applies `scrub_line` to every line from line `first` on, keeping line ends.
template <typename Fn> std::string eachLine(std::string_view text, int first, Fn scrub_line)
{
    std::string out;
    out.reserve(text.size());
    int n = 0;
    while (!text.empty()) {
        auto nl = text.find('\n');
        auto line = text.substr(0, nl);
        out += n++ >= first ? scrub_line(std::string(line)) : std::string(line);
        if (nl == std::string_view::npos)
            break;
        out += '\n';
        text.remove_prefix(nl + 1);
    }
    return out;
}

std::optional<std::array<uint8_t, 16>> hex16(std::string_view f)
{
    if (f.size() != 32)
        return std::nullopt;
    std::array<uint8_t, 16> a{};
    for (size_t k = 0; k < 16; ++k) {
        unsigned v = 0;
        auto [p, ec] = std::from_chars(f.data() + 2 * k, f.data() + 2 * k + 2, v, 16);
        if (ec != std::errc() || p != f.data() + 2 * k + 2)
            return std::nullopt;
        a[k] = static_cast<uint8_t>(v);
    }
    return a;
}

std::string toHex16(const std::array<uint8_t, 16>& a)
{
    std::string out;
    for (uint8_t b : a)
        out += fmt::format("{:02x}", b);
    return out;
}

} // namespace

std::string scrubFreeText(std::string_view t, IdentifierMap& ids)
{
    if (ids.keep())
        return std::string(t);
    std::string out;
    out.reserve(t.size());
    size_t i = 0;
    while (i < t.size()) {
        if (isHex(t[i]) && boundaryBefore(t, i, false) && (i == 0 || t[i - 1] != ':')) {
            auto r = hexRun(t, i);
            if (r.groups.size() > 1 && boundaryAfter(t, r.end) &&
                (r.end >= t.size() || t[r.end] != ':')) {
                if (auto fake = hexIdentifier(t, i, r, ids)) {
                    out += *fake;
                    i = r.end;
                    continue;
                }
            }
        }
        if (isDigit(t[i]) && boundaryBefore(t, i, true)) {
            if (size_t end = ipv4End(t, i)) {
                out += formatIpv4(ids.ipv4(*parseIpv4(t.substr(i, end - i))));
                i = end;
                continue;
            }
        }
        out += t[i++];
    }
    return out;
}

std::string replaceKnownForms(std::string_view text, const std::vector<IdentifierMap::Form>& forms)
{
    std::string out(text);
    for (const auto& f : forms) {
        if (f.original.empty() || f.original == f.fake)
            continue;
        const bool numeric = isDigit(f.original.front());
        size_t pos = 0;
        while ((pos = out.find(f.original, pos)) != std::string::npos) {
            size_t end = pos + f.original.size();
            if (f.whole_word && !(boundaryBefore(out, pos, numeric) && boundaryAfter(out, end))) {
                ++pos;
                continue;
            }
            out.replace(pos, f.original.size(), f.fake);
            pos += f.fake.size();
        }
    }
    return out;
}

std::string scrubIpv4Routes(std::string_view text, IdentifierMap& ids)
{
    return eachLine(text, 1, [&ids](std::string line) {
        forEachField(line, [&](int index, size_t b, size_t e) {
            if ((index == 1 || index == 2) && e - b == 8) {
                uint32_t fake = ids.ipv4(hexWord(std::string_view(line).substr(b, 8)));
                line.replace(b, 8, fmt::format("{:08X}", fake));
            }
        });
        return line;
    });
}

std::string scrubIpv6Routes(std::string_view text, IdentifierMap& ids)
{
    return eachLine(text, 0, [&ids](std::string line) {
        forEachField(line, [&](int index, size_t b, size_t e) {
            if (index != 0 && index != 2 && index != 4)
                return;
            if (auto a = hex16(std::string_view(line).substr(b, e - b)))
                line.replace(b, 32, toHex16(ids.ipv6(*a)));
        });
        return line;
    });
}

void learnIpv6Addresses(std::string_view if_inet6, IdentifierMap& ids)
{
    (void)eachLine(if_inet6, 0, [&ids](std::string line) {
        forEachField(line, [&](int index, size_t b, size_t e) {
            if (index == 0)
                if (auto a = hex16(std::string_view(line).substr(b, e - b)))
                    (void)ids.ipv6(*a);
        });
        return line;
    });
}

} // namespace nicd::sim::capture
