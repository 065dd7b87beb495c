// What the loop keeps of provisioning between rounds: the last outcome per port, drift (a
// setting that was compliant and no longer is), counts of changes and errors, and the last
// apply. Logs what an operator needs: each drift, and each port whose status changed (skipped
// and why, failed, compliant or not).
// Loop thread only; pure apart from logging.
#pragma once

#include "config/config.hpp"
#include "model/inventory.hpp"
#include "model/qos.hpp"
#include "provision/provision_round.hpp"

#include <string>

namespace nicd::provision {

class QosTracker {
public:
    void setConfig(const Config& config);
    void setWaiting(std::string why) { summary_.waiting = std::move(why); }

    // A finished round; `now_real` is CLOCK_REALTIME seconds. True when something drifted
    // (a compliant setting is no longer): an enforcing caller re-applies.
    bool record(const Round& round, double now_real);

    // Drops the ports of devices that are gone (their series leave the textfile and the bus), and
    // everything of devices now ignored (IgnoreDevices=).
    void forgetMissing(const Inventory& inventory);
    // The device's hardware is now called `to`: its ports and counts move there.
    void rename(const std::string& from, const std::string& to);

    const QosSummary& summary() const { return summary_; }

private:
    QosSummary summary_;
};

// "compliant", "noncompliant" or "error: <why>" for one port's outcome.
std::string portStatus(const PortOutcome& o);

} // namespace nicd::provision
