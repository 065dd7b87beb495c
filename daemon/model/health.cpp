#include "model/health.hpp"

namespace nicd {

const char* toString(Health h)
{
    switch (h) {
    case Health::Healthy:
        return "healthy";
    case Health::Degraded:
        return "degraded";
    case Health::Fatal:
        return "fatal";
    }
    return "unknown";
}

const char* toString(ConditionSeverity s)
{
    switch (s) {
    case ConditionSeverity::Info:
        return "info";
    case ConditionSeverity::Degraded:
        return "degraded";
    case ConditionSeverity::Fatal:
        return "fatal";
    }
    return "unknown";
}

const char* toString(EventKind k)
{
    switch (k) {
    case EventKind::Raised:
        return "raised";
    case EventKind::Recovered:
        return "recovered";
    case EventKind::Cleared:
        return "cleared";
    case EventKind::Baseline:
        return "baseline";
    case EventKind::Renamed:
        return "renamed";
    case EventKind::Changed:
        return "changed";
    }
    return "unknown";
}

const char* toString(ConditionSource s)
{
    switch (s) {
    case ConditionSource::Link:
        return "link";
    case ConditionSource::Counter:
        return "counter";
    case ConditionSource::Kernel:
        return "kernel";
    case ConditionSource::Driver:
        return "driver";
    case ConditionSource::Device:
        return "device";
    case ConditionSource::Signal:
        return "signal";
    case ConditionSource::Readiness:
        return "readiness";
    case ConditionSource::Inventory:
        return "inventory";
    case ConditionSource::Neighbor:
        return "lldp";
    }
    return "unknown";
}

Health healthOf(ConditionSeverity s)
{
    switch (s) {
    case ConditionSeverity::Info:
        return Health::Healthy;
    case ConditionSeverity::Degraded:
        return Health::Degraded;
    case ConditionSeverity::Fatal:
        return Health::Fatal;
    }
    return Health::Healthy;
}

std::optional<bool> portReady(const HealthReport& r, const std::string& device, uint32_t port)
{
    for (const auto& c : r.conditions)
        if (c.device == device && c.port == port && c.code.starts_with("ready."))
            return false;
    if (r.readiness.contains({device, port}))
        return true;
    return std::nullopt;
}

} // namespace nicd
