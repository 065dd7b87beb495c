// One wording for DCB failures, whether the kernel or the simulator reported them:
// "netdev veth0: DCB not supported by driver (EOPNOTSUPP)".
#pragma once

#include <nicd/plugin/plugin.h>

#include <string_view>

namespace nicd::plugin::sdk {

// `err` is a positive errno. `op` names the request ("IEEE_GET", "IEEE_SET", "IEEE_DEL").
// `in_band`: the status byte of a DCB reply (the driver refused), not an NLMSG_ERROR.
v1::Status dcbFailure(std::string_view netdev, std::string_view op, int err, bool in_band = false);

// A request for a netdev whose name is no valid interface name: refused before anything is sent.
v1::Status badNetdevName(std::string_view netdev);

} // namespace nicd::plugin::sdk
