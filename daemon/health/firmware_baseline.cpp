#include "health/firmware_baseline.hpp"

#include "health/training_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace nicd::health {

namespace {

bool sameFirmware(const std::string& a, const std::string& b)
{
    return !olderFirmware(a, b) && !olderFirmware(b, a);
}

bool hasFirmwareBaseline(const std::string& board, const HealthConfig& health)
{
    return health.firmware_min.contains(board) || health.firmware_allowed.contains(board);
}

} // namespace

std::optional<std::string> missesBaseline(const std::string& board, const std::string& fw_ver,
                                          const HealthConfig& health)
{
    std::vector<std::string> why;
    if (auto min = health.firmware_min.find(board);
        min != health.firmware_min.end() && olderFirmware(fw_ver, min->second))
        why.push_back(fmt::format("below the baseline {} ([health] FirmwareMin=)", min->second));
    if (auto allowed = health.firmware_allowed.find(board);
        allowed != health.firmware_allowed.end() &&
        std::none_of(allowed->second.begin(), allowed->second.end(),
                     [&](const std::string& v) { return sameFirmware(fw_ver, v); }))
        why.push_back(fmt::format("not one the baseline allows: {} ([health] FirmwareAllowed=)",
                                  fmt::join(allowed->second, ", ")));
    if (why.empty())
        return std::nullopt;
    return fmt::format("{}", fmt::join(why, ", and "));
}

void judgeFirmwareBaseline(const Inventory& inv, const HealthConfig& health, Verdicts& v)
{
    for (const auto& d : inv.devices) {
        if (d.function == DeviceFunction::VirtualFunction || d.board_id.empty() ||
            d.fw_ver.empty() || !hasFirmwareBaseline(d.board_id, health))
            continue;
        v.judged(d.ibdev, 0);
        if (auto why = missesBaseline(d.board_id, d.fw_ver, health))
            v.raise(signalCondition(
                kFirmwareBelowBaseline, ConditionSeverity::Degraded, d.ibdev, 0,
                fmt::format("firmware {} on board {}, {}", d.fw_ver, d.board_id, *why),
                "the card missed the fleet's firmware rollout: flash the baseline version and "
                "activate it (a firmware reset or a reboot)",
                Action::UpdateFirmware));
    }
}

bool baselineWithdrawn(const Condition& c, const Inventory& inv, const HealthConfig& health)
{
    const auto* d = inv.find(c.device);
    return c.code == kFirmwareBelowBaseline && d && !d->board_id.empty() &&
           !hasFirmwareBaseline(d->board_id, health);
}

} // namespace nicd::health
