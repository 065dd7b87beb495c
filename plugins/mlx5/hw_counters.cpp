#include "hw_counters.hpp"

#include <nicd/plugin/counter_dir.h>

#include <cstring>
#include <string>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;
namespace sdk = ::nicd::plugin::sdk;

pv1::Status readHwCounters(const pv1::DeviceRef& dev, std::vector<pv1::Sample>& out)
{
    pv1::Status first;
    for (const auto& port : dev.ports) {
        auto dir = dev.sysfs_path + "/ports/" + std::to_string(port.port) + "/hw_counters";
        sdk::forEachFile(dir, {}, [&](std::string_view name, std::string_view content, int err) {
            std::optional<uint64_t> v;
            if (err == 0)
                v = sdk::parseCounterValue(content);
            if (!v) {
                if (first)
                    first =
                        pv1::Status::fail(pv1::Errc::Io,
                                          dir + "/" + std::string(name) + ": " +
                                              (err ? std::strerror(err) : "not a counter value"),
                                          err ? err : EINVAL);
                return;
            }
            pv1::Sample s;
            s.source = "hw_counters";
            s.port = port.port;
            s.name = name;
            s.value = *v;
            s.kind = name == "lifespan" ? pv1::SampleKind::Gauge : pv1::SampleKind::Counter;
            out.push_back(std::move(s));
        });
    }
    return first;
}

} // namespace nicd::mlx5
