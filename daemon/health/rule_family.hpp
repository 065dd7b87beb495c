// One family of health rules: link state, counters, kernel lines, the driver's answers, each
// pre-failure signal. A family judges every cycle's snapshot (and the kernel lines in between)
// into conditions, and keeps what it must remember across restarts within one boot under its own
// key of the state file. A new family is a class implementing this (its own file set) plus its
// name in HealthEngine's one list, ruleFamilies() in health_engine.cpp.
#pragma once

#include "config/config.hpp"
#include "health/condition_set.hpp"
#include "health/json_text.hpp"
#include "model/device_keys.hpp"
#include "model/inventory.hpp"
#include "model/kernel_finding.hpp"
#include "model/snapshot.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace nicd::health {

class RuleFamily {
public:
    virtual ~RuleFamily() = default;

    // The family's key in the state file ("drivers").
    virtual const char* name() const = 0;
    // The configuration reaches a family this way only: when the engine is made and on every
    // reload (before the next evaluate()), the engine hands it its own copy, which outlives the
    // family's calls; config() reads it from then on, and configured() is where a family works
    // out what it derives from it (what it derived from the last one no longer holds).
    void configure(const Config& config)
    {
        config_ = &config;
        configured(config);
    }
    // Judges `snap` at monotonic `now_mono` and wall `now_real` seconds; raises and recovers its
    // conditions in `conditions`, appending the events to `out`.
    virtual void evaluate(const Snapshot& snap, double now_mono, double now_real,
                          ConditionSet& conditions, std::vector<Event>& out) = 0;
    // Between cycles, as the kernel log is read: a line a plugin recognised, and a multi-line
    // report one recognised (a soft lockup in its driver's poll loop,
    // kernel_log/report_window.hpp).
    virtual void kernelLine(const KernelFinding& /*f*/, const Inventory& /*inv*/,
                            double /*now_mono*/, double /*now_real*/, ConditionSet& /*conditions*/,
                            std::vector<Event>& /*out*/)
    {
    }
    virtual void kernelReport(const KernelReportFinding& /*f*/, const Inventory& /*inv*/,
                              double /*now_mono*/, double /*now_real*/,
                              ConditionSet& /*conditions*/, std::vector<Event>& /*out*/)
    {
    }
    // An operator cleared `code` of `device` (HealthEngine::clear): what the family remembers of
    // it is forgotten, so that a new cause starts from nothing.
    virtual void cleared(const std::string& /*device*/, const std::string& /*code*/) {}

    // Adds what the family derived (a pre-FEC BER) to the published report; called whenever
    // the report is rebuilt, after evaluate() or without it.
    virtual void annotate(HealthReport& /*report*/) const {}

    // Memory across restarts within one boot, as the JSON text the state file holds under name()
    // (written with json_text.hpp). A family with much to keep writes it piece by piece, so a save
    // never holds its whole tree (a JSON tree takes ~10 times the memory of its text).
    virtual void appendJson(std::string& out) const = 0;
    // Reads back what appendJson() wrote. Throws nlohmann::json::exception (or std::exception) on
    // a malformed document; the engine then starts from a baseline.
    virtual void restore(const nlohmann::json& j) = 0;
    // A new boot, or nothing saved: forget everything.
    virtual void forget() = 0;
    // The device's hardware is now called `to` (device_identity.hpp): what the family keeps by
    // device name moves there (moveDeviceKeys), so nothing starts over. A family that keeps
    // nothing by device name says so with an empty body.
    virtual void rename(const std::string& from, const std::string& to) = 0;

protected:
    // What configure() was last given (Config's defaults before it is called).
    const Config& config() const { return *config_; }
    virtual void configured(const Config& /*config*/) {}

private:
    static const Config& defaults()
    {
        static const Config d;
        return d;
    }
    const Config* config_ = &defaults();
};

// A family that judges each snapshot from what it holds (and the active conditions), with
// nothing of its own to keep across restarts.
class StatelessRuleFamily : public RuleFamily {
public:
    void appendJson(std::string& out) const final { out += "{}"; }
    void restore(const nlohmann::json& /*j*/) final {}
    void forget() final {}
    void rename(const std::string& /*from*/, const std::string& /*to*/) final {}
};

} // namespace nicd::health
