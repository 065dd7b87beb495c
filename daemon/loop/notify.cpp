#include "loop/notify.hpp"

#include <systemd/sd-daemon.h>

#include <string>

namespace nicd::loop::notify {

namespace {
std::string oneLine(std::string_view s)
{
    std::string out(s);
    for (auto& c : out)
        if (c == '\n')
            c = ' ';
    return out;
}
} // namespace

void ready(std::string_view s)
{
    sd_notify(0, ("READY=1\nSTATUS=" + oneLine(s)).c_str());
}

void status(std::string_view s)
{
    sd_notify(0, ("STATUS=" + oneLine(s)).c_str());
}

void reloading()
{
    sd_notify(0, "RELOADING=1");
}

void stopping()
{
    sd_notify(0, "STOPPING=1");
}

} // namespace nicd::loop::notify
