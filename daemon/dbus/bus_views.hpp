// What the D-Bus objects show beyond the Snapshot: QoS per port and the node's provisioning
// state. The daemon fills a BusViews from its QoS stage each cycle; whatever it leaves empty is
// published as "unknown" / empty, never guessed.
#pragma once

#include "model/qos.hpp"

#include <nicd/plugin/plugin.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace nicd::dbus {

struct QosSettingView {
    std::string desired;
    std::string observed;
    bool compliant = false; // false for an unsupported setting (observed "unsupported")
};

struct PortQosView {
    // Free text when the provisioner has one ("skipped: virtual function"); empty = derived from
    // the settings: "compliant", "noncompliant", or "unknown" when there are none.
    std::string status;
    std::map<std::string, QosSettingView>
        settings; // "trust", "pfc", "ecn_np", "ecn_rp", "roce_tos", ...
};

struct BusViews {
    std::string provision_mode;    // [provision] Mode= ("enforce", "verify", "off")
    uint64_t last_apply_usec = 0;  // CLOCK_REALTIME of the last Apply (periodic or on request)
    std::string last_apply_result; // "ok", "dry-run", "failed: <why>"; empty = never
    std::map<std::pair<std::string, uint32_t>, PortQosView> qos; // by (ibdev, port)
    uint64_t last_reload_usec = 0;  // CLOCK_REALTIME of the last reload; 0 = none since start
    std::string last_reload_result; // "ok", "failed: <why>"; empty = none
};

// The bus's view of the provisioning state.
BusViews busViewsOf(const QosSummary& qos);

// The view of one port's QoS from a plugin's report.
PortQosView qosViewOf(const plugin::v1::QosReport& report, std::string status = {});

} // namespace nicd::dbus
