#include "prefailure/reporter_source.hpp"

#include "log/log.hpp"
#include "prefailure/capture_files.hpp"
#include "prefailure/devlink_health.hpp"
#include "prefailure/devlink_netlink.hpp"

namespace nicd::prefailure {

namespace {

constexpr const char* kKey = "devlink health";

Reply<std::vector<HealthReporter>> fromNetlink(DevlinkNetlink& nl)
{
    auto r = nl.dumpReporters();
    if (r.ok() && !r.message.empty()) // Ok with a message: some reporters could not be decoded
        log::warn({}, "devlink health: {}", r.message);
    return r;
}

} // namespace

std::unique_ptr<ReporterSource> makeReporterSource(const HostPaths& paths, SourceTiming timing)
{
    auto nl = paths.simulated() ? nullptr : std::make_shared<DevlinkNetlink>(timing.timeout);
    auto read = [paths, nl](const std::string&) {
        if (nl)
            return fromNetlink(*nl);
        return decodeCapture<std::vector<HealthReporter>>(
            devlinkHealthCapture(paths),
            [](const auto& text) { return parseDevlinkHealthJson(text); });
    };
    return std::make_unique<ReporterSource>(
        "devlink health", timing,
        [](const Inventory&) {
            return std::vector<ReporterSource::Key>{{kKey, ""}};
        },
        read,
        [](const auto& values, Snapshot& snap) {
            snap.reporters.clear();
            if (auto it = values.find(kKey); it != values.end())
                for (const auto& r : it->second)
                    if (!snap.inventory.ignoresFunction(pciAddressView(r.handle)))
                        snap.reporters.push_back(r);
        });
}

} // namespace nicd::prefailure
