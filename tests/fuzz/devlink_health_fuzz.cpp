// libFuzzer target for the devlink health decoders: the same bytes go to the netlink attribute
// decoder and, as text, to the `devlink -j health show` parser. Only DecodeError may come out;
// anything else (a crash, a sanitizer report, another exception) is a finding. What a decoder
// returns must also hold together: names present, state one of the three words. Built and run
// by scripts/fuzz.sh (ctest -L fuzz, make fuzz).
#include "prefailure/devlink_health.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

void decodeAttributes(std::span<const uint8_t> bytes)
{
    try {
        const auto r = nicd::prefailure::decodeReporterMessage(bytes);
        if (!r)
            return;
        require(!r->name.empty() && r->handle.find('/') != std::string::npos);
        require(r->state == "healthy" || r->state == "error" || r->state == "unknown");
        require(r->healthy == (r->state == "healthy"));
        (void)nicd::prefailure::pciAddressOf(r->handle);
    } catch (const nicd::prefailure::DecodeError&) {
    }
}

void parseJson(std::string_view text)
{
    try {
        for (const auto& r : nicd::prefailure::parseDevlinkHealthJson(text)) {
            require(!r.name.empty() && !r.handle.empty());
            require(r.healthy == (r.state == "healthy"));
            (void)nicd::prefailure::pciAddressOf(r.handle);
        }
    } catch (const nicd::prefailure::DecodeError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    decodeAttributes(std::span(data, size));
    parseJson(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
