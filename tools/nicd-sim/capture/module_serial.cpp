#include "capture/module_serial.hpp"

#include <optional>

namespace nicd::sim::capture {

namespace {

constexpr size_t kSerialLength = 16;

struct SerialLayout {
    size_t serial = 0;   // first byte of the serial in the blob
    size_t sum_from = 0; // the checksum covers [sum_from, checksum)
    size_t checksum = 0; // the checksum byte
};

std::optional<SerialLayout> layoutOf(const std::vector<uint8_t>& blob)
{
    if (blob.empty())
        return std::nullopt;
    switch (blob[0]) {
    case 0x0C:
    case 0x0D:
    case 0x11:
        return SerialLayout{196, 192, 223};
    case 0x18:
    case 0x19:
    case 0x1B:
    case 0x1E:
    case 0x1F:
    case 0x20:
        return SerialLayout{166, 128, 222};
    case 0x03:
        return SerialLayout{68, 64, 95};
    default:
        return std::nullopt;
    }
}

uint8_t sum(const std::vector<uint8_t>& blob, const SerialLayout& l)
{
    unsigned s = 0;
    for (size_t i = l.sum_from; i < l.checksum; ++i)
        s += blob[i];
    return static_cast<uint8_t>(s & 0xff);
}

} // namespace

std::string moduleSerial(const std::vector<uint8_t>& blob)
{
    auto l = layoutOf(blob);
    if (!l || blob.size() <= l->checksum)
        return {};
    std::string s(blob.begin() + static_cast<std::ptrdiff_t>(l->serial),
                  blob.begin() + static_cast<std::ptrdiff_t>(l->serial + kSerialLength));
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0'))
        s.pop_back();
    return s;
}

std::vector<uint8_t> scrubModuleSerial(std::vector<uint8_t> blob, IdentifierMap& ids)
{
    auto original = moduleSerial(blob);
    if (original.empty() || ids.keep())
        return blob;
    auto l = *layoutOf(blob);
    const bool checksum_was_right = sum(blob, l) == blob[l.checksum];
    auto fake = ids.serial(original);
    fake.resize(kSerialLength, ' ');
    for (size_t i = 0; i < kSerialLength; ++i)
        blob[l.serial + i] = static_cast<uint8_t>(fake[i]);
    if (checksum_was_right)
        blob[l.checksum] = sum(blob, l);
    return blob;
}

} // namespace nicd::sim::capture
