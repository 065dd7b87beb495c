// nicctl: what nicd knows, from the bus. Exit codes: `status` (the node) and `show` (a device)
// 0 healthy, 1 degraded, 2 fatal; `verify`/`apply` 0 compliant (or, for a dry run, would be),
// 1 not compliant, 2 errors; every command 3 when nicd cannot be asked (not running, bus down,
// access denied) or refuses. `slurm-check`: slurm_check_command.hpp.
#include "device_report.hpp"
#include "nicd_client.hpp"
#include "replies.hpp"
#include "slurm_check_command.hpp"
#include "status_table.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sdbus-c++/Error.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <thread>

namespace {

constexpr int kCannotAsk = 3;

bool useColor()
{
    return isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr;
}

void print(const std::string& text)
{
    (void)std::fputs(text.c_str(), stdout);
    (void)std::fflush(stdout);
}

void printJson(const nlohmann::json& j)
{
    print(j.dump(2) + "\n");
}

// "mlx5_0" or "mlx5_0/1".
std::pair<std::string, uint32_t> deviceAndPort(const std::string& arg)
{
    auto slash = arg.find('/');
    if (slash == std::string::npos)
        return {arg, 0};
    try {
        size_t used = 0;
        unsigned long port = std::stoul(arg.substr(slash + 1), &used);
        if (used == arg.size() - slash - 1 && port > 0 && port < 256)
            return {arg.substr(0, slash), static_cast<uint32_t>(port)};
    } catch (const std::exception&) {
    }
    throw CLI::ValidationError("DEV[/PORT]", "'" + arg + "': expected DEVICE or DEVICE/PORT");
}

// `nicctl counters --rate`: two readings at least `interval` seconds of nicd's cycles apart, and
// what grew per second between them.
int printRates(nicctl::NicdClient& client, const std::string& dev, uint32_t port,
               const std::function<nicctl::DeviceCounters()>& read, double interval, bool json)
{
    const uint64_t t1 = client.lastCycleUsec();
    auto before = read();
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(interval + 60.0);
    uint64_t t2 = t1;
    while (t2 < t1 + static_cast<uint64_t>(interval * 1e6)) {
        if (std::chrono::steady_clock::now() > give_up) {
            std::cerr << "nicctl: nicd published no new cycle in " << interval + 60.0
                      << " s (is it stalled? nicctl status)\n";
            return kCannotAsk;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        t2 = client.lastCycleUsec();
    }
    auto after = read();
    const double seconds = static_cast<double>(t2 - t1) / 1e6;
    std::string text;
    auto section = [&](const std::string& heading, const std::map<std::string, uint64_t>& a,
                       const std::map<std::string, uint64_t>& b) {
        auto rates = nicctl::counterRates(a, b, seconds);
        if (!heading.empty())
            text += (text.empty() ? "" : "\n") + heading + ":\n";
        text += nicctl::renderRates(rates, b.size() - rates.size());
        return rates;
    };
    nlohmann::json out = {{"seconds", seconds}};
    if (port != 0) {
        auto rates = section("", before.ports[port], after.ports[port]);
        out["rates"] = rates;
    } else {
        if (!after.device.empty())
            out["device"] = section(dev, before.device, after.device);
        for (const auto& [p, values] : after.ports)
            out["ports"][std::to_string(p)] =
                section(dev + "/" + std::to_string(p), before.ports[p], values);
    }
    if (json)
        printJson(out);
    else
        print(fmt::format("per second over {:.1f} s of nicd's cycles:\n", seconds) + text);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App app{"nicctl: RoCE QoS and RDMA NIC health, as nicd sees it"};
    app.require_subcommand(1);
    std::string bus = "system";
    bool json = false;
    app.add_option("--bus", bus, "the bus nicd serves on: system, session or an address")
        ->capture_default_str();
    app.add_flag("--json", json, "print JSON");
    // --json and --bus after the subcommand too (nicctl status --json).
    app.fallthrough();

    auto* status = app.add_subcommand("status", "devices and ports: link, QoS, health and why");
    auto* show = app.add_subcommand(
        "show", "one device in full: conditions, PCIe, temperatures, firmware, FEC and optics");
    std::string show_device;
    show->add_option("DEV", show_device, "the device, e.g. mlx5_0")->required();
    auto* events = app.add_subcommand("events", "health events, oldest first");
    uint64_t since = 0;
    bool follow = false;
    events->add_option("--since", since, "only events with a greater sequence number");
    events->add_flag("-f,--follow", follow, "keep printing events as they happen");
    auto* verify = app.add_subcommand("verify", "read QoS back and compare with the configuration");
    auto* apply = app.add_subcommand("apply", "provision QoS now (root)");
    bool dry_run = false;
    apply->add_flag("--dry-run", dry_run, "say what would change, change nothing");
    auto* counters = app.add_subcommand("counters", "the counters of a device or port");
    std::string target;
    counters->add_option("DEV[/PORT]", target, "e.g. mlx5_0 or mlx5_0/1")->required();
    bool rate = false;
    double interval = 5;
    counters->add_flag("--rate", rate,
                       "per second: read twice, --interval apart (the counters change once a "
                       "cycle), and print those that grew");
    counters->add_option("--interval", interval, "seconds between the two readings of --rate")
        ->check(CLI::Range(1.0, 3600.0))
        ->capture_default_str();
    auto* clear =
        app.add_subcommand("clear", "clear a condition that has no natural recovery (root)");
    std::string device, code;
    clear->add_option("DEV", device, "the device, e.g. mlx5_0")->required();
    clear->add_option("CODE", code, "the condition code, e.g. kernel.mlx5.cmd_timeout")->required();

    auto* forget = app.add_subcommand(
        "forget", "forget a NIC that is gone on purpose: it is not expected back (root)");
    std::string forget_device;
    forget->add_option("DEV", forget_device, "its name or PCI address, e.g. mlx5_3")->required();
    auto* accept = app.add_subcommand(
        "accept-inventory",
        "after a deliberate hardware change: forget every NIC that is gone (root)");

    auto* config = app.add_subcommand(
        "config", "the configuration in effect, each value with the file and line that set it");
    auto* log_level = app.add_subcommand(
        "log-level", "the lowest level nicd logs; with LEVEL, set it until nicd restarts (root)");
    std::string level;
    log_level->add_option("LEVEL", level, "trace, debug, info, warn or error")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}));

    nicctl::addSlurmCheck(app, bus);

    CLI11_PARSE(app, argc, argv);

    try {
        nicctl::NicdClient client(bus);
        if (*status) {
            auto node = client.status();
            if (json)
                printJson(nicctl::statusJson(node));
            else
                print(nicctl::renderStatus(node, useColor()));
            return nicctl::healthExitCode(node.node_health);
        }
        if (*show) {
            auto node = client.status();
            for (const auto& d : node.devices)
                if (d.name == show_device) {
                    if (json)
                        printJson(nicctl::deviceJson(d));
                    else
                        print(nicctl::renderDevice(d, useColor()));
                    return nicctl::healthExitCode(d.health);
                }
            std::cerr << "nicctl: no device " << show_device << " (nicctl status lists them)\n";
            return kCannotAsk;
        }
        if (*events) {
            auto rows = client.events(since);
            uint64_t last = since;
            auto show = [json](const nicctl::EventRow& e) {
                print(json ? nicctl::eventJson(e).dump() + "\n" : nicctl::formatEvent(e) + "\n");
            };
            if (json && !follow) {
                nlohmann::json all = nlohmann::json::array();
                for (const auto& e : rows)
                    all.push_back(nicctl::eventJson(e));
                printJson(all);
                return 0;
            }
            for (const auto& e : rows) {
                show(e);
                last = e.seq;
            }
            if (follow)
                client.follow(last, show);
            return 0;
        }
        if (*verify || *apply) {
            auto rows = *apply ? client.apply(dry_run) : client.verify();
            // Beside each setting, what the switch port advertises for it (LLDP's DCBX).
            nicctl::SwitchValues switch_values;
            for (const auto& d : client.status().devices)
                for (const auto& p : d.ports)
                    if (!p.switch_qos.empty())
                        switch_values[{d.name, p.number}] = p.switch_qos;
            if (json)
                printJson(nicctl::qosRowsJson(rows, switch_values));
            else
                print(nicctl::renderQosRows(rows, *apply && dry_run, switch_values));
            return nicctl::qosExitCode(rows, *apply && dry_run);
        }
        if (*counters) {
            auto [dev, port] = deviceAndPort(target);
            // Asked of the node first, so that a device or port that is not there is said so.
            auto node = client.status();
            const nicctl::DeviceView* found = nullptr;
            for (const auto& d : node.devices)
                if (d.name == dev)
                    found = &d;
            if (found == nullptr) {
                std::cerr << "nicctl: no device " << dev << " (nicctl status lists them)\n";
                return kCannotAsk;
            }
            std::string numbers;
            bool has_port = false;
            for (const auto& p : found->ports) {
                numbers += (numbers.empty() ? "" : ", ") + std::to_string(p.number);
                has_port = has_port || p.number == port;
            }
            if (port != 0 && !has_port) {
                std::cerr << "nicctl: " << dev << " has no port " << port
                          << " (its ports: " << (numbers.empty() ? "none" : numbers) << ")\n";
                return kCannotAsk;
            }
            // The port asked for, or the device's own counters and every port's.
            auto read = [&, dev = dev, port = port] {
                nicctl::DeviceCounters all;
                if (port != 0) {
                    all.ports[port] = client.counters(dev, port);
                    return all;
                }
                all.device = client.counters(dev, 0);
                for (const auto& p : found->ports)
                    all.ports[p.number] = client.counters(dev, p.number);
                return all;
            };
            if (rate)
                return printRates(client, dev, port, read, interval, json);
            auto all = read();
            if (port != 0 && json)
                printJson(all.ports[port]);
            else if (port != 0)
                print(nicctl::renderCounters(all.ports[port]));
            else if (json)
                printJson(nicctl::deviceCountersJson(all));
            else
                print(nicctl::renderDeviceCounters(dev, all));
            return 0;
        }
        if (*clear) {
            auto n = client.clearCondition(device, code);
            if (json)
                printJson({{"cleared", n}});
            else
                print("cleared " + std::to_string(n) + " condition(s) " + code + " on " + device +
                      "\n");
            return 0;
        }
        if (*forget) {
            auto pci = client.forgetDevice(forget_device);
            if (json)
                printJson({{"forgotten", forget_device}, {"pci_address", pci}});
            else
                print("forgot " + forget_device +
                      (pci.empty() || pci == forget_device ? "" : " (PCI " + pci + ")") +
                      ": it is not expected back\n");
            return 0;
        }
        if (*config) {
            auto rows = client.configuration();
            if (json)
                printJson(nicctl::configurationJson(rows));
            else
                print(nicctl::renderConfiguration(rows));
            return 0;
        }
        if (*log_level) {
            if (!level.empty())
                client.setLogLevel(level);
            const auto now = client.logLevel();
            if (json)
                printJson({{"log_level", now}});
            else
                print(now + "\n");
            return 0;
        }
        if (*accept) {
            auto names = client.acceptInventory();
            if (json)
                printJson({{"forgotten", names}});
            else if (names.empty())
                print("nothing to forget: every NIC nicd remembers is present\n");
            else
                for (const auto& n : names)
                    print("forgot " + n + ": it is not expected back\n");
            return 0;
        }
    } catch (const CLI::Error& e) {
        return app.exit(e);
    } catch (const sdbus::Error& e) {
        std::cerr << "nicctl: " << e.getMessage() << " (" << e.getName() << ")\n";
        // No nicd on the bus, or no bus at all (sdbus-c++'s own error: "Failed to open bus").
        if (e.getName() == "org.freedesktop.DBus.Error.ServiceUnknown" ||
            e.getName() == "org.freedesktop.DBus.Error.NameHasNoOwner" ||
            e.getMessage().find("Failed to open") != std::string::npos ||
            e.getMessage().find("Failed to connect") != std::string::npos)
            std::cerr << "nicctl: is nicd running? (systemctl status nicd; --bus " << bus
                      << " is the bus asked)\n";
        return kCannotAsk;
    } catch (const std::exception& e) {
        std::cerr << "nicctl: " << e.what() << "\n";
        return kCannotAsk;
    }
    return kCannotAsk;
}
