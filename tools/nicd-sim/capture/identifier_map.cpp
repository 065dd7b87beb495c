#include "capture/identifier_map.hpp"

#include "capture/text_util.hpp"
#include "text/hex_digit.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace nicd::sim::capture {

namespace {

using nicd::text::hexDigit;

bool allBytes(const std::vector<uint8_t>& b, uint8_t v)
{
    return std::all_of(b.begin(), b.end(), [v](uint8_t x) { return x == v; });
}

std::string without(std::string_view s, char c)
{
    std::string out;
    for (char x : s)
        if (x != c)
            out += x;
    return out;
}

bool isHex32(std::string_view s)
{
    return s.size() == 32 &&
           std::all_of(s.begin(), s.end(), [](char c) { return hexDigit(c) >= 0; });
}

// "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d" -> "5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
std::string dashedUuid(const std::string& hex)
{
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
           hex.substr(16, 4) + "-" + hex.substr(20);
}

// The IPv6 text forms an address may take in a file, in order: compressed (inet_ntop), full
// (8 groups of 4 digits), 32 digits (/proc/net/*).
std::array<std::string, 3> ipv6Forms(const std::array<uint8_t, 16>& a)
{
    std::array<char, INET6_ADDRSTRLEN> buf{};
    ::inet_ntop(AF_INET6, a.data(), buf.data(), buf.size());
    std::string full, digits;
    for (size_t i = 0; i < 16; i += 2) {
        full += fmt::format("{}{:02x}{:02x}", i == 0 ? "" : ":", a[i], a[i + 1]);
        digits += fmt::format("{:02x}{:02x}", a[i], a[i + 1]);
    }
    return {buf.data(), full, digits};
}

} // namespace

std::optional<std::vector<uint8_t>> parseHwAddress(std::string_view text, HwNotation* notation)
{
    // aabb.ccdd.eeff: a MAC as Cisco writes it.
    if (text.size() == 14 && text[4] == '.' && text[9] == '.') {
        std::vector<uint8_t> out;
        for (size_t g = 0; g < 3; ++g)
            for (size_t b = 0; b < 2; ++b) {
                int hi = hexDigit(text[g * 5 + b * 2]);
                int lo = hexDigit(text[g * 5 + b * 2 + 1]);
                if (hi < 0 || lo < 0)
                    return std::nullopt;
                out.push_back(static_cast<uint8_t>(hi * 16 + lo));
            }
        if (notation)
            *notation = HwNotation::Dots;
        return out;
    }
    const char sep = text.size() > 2 && text[2] == '-' ? '-' : ':';
    std::vector<uint8_t> out;
    size_t i = 0;
    while (true) {
        if (i + 2 > text.size())
            return std::nullopt;
        int hi = hexDigit(text[i]);
        int lo = hexDigit(text[i + 1]);
        if (hi < 0 || lo < 0)
            return std::nullopt;
        out.push_back(static_cast<uint8_t>(hi * 16 + lo));
        i += 2;
        if (i == text.size())
            break;
        if (text[i] != sep)
            return std::nullopt;
        ++i;
    }
    if (out.size() < 2 || (sep == '-' && out.size() != 6))
        return std::nullopt;
    if (notation)
        *notation = sep == '-' ? HwNotation::Dashes : HwNotation::Colons;
    return out;
}

std::string formatHwAddress(const std::vector<uint8_t>& bytes, HwNotation notation)
{
    std::string out;
    for (size_t i = 0; i < bytes.size(); ++i) {
        if (i > 0 && notation == HwNotation::Colons)
            out += ':';
        else if (i > 0 && notation == HwNotation::Dashes)
            out += '-';
        else if (i > 0 && i % 2 == 0 && notation == HwNotation::Dots)
            out += '.';
        out += fmt::format("{:02x}", bytes[i]);
    }
    return out;
}

std::optional<uint32_t> parseIpv4(std::string_view dotted)
{
    in_addr a{};
    std::string s(dotted);
    if (::inet_pton(AF_INET, s.c_str(), &a) != 1)
        return std::nullopt;
    return a.s_addr;
}

std::string formatIpv4(uint32_t address)
{
    in_addr a{};
    a.s_addr = address;
    std::array<char, INET_ADDRSTRLEN> buf{};
    ::inet_ntop(AF_INET, &a, buf.data(), buf.size());
    return buf.data();
}

std::string IdentifierMap::fakeFor(IdKind kind, const std::string& original,
                                   std::string (*make)(uint64_t))
{
    auto key = std::make_pair(kind, original);
    if (auto it = fakes_.find(key); it != fakes_.end())
        return it->second;
    auto fake = make(++next_[kind]);
    fakes_.emplace(key, fake);
    return fake;
}

