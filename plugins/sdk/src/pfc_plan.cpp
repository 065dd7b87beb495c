#include <nicd/plugin/sdk/pfc_plan.h>

namespace nicd::plugin::sdk {

std::optional<uint8_t> pfcMask(std::span<const uint8_t> priorities)
{
    uint8_t mask = 0;
    for (uint8_t p : priorities) {
        if (p >= kPriorities)
            return std::nullopt;
        mask = static_cast<uint8_t>(mask | (1U << p));
    }
    return mask;
}

std::string describePfc(uint8_t mask)
{
    std::string s;
    for (int p = 0; p < kPriorities; ++p)
        if (mask & (1U << p))
            s += (s.empty() ? "" : ",") + std::to_string(p);
    return s.empty() ? "none" : s;
}

std::string describePriorities(std::span<const uint8_t> priorities)
{
    std::string s;
    for (auto p : priorities)
        s += (s.empty() ? "" : ",") + std::to_string(p);
    return s.empty() ? "none" : s;
}

dcb::Pfc planPfc(const dcb::Pfc& current, uint8_t mask)
{
    dcb::Pfc next = current;
    next.enabled = mask;
    return next;
}

} // namespace nicd::plugin::sdk
