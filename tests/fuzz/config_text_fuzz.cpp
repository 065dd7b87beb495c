// libFuzzer target for the configuration parser: the bytes are one nicd.conf, read on top of the
// defaults as loadConfig reads each file (INI lines through inih, then every key's value parser).
// Nothing may be thrown: a bad line or value is a ConfigError. Whatever the text, the settings
// keep the ranges config.hpp documents (a bad value leaves a setting as it was), and every error
// names a line of the text.
#include "config/config.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

void checkPriorities(const std::vector<uint8_t>& prios)
{
    require(std::is_sorted(prios.begin(), prios.end()));
    require(std::adjacent_find(prios.begin(), prios.end()) == prios.end());
    require(prios.empty() || prios.back() <= 7);
}

void checkSettings(const nicd::ProvisionSettings& s)
{
    checkPriorities(s.pfc_priorities);
    require(!s.cnp_dscp || *s.cnp_dscp <= 63);
    require(!s.cnp_priority || *s.cnp_priority <= 7);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    nicd::Config config = nicd::defaultConfig();
    std::vector<nicd::ConfigError> errors;
    nicd::parseConfigText(text, "fuzz.conf", config, errors);

    const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    for (const auto& e : errors) {
        require(e.file == "fuzz.conf" && e.line >= 0 && e.line <= lines && !e.message.empty());
        require(!e.format().empty());
    }
    checkSettings(config.provision.settings);
    for (const auto& [ibdev, device] : config.devices) {
        if (device.pfc_priorities)
            checkPriorities(*device.pfc_priorities);
        checkSettings(config.provisionFor(ibdev));
    }
    return 0;
}
