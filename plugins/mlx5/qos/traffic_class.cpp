#include "qos/traffic_class.hpp"

#include <nicd/plugin/sdk/small_file.h>

#include <string>

namespace nicd::mlx5 {

namespace fs = std::filesystem;
namespace sdk = plugin::sdk;

TrafficClass parseTrafficClass(std::string_view text)
{
    TrafficClass out;
    std::string_view rest = text;
    bool any_line = false;
    while (!rest.empty()) {
        auto nl = rest.find('\n');
        auto line = sdk::trimSpace(rest.substr(0, nl));
        rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
        if (line.empty())
            continue;
        constexpr std::string_view kGlobal = "Global tclass=";
        if (!any_line) { // the old format is one bare number, -1 when unset
            if (auto v = sdk::parseLong(line)) {
                if (*v < -1 || *v > 255 || !sdk::trimSpace(rest).empty())
                    return {};
                if (*v >= 0)
                    out.tclass = static_cast<uint8_t>(*v);
                out.valid = true;
                return out;
            }
        }
        any_line = true;
        if (line.starts_with(kGlobal)) {
            auto v = sdk::parseLong(line.substr(kGlobal.size()));
            if (!v || *v < 0 || *v > 255)
                return {};
            out.tclass = static_cast<uint8_t>(*v);
        } else if (line.find("tclass=") == std::string_view::npos) {
            return {}; // neither the global value nor a per-address rule
        }
    }
    out.valid = true;
    return out;
}

fs::path trafficClassFile(const TosTarget& t)
{
    return t.root / "sys/class/infiniband" / t.ibdev / "tc" / std::to_string(t.port) /
           "traffic_class";
}

bool hasTrafficClass(const TosTarget& t)
{
    std::error_code ec;
    return fs::exists(trafficClassFile(t), ec);
}

pv1::Status readTrafficClass(const TosTarget& t, std::optional<uint8_t>& out)
{
    std::string text;
    auto path = trafficClassFile(t);
    if (auto s = sdk::readSmallFileBeneath(t.root, path, text); !s)
        return s;
    auto tc = parseTrafficClass(text);
    if (!tc.valid)
        return pv1::Status::fail(pv1::Errc::Io, path.string() + ": unrecognised content '" +
                                                    std::string(sdk::trimSpace(text)) + "'");
    out = tc.tclass;
    return pv1::Status::ok();
}

pv1::Status writeTrafficClass(const TosTarget& t, uint8_t tclass)
{
    return sdk::writeKnob(t.knobs, trafficClassFile(t), std::to_string(tclass) + "\n");
}

} // namespace nicd::mlx5
