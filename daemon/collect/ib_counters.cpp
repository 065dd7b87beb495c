#include "collect/ib_counters.hpp"

#include "inventory/sysfs_values.hpp"
#include "log/log.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace nicd {

namespace fs = std::filesystem;

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
        auto dir = fs::path(dev.sysfs_path) / "ports" / std::to_string(port.num) / "counters";
        std::vector<fs::path> files;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(dir, ec))
            files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            const std::string key = f.string();
            if (!backoff.shouldTry(key))
                continue;
            std::string err;
            auto text = sysfs::readFile(f, err);
            std::optional<uint64_t> value = text ? sysfs::parseCounter(*text) : std::nullopt;
            if (!value) {
                std::string why = text ? "not a counter value: '" + std::string(sysfs::trim(*text)) + "'" : err;
                if (backoff.failed(key))
                    log::warn({.device = dev.ibdev, .port = port.num},
                              "{}: {}; backing off (retrying less and less often)", key, why);
                out.errors.push_back({dev.ibdev, port.num, key, why});
                continue;
            }
            if (backoff.succeeded(key))
                log::info({.device = dev.ibdev, .port = port.num}, "{}: readable again", key);
            Sample s;
            s.source = kSourceIbCounters;
            s.port = port.num;
            s.name = f.filename().string();
            s.value = *value;
            // port_rcv_data / port_xmit_data count 4-octet words (IBTA PortCounters; kernel
            // Documentation/ABI/stable/sysfs-class-infiniband): publish bytes.
            if (s.name == "port_rcv_data" || s.name == "port_xmit_data") {
                s.name += "_bytes";
                s.value *= 4;
            }
            out.samples.push_back(std::move(s));
        }
    }
}

} // namespace nicd
