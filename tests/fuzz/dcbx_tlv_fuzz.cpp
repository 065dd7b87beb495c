// libFuzzer target for the DCBX TLV decoders (daemon/neighbor/dcbx_tlv.hpp, cee_dcbx_tlv.hpp),
// the fold of a neighbour's TLVs and the comparison with the host's QoS. The input is
//   host (3 bytes: flags, PFC bitmap, RoCE ToS), then TLV records: OUI choice (1 byte: IEEE 802.1,
//   CEE, another), subtype (1), length (2, big-endian; cut to what is left), information string.
// Every byte after the host's also goes, whole, to each decoder. A decoder throws DecodeError on
// malformed input and nothing else; what it decodes stays inside its fields' ranges. The fold and
// the comparison never throw: any exception, crash or sanitizer report is a finding.
#include "neighbor/dcbx_tlv.hpp"
#include "neighbor/switch_qos_compare.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace nb = nicd::neighbor;

namespace {

constexpr size_t kHostBytes = 3;
constexpr std::string_view kPort = "leaf-07 swp12";

void require(bool ok)
{
    if (!ok)
        std::abort();
}

// Runs one decoder on the bytes: DecodeError (with a message naming a TLV) or a value that
// `check` accepts.
template <class Decode, class Check>
void decodeOne(std::span<const uint8_t> info, Decode decode, Check check)
{
    try {
        check(decode(info));
    } catch (const nicd::plugin::sdk::DecodeError& e) {
        require(std::string(e.what()).find("TLV") != std::string::npos);
    }
}

void checkTables(const nb::EtsTables& t)
{
    for (size_t i = 0; i < 8; ++i) {
        require(t.priority_tc[i] <= 7);
        require(t.tc_bandwidth[i] <= 100);
    }
}

void checkCee(const nb::CeeDcbx& c)
{
    if (c.priority_groups)
        for (size_t i = 0; i < 8; ++i) {
            const uint8_t g = c.priority_groups->priority_group[i];
            require(g <= 7 || g == nb::kCeeStrictGroup);
            require(c.priority_groups->group_bandwidth[i] <= 100);
        }
}

void decoders(std::span<const uint8_t> info)
{
    decodeOne(info, nb::decodeEtsConfig, [&](const nb::EtsConfig& e) {
        require(info.size() == 21 && e.max_tcs >= 1 && e.max_tcs <= 8);
        checkTables(e.tables);
    });
    decodeOne(info, nb::decodeEtsRecommendation,
              [](const nb::EtsRecommendation& e) { checkTables(e.tables); });
    decodeOne(info, nb::decodePfcConfig,
              [&](const nb::PfcConfig& p) { require(info.size() == 2 && p.capability <= 8); });
    decodeOne(info, nb::decodeAppPriority, [&](const nb::AppPriority& a) {
        require(!info.empty() && a.entries.size() * 3 + 1 == info.size());
        for (const nb::AppEntry& e : a.entries) {
            require(e.priority <= 7 && static_cast<uint8_t>(e.selector) <= 7);
            require(e.selector != nb::AppSelector::Dscp || e.protocol <= 63);
        }
    });
    decodeOne(info, nb::decodeCeeDcbx, checkCee);
}

// The TLV records after the host's bytes.
std::vector<nb::OrgTlv> records(std::span<const uint8_t> bytes)
{
    static constexpr nb::Oui kOther{0x00, 0x12, 0x0F};
    std::vector<nb::OrgTlv> out;
    size_t at = 0;
    while (bytes.size() - at >= 4) {
        nb::OrgTlv t;
        const uint8_t choice = bytes[at] % 3;
        t.oui = choice == 0 ? nb::kIeee8021Oui : choice == 1 ? nb::kCeeDcbxOui : kOther;
        t.subtype = bytes[at + 1];
        const size_t want = static_cast<size_t>(bytes[at + 2]) << 8 | bytes[at + 3];
        at += 4;
        const size_t len = std::min(want, bytes.size() - at);
        t.info.assign(bytes.begin() + static_cast<long>(at),
                      bytes.begin() + static_cast<long>(at + len));
        at += len;
        out.push_back(std::move(t));
    }
    return out;
}

void foldAndCompare(std::span<const uint8_t> host_bytes, std::span<const uint8_t> rest)
{
    const auto tlvs = records(rest);
    const nb::SwitchDcb sw = nb::foldDcbxTlvs(tlvs);
    bool any_dcbx = false;
    for (const nb::OrgTlv& t : tlvs)
        any_dcbx = any_dcbx || nb::isDcbxTlv(t.oui, t.subtype);
    require(any_dcbx || sw == nb::SwitchDcb{});
    require(sw.errors.size() <= tlvs.size());
    for (const nb::TlvError& e : sw.errors) {
        require(nb::isDcbxTlv(e.oui, e.subtype));
        require(e.message.find(nb::ouiText(e.oui)) != std::string::npos);
    }
    if (sw.cee)
        checkCee(*sw.cee);

    nb::HostQos host;
    host.trust_dscp = (host_bytes[0] & 0x01) != 0;
    host.willing = (host_bytes[0] & 0x02) != 0;
    if (host_bytes[0] & 0x04)
        host.roce_priority = static_cast<uint8_t>(host_bytes[0] >> 5);
    for (uint8_t p = 0; p < 8; ++p)
        if ((host_bytes[1] >> p) & 1)
            host.pfc_priorities.push_back(p);
    host.roce_tos = host_bytes[2];
    static const std::set<std::string> kSettings{"pfc", "app_dscp", "trust", "ets", "willing"};
    for (const nb::QosMismatch& m : nb::compareSwitchQos(sw, host, kPort)) {
        require(kSettings.contains(m.setting));
        require(m.message.starts_with(kPort));
        require(!m.switch_value.empty() && !m.host_value.empty());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::span<const uint8_t> bytes(data, size);
    if (bytes.size() < kHostBytes)
        return 0;
    const auto rest = bytes.subspan(kHostBytes);
    decoders(rest);
    foldAndCompare(bytes.first(kHostBytes), rest);
    return 0;
}
