// The C++ side of the plugin boundary (ABI 1.x). Every method is noexcept and reports failure
// as a Status value: no exception ever crosses the boundary.
#pragma once

#include <nicd/plugin/abi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
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

// ABI 1.3: a device's samples as the series they belong to, named once, and one read's values.
// A layout is immutable once made, and shared: the same object from one poll to the next for as
// long as the device reports the same series (and between devices that report the same ones), so
// that the daemon resolves names (rules, textfile lines) once per layout instead of once per
// value, and a cycle allocates nothing for names. Build batches with
// nicd::plugin::sdk::SampleBatchBuilder (nicd/plugin/sdk/sample_batch.h).
struct SeriesKey {
    std::string source; // as Sample::source
    uint32_t port = 0;
    uint32_t netdev = 0; // 0: none; n: the batch's netdevs[n - 1] (names stay out of the layout)
    std::string name;
    SampleKind kind = SampleKind::Counter;
    bool operator==(const SeriesKey&) const = default;
};
struct SampleLayout {
    std::vector<SeriesKey> series;
    bool operator==(const SampleLayout&) const = default;
};
struct SampleBatch {
    std::shared_ptr<const SampleLayout> layout; // null when nothing was read
    std::vector<std::string> netdevs;           // the netdevs SeriesKey::netdev points to
    std::vector<uint64_t> values;               // values[i] is layout->series[i]'s
    size_t size() const { return values.size(); }
    bool empty() const { return values.empty(); }
    const std::string& netdevOf(const SeriesKey& k) const
    {
        static const std::string none;
        return k.netdev == 0 || k.netdev > netdevs.size() ? none : netdevs[k.netdev - 1];
    }
};

// ABI 1.5: what a series means to the daemon's rules, said by the plugin that reads it. The counter
// rules, the congestion verdict and the textfile's series budget read meanings, never a vendor's
// counter names, so one rule judges mlx5's `local_ack_timeout_err` and bnxt_re's `to_retransmits`
// alike. The numbers are part of the ABI: new meanings are appended, never renumbered; the daemon
// reads a number it does not know as None. Per-priority meanings carry the priority (0..7) in
// SeriesMeaning::priority.
enum class Meaning : uint16_t {
    None = 0, // no rule reads it (the textfile keeps it only when the series budget allows)
    // RDMA transport, per port (hw_counters)
    LocalAckTimeout = 1,    // a request timed out waiting for its ACK and was sent again
    OutOfBuffer = 2,        // a packet dropped for lack of a posted receive buffer
    OutOfSequence = 3,      // a packet the responder received out of order (one was lost)
    SequenceErrorNak = 4,   // a NAK for a sequence error received: the requester retransmits
    AdaptiveRetransmit = 5, // a retransmission by adaptive retransmission
    SlowRestart = 6,        // a retransmission fell back to slow restart
    RnrRetryExceeded = 7,   // RNR NAK retries were exhausted (the QP failed)
    // DCQCN (hw_counters)
    EcnMarked = 8,   // an ECN-marked RoCE packet received (notification point)
    CnpSent = 9,     // a CNP sent (notification point)
    CnpHandled = 10, // a CNP received and acted upon (reaction point)
    CnpIgnored = 11, // a CNP received and ignored
    // The netdev's MAC and PHY (ethtool), per priority where SeriesMeaning::priority is set
    RxPauseFrames = 12,      // PFC pause frames received (the switch paused us)
    TxPauseFrames = 13,      // PFC pause frames sent (we paused the switch)
    RxPauseDuration = 14,    // time paused by received pauses, microseconds
    TxPauseDuration = 15,    // time the switch was paused by our pauses, microseconds
    RxPauseTransitions = 16, // transitions into the paused state
    RxPriorityDrops = 17,    // packets of the priority dropped on receive
    PauseStormWarning = 18,  // the NIC's pause-storm detector reached its warning level
    PauseStormError = 19,    // it stopped sending pauses (lossless traffic may now drop)
    FecCorrectedBits = 20,   // bits the FEC corrected on the PHY (the pre-FEC error count)
    RxCrcErrors = 21,        // frames received with a bad FCS on the PHY
    RxDiscards = 22,         // received frames the port discarded (all priorities)
    TxDiscards = 23,         // frames the port discarded before sending
    // RDMA transport, per port (hw_counters), continued
    RetryExceeded = 24, // transport retries were exhausted: the QP went to error (bnxt_re's
                        // max_retry_exceeded)
    // The netdev's PHY (ethtool), continued
    LinkDownEvents = 25, // the port's physical link went down (the PHY's own count of it)
};
// The newest meaning: a daemon reads a larger number (a newer plugin's) as None. Moves with each
// meaning appended.
inline constexpr Meaning kLastMeaning = Meaning::LinkDownEvents;

