#include "collect/ib_counters.hpp"

#include "log/log.hpp"

#include <nicd/plugin/counter_dir.h>

#include <cstring>

namespace nicd {

namespace sdk = plugin::sdk;

Backoff& IbCounterReader::backoffFor(const std::string& ibdev)
{
    std::lock_guard lock(mutex_);
    return backoff_[ibdev];
}

void IbCounterReader::read(const Device& dev, uint64_t now_usec, DeviceSamples& out)
{
    (void)now_usec;
    Backoff& backoff = backoffFor(dev.ibdev);
    for (const auto& port : dev.ports) {
        const std::string dir = dev.sysfs_path + "/ports/" + std::to_string(port.num) + "/counters";
        auto key = [&](std::string_view name) { return dir + "/" + std::string(name); };
        sdk::forEachFile(
            dir, [&](std::string_view name) { return !backoff.shouldTry(key(name)); },
            [&](std::string_view name, std::string_view content, int err) {
                std::optional<uint64_t> value =
                    err == 0 ? sdk::parseCounterValue(content) : std::nullopt;
                if (!value) {
                    std::string why =
                        err != 0 ? std::strerror(err)
                                 : "not a counter value: '" +
                                       std::string(content.substr(0, content.find('\n'))) + "'";
                    if (backoff.failed(key(name)))
                        log::warn({.device = dev.ibdev, .port = port.num},
                                  "{}: {}; backing off (retrying less and less often)", key(name),
                                  why);
                    out.errors.push_back({dev.ibdev, port.num, key(name), why});
                    return;
                }
                if (backoff.succeeded(key(name)))
                    log::info({.device = dev.ibdev, .port = port.num}, "{}: readable again",
                              key(name));
                Sample s;
                s.source = kSourceIbCounters;
                s.port = port.num;
                s.name = name;
                s.value = *value;
                // port_rcv_data / port_xmit_data count 4-octet words (IBTA PortCounters; kernel
                // Documentation/ABI/stable/sysfs-class-infiniband): publish bytes.
                if (s.name == "port_rcv_data" || s.name == "port_xmit_data") {
                    s.name += "_bytes";
                    s.value *= 4;
                }
                out.samples.push_back(std::move(s));
            });
    }
}

} // namespace nicd
