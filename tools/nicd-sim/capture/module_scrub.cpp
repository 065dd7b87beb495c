#include "capture/module_serial.hpp"

#include "signals/module_layout.hpp"

#include <algorithm>
#include <optional>

namespace nicd::sim::capture {

namespace {

namespace layout = signals::module_layout;

constexpr size_t kSerialLength = 16;

struct SerialLayout {
    size_t serial = 0;   // first byte of the serial in the blob
    size_t sum_from = 0; // the checksum covers [sum_from, checksum)
    size_t checksum = 0; // the checksum byte
};

std::optional<SerialLayout> serialLayoutOf(const std::vector<uint8_t>& blob)
{
    if (blob.empty())
        return std::nullopt;
    switch (layout::layoutOf(blob[0])) {
    case layout::Layout::Sff8636:
        return SerialLayout{196, 192, 223};
    case layout::Layout::Cmis:
        return SerialLayout{166, 128, 222};
    case layout::Layout::Sff8472:
        return SerialLayout{68, 64, 95};
    case layout::Layout::Unknown:
        break;
    }
    return std::nullopt;
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
    auto l = serialLayoutOf(blob);
    if (!l || blob.size() <= l->checksum)
        return {};
    std::string s(blob.begin() + static_cast<std::ptrdiff_t>(l->serial),
                  blob.begin() + static_cast<std::ptrdiff_t>(l->serial + kSerialLength));
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0'))
        s.pop_back();
    return s;
}

bool moduleImageScrubbable(const std::vector<uint8_t>& blob)
{
    if (auto l = serialLayoutOf(blob))
        return blob.size() > l->checksum;
    return std::all_of(blob.begin(), blob.end(), [](uint8_t b) { return b == 0x00 || b == 0xFF; });
}

std::vector<uint8_t> scrubModuleSerial(std::vector<uint8_t> blob, IdentifierMap& ids)
{
    auto original = moduleSerial(blob);
    if (original.empty() || ids.keep())
        return blob;
    auto l = *serialLayoutOf(blob);
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
