#include "readiness/acs_config.hpp"

namespace nicd::readiness {

namespace {

constexpr size_t kExtendedStart = 0x100; // PCI_CFG_SPACE_SIZE
// As pci_find_next_ext_capability: at most this many headers (each at least 8 bytes apart).
constexpr int kMaxHeaders = (kConfigSpaceSize - kExtendedStart) / 8;

uint32_t le32(std::span<const uint8_t> b, size_t at)
{
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
           uint32_t(b[at + 3]) << 24;
}

uint16_t le16(std::span<const uint8_t> b, size_t at)
{
    return static_cast<uint16_t>(b[at] | b[at + 1] << 8);
}

} // namespace

AcsInputs decodeAcs(std::span<const uint8_t> config)
{
    AcsInputs out;
    if (config.size() <= kUnprivilegedConfigSize) {
        out.read = AcsInputs::Read::Short;
        return out;
    }
    out.read = AcsInputs::Read::Ok;
    if (config.size() > kConfigSpaceSize)
        config = config.first(kConfigSpaceSize);
    size_t pos = kExtendedStart;
    for (int ttl = kMaxHeaders; ttl > 0 && pos + 4 <= config.size(); --ttl) {
        uint32_t header = le32(config, pos);
        if (header == 0 || header == 0xffffffffU) // no capability here, or the device is gone
            break;
        if ((header & 0xffff) == kAcsCapabilityId) {
            if (pos + 8 > config.size())
                break;
            out.capability = true;
            out.control = le16(config, pos + 6);
            return out;
        }
        size_t next = (header >> 20) & 0xffc;
        if (next < kExtendedStart)
            break;
        pos = next;
    }
    return out;
}

} // namespace nicd::readiness
