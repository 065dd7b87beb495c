// A simulated node's tool outputs (its run/nicd-sim/ files, copied as they are), and a real
// node's tree's (none).
#include "capture/node_files.hpp"
#include "capture/tool_outputs.hpp"

namespace nicd::sim::capture {

std::string ethtoolPath(const std::string& netdev)
{
    return "run/nicd-sim/ethtool/" + netdev;
}

std::string fecPath(const std::string& netdev)
{
    return "run/nicd-sim/ethtool-fec/" + netdev;
}

std::string modulePath(const std::string& netdev)
{
    return "run/nicd-sim/module/" + netdev;
}

std::string devlinkHealthPath()
{
    return "run/nicd-sim/devlink-health.json";
}

std::string dcbPath(const std::string& netdev)
{
    return "run/nicd-sim/dcb/" + netdev;
}

namespace {

class SimulatedOutputs final : public ToolOutputs {
public:
    SimulatedOutputs(fs::path src, std::shared_ptr<const FileReader> reader)
        : src_(std::move(src)), reader_(std::move(reader))
    {
    }

    ToolOutput ethtoolStats(const std::string& netdev) override
    {
        return copy(ethtoolPath(netdev));
    }
    ToolOutput fec(const std::string& netdev) override { return copy(fecPath(netdev)); }
    ToolOutput moduleEeprom(const std::string& netdev) override { return copy(modulePath(netdev)); }
    ToolOutput devlinkHealth() override { return copy(devlinkHealthPath()); }
    ToolOutput dcb(const std::string& netdev) override { return copy(dcbPath(netdev)); }

private:
    ToolOutput copy(const std::string& rel) const
    {
        auto r = (*reader_)(src_ / rel);
        switch (r.status) {
        case NodeRead::Status::Ok:
            return ToolOutput::ok(std::move(r.data));
        case NodeRead::Status::Missing:
            return ToolOutput::absent("no " + rel);
        default:
            return ToolOutput::failed(rel + ": " + (r.error.empty() ? "not a file" : r.error));
        }
    }

    fs::path src_;
    std::shared_ptr<const FileReader> reader_;
};

class UnavailableOutputs final : public ToolOutputs {
public:
    ToolOutput ethtoolStats(const std::string& /*netdev*/) override { return {}; }
    ToolOutput fec(const std::string& /*netdev*/) override { return {}; }
    ToolOutput moduleEeprom(const std::string& /*netdev*/) override { return {}; }
    ToolOutput devlinkHealth() override { return {}; }
    ToolOutput dcb(const std::string& /*netdev*/) override { return {}; }
};

} // namespace

std::unique_ptr<ToolOutputs> simulatedToolOutputs(const std::filesystem::path& src,
                                                  std::shared_ptr<const FileReader> reader)
{
    return std::make_unique<SimulatedOutputs>(src, std::move(reader));
}

std::unique_ptr<ToolOutputs> unavailableToolOutputs()
{
    return std::make_unique<UnavailableOutputs>();
}

} // namespace nicd::sim::capture
