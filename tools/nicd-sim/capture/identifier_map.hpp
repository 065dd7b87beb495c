// The identifiers a capture must not carry off the node, and what replaces them: every original
// gets a fake of the same kind and shape, the same fake wherever it appears (a MAC in a netdev's
// `address`, in a bond's files and in a kernel line maps to one fake MAC). Fakes are numbered in
// the order originals are first met, so the same walk of the same node gives the same capture.
//
//   kind        original                      fake (k = 1, 2, ...)
//   mac         b8:3f:d2:5a:00:02             02:00:00:00:00:0k (locally administered)
//   hwaddr      any other length (IPoIB: 20)  zeros but the last 3 bytes, which hold k
//   guid        b83f:d203:005a:1a00           0200:0000:0000:000k
//   ipv4        192.168.0.1                   198.18.0.k (RFC 2544's benchmark range)
//   ipv6        fe80::ba3f:d2ff:fe5a:2         2001:db8::k (the documentation prefix)
//   hostname    gpu-node-01                   host-k
//   machine_id  32 hex digits                 00000000000000000000000000000k (hex)
//   serial      a module's vendor serial      SN0000000000000k (16 characters)
//
// Values that identify nothing stay as they are: all-zero and broadcast addresses, 0.0.0.0,
// loopback (127/8, ::1), an empty string. With keep = true (--keep-identifiers) every lookup
// returns the original.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::sim::capture {

enum class IdKind { Mac, HwAddr, Guid, Ipv4, Ipv6, Hostname, MachineId, Serial };

class IdentifierMap {
public:
    explicit IdentifierMap(bool keep = false) : keep_(keep) {}

    bool keep() const { return keep_; }

    // Hardware address text ("b8:3f:d2:5a:00:02", any number of bytes, any case): its fake in
    // the same notation (lower case); text that is not such an address is returned unchanged.
    std::string hwAddress(std::string_view text);
    // "b83f:d203:005a:1a00" (a node or system image GUID as sysfs prints it).
    std::string guid(std::string_view text);
    // Network byte order in, network byte order out.
    uint32_t ipv4(uint32_t address);
    std::array<uint8_t, 16> ipv6(const std::array<uint8_t, 16>& address);
    std::string hostname(std::string_view name);
    std::string machineId(std::string_view id); // 32 hex digits
    std::string serial(std::string_view serial);

    // Every original met so far with its fake, in the textual forms it may take in a file
    // (both cases of hex, a GUID with and without colons, dotted IPv4): what the last pass over
    // the capture replaces wherever it finds it. Empty when keeping.
    struct Form {
        std::string original;
        std::string fake;
        bool whole_word = false; // only where not part of a longer name or number
    };
    std::vector<Form> knownForms() const;

private:
    std::string fakeFor(IdKind kind, const std::string& original, std::string (*make)(uint64_t));

    bool keep_ = false;
    std::map<std::pair<IdKind, std::string>, std::string> fakes_;
    std::map<IdKind, uint64_t> next_;
    std::vector<Form> forms_;
};

// Parsers shared by the scrubbers (nullopt when the text is not one).
std::optional<std::vector<uint8_t>> parseHwAddress(std::string_view text); // "aa:bb:..."
std::string formatHwAddress(const std::vector<uint8_t>& bytes);
std::optional<uint32_t> parseIpv4(std::string_view dotted); // network byte order
std::string formatIpv4(uint32_t address);                   // network byte order

} // namespace nicd::sim::capture
