// libFuzzer target for the module EEPROM decoder and read plan: any bytes either decode or raise
// DecodeError; nothing else may escape, crash or trip the sanitizers. The plan's reads must obey
// the kernel's half-page rules and fit the blob size it announces.
// Built and run by scripts/fuzz.sh (ctest -L fuzz, make fuzz), seeded with the captures of
// tests/data/module made binary.
#include "prefailure/decode_error.hpp"
#include "prefailure/module_eeprom.hpp"

#include <cstdlib>
#include <span>

namespace {

constexpr size_t kHalfPage = 128;
constexpr size_t kPageView = 256;

void checkPlan(std::span<const uint8_t> lower_page)
{
    size_t size = nicd::prefailure::eepromBlobSize(lower_page);
    for (const auto& read : nicd::prefailure::eepromReadPlan(lower_page)) {
        bool crosses = read.offset < kHalfPage && read.offset + read.length > kHalfPage;
        bool lower_of_other_page = read.page != 0 && read.offset < kHalfPage;
        if (read.length == 0 || read.length > kHalfPage || read.offset + read.length > kPageView ||
            crosses || lower_of_other_page || read.blob_offset + read.length > size)
            std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::span<const uint8_t> bytes(data, size);
    try {
        nicd::ModuleDom dom = nicd::prefailure::decodeModuleEeprom(bytes);
        if (!dom.has_dom && !dom.lanes.empty())
            std::abort();
    } catch (const nicd::prefailure::DecodeError&) {
    }
    try {
        checkPlan(bytes);
    } catch (const nicd::prefailure::DecodeError&) {
    }
    return 0;
}
