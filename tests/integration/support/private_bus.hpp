// A private dbus-daemon for tests, with the system bus's default policy (every method call denied
// unless a rule allows it) and nicd's own policy file (dbus/io.nicd.Nicd1.conf) included, so a
// test sees what an operator on a real node sees. Listens on a socket in `dir`, which is made
// world-searchable so unprivileged clients (setpriv --reuid=nobody) can connect: put `dir`
// directly in /tmp. With Policy::AllowEverything the bus lets anyone call anything (a policy file
// edited too far): what stands between a user and a changing method is then nicd's own check.
#pragma once

#include "support/process.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace nicd::test {

class PrivateBus {
public:
    enum class Policy { Shipped, AllowEverything };
    explicit PrivateBus(const std::filesystem::path& dir, Policy policy = Policy::Shipped);
    ~PrivateBus();

    const std::string& address() const { return address_; }
    void stop();  // the bus goes away (SIGTERM), as on a dbus restart
    void start(); // again, at the same address

private:
    std::filesystem::path dir_;
    std::filesystem::path config_;
    std::string address_;
    std::unique_ptr<Process> daemon_;
};

} // namespace nicd::test
