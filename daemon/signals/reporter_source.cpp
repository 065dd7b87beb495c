#include "signals/reporter_source.hpp"

#include "log/log.hpp"
#include "signals/capture_files.hpp"
#include "signals/decode_error.hpp"
#include "signals/devlink_health.hpp"
#include "signals/devlink_netlink.hpp"

#include <fmt/format.h>

namespace nicd::signals {

namespace {

constexpr const char* kKey = "devlink health";

using Outcome = ReadOutcome<std::vector<HealthReporter>>;

Outcome fromCapture(const HostPaths& paths)
{
    auto file = devlinkHealthCapture(paths);
    auto text = readCapture(file);
    if (text.status != ReadStatus::Ok)
        return {text.status, {}, text.message};
    try {
        return Outcome::ok(parseDevlinkHealthJson(text.value));
    } catch (const DecodeError& e) {
        return Outcome::failed(fmt::format("{}: {}", file.string(), e.what()));
    }
}

Outcome fromNetlink(DevlinkNetlink& nl)
{
    auto r = nl.dumpReporters();
    using Status = decltype(r)::Status;
    if (r.status == Status::Unsupported)
        return Outcome::missing(r.message);
    if (r.status == Status::Failed)
        return Outcome::failed(r.message);
    if (!r.message.empty()) // Ok with a message: some reporters could not be decoded
        log::warn({}, "devlink health: {}", r.message);
    return Outcome::ok(std::move(r.value));
}

} // namespace

ReporterSource::ReporterSource(HostPaths paths, SourceTiming timing)
    : KeyedSource("devlink health", timing), paths_(std::move(paths)), interval_(timing.interval)
{
    if (!paths_.simulated())
        netlink_ = std::make_shared<DevlinkNetlink>(timing.timeout);
}

std::chrono::milliseconds ReporterSource::interval() const
{
    return soon_->load() ? std::chrono::milliseconds(0) : interval_;
}

std::vector<std::string> ReporterSource::keysOf(const Inventory& /*inventory*/)
{
    soon_->store(false);
    return {kKey};
}

ReporterSource::ReadOne ReporterSource::reader()
{
    return [paths = paths_, nl = netlink_](const std::string&) {
        return nl ? fromNetlink(*nl) : fromCapture(paths);
    };
}

void ReporterSource::place(const std::map<std::string, std::vector<HealthReporter>>& values,
                           Snapshot& snap)
{
    auto it = values.find(kKey);
    snap.reporters = it == values.end() ? std::vector<HealthReporter>{} : it->second;
}

} // namespace nicd::signals
