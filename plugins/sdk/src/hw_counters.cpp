#include <nicd/plugin/sdk/counter_dir.h>
#include <nicd/plugin/sdk/hw_counters.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <cerrno>
#include <cstring>

namespace nicd::plugin::sdk {

namespace pv1 = ::nicd::plugin::v1;
namespace sdk = ::nicd::plugin::sdk;

pv1::SampleKind hwCounterKind(std::string_view name, GaugeTest gauge)
{
    return name == "lifespan" || (gauge && gauge(name)) ? pv1::SampleKind::Gauge
                                                        : pv1::SampleKind::Counter;
}

sdk::CounterDir& hwCounterDir(HwCounterDirs& dirs, const pv1::DeviceRef& dev, uint32_t port)
{
    std::string path = dev.sysfs_path + "/ports/" + std::to_string(port) + "/hw_counters";
    auto& dir = dirs[port];
    if (!dir || dir->path() != path)
        dir = std::make_unique<sdk::CounterDir>(std::move(path));
    return *dir;
}

pv1::Status readHwCounters(const pv1::DeviceRef& dev, sdk::Backoff& backoff, HwCounterDirs& dirs,
                           sdk::SampleBatchBuilder& out, HwCounterChanges* changes, GaugeTest gauge)
{
    pv1::Status first;
    for (const auto& port : dev.ports) {
        sdk::CounterDir& counter_dir = hwCounterDir(dirs, dev, port.port);
        const std::string& dir = counter_dir.path();
        // Keys are made only while some file is failing: a healthy read allocates nothing.
        auto key = [&](std::string_view name) { return dir + "/" + std::string(name); };
        const int dir_err = counter_dir.forEach(
            [&](std::string_view name) {
                return backoff.anyFailing() && !backoff.shouldTry(key(name));
            },
            [&](std::string_view name, std::string_view content, int err) {
                const auto value = err == 0 ? sdk::parseCounterValue(content) : std::nullopt;
                if (!value) {
                    const std::string why =
                        key(name) + ": " +
                        (err != 0 ? std::strerror(err)
                                  : "not a counter value: '" +
                                        std::string(content.substr(0, content.find('\n'))) + "'");
                    const auto change = backoff.failed(key(name), err);
                    if (change == sdk::Backoff::Change::StartedFailing && changes)
                        changes->failed.push_back(why);
                    else if (change == sdk::Backoff::Change::Dropped && changes)
                        changes->dropped.push_back(why);
                    if (first)
                        first = pv1::Status::fail(pv1::Errc::Io, why, err != 0 ? err : EINVAL);
                    return;
                }
                if (backoff.anyFailing() && backoff.succeeded(key(name)) && changes)
                    changes->recovered.push_back(key(name));
                out.add("hw_counters", port.port, {}, name, hwCounterKind(name, gauge), *value);
            });
        // No directory: a kernel or port without driver counters. Anything else is an error.
        if (dir_err != 0 && dir_err != ENOENT && first)
            first = pv1::Status::fail(pv1::Errc::Io, dir + ": " + std::strerror(dir_err), dir_err);
    }
    return first;
}

} // namespace nicd::plugin::sdk
