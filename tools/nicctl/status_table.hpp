// `nicctl status`: the node at a glance, one line per port (like `networkctl`), and the same
// as JSON. Pure.
#pragma once

#include "node_view.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace nicctl {

// `color`: ANSI colours for health and QoS (on a terminal, unless NO_COLOR is set).
std::string renderStatus(const NodeView& node, bool color);

nlohmann::json statusJson(const NodeView& node);

// The most important reason a port (or its device) is not healthy: "<code>: <message>", or "".
std::string reasonOf(const DeviceView& device, const PortView& port);

} // namespace nicctl
