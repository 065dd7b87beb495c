// What one verify or apply call on one port works with, shared by its steps.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

struct QosCall {
    pv1::IHost& host;
    const pv1::DeviceRef& dev;
    const pv1::PortRef& port;
    const pv1::QosDesired& desired;
    bool apply = false; // false: verify, change nothing
    pv1::Status first_error = pv1::Status::ok();

    bool writes() const { return apply && !desired.dry_run; }
    void fail(const pv1::Status& s)
    {
        if (first_error && !s)
            first_error = s;
    }
    // One line per change (or would-be change under dry_run).
    void logChange(const std::string& what)
    {
        host.log(pv1::Level::Info, (desired.dry_run ? "dry run: would change " : "changed ") + what,
                 &dev);
    }
};

} // namespace nicd::mlx5
