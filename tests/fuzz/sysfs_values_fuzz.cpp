// libFuzzer target for the sysfs value parsers: the bytes are the content of one sysfs file
// (state, phys_state, rate, a counter, dev_id, a PCI address) and go to every parser of
// inventory/sysfs_values.hpp. None throws; a value that is not what the kernel prints is nullopt,
// and what is returned is within what each parser documents.
#include "inventory/sysfs_values.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace sysfs = nicd::sysfs;

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool allDigits(std::string_view s)
{
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto trimmed = sysfs::trim(text);
    require(trimmed.empty() || (!isSpace(trimmed.front()) && !isSpace(trimmed.back())));

    if (auto state = sysfs::parseNumberedState(text)) {
        require(state->number >= 0 && state->name.size() < size);
        require(state->name.empty() ||
                (!isSpace(state->name.front()) && !isSpace(state->name.back())));
    }
    if (auto rate = sysfs::parseRateGbps(text))
        require(std::isfinite(*rate) && *rate >= 0);
    if (sysfs::parseCounter(text))
        require(allDigits(trimmed) && !sysfs::isNoPma(text));
    if (sysfs::parseInt(text))
        require(allDigits(trimmed.starts_with('-') ? trimmed.substr(1) : trimmed));
    if (sysfs::parseHex(text))
        require(trimmed.size() > 2 && trimmed[0] == '0' &&
                (trimmed[1] == 'x' || trimmed[1] == 'X'));
    if (sysfs::isPciAddress(text))
        require(size == 12);
    return 0;
}
