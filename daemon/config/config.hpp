// nicd's configuration: typed values with their defaults, and the loader that reads
// /etc/nicd/nicd.conf then /etc/nicd/nicd.conf.d/*.conf (lexical order, later wins).
#pragma once

#include "config/host_paths.hpp"
#include "config/wiring_map.hpp"
#include "model/action.hpp"
#include "model/prefailure_readings.hpp"
#include "model/role.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nicd {

enum class ProvisionMode : uint8_t { Enforce, Verify, Off };
enum class TrustMode : uint8_t { Dscp, Pcp };
enum class BondPolicy : uint8_t { Skip, Configure };
// [health] FlapMode=: what counts as one flap (health/link_history.hpp). transitions: every
// up->down transition; down-and-back: a down of FlapDownSec= or longer that came back up (gpud).
enum class FlapMode : uint8_t { Transitions, DownAndBack };

struct DaemonConfig {
    std::string plugin_directory;     // default NICD_DEFAULT_PLUGIN_DIR; not read under --root
    uint32_t poll_interval_ms = 5000; // link state and hw_counters/
    uint32_t pma_interval_ms = 30000; // counters/ (one firmware command per file)
    std::string state_directory = "/var/lib/nicd";
    // IgnoreDevices=: RDMA device names, shell globs over them, and PCI addresses (stored in the
    // full form, 0000:3b:00.0). Nothing under a device they name is ever opened.
    std::vector<std::string> ignore_devices;
    // DropCounterAfter=: a counter file refused this many reads in a row (EINVAL, EOPNOTSUPP,
    // EACCES) is not read again until a reload or the next boot; 0: never dropped.
    uint32_t drop_counter_after = 3;

    bool operator==(const DaemonConfig&) const = default;
};

// [textfile] Counters=: which per-statistic counter series the textfile carries. default: the
// curated set (textfile/counter_budget.cpp); all: every statistic read; none: no counter series
// (verdicts, identities and signals only). `extra` names more statistics, as globs.
enum class CounterSet : uint8_t { Default, All, None };
struct TextfileCounters {
    CounterSet set = CounterSet::Default;
    std::vector<std::string> extra; // globs over statistic names, added to the set

    bool operator==(const TextfileCounters&) const = default;
};

struct TextfileConfig {
    bool enable = true;
    std::string path = "/var/lib/prometheus/node-exporter/nicd.prom";
    // At most this often (ms); 0: after every cycle. Verdict changes are written at once.
    uint32_t interval_ms = 0;
    TextfileCounters counters;

    bool operator==(const TextfileConfig&) const = default;
};

// Settings that [device:<ibdev>] may override.
struct ProvisionSettings {
    ProvisionMode mode = ProvisionMode::Enforce;
    TrustMode trust = TrustMode::Dscp;
    std::vector<uint8_t> pfc_priorities{3}; // each 0..7; empty = PFC off on every priority
    uint8_t roce_tos = 106;
    bool ecn = true;                     // Ecn=: ECN (DCQCN) NP and RP on pfc_priorities
    std::optional<uint8_t> cnp_dscp;     // CnpDscp= 0..63; unset = leave as is
    std::optional<uint8_t> cnp_priority; // CnpPriority= 0..7; unset = leave as is

    bool operator==(const ProvisionSettings&) const = default;
};

struct ProvisionConfig {
    ProvisionSettings settings;
    BondPolicy bonds = BondPolicy::Skip;
    bool dry_run = false;
    std::vector<std::string> exclude_devices; // globs over ibdev names
    std::vector<std::string> exclude_netdevs; // globs over netdev names
    std::vector<std::string> include_netdevs; // globs; overrides the default-route exclusion
    // DriverReadyFile=: unset (or "auto") = each plugin's driver ready file where its directory
    // exists, for that plugin's devices;
    // "" = do not wait; else this absolute path.
    std::optional<std::string> driver_ready_file;
    uint32_t ready_timeout_ms = 120000;  // ReadyTimeoutSec= (stored in ms)
    uint32_t verify_interval_ms = 60000; // VerifyIntervalSec= (stored in ms)

    bool operator==(const ProvisionConfig&) const = default;
};

struct DeviceOverride {
    std::optional<ProvisionMode> mode;
    std::optional<TrustMode> trust;
    std::optional<std::vector<uint8_t>> pfc_priorities;
    std::optional<uint8_t> roce_tos;
    std::optional<bool> ecn;
    std::optional<uint8_t> cnp_dscp; // set here: overrides [provision]; unset: inherits it
    std::optional<uint8_t> cnp_priority;
    std::optional<bool> expect_up; // ports of this device must be up (health)
    std::optional<Role> role;      // Role=compute|storage|management: overrides what is found

    bool operator==(const DeviceOverride&) const = default;
};

struct JournalConfig {
    bool enable = true;

    bool operator==(const JournalConfig&) const = default;
};

enum class RuleSeverity : uint8_t { NonFatal, Fatal };

