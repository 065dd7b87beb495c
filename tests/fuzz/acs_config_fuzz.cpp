// libFuzzer target for the readiness decoders of outside bytes: a PCIe bridge's config file (the
// ACS capability walk, readiness/acs_config.hpp) and the same bytes as a GID (ports/N/gids/<i>),
// as /proc/driver/nvidia/version and as /proc/sys/kernel/osrelease. Nothing may crash or hang;
// what the ACS decoder returns must hold together. Seeds: tests/data/fuzz/acs_config/
// (make_seeds.py).
#include "readiness/acs_config.hpp"
#include "readiness/gid_text.hpp"
#include "readiness/gpudirect_evidence.hpp"

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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace nicd::readiness;
    std::span<const uint8_t> bytes(data, size);
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto acs = decodeAcs(bytes);
    require(acs.read != nicd::AcsInputs::Read::Failed);
    require(acs.read == nicd::AcsInputs::Read::Ok || !acs.capability);
    require(!redirectsPeerTraffic(acs) || (acs.capability && size > kUnprivilegedConfigSize));
    if (auto gid = parseGid(text)) {
        // What parses prints back in the kernel's form and parses to the same bytes.
        require(parseGid(sysfsGidText(*gid)) == gid);
        (void)gidAddress(*gid);
    }
    (void)parseNvidiaVersion(text);
    (void)parseKernelRelease(text);
    return 0;
}
