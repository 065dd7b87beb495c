// libFuzzer target for lldpcli's JSON of the neighbours (the simulator's twin of lldpd, and what
// a capture from someone else's node holds): only DecodeError may come out. What parses must hold
// together (each netdev a name the kernel allows, at most kMaxNeighborsPerNetdev neighbours, every
// string within LLDP's 255 bytes) and must read back the same from what nicd-sim would write of
// it. The same bytes also go to the wiring map's parser: every rule it keeps has 2 or 3 words
// and a line number. Built and run by scripts/fuzz.sh (ctest -L fuzz, make fuzz).
#include "config/wiring_map.hpp"
#include "neighbor/lldpcli_json.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

void parseNeighbors(std::string_view text)
{
    namespace nb = nicd::neighbor;
    try {
        const auto m = nb::parseLldpcliNeighbors(text);
        require(m.size() <= nb::kMaxLldpInterfaces);
        for (const auto& [netdev, list] : m) {
            require(!netdev.empty() && netdev.size() <= 15);
            require(netdev.find('/') == std::string::npos);
            require(!list.empty() && list.size() <= nb::kMaxNeighborsPerNetdev);
            for (const auto& n : list) {
                for (const auto* s :
                     {&n.chassis_id, &n.system_name, &n.port_id, &n.port_descr, &n.mgmt_address})
                    require(s->size() <= 255);
                for (const auto& t : n.org_tlvs)
                    require(t.info.size() <= 507);
            }
        }
        require(nb::parseLldpcliNeighbors(nb::toLldpcliJson(m)) == m);
    } catch (const nicd::plugin::sdk::DecodeError&) {
    }
}

void parseWiring(std::string_view text)
{
    std::vector<nicd::config::WiringRule> rules;
    const auto errors = nicd::config::parseWiringMap(text, rules);
    require(rules.size() <= nicd::config::kMaxWiringRules);
    for (const auto& r : rules) {
        require(r.line > 0 && !r.port.empty() && !r.switch_name.empty() && !r.switch_port.empty());
        (void)nicd::config::globMatches(r.switch_name, "leaf-07");
    }
    for (const auto& e : errors)
        require(e.line > 0 && !e.message.empty());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    parseNeighbors(text);
    parseWiring(text);
    return 0;
}
