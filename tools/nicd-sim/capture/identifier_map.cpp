#include "capture/identifier_map.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace nicd::sim::capture {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string upper(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

bool allBytes(const std::vector<uint8_t>& b, uint8_t v)
{
    return std::all_of(b.begin(), b.end(), [v](uint8_t x) { return x == v; });
}

std::string withoutColons(std::string_view s)
{
    std::string out;
    for (char c : s)
        if (c != ':')
            out += c;
    return out;
}

} // namespace

std::optional<std::vector<uint8_t>> parseHwAddress(std::string_view text)
{
    std::vector<uint8_t> out;
    size_t i = 0;
    while (true) {
        if (i + 2 > text.size())
            return std::nullopt;
        int hi = hexValue(text[i]);
        int lo = hexValue(text[i + 1]);
        if (hi < 0 || lo < 0)
            return std::nullopt;
        out.push_back(static_cast<uint8_t>(hi * 16 + lo));
        i += 2;
        if (i == text.size())
            break;
        if (text[i] != ':')
            return std::nullopt;
        ++i;
    }
    if (out.size() < 2)
        return std::nullopt;
    return out;
}

std::string formatHwAddress(const std::vector<uint8_t>& bytes)
{
    std::string out;
    for (size_t i = 0; i < bytes.size(); ++i)
        out += fmt::format("{}{:02x}", i == 0 ? "" : ":", bytes[i]);
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
    auto bytes = parseHwAddress(text);
    if (keep_ || !bytes || allBytes(*bytes, 0) || allBytes(*bytes, 0xff))
        return std::string(text);
    const auto original = formatHwAddress(*bytes);
    const size_t n = bytes->size();
    const auto kind = n == 6 ? IdKind::Mac : IdKind::HwAddr;
    auto key = std::make_pair(kind, original);
    if (auto it = fakes_.find(key); it != fakes_.end())
        return it->second;
    uint64_t k = ++next_[kind];
    std::vector<uint8_t> fake(n, 0);
    if (n == 6)
        fake[0] = 0x02;
    for (size_t i = 0; i < 3 && i < n; ++i)
        fake[n - 1 - i] = static_cast<uint8_t>(k >> (8 * i));
    auto text_fake = formatHwAddress(fake);
    fakes_.emplace(key, text_fake);
    forms_.push_back({original, text_fake});
    forms_.push_back({upper(original), text_fake});
    return text_fake;
}

std::string IdentifierMap::guid(std::string_view text)
{
    const auto original = lower(text);
    if (keep_ || withoutColons(original).find_first_not_of('0') == std::string::npos)
        return std::string(text);
    bool fresh = !fakes_.contains({IdKind::Guid, original});
    auto fake = fakeFor(IdKind::Guid, original, [](uint64_t k) {
        return fmt::format("0200:0000:{:04x}:{:04x}", (k >> 16) & 0xffff, k & 0xffff);
    });
    if (fresh) {
        forms_.push_back({original, fake});
        forms_.push_back({upper(original), fake});
        forms_.push_back({withoutColons(original), withoutColons(fake)});
        forms_.push_back({upper(withoutColons(original)), withoutColons(fake)});
    }
    return fake;
}

uint32_t IdentifierMap::ipv4(uint32_t address)
{
    const uint32_t host = ntohl(address);
    if (keep_ || host == 0 || host == 0xffffffffU || (host >> 24) == 127)
        return address;
    const auto original = formatIpv4(address);
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
    std::array<char, INET6_ADDRSTRLEN> buf{};
    ::inet_ntop(AF_INET6, address.data(), buf.data(), buf.size());
    const std::string original = buf.data();
    bool fresh = !fakes_.contains({IdKind::Ipv6, original});
    auto fake = fakeFor(IdKind::Ipv6, original,
                        [](uint64_t k) { return fmt::format("2001:db8::{:x}", k); });
    if (fresh)
        forms_.push_back({original, fake, true});
    std::array<uint8_t, 16> out{};
    ::inet_pton(AF_INET6, fake.c_str(), out.data());
    return out;
}

std::string IdentifierMap::hostname(std::string_view name)
{
    if (keep_ || name.empty() || name == "localhost")
        return std::string(name);
    const std::string original(name);
    bool fresh = !fakes_.contains({IdKind::Hostname, original});
    auto fake =
        fakeFor(IdKind::Hostname, original, [](uint64_t k) { return fmt::format("host-{}", k); });
    if (fresh)
        forms_.push_back({original, fake, true});
    return fake;
}

std::string IdentifierMap::machineId(std::string_view id)
{
    const auto original = lower(id);
    if (keep_ || original.empty())
        return std::string(id);
    bool fresh = !fakes_.contains({IdKind::MachineId, original});
    auto fake =
        fakeFor(IdKind::MachineId, original, [](uint64_t k) { return fmt::format("{:032x}", k); });
    if (fresh)
        forms_.push_back({original, fake});
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
