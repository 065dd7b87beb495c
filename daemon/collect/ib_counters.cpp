#include "collect/ib_counters.hpp"

#include "inventory/sysfs_values.hpp"
#include "log/log.hpp"

#include <nicd/plugin/sdk/counter_dir.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace nicd::collect {

namespace {

// PortXmitData / PortRcvData count 4-octet words (IBTA PortCounters; kernel
// Documentation/ABI/stable/sysfs-class-infiniband; shared/reference/counters.md §1.2). The factor
// is always 4, not the link width: published as bytes under a name that says so.
void addCounter(plugin::sdk::SampleBatchBuilder& out, uint32_t port, std::string_view file,
                uint64_t value)
{
    if (file == "port_rcv_data")
        out.add(kSourceIbCounters, port, {}, "port_rcv_data_bytes", SampleKind::Counter, value * 4);
    else if (file == "port_xmit_data")
        out.add(kSourceIbCounters, port, {}, "port_xmit_data_bytes", SampleKind::Counter,
                value * 4);
    else
        out.add(kSourceIbCounters, port, {}, file, SampleKind::Counter, value);
}

// What a file that is not a counter said, fit for one log line.
std::string describeContent(std::string_view content)
{
    auto line = sysfs::trim(content.substr(0, content.find('\n')));
    if (line.empty())
        return "empty file";
    return fmt::format("not a counter value: '{}'", line.substr(0, 64));
}

void readPortCounters(const Device& dev, uint32_t port, Backoff& backoff,
                      plugin::sdk::CounterDir& counter_dir, plugin::sdk::SampleBatchBuilder& batch,
                      DeviceSamples& out)
{
    const std::string& dir = counter_dir.path();
    std::vector<std::string> started_failing, no_pma, recovered, dropped;
    auto path_of = [&](std::string_view name) { return dir + "/" + std::string(name); };

    // A directory that cannot be opened (iWARP devices have no counters/) yields nothing.
    counter_dir.forEach(
        [&](std::string_view name) {
            return backoff.anyFailing() && !backoff.shouldTry(path_of(name));
        },
        [&](std::string_view name, std::string_view content, int err) {
            auto value = err == 0 ? sysfs::parseCounter(content) : std::nullopt;
            if (value) {
                if (backoff.anyFailing() && backoff.succeeded(path_of(name)))
                    recovered.emplace_back(name);
                addCounter(batch, port, name, *value);
                return;
            }
            auto path = path_of(name);
            // "No such counter" (the driver has no PMA agent), as node_exporter reads it: no
            // value, no read error; the file is left unread (see Backoff::unsupported).
            if (err == 0 && sysfs::isNoPma(content)) {
                if (backoff.unsupported(path))
                    no_pma.emplace_back(name);
                return;
            }
            std::string why = err != 0 ? std::strerror(err) : describeContent(content);
            switch (backoff.failed(path, err)) {
            case Backoff::Change::StartedFailing:
                started_failing.push_back(fmt::format("{} ({})", name, why));
                break;
            case Backoff::Change::Dropped:
                dropped.push_back(fmt::format("{} ({})", name, why));
                break;
            case Backoff::Change::None:
                break;
            }
            out.errors.push_back({dev.ibdev, port, std::move(path), std::move(why)});
        });

    const log::Fields where{.device = dev.ibdev, .port = port};
    if (!started_failing.empty())
        log::warn(where, "{}: cannot read {}; retrying after 1, 2, 4 … 64 reads, not every cycle",
                  dir, fmt::join(started_failing, ", "));
    if (!no_pma.empty())
        log::debug(where, "{}: {} read 'N/A (no PMA)': no such counter, left out", dir,
                   fmt::join(no_pma, ", "));
    if (!recovered.empty())
        log::info(where, "{}: {} readable again", dir, fmt::join(recovered, ", "));
    if (!dropped.empty())
        log::warn(where,
                  "{}: {}: refused {} reads in a row; dropped, not read again until nicd is "
                  "reloaded or the node reboots",
                  dir, fmt::join(dropped, ", "), backoff.dropAfter());
}

} // namespace

std::shared_ptr<IbCounterReader::DeviceState> IbCounterReader::stateFor(const std::string& ibdev)
{
    std::lock_guard lock(mutex_);
    auto& state = devices_[ibdev];
    if (!state)
        state = std::make_shared<DeviceState>();
    return state;
}

void IbCounterReader::retain(const Inventory& inventory)
{
    std::lock_guard lock(mutex_);
    std::erase_if(devices_, [&](const auto& entry) {
        return std::none_of(inventory.devices.begin(), inventory.devices.end(),
                            [&](const Device& d) { return d.ibdev == entry.first; });
    });
}

void IbCounterReader::setDropAfter(uint32_t drop_after)
{
    drop_after_ = drop_after;
    ++generation_;
}

void IbCounterReader::read(const Device& dev, uint64_t /*now_usec*/, DeviceSamples& out)
{
    auto state = stateFor(dev.ibdev); // held: retain() may drop it meanwhile
    if (const uint64_t g = generation_; state->generation != g) {
        state->generation = g; // a reload since this device's last read: dropped files again
        state->backoff.setDropAfter(drop_after_);
        state->backoff.retryDropped();
    }
    out.pma.layout = state->layout; // the reference: kept while the same files are read
    plugin::sdk::SampleBatchBuilder batch(out.pma);
    batch.reserve(state->layout ? state->layout->series.size() : 0);
    for (const auto& port : dev.ports) {
        auto path = dev.sysfs_path + "/ports/" + std::to_string(port.num) + "/counters";
        auto& dir = state->dirs[port.num];
        if (!dir || dir->path() != path)
            dir = std::make_unique<plugin::sdk::CounterDir>(std::move(path));
        readPortCounters(dev, port.num, state->backoff, *dir, batch, out);
    }
    batch.finish();
    state->layout = out.pma.layout;
    out.files_dropped = static_cast<uint32_t>(state->backoff.droppedCount());
}

} // namespace nicd::collect