std::string IdentifierMap::hwAddress(std::string_view text)
{
    HwNotation notation = HwNotation::Colons;
    auto bytes = parseHwAddress(text, &notation);
    if (keep_ || !bytes || allBytes(*bytes, 0) || allBytes(*bytes, 0xff))
        return std::string(text);
    const auto original = formatHwAddress(*bytes);
    const size_t n = bytes->size();
    const auto kind = n == 6 ? IdKind::Mac : IdKind::HwAddr;
    auto key = std::make_pair(kind, original);
    if (auto it = fakes_.find(key); it != fakes_.end())
        return formatHwAddress(*parseHwAddress(it->second), notation);
    uint64_t k = ++next_[kind];
    std::vector<uint8_t> fake(n, 0);
    if (n == 6)
        fake[0] = 0x02;
    for (size_t i = 0; i < 3 && i < n; ++i)
        fake[n - 1 - i] = static_cast<uint8_t>(k >> (8 * i));
    auto text_fake = formatHwAddress(fake);
    fakes_.emplace(key, text_fake);
    forms_.push_back({original, text_fake, false, true});
    forms_.push_back({without(original, ':'), without(text_fake, ':'), true, true});
    if (n == 6) {
        for (auto other : {HwNotation::Dashes, HwNotation::Dots})
            forms_.push_back(
                {formatHwAddress(*bytes, other), formatHwAddress(fake, other), false, true});
        // Its EUI-64 link-local address (SLAAC): fe80::<the MAC, U/L bit flipped, ff:fe inside>.
        const auto& b = *bytes;
        (void)ipv6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, static_cast<uint8_t>(b[0] ^ 0x02), b[1], b[2],
                    0xff, 0xfe, b[3], b[4], b[5]});
    }
    return formatHwAddress(fake, notation);
}

std::string IdentifierMap::guid(std::string_view text)
{
    const auto original = lowerCase(text);
    if (keep_ || without(original, ':').find_first_not_of('0') == std::string::npos)
        return std::string(text);
    bool fresh = !fakes_.contains({IdKind::Guid, original});
    auto fake = fakeFor(IdKind::Guid, original, [](uint64_t k) {
        return fmt::format("0200:0000:{:04x}:{:04x}", (k >> 16) & 0xffff, k & 0xffff);
    });
    if (fresh) {
        forms_.push_back({original, fake, false, true});
        forms_.push_back({without(original, ':'), without(fake, ':'), false, true});
    }
    return fake;
}

uint32_t IdentifierMap::ipv4(uint32_t address)
{
    const uint32_t host = ntohl(address);
    if (keep_ || host == 0 || host == 0xffffffffU || (host >> 24) == 127)
        return address;
    const auto original = formatIpv4(address);
    if (not_identifiers_.contains(original))
        return address;
    bool fresh = !fakes_.contains({IdKind::Ipv4, original});
    auto fake = fakeFor(IdKind::Ipv4, original, [](uint64_t k) {
        return formatIpv4(htonl(static_cast<uint32_t>(0xc6120000U + k))); // 198.18.0.0/15
    });
    if (fresh)
        forms_.push_back({original, fake, true});
    return *parseIpv4(fake);
}

std::array<uint8_t, 16> IdentifierMap::ipv6(const std::array<uint8_t, 16>& address)
{
    std::array<uint8_t, 16> loopback{};
    loopback[15] = 1;
    if (keep_ || address == std::array<uint8_t, 16>{} || address == loopback)
        return address;
    const auto originals = ipv6Forms(address);
    bool fresh = !fakes_.contains({IdKind::Ipv6, originals[0]});
    auto fake = fakeFor(IdKind::Ipv6, originals[0],
                        [](uint64_t k) { return fmt::format("2001:db8::{:x}", k); });
    std::array<uint8_t, 16> out{};
    ::inet_pton(AF_INET6, fake.c_str(), out.data());
    if (fresh) {
        const auto fakes = ipv6Forms(out);
        for (size_t i = 0; i < originals.size(); ++i)
            forms_.push_back({originals[i], fakes[i], true, true});
    }
    return out;
}

std::string IdentifierMap::shortName(const std::string& name)
{
    bool fresh = !fakes_.contains({IdKind::Hostname, name});
    auto fake =
        fakeFor(IdKind::Hostname, name, [](uint64_t k) { return fmt::format("host-{}", k); });
    if (fresh)
        forms_.push_back({name, fake, true, true});
    return fake;
}

std::string IdentifierMap::domain(const std::string& name)
{
    bool fresh = !fakes_.contains({IdKind::Domain, name});
    auto fake = fakeFor(IdKind::Domain, name,
                        [](uint64_t k) { return fmt::format("domain-{}.example", k); });
    if (fresh)
        forms_.push_back({name, fake, true, true});
    return fake;
}

