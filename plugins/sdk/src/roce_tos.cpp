#include <nicd/plugin/sdk/configfs_mount.h>
#include <nicd/plugin/sdk/roce_tos.h>
#include <nicd/plugin/sdk/scalar_setting.h>
#include <nicd/plugin/sdk/small_file.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace nicd::plugin::sdk {

namespace fs = std::filesystem;

namespace {

fs::path rdmaCmDir(const TosTarget& t)
{
    return t.root / "sys/kernel/config/rdma_cm";
}

// The rdma_cm group of the device, created when missing (EEXIST is fine: another tool or an
// earlier call made it). The group is kept, as it is harmless and avoids mkdir/rmdir races.
v1::Status ensureGroup(const TosTarget& t)
{
    if (t.ibdev.empty() || t.ibdev.find('/') != std::string::npos || t.ibdev == "." ||
        t.ibdev == "..")
        return v1::Status::fail(v1::Errc::InvalidArgument, "invalid IB device name");
    auto cm = rdmaCmDir(t);
    std::error_code ec;
    if (!t.simulated && !fs::is_directory(cm, ec))
        if (auto s = mountConfigfsIfMissing(); !s)
            return s;
    if (!fs::is_directory(cm, ec))
        return v1::Status::fail(v1::Errc::NotSupported,
                                cm.string() + ": missing (is the rdma_cm module loaded?)", ENOENT);
    auto group = cm / t.ibdev;
    if (t.knobs) { // nicd's knob writer makes it (and on a simulated root what configfs would)
        auto s = t.knobs->makeKnobDirectory(group.string());
        if (!s && s.sys_errno == ENODEV)
            return v1::Status::fail(v1::Errc::NoDevice,
                                    group.string() + ": rdma_cm knows no device " + t.ibdev,
                                    ENODEV);
        return s;
    }
    if (::mkdir(group.c_str(), 0755) != 0 && errno != EEXIST) {
        int err = errno;
        if (err == ENODEV)
            return v1::Status::fail(v1::Errc::NoDevice,
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
    return v1::Status::ok();
}

} // namespace

fs::path roceTosFile(const TosTarget& t)
{
    return rdmaCmDir(t) / t.ibdev / "ports" / std::to_string(t.port) / "default_roce_tos";
}

v1::Status readRoceTos(const TosTarget& t, uint8_t& out)
{
    if (auto s = ensureGroup(t); !s)
        return s;
    std::string text;
    auto path = roceTosFile(t);
    if (auto s = readSmallFileBeneath(t.root, path, text); !s)
        return s;
    auto v = parseLong(trimSpace(text));
    if (!v || *v < 0 || *v > 255)
        return v1::Status::fail(v1::Errc::Io, path.string() + ": not a ToS value: '" +
                                                  std::string(trimSpace(text)) + "'");
    out = static_cast<uint8_t>(*v);
    return v1::Status::ok();
}

v1::Status writeRoceTos(const TosTarget& t, uint8_t tos)
{
    if (auto s = ensureGroup(t); !s)
        return s;
    return writeKnob(t.knobs, roceTosFile(t), std::to_string(tos) + "\n");
}

TosTarget tosTarget(const QosCall& call)
{
    return {call.host.root(), call.host.simulated(), call.dev.ibdev, call.port.port,
            knobHost(call.host)};
}

v1::QosSettingReport roceTosSetting(QosCall& call)
{
    const TosTarget t = tosTarget(call);
    return scalarSetting(
        call, "roce_tos", call.desired.roce_tos,
        [&](std::optional<uint8_t>& out) {
            uint8_t v = 0;
            auto s = readRoceTos(t, v);
            out = v;
            return s;
        },
        [&](uint8_t v) { return writeRoceTos(t, v); });
}

} // namespace nicd::plugin::sdk
