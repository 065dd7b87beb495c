#include "support/fault_plans.hpp"

#include "support/capture_runs.hpp"

#include <regex>
#include <sstream>

#include <gtest/gtest.h>

namespace nicd::test {

namespace fs = std::filesystem;

// The faults of `nicd-sim inject --help`, in its order.
std::vector<std::string> injectableFaults()
{
    std::string help;
    EXPECT_EQ(test::sim({"inject", "--help"}, help), 0) << help;
    std::vector<std::string> out;
    std::istringstream in(help.substr(help.find("Subcommands:")));
    std::regex entry("^  ([a-z][a-z0-9-]*) .*");
    std::smatch m;
    for (std::string line; std::getline(in, line);)
        if (std::regex_match(line, m, entry))
            out.push_back(m[1]);
    return out;
}

// How each fault is injected on mlx5_0. A fault missing here fails the test by name.
const std::map<std::string, FaultPlan>& plans()
{
    static const std::map<std::string, FaultPlan> p = {
        {"link-down", {{}, {}, R"(nicd_port_state{device="mlx5_0",port="1"} 1)"}},
        {"link-up", {{"link-down"}, {}, R"(nicd_port_state{device="mlx5_0",port="1"} 4)"}},
        {"flap", {{}, {}, R"(nicd_port_state{device="mlx5_0",port="1"} 4)"}},
        {"link-drop", {{}, {}, R"(nicd_port_state{device="mlx5_0",port="1"} 1)"}},
        {"ipoib-down", {{}, {}, R"(code="ipoib_down.ib0")", "mlx5_4"}},
        {"remove", {{}, {}, {}}},
        {"restore", {{"remove"}, {}, R"(nicd_device_health{device="mlx5_0"} 0)"}},
        {"rename", {{}, {"rocep26s0f0"}, R"(nicd_device_health{device="rocep26s0f0"} 0)"}},
        {"stall", {{}, {}, R"(nicd_device_health{device="mlx5_0"} 2)"}},
        {"unstall", {{"stall"}, {}, R"(nicd_device_health{device="mlx5_0"} 0)"}},
        {"errors", {{}, {"symbol_error", "100"}, {}}},
        {"rate", {{}, {"symbol_error", "5"}, {}}},
        {"wrap", {{}, {"port_rcv_data"}, {}}},
        {"reset-counters", {{}, {}, {}}},
        {"refuse", {{}, {"symbol_error"}, {}}},
        {"no-pma", {{}, {"symbol_error"}, {}}},
        {"refuse-clear", {{}, {"symbol_error"}, {}}}, // its file readable (it already is)
        {"qos-drift", {{}, {}, R"(nicd_qos_compliant{device="mlx5_0",port="1",setting="pfc"} 0)"}},
        {"tos-reset", {{}, {}, {}}},
        {"ecn-drift", {{}, {}, {}}},
        {"fec-degrade", {{}, {}, {}}},
        {"optics-rx-low", {{}, {}, {}}},
        {"asic-hot",
         {{}, {}, R"(nicd_device_temperature_celsius{device="mlx5_0",sensor="asic"} 108)"}},
        {"fw-fatal", {{}, {}, {}}},
        {"pcie-downtrain",
         {{}, {}, R"(nicd_pcie_link_width_lanes{device="mlx5_0",which="current"} 8)"}},
        // Only a GPU node's NIC sits below a PCIe switch; the link above it is in the capture.
        {"pcie-path-downtrain",
         {{},
          {},
          R"(nicd_condition_active{device="mlx5_0",port="0",code="pcie_path_degraded",)",
          "mlx5_0",
          "mlx5",
          "hgx-h100"}},
        {"rate-downtrain", {{}, {}, {}}},
        {"fw-drift", {{}, {}, {}}},
        {"fw-old", {{}, {}, {}}},
        // A ConnectX-8 node on InfiniBand: the SMI device's planes are the parent's, not a NIC.
        {"smi-add",
         {{},
          {},
          R"(nicd_port_planes{device="mlx5_0",port="1"} 4)",
          "mlx5_0",
          "mlx5",
          "hgx-b300",
          true}},
        {"plane-downtrain",
         {{"smi-add"},
          {"2"},
          R"(nicd_condition_active{device="mlx5_0",port="1",code="plane_rate_degraded",)",
          "mlx5_0",
          "mlx5",
          "hgx-b300",
          true}},
        {"plane-downtrain-clear", {{"smi-add"}, {"2"}, {}, "mlx5_0", "mlx5", "hgx-b300", true}},
        {"congest-ecn", {{}, {}, {}}},
        {"congest-pfc-only", {{}, {}, {}}},
        {"pause-storm", {{}, {}, {}}},
        {"lossy", {{}, {}, {}}},
        {"gid-missing", {{}, {}, R"(nicd_port_ready{device="mlx5_0",port="1"} 0)"}},
        {"mtu", {{}, {}, R"(nicd_port_ready{device="mlx5_0",port="1"} 0)"}},
        {"uverbs-missing", {{}, {}, R"(nicd_port_ready{device="mlx5_0",port="1"} 0)"}},
        {"umad-missing", {{}, {}, {}, "mlx5_4"}}, // a storage NIC's: nothing to see, same replay
        {"acs-on", {{}, {}, R"(nicd_port_ready{device="mlx5_0",port="1"} 0)"}},
        {"peermem-unload", {{}, {}, R"(nicd_port_ready{device="mlx5_0",port="1"} 0)"}},
        {"kernel-line", {{}, {"fw-fatal"}, R"(code="kernel.mlx5.fatal_error")"}},
        {"dcbx-firmware", {{}, {}, {}, "bnxt_re0", "mlx5,bnxt"}}, // a bnxt PF's DCB only
        // What lldpd hears (nicd judges no neighbour yet: the twin itself round-trips).
        {"neighbor", {{}, {"spine-09", "swp3"}, {}}},
        {"neighbor-add", {{}, {"spine-09", "swp3"}, {}}},
        {"cable-swap", {{}, {"mlx5_1"}, {}}},
        {"cable-swap-clear", {{"cable-swap mlx5_1"}, {"mlx5_1"}, {}}},
        {"switch-pfc", {{}, {"3,4"}, {}}},
        {"lldpd-stop", {{}, {}, {}}},
    };
    return p;
}

// A fault's plan; "<fault>-clear" undoes <fault> injected first.
std::optional<FaultPlan> planFor(const std::string& fault)
{
    if (auto it = plans().find(fault); it != plans().end())
        return it->second;
    if (fault.ends_with("-clear")) {
        auto base = fault.substr(0, fault.size() - 6);
        if (auto it = plans().find(base); it != plans().end()) {
            auto clear = it->second; // on the same device of the same node
            clear.before = {base};
            for (const auto& a : it->second.args)
                clear.before.front() += " " + a;
            clear.args.clear();
            clear.shows.clear();
            return clear;
        }
    }
    return std::nullopt;
}

// `inject DIR FAULT`, plus DEV unless the fault is node-wide, plus the ARGs of "FAULT ARG...".
std::vector<std::string> injection(const fs::path& src, const std::string& fault_args,
                                   const std::string& dev)
{
    std::istringstream words(fault_args);
    std::string fault;
    words >> fault;
    std::vector<std::string> argv{"inject", src.string(), fault};
    if (!fault.starts_with("peermem-unload") && !fault.starts_with("lldpd-stop"))
        argv.push_back(dev);
    for (std::string a; words >> a;)
        argv.push_back(a);
    return argv;
}

} // namespace nicd::test
