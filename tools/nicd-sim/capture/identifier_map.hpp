// The identifiers a capture must not carry off the node, and what replaces them: every original
// gets a fake of the same kind and shape, the same fake wherever it appears (a MAC in a netdev's
// `address`, in a bond's files and in a kernel line maps to one fake MAC). Fakes are numbered in
// the order originals are first met, so the same walk of the same node gives the same capture.
//
//   kind        original                      fake (k = 1, 2, ...)
//   mac         b8:3f:d2:5a:00:02             02:00:00:00:00:0k (locally administered); also
//               (b8-3f-d2-5a-00-02,           in the same notation; and its EUI-64 link-local
//               b83f.d25a.0002, b83fd25a0002) address (fe80::ba3f:d2ff:fe5a:2) as an ipv6
//   hwaddr      any other length (IPoIB: 20)  zeros but the last 3 bytes, which hold k
//   guid        b83f:d203:005a:1a00           0200:0000:0000:000k
//   ipv4        192.168.0.1                   198.18.0.k (RFC 2544's benchmark range)
//   ipv6        fe80::ba3f:d2ff:fe5a:2         2001:db8::k (the documentation prefix), in the
//               (any notation)                original's notation (compressed, full, 32 digits)
//   hostname    gpu-node-01 (any case)        host-k
//   domain      cluster.example.com           domain-k.example (an FQDN's: gpu-node-01.cluster
//                                             .example.com is host-k.domain-j.example, and its
//                                             short name and domain are learnt apart)
//   machine_id  32 hex digits                 00000000000000000000000000000k (hex)
//   boot_id     5b1f2c3d-4e5f-...  (or 32 hex) 00000000-0000-4000-8000-00000000000k
//   journal_id  a journal cursor's s= (32 hex) 0000000000000000000000000000000k
//   serial      a module's vendor serial      SN0000000000000k (16 characters)
//   name        a netdev named after its MAC  enx02000000000k: the MAC's own fake
//               (systemd's enx<12 hex>), an   <prefix>x0200000000000000k: the GUID's own fake
//               RDMA device named after its
//               node GUID (rdma-core's NAME_GUID: ib, roce, iw, opa or rdma, "x", 16 hex)
//   conf name   nicd.conf.d/50-rack7-gpu.conf  nicd.conf.d/0001.conf (its place in the order)
//
// Hex and names are matched in any case. Values that identify nothing stay as they are: all-zero
// and broadcast addresses, 0.0.0.0, loopback (127/8, ::1), an empty string. With keep = true
// (--keep-identifiers) every lookup returns the original.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::sim::capture {

enum class IdKind {
    Mac,
    HwAddr,
    Guid,
    Ipv4,
    Ipv6,
    Hostname,
    Domain,
    MachineId,
    BootId,
    JournalId,
    Serial,
    ConfName,
    Name
};

class IdentifierMap {
public:
    explicit IdentifierMap(bool keep = false) : keep_(keep) {}

    bool keep() const { return keep_; }

    // Hardware address text ("b8:3f:d2:5a:00:02", any number of bytes, any case; a MAC also as
    // b8-3f-d2-5a-00-02 or b83f.d25a.0002): its fake in the same notation (lower case); text
    // that is not such an address is returned unchanged.
    std::string hwAddress(std::string_view text);
    // "b83f:d203:005a:1a00" (a node or system image GUID as sysfs prints it).
    std::string guid(std::string_view text);
    // Network byte order in, network byte order out.
    uint32_t ipv4(uint32_t address);
    std::array<uint8_t, 16> ipv6(const std::array<uint8_t, 16>& address);
    std::string hostname(std::string_view name); // a short name or an FQDN
    std::string machineId(std::string_view id);  // 32 hex digits
    std::string bootId(std::string_view id);     // a UUID, with or without its dashes
    std::string journalId(std::string_view id);  // 32 hex digits
    std::string serial(std::string_view serial);
    // A netdev's or RDMA device's name: the same name around the fake of the identifier it
    // embeds (enx<MAC>, <prefix>x<GUID>), so that the name and the address still agree; any
    // other name unchanged.
    std::string name(std::string_view name);
    // A drop-in's file name (it may say whose node it is): "NNNN.conf", NNNN its place in the
    // sorted list (so nicd reads them in the same order).
    std::string confName(std::string_view name, size_t ordinal);

    // Text that reads as an identifier but is none: a firmware version of four numbers
    // (bnxt_re's fw_ver "230.0.157.0", "%d.%d.%d.%d") is a dotted IPv4 address to the eye. Kept
    // as it is wherever it appears; learnt before anything is scrubbed.
    void notAnIdentifier(std::string_view text) { not_identifiers_.emplace(text); }

    // Every original met so far with its fake, in the textual forms it may take in a file
    // (both cases of hex, a GUID with and without colons, dotted IPv4): what the last pass over
    // the capture replaces wherever it finds it. Empty when keeping.
    struct Form {
        std::string original;
        std::string fake;
        bool whole_word = false; // only where not part of a longer name or number
        bool any_case = false;   // the original in upper, lower or mixed case
    };
    std::vector<Form> knownForms() const;

private:
    std::string fakeFor(IdKind kind, const std::string& original, std::string (*make)(uint64_t));
    std::string shortName(const std::string& name);
    std::string domain(const std::string& name);

    bool keep_ = false;
    std::map<std::pair<IdKind, std::string>, std::string> fakes_;
    std::map<IdKind, uint64_t> next_;
    std::set<std::string, std::less<>> not_identifiers_;
    std::vector<Form> forms_;
};

// Parsers shared by the scrubbers (nullopt when the text is not one).
enum class HwNotation { Colons, Dashes, Dots };
// "aa:bb:..." (2 bytes or more); a MAC also as "aa-bb-cc-dd-ee-ff" or "aabb.ccdd.eeff".
std::optional<std::vector<uint8_t>> parseHwAddress(std::string_view text,
                                                   HwNotation* notation = nullptr);
std::string formatHwAddress(const std::vector<uint8_t>& bytes,
                            HwNotation notation = HwNotation::Colons);
std::optional<uint32_t> parseIpv4(std::string_view dotted); // network byte order
std::string formatIpv4(uint32_t address);                   // network byte order

} // namespace nicd::sim::capture
