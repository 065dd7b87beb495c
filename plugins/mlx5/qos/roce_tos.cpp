#include "qos/roce_tos.hpp"

#include "qos/configfs_mount.hpp"
#include "qos/small_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace nicd::mlx5 {

namespace fs = std::filesystem;

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

std::optional<long> parseLong(std::string_view s)
{
    long v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

fs::path rdmaCmDir(const TosTarget& t)
{
    return t.root / "sys/kernel/config/rdma_cm";
}

// The rdma_cm group of the device, created when missing (EEXIST is fine: another tool or an
// earlier call made it). The group is kept, as it is harmless and avoids mkdir/rmdir races.
pv1::Status ensureGroup(const TosTarget& t)
{
    if (t.ibdev.empty() || t.ibdev.find('/') != std::string::npos || t.ibdev == "." ||
        t.ibdev == "..")
        return pv1::Status::fail(pv1::Errc::InvalidArgument, "invalid IB device name");
    auto cm = rdmaCmDir(t);
    std::error_code ec;
    if (!t.simulated && !fs::is_directory(cm, ec))
        if (auto s = mountConfigfsIfMissing(); !s)
            return s;
    if (!fs::is_directory(cm, ec))
        return pv1::Status::fail(pv1::Errc::NotSupported,
                                 cm.string() + ": missing (is the rdma_cm module loaded?)", ENOENT);
    auto group = cm / t.ibdev;
    if (t.knobs) { // nicd's knob writer makes it (and on a simulated root what configfs would)
        auto s = t.knobs->makeKnobDirectory(group.string());
        if (!s && s.sys_errno == ENODEV)
            return pv1::Status::fail(pv1::Errc::NoDevice,
                                     group.string() + ": rdma_cm knows no device " + t.ibdev,
                                     ENODEV);
        return s;
    }
    if (::mkdir(group.c_str(), 0755) != 0 && errno != EEXIST) {
        int err = errno;
        if (err == ENODEV)
            return pv1::Status::fail(pv1::Errc::NoDevice,
                                     group.string() + ": rdma_cm knows no device " + t.ibdev, err);
        return ioFailure(group, err);
    }
    if (t.simulated) { // configfs would have made ports/<n>/ with the value 0
        auto port_dir = group / "ports" / std::to_string(t.port);
        fs::create_directories(port_dir, ec);
        if (ec)
            return ioFailure(port_dir, ec.value());
        if (!fs::exists(port_dir / "default_roce_tos", ec))
            return writeSmallFile(port_dir / "default_roce_tos", "0\n", true);
    }
    return pv1::Status::ok();
}

} // namespace

fs::path roceTosFile(const TosTarget& t)
{
    return rdmaCmDir(t) / t.ibdev / "ports" / std::to_string(t.port) / "default_roce_tos";
}

pv1::Status readRoceTos(const TosTarget& t, uint8_t& out)
{
    if (auto s = ensureGroup(t); !s)
        return s;
    std::string text;
    auto path = roceTosFile(t);
    if (auto s = readSmallFile(path, text); !s)
        return s;
    auto v = parseLong(trim(text));
    if (!v || *v < 0 || *v > 255)
        return pv1::Status::fail(pv1::Errc::Io, path.string() + ": not a ToS value: '" +
                                                    std::string(trim(text)) + "'");
    out = static_cast<uint8_t>(*v);
    return pv1::Status::ok();
}

pv1::Status writeRoceTos(const TosTarget& t, uint8_t tos)
{
    if (auto s = ensureGroup(t); !s)
        return s;
    return writeKnob(t.knobs, roceTosFile(t), std::to_string(tos) + "\n");
}

TrafficClass parseTrafficClass(std::string_view text)
{
    TrafficClass out;
    std::string_view rest = text;
    bool any_line = false;
    while (!rest.empty()) {
        auto nl = rest.find('\n');
        auto line = trim(rest.substr(0, nl));
        rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
        if (line.empty())
            continue;
        constexpr std::string_view kGlobal = "Global tclass=";
        if (!any_line) { // the old format is one bare number, -1 when unset
            if (auto v = parseLong(line)) {
                if (*v < -1 || *v > 255 || !trim(rest).empty())
                    return {};
                if (*v >= 0)
                    out.tclass = static_cast<uint8_t>(*v);
                out.valid = true;
                return out;
            }
        }
        any_line = true;
        if (line.starts_with(kGlobal)) {
            auto v = parseLong(line.substr(kGlobal.size()));
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
    if (auto s = readSmallFile(path, text); !s)
        return s;
    auto tc = parseTrafficClass(text);
    if (!tc.valid)
        return pv1::Status::fail(pv1::Errc::Io, path.string() + ": unrecognised content '" +
                                                    std::string(trim(text)) + "'");
    out = tc.tclass;
    return pv1::Status::ok();
}

pv1::Status writeTrafficClass(const TosTarget& t, uint8_t tclass)
{
    return writeKnob(t.knobs, trafficClassFile(t), std::to_string(tclass) + "\n");
}

} // namespace nicd::mlx5
