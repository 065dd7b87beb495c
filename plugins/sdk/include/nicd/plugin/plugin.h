// The C++ side of the plugin boundary (ABI 1.x). Every method is noexcept and reports failure
// as a Status value: no exception ever crosses the boundary.
#pragma once

#include <nicd/plugin/abi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::plugin::v1 {

enum class Errc : uint32_t {
    Ok = 0,
    NotSupported,
    InvalidArgument,
    NoDevice,
    Busy,
    Timeout,
    PermissionDenied,
    Io,
    Internal,
};

struct [[nodiscard]] Status {
    Errc code = Errc::Ok;
    int sys_errno = 0;   // errno or a translated netlink error; 0 when not applicable
    std::string message; // one line, names the file/device/setting involved

    static Status ok() { return {}; }
    static Status fail(Errc c, std::string msg, int err = 0) { return {c, err, std::move(msg)}; }
    explicit operator bool() const noexcept { return code == Errc::Ok; }
};

struct PortRef {
    uint32_t port = 0;                // IB port number (1-based)
    std::string link_layer;           // "Ethernet" or "InfiniBand"
    std::vector<std::string> netdevs; // netdevs bound to this port
};

// A device as the daemon discovered it. Paths are host paths already resolved under --root.
struct DeviceRef {
    std::string ibdev;       // "mlx5_0"
    std::string pci_address; // "0000:3b:00.0"
    std::string driver;      // "mlx5_core"
    std::string sysfs_path;  // <root>/sys/class/infiniband/mlx5_0
    std::vector<PortRef> ports;
};

enum class SampleKind : uint8_t { Counter, Gauge };

// One value read by a plugin. `source` groups samples: "hw_counters" for per-port driver counters,
// "ethtool" for netdev statistics (then `netdev` is set).
struct Sample {
    std::string source;
    uint32_t port = 0; // 0 = device-wide
    std::string netdev;
    std::string name;
    uint64_t value = 0;
    SampleKind kind = SampleKind::Counter;
};

enum class Level : uint8_t { Trace, Debug, Info, Warn, Error, Critical };

// Implemented by the daemon; valid until the plugin's destroy() returns.
class IHost {
public:
    virtual uint32_t abiMinor() const noexcept = 0;
    // Logs as the plugin; `dev` may be null.
    virtual void log(Level level, std::string_view msg, const DeviceRef* dev) noexcept = 0;
    // Host path prefix: "/" on a real node, the simulated tree's directory otherwise.
    virtual std::string root() const noexcept = 0;
    // True when the root is not "/": backends must use the simulator's files, not the kernel.
    virtual bool simulated() const noexcept = 0;
    // Config value from the plugin's section [plugin:<name>].
    virtual std::optional<std::string> config(std::string_view key) const noexcept = 0;

protected:
    ~IHost() = default;
};

// Implemented by a vendor. Calls are serialized: the daemon never calls one plugin from two
// threads at once, and never calls it from the event loop thread.
class IPlugin {
public:
    virtual Status init() noexcept = 0;
    virtual bool claims(const DeviceRef& dev) const noexcept = 0;
    virtual Status attach(const DeviceRef& dev) noexcept = 0;
    virtual void detach(const DeviceRef& dev) noexcept = 0;
    // Reads the vendor counters of one device and appends them to `out`. A partial read appends
    // what it could and returns the first error.
    virtual Status poll(const DeviceRef& dev, std::vector<Sample>& out) noexcept = 0;
    virtual void shutdown() noexcept = 0;

protected:
    ~IPlugin() = default;
};

} // namespace nicd::plugin::v1
