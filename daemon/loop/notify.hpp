// sd_notify messages to the service manager (no-ops when not run by systemd).
#pragma once

#include <string_view>

namespace nicd::loop::notify {

void ready(std::string_view status);
void status(std::string_view status);
void reloading();
void stopping();

} // namespace nicd::loop::notify
