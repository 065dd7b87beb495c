#include <nicd/plugin/sdk/counter_dir.h>
#include <nicd/plugin/sdk/hw_counter_source.h>

#include <cerrno>
#include <cstring>
#include <string_view>

namespace nicd::plugin::sdk {

namespace pv1 = ::nicd::plugin::v1;
namespace sdk = ::nicd::plugin::sdk;

namespace {

constexpr std::string_view kLifespan = "lifespan";

} // namespace

pv1::Status HwCounterSource::read(const pv1::DeviceRef& dev, sdk::RdmaStatsClient* rdma,
                                  sdk::Backoff& backoff, sdk::SampleBatchBuilder& out,
                                  HwCounterChanges& changes)
{
    if (rdma && netlink_usable_) {
        // Every port first: nothing is added unless all of them answered, so that a device
        // that falls back part way does not report a port twice.
        pv1::Status s = fetch(dev, *rdma);
        if (s)
            return add(dev, backoff, out, changes);
        netlink_usable_ = false;
        refusal_ = std::move(s.message);
    }
    return readHwCounters(dev, backoff, dirs_, out, &changes, gauge_);
}

pv1::Status HwCounterSource::fetch(const pv1::DeviceRef& dev, sdk::RdmaStatsClient& rdma)
{
    ports_.resize(dev.ports.size());
    for (size_t i = 0; i < dev.ports.size(); ++i) {
        if (pv1::Status s = rdma.readHwCounters(dev.ibdev, dev.ports[i].port, ports_[i]); !s)
            return s;
    }
    return pv1::Status::ok();
}

// Each port's reply, with the lifespan file's value in its place by name (the files' order).
pv1::Status HwCounterSource::add(const pv1::DeviceRef& dev, sdk::Backoff& backoff,
                                 sdk::SampleBatchBuilder& out, HwCounterChanges& changes)
{
    pv1::Status first;
    for (size_t i = 0; i < dev.ports.size(); ++i) {
        const uint32_t port = dev.ports[i].port;
        const std::optional<uint64_t> lifespan = readLifespan(dev, port, backoff, changes, first);
        bool lifespan_due = lifespan.has_value();
        const uint64_t lifespan_ms = lifespan.value_or(0);
        auto addLifespan = [&] {
            if (lifespan_due) // the driver's cache lifetime in ms: a setting, not a count
                out.add("hw_counters", port, {}, kLifespan, pv1::SampleKind::Gauge, lifespan_ms);
            lifespan_due = false;
        };
        const sdk::RdmaHwCounters& counters = ports_[i];
        for (size_t k = 0; k < counters.size(); ++k) {
            const std::string_view name = counters.name(k);
            if (name == kLifespan)
                continue; // not a driver counter's name; the file's is the one
            if (name > kLifespan)
                addLifespan();
            out.add("hw_counters", port, {}, name, hwCounterKind(name, gauge_), counters.value(k));
        }
        addLifespan();
    }
    return first;
}

std::optional<uint64_t> HwCounterSource::readLifespan(const pv1::DeviceRef& dev, uint32_t port,
                                                      sdk::Backoff& backoff,
                                                      HwCounterChanges& changes, pv1::Status& first)
{
    sdk::CounterDir& dir = hwCounterDir(dirs_, dev, port);
    // The key is made only while some file is failing: a healthy read allocates nothing.
    auto key = [&] { return dir.path() + "/" + std::string(kLifespan); };
    if (backoff.anyFailing() && !backoff.shouldTry(key()))
        return std::nullopt;
    std::optional<uint64_t> value;
    int file_err = 0;
    int read_errno = 0; // the read's own errno: 0 for garbage content, which is no refusal
    std::string why;    // what was wrong with the file, when it is there but gave no value
    const int dir_err = dir.forEach(
        [](std::string_view name) { return name != kLifespan; },
        [&](std::string_view, std::string_view content, int err) {
            value = err == 0 ? sdk::parseCounterValue(content) : std::nullopt;
            read_errno = err;
            file_err = err != 0 ? err : value ? 0 : EINVAL;
            if (file_err != 0)
                why = err != 0 ? std::strerror(err)
                               : "not a counter value: '" +
                                     std::string(content.substr(0, content.find('\n'))) + "'";
        });
    if (dir_err == ENOENT || (dir_err == 0 && file_err == 0 && !value))
        return std::nullopt; // no directory, or no lifespan file in it: nothing to say
    const int err = dir_err != 0 ? dir_err : file_err;
    if (err == 0) {
        if (backoff.anyFailing() && backoff.succeeded(key()))
            changes.recovered.push_back(key());
        return value;
    }
    why = key() + ": " + (why.empty() ? std::strerror(err) : why);
    // With the errno, as readHwCounters records a file: a refused lifespan file is dropped too.
    const auto change = backoff.failed(key(), dir_err != 0 ? dir_err : read_errno);
    if (change == sdk::Backoff::Change::StartedFailing)
        changes.failed.push_back(why);
    else if (change == sdk::Backoff::Change::Dropped)
        changes.dropped.push_back(why);
    if (first)
        first = pv1::Status::fail(pv1::Errc::Io, why, err);
    return std::nullopt;
}

} // namespace nicd::plugin::sdk