inline constexpr uint8_t kNoPriority = 0xff;

// One series' meaning; a layout's meanings are in the layout's order (describeLayout).
struct SeriesMeaning {
    Meaning meaning = Meaning::None;
    uint8_t priority = kNoPriority; // 0..7 for per-priority meanings
    // The counter is 64 bits wide: a value below the last one is a reset, never a 32-bit wrap.
    // False: the driver's counter may wrap at 2^32 (mlx5's Q counters, most hw_counters).
    bool wide = false;
};

enum class Level : uint8_t { Trace, Debug, Info, Warn, Error, Critical };

enum class Severity : uint8_t { NonFatal, Fatal };

// A kernel log line the plugin recognised as its vendor's driver error.
struct KernelLineMatch {
    std::string code; // stable identifier, e.g. "mlx5.cmd_timeout"
    Severity severity = Severity::NonFatal;
    std::string pci_address; // "0000:3b:00.0" when the line names one
    std::string netdev;      // when the line names only a netdev
    std::string message;     // short human summary
    std::string action;      // recommended operator action, in words
    // ABI 1.1: the same as one of the daemon's action codes ("reset_nic", "check_cable", ...:
    // docs/conditions.md). Empty, or a code the daemon does not know: the daemon chooses by
    // severity (fatal: reset_nic; else none).
    std::string action_code;
};

// ABI 1.4: a kernel log record with where the kernel said it came from. journald stores the
// device a line is about in its trusted fields (_KERNEL_SUBSYSTEM, _KERNEL_DEVICE "+pci:<bdf>"),
// which the kernel's dev_printk()/netdev_printk() set and no program can; the daemon passes them
// here already checked. A record with no device is one of the kernel's own device-less reports
// (or any other line: a segfault report, which starts with a name a user chose). The message text
// itself proves nothing: a program's name or a file name printed by the kernel can hold any text.
struct KernelRecord {
    std::string_view message;
    std::string_view subsystem; // "pci", "infiniband", "net", ...; empty: the line names no device
    std::string_view device;    // the device's name there: "0000:3b:00.0", "mlx5_0"; empty: none
    bool deviceLess() const noexcept { return device.empty(); }
};

// ABI 1.5: a report the kernel prints over several device-less lines: a header its own watchdog
// writes, then a stack trace. The daemon runs the window: it opens a report at a header of one of
// the kernel's report shapes, appends the device-less records that follow, in order (records
// about a device are not part of it), at most kKernelReportLines of them, and asks the plugins
// after each line appended, until one recognises the report (which closes it) or the next header
// opens another. The plugin names its own stack frames: only it knows which functions are its
// driver's (nicd/plugin/sdk/stack_frame.h reads a trace line).
inline constexpr size_t kKernelReportLines = 150;
struct KernelReport {
    std::string_view kind;              // "soft_lockup": "BUG: soft lockup - CPU#N stuck for Ss!"
    std::string_view header;            // the header, the watchdog's own prefix removed
    std::span<const std::string> lines; // the lines after it so far, oldest first
};

// ABI 1.6: what one of the driver's devlink health reporters means when it is in error. Drivers
// name their reporters alike ("fw") and mean different things by them: mlx5's `fw` reports a
// firmware health syndrome the firmware lives with, bnxt_en's `fw` a firmware failure whose
// reset has not brought the firmware back. New values are appended; the daemon reads a number it
// does not know as Unknown.
enum class ReporterMeaning : uint8_t {
    Unknown = 0,       // not described: `fw_fatal` is read as FirmwareFatal (the name says it), any
                       // other name as Recoverable
    FirmwareFatal = 1, // the firmware failed and is not back: fatal, reset the NIC
    FirmwareError = 2, // a firmware problem the device runs on with: degraded, update firmware
    Recoverable = 3,   // a queue or other part the driver could not recover: degraded, reset
    // In error while the driver resets the firmware, healthy again once the reset brought it back
    // (seconds): fatal only once it has stayed in error longer than a reset takes ([signals]
    // FirmwareResetSec=); a reset that recovered between two reads is a degraded event.
    FirmwareReset = 4,
};
inline constexpr ReporterMeaning kLastReporterMeaning = ReporterMeaning::FirmwareReset;