std::string IdentifierMap::hostname(std::string_view name)
{
    auto original = lowerCase(name);
    while (!original.empty() && original.back() == '.') // the root's dot
        original.pop_back();
    if (keep_ || original.empty() || original == "localhost" || original.starts_with("localhost."))
        return std::string(name);
    const auto dot = original.find('.');
    if (dot == std::string::npos || dot == 0)
        return shortName(original);
    // The FQDN as a whole first (the longer form is replaced before its parts), then its parts.
    auto fake = shortName(original.substr(0, dot)) + "." + domain(original.substr(dot + 1));
    if (!fakes_.contains({IdKind::Hostname, original})) {
        fakes_.emplace(std::make_pair(IdKind::Hostname, original), fake);
        forms_.push_back({original, fake, true, true});
    }
    return fake;
}

std::string IdentifierMap::machineId(std::string_view id)
{
    const auto original = lowerCase(id);
    if (keep_ || original.empty())
        return std::string(id);
    bool fresh = !fakes_.contains({IdKind::MachineId, original});
    auto fake =
        fakeFor(IdKind::MachineId, original, [](uint64_t k) { return fmt::format("{:032x}", k); });
    if (fresh)
        forms_.push_back({original, fake, false, true});
    return fake;
}

std::string IdentifierMap::bootId(std::string_view id)
{
    const auto original = lowerCase(without(id, '-'));
    if (keep_ || !isHex32(original) || original.find_first_not_of('0') == std::string::npos)
        return std::string(id);
    bool fresh = !fakes_.contains({IdKind::BootId, original});
    auto fake = fakeFor(IdKind::BootId, original,
                        [](uint64_t k) { return fmt::format("0000000000004000800{:013x}", k); });
    if (fresh) {
        forms_.push_back({dashedUuid(original), dashedUuid(fake), true, true});
        forms_.push_back({original, fake, true, true});
    }
    return id.find('-') == std::string_view::npos ? fake : dashedUuid(fake);
}

std::string IdentifierMap::journalId(std::string_view id)
{
    const auto original = lowerCase(id);
    if (keep_ || !isHex32(original))
        return std::string(id);
    bool fresh = !fakes_.contains({IdKind::JournalId, original});
    auto fake =
        fakeFor(IdKind::JournalId, original, [](uint64_t k) { return fmt::format("{:032x}", k); });
    if (fresh)
        forms_.push_back({original, fake, true, true});
    return fake;
}

std::string IdentifierMap::serial(std::string_view serial)
{
    std::string original(serial);
    if (keep_ || original.find_first_not_of(' ') == std::string::npos)
        return original;
    bool fresh = !fakes_.contains({IdKind::Serial, original});
    auto fake =
        fakeFor(IdKind::Serial, original, [](uint64_t k) { return fmt::format("SN{:014d}", k); });
    if (fresh)
        forms_.push_back({original, fake, true});
    return fake;
}

std::string IdentifierMap::name(std::string_view name)
{
    auto allHex = [](std::string_view s) {
        return std::all_of(s.begin(), s.end(), [](char c) { return hexDigit(c) >= 0; });
    };
    // "aabbccddeeff" -> "aa:bb:cc:dd:ee:ff"; "0123456789abcdef" -> "0123:4567:89ab:cdef"
    auto grouped = [](std::string_view hex, size_t width) {
        std::string out;
        for (size_t i = 0; i < hex.size(); i += width)
            out += (i == 0 ? "" : ":") + lowerCase(hex.substr(i, width));
        return out;
    };
    std::string fake;
    if (name.size() == 15 && name.starts_with("enx") && allHex(name.substr(3))) {
        fake = "enx" + without(hwAddress(grouped(name.substr(3), 2)), ':');
    } else {
        for (std::string_view prefix : {"ib", "roce", "iw", "opa", "rdma"}) {
            const size_t hex = prefix.size() + 1;
            if (name.size() == hex + 16 && name.starts_with(prefix) && name[prefix.size()] == 'x' &&
                allHex(name.substr(hex)))
                fake = std::string(prefix) + "x" + without(guid(grouped(name.substr(hex), 4)), ':');
        }
    }
    std::string original(name);
    if (keep_ || fake.empty() || lowerCase(fake) == lowerCase(original))
        return original;
    if (fakes_.emplace(std::make_pair(IdKind::Name, original), fake).second)
        forms_.push_back({original, fake, true});
    return fake;
}

std::string IdentifierMap::confName(std::string_view name, size_t ordinal)
{
    std::string original(name);
    if (keep_)
        return original;
    auto fake = fmt::format("{:04d}.conf", ordinal);
    if (fakes_.emplace(std::make_pair(IdKind::ConfName, original), fake).second)
        forms_.push_back({original, fake, true});
    return fake;
}

std::vector<IdentifierMap::Form> IdentifierMap::knownForms() const
{
    auto out = forms_;
    // Longer originals first, so a GUID's colon form is replaced before a shorter form inside it.
    std::stable_sort(out.begin(), out.end(), [](const Form& a, const Form& b) {
        return a.original.size() > b.original.size();
    });
    return out;
}

} // namespace nicd::sim::capture
