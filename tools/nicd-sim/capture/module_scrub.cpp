#include "capture/module_scrub.hpp"

#include "prefailure/module_layout.hpp"

#include <algorithm>
#include <optional>

namespace nicd::sim::capture {

namespace {

namespace layout = prefailure::module_layout;

constexpr size_t kSerialLength = 16;
constexpr size_t kLotLength = 2;

struct Range {
    size_t from = 0; // first byte
    size_t to = 0;   // one past the last
};

struct Checksum {
    size_t from = 0; // the sum covers [from, at)
    size_t at = 0;   // the checksum byte
};

struct ScrubLayout {
    size_t serial = 0; // first byte of the serial in the blob
    size_t lot = 0;    // first byte of the date code's lot code
    std::vector<Range> cleared;
    std::vector<Checksum> checksums;
    size_t serial_checksum = 0; // the checksum byte the image must reach to hold the serial
};

std::optional<ScrubLayout> scrubLayoutOf(const std::vector<uint8_t>& blob)
{
    if (blob.empty())
        return std::nullopt;
    switch (layout::layoutOf(blob[0])) {
    case layout::Layout::Sff8636:
        return ScrubLayout{
            196, 218, {{119, 127}, {224, 256}, {384, 512}}, {{128, 191}, {192, 223}}, 223};
    case layout::Layout::Cmis:
        return ScrubLayout{166, 188, {{118, 126}, {223, 256}}, {{128, 222}}, 222};
    case layout::Layout::Sff8472:
        return ScrubLayout{68, 90, {{96, 256}, {376, 383}, {384, 512}}, {{0, 63}, {64, 95}}, 95};
    case layout::Layout::Unknown:
        break;
    }
    return std::nullopt;
}

uint8_t sum(const std::vector<uint8_t>& blob, const Checksum& c)
{
    unsigned s = 0;
    for (size_t i = c.from; i < c.at; ++i)
        s += blob[i];
    return static_cast<uint8_t>(s & 0xff);
}

void fill(std::vector<uint8_t>& blob, size_t from, size_t to, uint8_t value)
{
    for (size_t i = from; i < std::min(to, blob.size()); ++i)
        blob[i] = value;
}

} // namespace

std::string moduleSerial(const std::vector<uint8_t>& blob)
{
    auto l = scrubLayoutOf(blob);
    if (!l || blob.size() <= l->serial_checksum)
        return {};
    std::string s(blob.begin() + static_cast<std::ptrdiff_t>(l->serial),
                  blob.begin() + static_cast<std::ptrdiff_t>(l->serial + kSerialLength));
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0'))
        s.pop_back();
    return s;
}

bool moduleImageScrubbable(const std::vector<uint8_t>& blob)
{
    if (auto l = scrubLayoutOf(blob))
        return blob.size() > l->serial_checksum;
    return std::all_of(blob.begin(), blob.end(), [](uint8_t b) { return b == 0x00 || b == 0xFF; });
}

std::vector<uint8_t> scrubModuleImage(std::vector<uint8_t> blob, IdentifierMap& ids)
{
    auto l = scrubLayoutOf(blob);
    if (!l || ids.keep() || blob.size() <= l->serial_checksum)
        return blob;
    std::vector<bool> right;
    for (const auto& c : l->checksums)
        right.push_back(c.at < blob.size() && sum(blob, c) == blob[c.at]);
    if (auto original = moduleSerial(blob); !original.empty()) {
        auto fake = ids.serial(original);
        fake.resize(kSerialLength, ' ');
        std::copy(fake.begin(), fake.end(), blob.begin() + static_cast<std::ptrdiff_t>(l->serial));
    }
    fill(blob, l->lot, l->lot + kLotLength, ' ');
    for (const auto& r : l->cleared)
        fill(blob, r.from, r.to, 0x00);
    for (size_t i = 0; i < l->checksums.size(); ++i)
        if (right[i])
            blob[l->checksums[i].at] = sum(blob, l->checksums[i]);
    return blob;
}

} // namespace nicd::sim::capture
