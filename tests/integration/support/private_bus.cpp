#include "support/private_bus.hpp"

#include <signal.h>

#include <fstream>
#include <stdexcept>

namespace nicd::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The default policy of Debian's /usr/share/dbus-1/system.conf, then nicd's policy file.
std::string shippedPolicy()
{
    return "  <policy context=\"default\">\n"
           "    <allow user=\"*\"/>\n"
           "    <deny own=\"*\"/>\n"
           "    <deny send_type=\"method_call\"/>\n"
           "    <allow send_type=\"signal\"/>\n"
           "    <allow send_requested_reply=\"true\" send_type=\"method_return\"/>\n"
           "    <allow send_requested_reply=\"true\" send_type=\"error\"/>\n"
           "    <allow receive_type=\"method_call\"/>\n"
           "    <allow receive_type=\"method_return\"/>\n"
           "    <allow receive_type=\"error\"/>\n"
           "    <allow receive_type=\"signal\"/>\n"
           "    <allow send_destination=\"org.freedesktop.DBus\"\n"
           "           send_interface=\"org.freedesktop.DBus\"/>\n"
           "    <allow send_destination=\"org.freedesktop.DBus\"\n"
           "           send_interface=\"org.freedesktop.DBus.Introspectable\"/>\n"
           "    <allow send_destination=\"org.freedesktop.DBus\"\n"
           "           send_interface=\"org.freedesktop.DBus.Properties\"/>\n"
           "    <allow send_destination=\"org.freedesktop.DBus\"\n"
           "           send_interface=\"org.freedesktop.DBus.Monitoring\"/>\n"
           "  </policy>\n"
           "  <include>" NICD_SOURCE_DIR "/dbus/io.nicd.Nicd1.conf</include>\n";
}

// Anyone may own any name and call any method of anyone.
std::string allowEverything()
{
    return "  <policy context=\"default\">\n"
           "    <allow user=\"*\"/>\n"
           "    <allow own=\"*\"/>\n"
           "    <allow send_type=\"method_call\"/>\n"
           "    <allow send_type=\"signal\"/>\n"
           "    <allow send_type=\"method_return\"/>\n"
           "    <allow send_type=\"error\"/>\n"
           "    <allow receive_type=\"method_call\"/>\n"
           "    <allow receive_type=\"method_return\"/>\n"
           "    <allow receive_type=\"error\"/>\n"
           "    <allow receive_type=\"signal\"/>\n"
           "  </policy>\n";
}

} // namespace

PrivateBus::PrivateBus(const fs::path& dir, Policy policy) : dir_(dir)
{
    fs::create_directories(dir_);
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec |
                              fs::perms::group_read | fs::perms::others_read);
    config_ = dir_ / "bus.conf";
    address_ = "unix:path=" + (dir_ / "bus.socket").string();
    std::ofstream(config_)
        << "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\"\n"
           " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
           "<busconfig>\n"
           "  <type>system</type>\n"
           "  <listen>"
        << address_
        << "</listen>\n"
           "  <auth>EXTERNAL</auth>\n"
        << (policy == Policy::Shipped ? shippedPolicy() : allowEverything()) << "</busconfig>\n";
    start();
}

PrivateBus::~PrivateBus()
{
    stop();
}

void PrivateBus::start()
{
    fs::remove(dir_ / "bus.socket");
    daemon_ =
        std::make_unique<Process>(std::vector<std::string>{"dbus-daemon", "--nofork", "--nopidfile",
                                                           "--config-file=" + config_.string()},
                                  std::map<std::string, std::string>{}, dir_ / "dbus-daemon.log");
    if (!waitFor([&] { return fs::exists(dir_ / "bus.socket"); }, 10s))
        throw std::runtime_error("dbus-daemon did not start: " +
                                 readFile(dir_ / "dbus-daemon.log"));
}

void PrivateBus::stop()
{
    if (!daemon_)
        return;
    daemon_->signal(SIGTERM);
    daemon_->wait(5s);
    daemon_.reset();
}

} // namespace nicd::test
