#include "capture/scrub_text.hpp"

#include "capture/text_util.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>

namespace nicd::sim::capture {

namespace {

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

std::string replaceKnownForms(std::string_view text, const std::vector<IdentifierMap::Form>& forms)
{
    // `low` is `out` in lower case, kept in step with it: where any case matches.
    std::string out(text);
    std::string low = lowerCase(out);
    for (const auto& f : forms) {
        if (f.original.empty() || f.original == f.fake)
            continue;
        const bool numeric = isDigit(f.original.front());
        const std::string needle = f.any_case ? lowerCase(f.original) : f.original;
        const std::string& hay = f.any_case ? low : out;
        size_t pos = 0;
        while ((pos = hay.find(needle, pos)) != std::string::npos) {
            size_t end = pos + needle.size();
            if (f.whole_word && !(boundaryBefore(out, pos, numeric) && boundaryAfter(out, end))) {
                ++pos;
                continue;
            }
            out.replace(pos, needle.size(), f.fake);
            low.replace(pos, needle.size(), lowerCase(f.fake));
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