struct ReporterDescription {
    std::string name; // the reporter's name, as `devlink health show` prints it ("fw")
    ReporterMeaning meaning = ReporterMeaning::Unknown;
};

// ABI 1.6: what a plugin says about itself, asked once after init().
struct PluginTraits {
    // The file the vendor's driver deployment creates once the driver is loaded (the NIC vendor's
    // network operator's driver container), an absolute host path at least two directories deep
    // (the daemon resolves it under the root); empty: none. [provision] DriverReadyFile=auto
    // waits for it where its directory exists, before the QoS of this plugin's devices is
    // provisioned (other plugins' devices do not wait for it).
    std::string driver_ready_file;
    // The driver's devlink health reporters and what each means in error; a reporter not listed
    // is Unknown. A name listed twice counts once (the first).
    std::vector<ReporterDescription> reporters;
};

// ABI 1.6: what the plugin knows of a device it claims that sysfs does not say alike for every
// driver.
struct DeviceTraits {
    // The device is a RoCE LAG: one RDMA device over the bonded ports of two PFs, its traffic
    // carried by the bond's slaves (QoS goes to each of them; Bonds= decides whether at all).
    bool lag = false;
};

// RoCE QoS wanted on one port.
struct QosDesired {
    bool trust_dscp = true;              // false = trust PCP
    std::vector<uint8_t> pfc_priorities; // PFC enabled exactly on these
    uint8_t roce_tos = 106;
    bool dry_run = false; // report what would change, change nothing
    // ABI 1.2 (read them only when IHost::abiMinor() >= 2): ECN for RoCE (DCQCN) notification and
    // reaction points enabled on every priority of pfc_priorities, the others left as they are;
    // the DSCP and 802.1p priority of the CNPs sent, when set (unset: left as they are).
    bool ecn = true;
    std::optional<uint8_t> cnp_dscp{};     // 0..63
    std::optional<uint8_t> cnp_priority{}; // 0..7
};

// One setting's outcome on one port: "trust", "pfc", "roce_tos", "traffic_class", "ecn_np",
// "ecn_rp", "cnp_dscp", "cnp_priority". A setting the kernel has no interface for is observed
// "unsupported" and compliant, with no error.
struct QosSettingReport {
    std::string setting;
    std::string desired;
    std::string observed;
    bool compliant = false;
    bool changed = false; // written this call (or would be, under dry_run)
    std::string error;    // last error for this setting, empty when none
};