// [counter:<name>] or, for one device, [counter:<name>/<ibdev>]. Unset fields fall back to the
// section without device, then to the built-in default rule for that counter.
// Rate=N/s|N/min|N/h: more than `count` increments within any window of `window_sec`.
struct RateLimit {
    double count = 0;
    double window_sec = 1; // 1, 60 or 3600

    bool operator==(const RateLimit&) const = default;
};

struct CounterRuleConfig {
    std::optional<bool> enable;
    std::optional<uint64_t> delta;        // Delta=N: more than N between two successive reads
    std::optional<RateLimit> rate;        // Rate=N/unit: more than N within any window of a unit
    std::optional<RuleSeverity> severity; // Severity=fatal|non-fatal
    std::optional<Action> action;         // Action=: one of the documented action codes

    bool operator==(const CounterRuleConfig&) const = default;
};

// [health] ExpectPorts=: the RDMA ports a node must carry, by role (health/expected_ports.hpp).
// auto: what its GPUs say (inventory/gpu_profiles.hpp), nothing on a node without a known GPU;
// none: no expectation; listed: the items written, one per role.
enum class ExpectMode : uint8_t { Auto, None, Listed };
struct PortExpectation {
    Role role = Role::Compute;
    uint32_t count = 0;  // at least this many up ports of the role ...
    double min_gbps = 0; // ... each at least this fast (Gb/s); 0: any rate

    bool operator==(const PortExpectation&) const = default;
};
struct ExpectPorts {
    ExpectMode mode = ExpectMode::Auto;
    std::vector<PortExpectation> listed; // Listed only; by role, one each

    bool operator==(const ExpectPorts&) const = default;
};

struct HealthConfig {
    uint32_t flap_count = 3; // FlapCount: flaps within FlapWindowSec = flapping
    uint32_t flap_window_sec = 600;
    FlapMode flap_mode = FlapMode::Transitions; // FlapMode=
    uint32_t flap_down_sec = 25; // FlapDownSec=: down-and-back counts downs this long or longer
    // FlapClearSec=: link_flapping clears once the port has been up this long since it last came
    // back; 0: it holds until an operator clears it (nicctl clear DEV link_flapping).
    uint32_t flap_clear_sec = 600;
    // DropSec=: a port that was up and has polled for a partner this long without its link-down
    // counters moving is link_drop; 0: no link_drop. DropHoldSec=: how long link_drop holds
    // after the port is active again.
    uint32_t drop_sec = 240;
    uint32_t drop_hold_sec = 600;
    uint32_t kernel_repeat_count = 3;         // same non-fatal kernel pattern N times ...
    uint32_t kernel_repeat_window_sec = 3600; // ... within this window escalates to fatal
    uint32_t kernel_hold_sec = 0;      // how long kernel conditions hold; 0 = rest of the boot
    uint32_t driver_timeout_ms = 2000; // a driver read slower than this is a wedged driver
    uint32_t driver_fail_cycles = 3;   // all reads of a device failing this many cycles
    uint32_t event_ring_size = 1024;
    // The congestion verdict of RoCE ports (health/congestion_verdict.hpp): the sliding window,
    // the paused share that counts as PFC carrying congestion, and the share that is a storm.
    uint32_t congestion_window_sec = 60;  // CongestionWindowSec=
    double congestion_pause_ratio = 0.01; // CongestionPauseRatio=
    double congestion_storm_ratio = 0.5;  // CongestionStormRatio=
    // MinMtu=: a compute RoCE netdev below this MTU is not ready (ready.mtu_mismatch); 0: no
    // minimum. The default is what a 4096-byte RoCE MTU needs (health/readiness_checks.hpp).
    uint32_t min_mtu = 4192;
    ExpectPorts expect_ports; // ExpectPorts=
    // The firmware each board (its PSID, sysfs board_id) must run (health/firmware_rules.hpp):
    // FirmwareMin=: the lowest version; FirmwareAllowed=: the versions allowed, in the order
    // written. A board named in neither is not judged.
    std::map<std::string, std::string> firmware_min;
    std::map<std::string, std::vector<std::string>> firmware_allowed;
    // WiringMap=: the file of which switch port each NIC port should reach (config/wiring_map.hpp),
    // read with the configuration; empty: no map (only the checks that need none).
    config::WiringMap wiring;

    bool operator==(const HealthConfig&) const = default;
};

