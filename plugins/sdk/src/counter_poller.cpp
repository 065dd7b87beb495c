#include <nicd/plugin/sdk/counter_poller.h>
#include <nicd/plugin/sdk/ethtool_ioctl.h>
#include <nicd/plugin/sdk/ethtool_text.h>

#include <exception>

namespace nicd::plugin::sdk {

void CounterPoller::attach()
{
    drop_after_ = dropAfterSetting(host_.config(kDropAfterKey));
}

v1::Status CounterPoller::poll(const v1::DeviceRef& dev, std::vector<v1::Sample>& out) noexcept
{
    v1::SampleBatch batch;
    v1::Status s = pollBatch(dev, batch);
    try {
        auto samples = toSamples(batch);
        out.insert(out.end(), samples.begin(), samples.end());
    } catch (const std::exception& e) {
        return v1::Status::fail(v1::Errc::Internal, dev.ibdev + ": " + e.what());
    }
    return s;
}

v1::Status CounterPoller::pollBatch(const v1::DeviceRef& dev, v1::SampleBatch& out) noexcept
{
    try {
        auto& state = devices_.try_emplace(dev.ibdev, drop_after_, gauge_).first->second;
        SampleBatchBuilder batch(out);
        batch.reserve(state.last_samples);
        HwCounterChanges changes;
        v1::Status first = state.hw.read(dev, rdma(), state.backoff, batch, changes);
        if (auto why = state.hw.takeNetlinkRefusal(); !why.empty())
            log(v1::Level::Info,
                dev.ibdev +
                    ": hw_counters read from the files until the device is attached again: " + why,
                dev);
        for (const auto& why : changes.failed)
            log(v1::Level::Warn, why + "; backing off", dev);
        for (const auto& path : changes.recovered)
            log(v1::Level::Info, path + ": readable again", dev);
        for (const auto& why : changes.dropped)
            log(v1::Level::Warn,
                why + ": refused " + std::to_string(drop_after_) +
                    " reads in a row; dropped, not read again until nicd is reloaded or the "
                    "node reboots",
                dev);
        for (const auto& port : dev.ports)
            for (const auto& netdev : port.netdevs) {
                v1::Status s = readNetdev(dev, port.port, netdev, state, batch);
                if (!s && first)
                    first = std::move(s);
            }
        // How many files are dropped, for the daemon's nicd_dropped_files.
        if (size_t dropped = state.backoff.droppedCount())
            batch.add(kDaemonSource, 0, {}, kFilesDroppedName, v1::SampleKind::Gauge, dropped);
        batch.finish();
        state.last_samples = out.size();
        return first;
    } catch (const std::exception& e) {
        return v1::Status::fail(v1::Errc::Internal, dev.ibdev + ": " + e.what());
    }
}

// One netdev's statistics (source "ethtool"). A netdev without statistics (a bond, IPoIB
// child) or one that just went away is not an error; a failing read is backed off like a
// failing counter file.
v1::Status CounterPoller::readNetdev(const v1::DeviceRef& dev, uint32_t port,
                                     const std::string& netdev, DeviceState& state,
                                     SampleBatchBuilder& out)
{
    auto& backoff = state.backoff;
    auto key = [&netdev] { return "ethtool:" + netdev; }; // made only while some key fails
    if (backoff.anyFailing() && !backoff.shouldTry(key()))
        return v1::Status::ok();
    v1::Status s;
    if (host_.simulated()) {
        auto& file = state.sim_stats[netdev];
        if (!file)
            file = std::make_unique<SimStatsFile>(host_.root() + "/run/nicd-sim/ethtool/" + netdev);
        std::string_view text;
        s = file->read(read_buf_, text);
        if (s) {
            SampleBatchBuilder::Run run(out, "ethtool", port, netdev, v1::SampleKind::Counter);
            addEthtoolText(text, run);
        }
    } else {
        s = readEthtoolIoctl(netdev, stats_);
        if (s)
            for (const auto& [name, value] : stats_)
                out.add("ethtool", port, netdev, name, v1::SampleKind::Counter, value);
    }
    if (!s) {
        if (s.code == v1::Errc::NotSupported || s.code == v1::Errc::NoDevice)
            return v1::Status::ok();
        if (backoff.failed(key()))
            log(v1::Level::Warn, s.message + "; backing off", dev);
        return s;
    }
    if (backoff.anyFailing() && backoff.succeeded(key()))
        log(v1::Level::Info, netdev + ": ethtool statistics readable again", dev);
    return v1::Status::ok();
}

// The RDMA netlink client, on a real root only (netlink speaks to the real kernel, not to a
// --root tree); its socket opens at the first request.
RdmaStatsClient* CounterPoller::rdma()
{
    if (host_.simulated())
        return nullptr;
    if (!rdma_)
        rdma_ = std::make_unique<RdmaStatsClient>();
    return rdma_.get();
}

} // namespace nicd::plugin::sdk
