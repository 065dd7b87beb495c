// The health engine: turns each snapshot (and kernel findings) into conditions, per-port and
// per-device health, and events for every change. Every rule is in a family (rule_family.hpp),
// and the families judge in the order of one list (ruleFamilies() in health_engine.cpp):
//   link_rules.hpp      port state, netdevs, flaps and drops, never-up ports, device
//                       disappearance
//   counter_checks.hpp  counter thresholds (counter_rules.hpp) over counter_tracker.hpp
//   driver_rules.hpp    a driver that does not answer
//   fec_rules.hpp, optics_rules.hpp, temperature_rules.hpp, reporter_rules.hpp,
//   training_rules.hpp, congestion_rules.hpp  the pre-failure signals
//   readiness_rules.hpp, inventory_rules.hpp  what NCCL needs of a port, the expected inventory
//   kernel_rules.hpp    kernel lines and soft lockups, held until they expire
// over one ConditionSet and its EventLog. A device is its hardware (device_identity.hpp): every
// entry point that is given an inventory first follows the renames in it (followRenames), so what
// the engine knows of a device stays with it under its new name. Runs on the loop thread; pure
// apart from the clock values it is given (monotonic seconds for rates and windows, realtime
// seconds for display).
#pragma once

#include "config/config.hpp"
#include "health/condition_set.hpp"
#include "health/link_rules.hpp"
#include "health/rule_family.hpp"
#include "model/health.hpp"
#include "model/kernel_finding.hpp"
#include "model/snapshot.hpp"

#include <nicd/plugin/plugin.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nicd::health {

class HealthEngine {
public:
    // The layout of appendJson(); restore() refuses any other.
    static constexpr int kStateVersion = 2;

    explicit HealthEngine(Config config);

    // A reload: the rules follow `config` from the next evaluation on.
    void configure(const Config& config);
    // For holders of per-device state outside the engine (provisioning's counts): called on
    // each move of a rename the engine follows, (from, to), as the engine's own holders are.
    using MoveDevice = std::function<void(const std::string& from, const std::string& to)>;
    void setRenameListener(MoveDevice listener) { rename_listener_ = std::move(listener); }

    // Evaluates `snap` at monotonic time `now_mono` (seconds; rates) and wall time `now_real`
    // (seconds; what events show), fills snap.health and returns the new events.
    std::vector<Event> evaluate(Snapshot& snap, double now_mono, double now_real);

    // A kernel line a plugin recognised (kernel_rules.hpp, and any family that listens).
    std::vector<Event> kernelLine(const KernelFinding& f, const Inventory& inv, double now_mono,
                                  double now_real);
    // A multi-line report a plugin recognised (a soft lockup in its driver's poll loop): raised
    // on every device of that plugin, held like any kernel condition (KernelHoldSec from
    // `now_mono`).
    std::vector<Event> kernelReport(const KernelReportFinding& f, const Inventory& inv,
                                    double now_mono, double now_real);

    // What a batch of journal lines held (kernel_log/kernel_watch.hpp), judged against `inv`
    // (the devices the lines name) in order: kernelLine for each line, kernelReport for each
    // report.
    void kernelFindings(const KernelFindings& f, const Inventory& inv, double now_mono,
                        double now_real);

    // Fills snap.health from the current conditions without evaluating anything.
    void report(Snapshot& snap) const;

    // Operator action: drops the active condition `code` of `device` (all its ports) with a
    // "cleared" event; it is raised again if its cause persists. How many were active (0: none).
    size_t clear(const std::string& device, const std::string& code, double now_real);

    std::vector<Event> eventsSince(uint64_t seq) const { return conditions_.log().since(seq); }
    uint64_t lastEventSeq() const { return conditions_.log().lastSeq(); }
    const ConditionSet& conditions() const { return conditions_; }

    // Memory across restarts within one boot, as the JSON text of the state file's "health": the
    // event log, the conditions, the roles and each family's memory under its name (counter
    // baselines and windows, port history, known devices, kernel hits and hold times...), keys in
    // the order nlohmann's objects dump them. Made part by part, so a save holds one part's tree at
    // a time, never the whole engine's. Monotonic times stay valid within one boot only: across
    // boots use baseline().
    void appendJson(std::string& out) const;
    // Reads back what appendJson() wrote (parsed). A family the document lacks (added by an
    // upgrade) starts afresh. Throws on a malformed or foreign-version document (the caller sets
    // the state aside), and then leaves this engine unchanged.
    void restore(const nlohmann::json& j);
    // A new boot (or a first start): everything forgotten, and a "baseline" event says so; but
    // for the hardware `earlier` (the health memory saved at the last boot, or nothing) knew:
    // its devices are expected back (KnownDevices::fromEarlierBoot).
    void baseline(const std::string& why, double now_real,
                  const nlohmann::json& earlier = nlohmann::json());
    // Operator action (nicctl forget DEV, accept-inventory): forgets the known device `device`
    // (a name or PCI address) that `inv` lacks, or with `device` empty every one `inv` lacks,
    // dropping its conditions with a "cleared" event each. Returns the devices forgotten.
    std::vector<KnownDevice> forgetMissing(const std::string& device, const Inventory& inv,
                                           double now_real);
    // Event numbers continue after those of a saved state (of any boot), so a client's
    // eventsSince(seq) never sees a number twice. Call before baseline(); ignores a document
    // that has no usable sequence.
    void continueSequence(const nlohmann::json& saved) noexcept;

private:
    // Takes `families` (ruleFamilies(), configured) as the engine's.
    void adopt(std::vector<std::unique_ptr<RuleFamily>> families);
    // An entry point between cycles (kernelLine, kernelReport): the renames in `inv` are
    // followed, then `hook` is called on every family; returns the events of both.
    using FamilyHook = std::function<void(RuleFamily& family, std::vector<Event>& out)>;
    std::vector<Event> betweenCycles(const Inventory& inv, double now_real, const FamilyHook& hook);
    Health nodeHealth(const Inventory& inv, const HealthReport& r) const;
    // The devices of `inv` whose hardware was known under another name: everything kept by the
    // old name moves to the new one, with a "renamed" event each.
    void followRenames(const Inventory& inv, double now_real, std::vector<Event>& out);
    // Every holder of per-device state, from `from` to `to`: the one path a rename takes.
    void moveDevice(const std::string& from, const std::string& to);

    // On the heap: the families read it through a pointer (RuleFamily::configure), which must
    // survive the engine being moved.
    std::unique_ptr<Config> config_;
    ConditionSet conditions_;
    std::vector<std::unique_ptr<RuleFamily>> families_; // in the order they judge
    LinkRules* links_ = nullptr; // among families_: the known devices (renames, forgetMissing)
    std::map<std::string, Role> roles_; // the last role of every device seen this boot
    MoveDevice rename_listener_;
};

} // namespace nicd::health