// [signals]: the pre-failure sources (FEC, optics, temperatures, firmware health reporters, link
// training) and the limits they are judged against. Unset limits are the device's own.
struct SignalConfig {
    bool enable = true;           // Enable=no: none of these sources is read
    uint32_t interval_ms = 60000; // IntervalSec=: how often the slow sources are read
    // FecMarginFraction=: pre-FEC BER above this fraction of the FEC mode's correction limit is
    // "the margin is running out".
    double fec_margin_fraction = 0.1;
    std::optional<double> fec_ber_limit; // FecBerLimit=: instead of the FEC mode's own limit
    // FecUncorrectableFatal=N/unit: more uncorrectable blocks than this within the window: fatal.
    RateLimit fec_uncorrectable_fatal{100, 60};
    std::optional<double> asic_crit_celsius; // AsicCritCelsius=: instead of hwmon temp*_crit
    // Optics<Quantity><Level>= (e.g. OpticsRxPowerLowWarning=-9.5): instead of the module's own
    // threshold; by quantity ("temperature", "supply", "tx_bias", "tx_power", "rx_power"), in
    // SI units (powers in watts, converted from the dBm written).
    std::map<std::string, DomThresholds> optics_limits;
    bool pcie_training = true;   // PcieTraining=: a PCIe link below what both ends can do
    bool port_rate_peers = true; // PortRatePeers=: a port slower than its peers of the board
    bool firmware_peers = true;  // FirmwarePeers=: a firmware unlike its peers' of the board
    // FirmwareResetSec=: a devlink health reporter in error while its driver resets the firmware
    // (plugin ABI 1.6, ReporterMeaning::FirmwareReset) is fatal once in error this long.
    uint32_t firmware_reset_ms = 60000;

    bool operator==(const SignalConfig&) const = default;
};

struct Config {
    DaemonConfig daemon;
    TextfileConfig textfile;
    ProvisionConfig provision;
    JournalConfig journal;
    HealthConfig health;
    SignalConfig signals;
    std::map<std::string, CounterRuleConfig>
        counter_rules;                             // "symbol_error" or "symbol_error/mlx5_0"
    std::map<std::string, DeviceOverride> devices; // [device:<ibdev>]
    std::map<std::string, std::map<std::string, std::string>> plugins; // [plugin:<name>] Key=Value
    std::vector<std::filesystem::path> sources;                        // files read, in order
    // Where each key in effect was set: (section, key) -> the file and line of its last value
    // (key "": where the section first begins). A key not here has its default.
    struct Origin {
        std::string file;
        int line = 0;
        std::string value{}; // as written, trimmed
    };
    std::map<std::pair<std::string, std::string>, Origin> origins;

    // The provisioning settings for one device: [provision] with [device:<ibdev>] on top.
    ProvisionSettings provisionFor(const std::string& ibdev) const;
};

struct ConfigError {
    std::string file;
    int line = 0; // 0 when the error is about the file as a whole
    std::string section;
    std::string key;
    std::string message; // says what is allowed
    std::string value{}; // the value as written, when the error is about a Key=Value line

    // "/etc/nicd/nicd.conf:12: [daemon] PollIntervalMs=abc: expected an integer from 100 to
    // 3600000"; parts that are empty (line 0, no section, no key) are left out. Control bytes
    // and bytes that are not UTF-8 (a file's own) are written as \xNN (text/printable.hpp).
    std::string format() const;
};

// At most this many errors are shown (formatErrors); one mistake repeated through a file would
// otherwise bury the first.
inline constexpr size_t kShownConfigErrors = 20;
// A configuration file larger than this is refused, not parsed: nicd.conf is a few KiB.
inline constexpr size_t kMaxConfigFileBytes = size_t{1024} * 1024;

// The first kShownConfigErrors errors formatted, then "... and N more errors" when there are more.
std::vector<std::string> formatErrors(const std::vector<ConfigError>& errors);

struct ConfigResult {
    std::optional<Config> config; // set when there were no errors
    std::vector<ConfigError> errors;
    std::vector<ConfigError> warnings; // settings read but not used, and why
};

// The built-in defaults (what loadConfig returns when there are no files).
Config defaultConfig();

// The keys each kind of section takes, in the order nicd.conf lists them: "daemon", "textfile",
// "provision", "journal", "health", "signals", "device:", "counter:" and "plugin:" (only Enabled: a
// plugin section also takes any other key, for the plugin to validate).
std::map<std::string, std::vector<std::string>> configKeys();

// Reads `main_file` (a missing main file means defaults, unless `main_required`: the file named
// by --config must exist) and then every *.conf in `dropin_dir` (lexical order; hidden files
// skipped; a missing directory is fine), later values winning. A file over kMaxConfigFileBytes is
// an error. Every error of every file is collected; `config` is set only when there are none.
// For a tree (`paths` with a --root other than "/"), the configuration is the tree's: a path key
// that leads out of it is an error, and PluginDirectory= a warning, not used
// (config/tree_keys.hpp).
ConfigResult loadConfig(const std::filesystem::path& main_file,
                        const std::filesystem::path& dropin_dir,
                        const HostPaths& paths = HostPaths(), bool main_required = false);

// Parses one INI text on top of `config` (used by loadConfig and by tests); appends errors
// naming `file_name`, and to `warnings` (when given) what is read but not used. A bad value
// leaves that setting as it was.
void parseConfigText(const std::string& text, const std::string& file_name, Config& config,
                     std::vector<ConfigError>& errors, const HostPaths& paths = HostPaths(),
                     std::vector<ConfigError>* warnings = nullptr);

} // namespace nicd