struct QosReport {
    std::vector<QosSettingReport> settings;
    // ABI 1.8 (set only when IHost::abiMinor() >= 8): who runs DCBX, and so LLDP, on the port
    // when it is not the host: words naming the NIC firmware's agent and what the driver said
    // ("the NIC firmware runs DCBX on ens1f0np0 (DCBX mode 0x0c, no HOST bit) ..."). The host's
    // lldpd may then hear no neighbour. Empty: the host's, or unknown.
    std::string lldp_agent{};
};

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
    // Config value from the plugin's section [plugin:<name>]; a key the section does not set may
    // be one of the daemon's settings plugins follow (DropCounterAfter: nicd/plugin/sdk/backoff.h).
    virtual std::optional<std::string> config(std::string_view key) const noexcept = 0;
    // ABI 1.4 (call only when abiMinor() >= 4): nicd's own process may not write under /sys or
    // configfs (docs/security.md); host knobs change through these, carried out by nicd's knob
    // writer for the knobs QoS provisioning sets (configfs rdma_cm/<ibdev> and its
    // ports/<n>/default_roce_tos, class/infiniband/<ibdev>/tc/<n>/traffic_class,
    // class/net/<netdev>/ecn/roce_{np,rp}/enable/<prio>, roce_np/cnp_dscp and cnp_802p_prio)
    // and refused (PermissionDenied) for any other path. `path` is the host path under root(),
    // as for a direct write; `text` goes in one write(2). Failures name the file, with errno.
    virtual Status writeKnob(std::string_view path, std::string_view text) noexcept = 0;
    // Makes the directory `path` (the rdma_cm group of a device); one that exists is fine.
    virtual Status makeKnobDirectory(std::string_view path) noexcept = 0;

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
    // what it could and returns the first error. The daemon backs off a device whose polls fail
    // with nothing appended; a partial read is reported but not backed off, so the plugin backs
    // off what keeps failing itself (nicd/plugin/sdk/backoff.h).
    virtual Status poll(const DeviceRef& dev, std::vector<Sample>& out) noexcept = 0;
    // Reads the port's QoS and compares it with `desired`; changes nothing.
    virtual Status verifyQos(const DeviceRef& dev, const PortRef& port, const QosDesired& desired,
                             QosReport& out) noexcept = 0;
    // Writes only the settings that differ, then reads everything back into `out`.
    virtual Status applyQos(const DeviceRef& dev, const PortRef& port, const QosDesired& desired,
                            QosReport& out) noexcept = 0;
    // Pure: true and `out` filled when the line is one of this vendor's driver errors.
    virtual bool classifyKernelLine(std::string_view line, KernelLineMatch& out) const noexcept = 0;
    virtual void shutdown() noexcept = 0;
    // ABI 1.3 (called only when the plugin's descriptor says abi_minor >= 3): poll() into a
    // batch. `out` comes with the layout this device's last poll gave (null the first time) and
    // no values; the same rules as poll() for errors and partial reads. The default converts
    // what poll() gives (nicd/plugin/sdk/sample_batch.h); a plugin that reads the same series every
    // time overrides it to build the batch without a Sample per value.
    virtual Status pollBatch(const DeviceRef& dev, SampleBatch& out) noexcept;
    // ABI 1.4 (called only when the plugin's descriptor says abi_minor >= 4, instead of
    // classifyKernelLine): true and `out` filled when the record is one of this vendor's driver
    // errors. A record about a device (`rec.device` set) counts against that device (the daemon
    // attributes it; `out.pci_address` may name a function below it, as AER reports from a port
    // do); a device-less record must be matched only where the kernel's own report starts (a
    // plugin never finds a pattern anywhere in such a line: a program's name can hold it). The
    // default passes the message of a record about a device to classifyKernelLine and classifies
    // no device-less record.
    virtual bool classifyKernelRecord(const KernelRecord& rec, KernelLineMatch& out) const noexcept;
    // ABI 1.5 (called only when the plugin's descriptor says abi_minor >= 5): true and `out`
    // filled when the report is one of this vendor's driver failures (a soft lockup in its poll
    // loop). It names no device: the daemon raises `out.code` on every device the plugin manages
    // (VFs aside), with `out.message`, `out.action` and `out.action_code` as for a line. The
    // default recognises none.
    virtual bool classifyKernelReport(const KernelReport& report,
                                      KernelLineMatch& out) const noexcept;
    // ABI 1.5 (called only when the plugin's descriptor says abi_minor >= 5): what each series
    // of `layout` means, in its order (`out` comes empty; fewer entries than series leave the
    // rest None). Called once per layout the plugin gives (layouts are shared and immutable),
    // not per poll; pure. A plugin names its own counters here, in one table: the daemon knows
    // no vendor's counter names. The default says nothing (every series None): an older
    // plugin's counters are published, and judged only by the rules [counter:NAME] configures.
    virtual void describeLayout(const SampleLayout& layout,
                                std::vector<SeriesMeaning>& out) const noexcept;
    // ABI 1.6 (called only when the plugin's descriptor says abi_minor >= 6): what the plugin
    // says about itself (its driver's ready file, its devlink health reporters), asked once
    // after init(); pure. The default says nothing.
    virtual void describePlugin(PluginTraits& out) const noexcept;
    // ABI 1.6 (called only when the plugin's descriptor says abi_minor >= 6): what the plugin
    // knows of a device it claims (a RoCE LAG), asked when the device is attached (again after
    // it leaves and comes back, or on a reload); pure. A device that became a LAG without
    // registering anew would not be seen: mlx5's LAG is a new RDMA device. The default says
    // nothing (`out` as it came: a PF, a VF or a bond member as sysfs shows it).
    virtual void describeDevice(const DeviceRef& dev, DeviceTraits& out) const noexcept;

protected:
    ~IPlugin() = default;
};

} // namespace nicd::plugin::v1
