// scrubFreeText (scrub_text.hpp): one pass over the text, trying at each place where a token may
// start the identifiers it may be, longest notations first.
#include "capture/scrub_text.hpp"
#include "capture/text_util.hpp"

#include <arpa/inet.h>

#include <charconv>
#include <optional>

namespace nicd::sim::capture {

namespace {

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

std::optional<std::string> ipv6Fake(std::string_view text, IdentifierMap& ids)
{
    std::array<uint8_t, 16> a{};
    std::string s(text);
    if (::inet_pton(AF_INET6, s.c_str(), a.data()) != 1)
        return std::nullopt;
    auto fake = ids.ipv6(a);
    if (fake == a)
        return s;
    std::array<char, INET6_ADDRSTRLEN> buf{};
    ::inet_ntop(AF_INET6, fake.data(), buf.data(), buf.size());
    return std::string(buf.data());
}

// The replacement of the colon-separated hex run t[i, r.end), or nullopt when it is no identifier.
std::optional<std::string> hexIdentifier(std::string_view t, size_t i, const HexRun& r,
                                         IdentifierMap& ids)
{
    auto text = t.substr(i, r.end - i);
    if (r.groups.size() >= 6 && allGroups(r, 2))
        return ids.hwAddress(text);
    if (r.groups.size() == 4 && allGroups(r, 4))
        return ids.guid(text);
    if (r.groups.size() == 8)
        return ipv6Fake(text, ids);
    return std::nullopt;
}

// A MAC as aa-bb-cc-dd-ee-ff or aabb.ccdd.eeff starting at `i`: its end, or 0.
size_t otherMacEnd(std::string_view t, size_t i)
{
    for (size_t len : {size_t{17}, size_t{14}}) {
        const size_t end = i + len;
        if (end > t.size() || !boundaryAfter(t, end) ||
            (end + 1 < t.size() && t[end] == '.' && isHex(t[end + 1])))
            continue;
        if (parseHwAddress(t.substr(i, len)))
            return end;
    }
    return 0;
}

// An IPv6 address in any notation starting at `i` (compressed: fe80::1, ::ffff:1.2.3.4): its
// end, or 0. A sentence's full stop or a port's colon after it is not part of it.
size_t ipv6End(std::string_view t, size_t i)
{
    size_t j = i;
    size_t colons = 0;
    while (j < t.size() && (isHex(t[j]) || t[j] == ':' || t[j] == '.')) {
        colons += t[j] == ':' ? 1 : 0;
        ++j;
    }
    if (colons < 2)
        return 0;
    while (j > i && (t[j - 1] == '.' || (t[j - 1] == ':' && j - 1 > i && t[j - 2] != ':')))
        --j;
    if (!boundaryAfter(t, j))
        return 0;
    std::array<uint8_t, 16> a{};
    std::string s(t.substr(i, j - i));
    return ::inet_pton(AF_INET6, s.c_str(), a.data()) == 1 ? j : 0;
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
    if (!boundaryAfter(t, j))
        return 0;
    return j;
}

// A journal cursor's field ("s=<32 hex>", "b=<32 hex>", "x=<hex>") at `i`: its replacement and
// end.
std::optional<std::pair<std::string, size_t>> cursorField(std::string_view t, size_t i,
                                                          IdentifierMap& ids)
{
    if (i + 2 >= t.size() || t[i + 1] != '=' || (t[i] != 's' && t[i] != 'b' && t[i] != 'x'))
        return std::nullopt;
    if (i > 0 && t[i - 1] != ';' && t[i - 1] != '"' && t[i - 1] != ' ')
        return std::nullopt;
    size_t j = i + 2;
    while (j < t.size() && isHex(t[j]))
        ++j;
    if (j < t.size() && t[j] != ';' && t[j] != '"' &&
        !std::isspace(static_cast<unsigned char>(t[j])))
        return std::nullopt;
    auto value = t.substr(i + 2, j - i - 2);
    if (t[i] == 'x')
        return std::pair{std::string("x=0"), j};
    if (value.size() != 32)
        return std::nullopt;
    return std::pair{
        std::string(t.substr(i, 2)) + (t[i] == 's' ? ids.journalId(value) : ids.bootId(value)), j};
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
        if (auto field = cursorField(t, i, ids)) {
            out += field->first;
            i = field->second;
            continue;
        }
        const bool starts = boundaryBefore(t, i, false) && (i == 0 || t[i - 1] != ':');
        if (isHex(t[i]) && starts) {
            auto r = hexRun(t, i);
            // Not the start of a longer run ("::" follows); a colon that ends a phrase may.
            const bool ends = r.end >= t.size() || t[r.end] != ':' ||
                              (r.end + 1 < t.size() && t[r.end + 1] != ':') ||
                              r.end + 1 == t.size();
            if (r.groups.size() > 1 && boundaryAfter(t, r.end) && ends) {
                if (auto fake = hexIdentifier(t, i, r, ids)) {
                    out += *fake;
                    i = r.end;
                    continue;
                }
            }
            if (size_t end = i > 0 && t[i - 1] == '.' ? 0 : otherMacEnd(t, i)) {
                out += ids.hwAddress(t.substr(i, end - i));
                i = end;
                continue;
            }
        }
        if ((isHex(t[i]) || t[i] == ':') && starts && (i == 0 || t[i - 1] != '.')) {
            if (size_t end = ipv6End(t, i)) {
                out += *ipv6Fake(t.substr(i, end - i), ids);
                i = end;
                continue;
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

} // namespace nicd::sim::capture
