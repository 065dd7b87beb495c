// What one verify or apply call on one port works with, shared by its steps.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string>

namespace nicd::plugin::sdk {

struct QosCall {
    v1::IHost& host;
    const v1::DeviceRef& dev;
    const v1::PortRef& port;
    const v1::QosDesired& desired;
    bool apply = false; // false: verify, change nothing
    v1::Status first_error = v1::Status::ok();
    std::string lldp_agent{}; // QosReport::lldp_agent: who runs DCBX when not the host

    bool writes() const { return apply && !desired.dry_run; }
    void fail(const v1::Status& s)
    {
        if (first_error && !s)
            first_error = s;
    }
    // One line per change (or would-be change under dry_run).
    void logChange(const std::string& what)
    {
        host.log(v1::Level::Info, (desired.dry_run ? "dry run: would change " : "changed ") + what,
                 &dev);
    }
};

} // namespace nicd::plugin::sdk
