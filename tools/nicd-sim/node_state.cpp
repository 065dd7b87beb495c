#include "node_state.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace nicd::sim {

fs::path simDir(const fs::path& root)
{
    return root / "run/nicd-sim";
}

void writeText(const fs::path& p, const std::string& text)
{
    auto tmp = p;
    tmp += ".sim-tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        if (!out)
            throw SimError("cannot write " + p.string());
        out << text;
    }
    fs::rename(tmp, p);
}

std::string readText(const fs::path& p)
{
    std::ifstream in(p);
    if (!in)
        throw SimError("cannot read " + p.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

uint64_t readNumber(const fs::path& p)
{
    auto t = readText(p);
    try {
        return std::stoull(t);
    } catch (const std::exception&) {
        return 0;
    }
}

void writeNumber(const fs::path& p, uint64_t v)
{
    writeText(p, std::to_string(v) + "\n");
}

void relativeSymlink(const fs::path& target, const fs::path& link)
{
    fs::create_directories(link.parent_path());
    std::error_code ec;
    fs::remove(link, ec);
    fs::create_symlink(fs::relative(target, link.parent_path()), link);
}

std::vector<std::pair<std::string, uint64_t>> readEthtool(const fs::path& p)
{
    std::vector<std::pair<std::string, uint64_t>> out;
    std::istringstream in(readText(p));
    std::string line;
    while (std::getline(in, line)) {
        auto colon = line.rfind(':');
        if (colon == std::string::npos || line.starts_with("NIC statistics"))
            continue;
        auto name = line.substr(0, colon);
        name.erase(0, name.find_first_not_of(' '));
        try {
            out.emplace_back(name, std::stoull(line.substr(colon + 1)));
        } catch (const std::exception&) {
        }
    }
    return out;
}

void writeEthtool(const fs::path& p, const std::vector<std::pair<std::string, uint64_t>>& stats)
{
    std::string text = "NIC statistics:\n";
    for (const auto& [n, v] : stats)
        text += "     " + n + ": " + std::to_string(v) + "\n";
    writeText(p, text);
}

NodeState NodeState::load(const fs::path& root)
{
    auto file = simDir(root) / "state.json";
    if (!fs::exists(file))
        throw SimError("no simulated node at " + root.string() + " (run: nicd-sim create " +
                       root.string() + ")");
    auto j = nlohmann::json::parse(readText(file));
    NodeState s;
    for (const auto& [name, d] : j.at("devices").items()) {
        SimDevice dev;
        dev.name = name;
        dev.role = d.at("role");
        dev.ib_dir = d.at("ib_dir");
        dev.netdevs = d.at("netdevs").get<std::vector<std::string>>();
        dev.ethtool_netdevs = d.at("ethtool_netdevs").get<std::vector<std::string>>();
        dev.removed = d.value("removed", false);
        dev.stalled = d.value("stalled", false);
        s.devices[name] = dev;
    }
    s.rates = j.value("rates", std::map<std::string, double>{});
    s.width32 = j.value("width32", std::map<std::string, bool>{});
    s.stalled_values =
        j.value("stalled_values", std::map<std::string, std::map<std::string, uint64_t>>{});
    return s;
}

void NodeState::save(const fs::path& root) const
{
    nlohmann::json j;
    j["devices"] = nlohmann::json::object();
    for (const auto& [name, d] : devices)
        j["devices"][name] = {{"role", d.role},       {"ib_dir", d.ib_dir},
                              {"netdevs", d.netdevs}, {"ethtool_netdevs", d.ethtool_netdevs},
                              {"removed", d.removed}, {"stalled", d.stalled}};
    j["rates"] = rates;
    j["width32"] = width32;
    j["stalled_values"] = stalled_values;
    writeText(simDir(root) / "state.json", j.dump(1) + "\n");
}

SimDevice& NodeState::device(const std::string& name)
{
    auto it = devices.find(name);
    if (it == devices.end()) {
        std::string known;
        for (const auto& [n, d] : devices)
            known += " " + n;
        throw SimError("no simulated device '" + name + "' (devices:" + known + ")");
    }
    return it->second;
}

NodeLock::NodeLock(const fs::path& root)
{
    fs::create_directories(simDir(root));
    auto p = simDir(root) / "lock";
    fd_ = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw SimError("cannot open " + p.string() + ": " + std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
}

NodeLock::~NodeLock()
{
    if (fd_ >= 0)
        ::close(fd_);
}

} // namespace nicd::sim
