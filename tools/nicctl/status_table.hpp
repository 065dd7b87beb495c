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

// The most important reason a port (or its device) is not healthy: "<code>: <message>", or "",
// and that condition's action ("-" when none).
std::string reasonOf(const DeviceView& device, const bus::PortValues& port);
std::string actionOf(const DeviceView& device, const bus::PortValues& port);

nlohmann::json conditionJson(const bus::ConditionRow& c);

// JSON's own values for what the table writes as words: "" is null; readiness "yes"/"no" is
// true/false.
nlohmann::json textOrNull(const std::string& s);
nlohmann::json readyJson(const std::string& ready);

// The text, or "-" for none.
std::string orDash(const std::string& s);

// A health word in its ANSI colour.
std::string healthWord(const std::string& health);

} // namespace nicctl
