#include "prefailure/pcie_link.hpp"

#include "inventory/sysfs_values.hpp"

#include <algorithm>
#include <charconv>

namespace nicd::prefailure {

namespace fs = std::filesystem;

std::optional<double> parsePcieSpeed(std::string_view text)
{
    text = sysfs::trim(text);
    constexpr std::string_view kUnit = " GT/s";
    auto unit = text.find(kUnit);
    if (unit == std::string_view::npos || unit == 0)
        return std::nullopt;
    auto rest = text.substr(unit + kUnit.size());
    if (!rest.empty() && rest != " PCIe")
        return std::nullopt;
    double v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + unit, v);
    if (ec != std::errc() || ptr != text.data() + unit || v <= 0)
        return std::nullopt;
    return v;
}

namespace {

std::optional<double> speedOf(const fs::path& file)
{
    auto v = sysfs::readValue(file);
    return v ? parsePcieSpeed(*v) : std::nullopt;
}

std::optional<int> widthOf(const fs::path& file)
{
    auto v = sysfs::parseInt(sysfs::readValue(file).value_or(""));
    return v && *v > 0 ? v : std::nullopt;
}

template <typename T> std::optional<T> lowerOf(std::optional<T> a, std::optional<T> b)
{
    if (a && b)
        return std::min(*a, *b);
    return a ? a : b;
}

} // namespace

namespace {

// The link `dir` reports, against its own capability and that of the port above it.
PcieLink linkOf(const fs::path& dir)
{
    PcieLink link;
    link.current_gts = speedOf(dir / "current_link_speed");
    link.current_width = widthOf(dir / "current_link_width");
    link.max_gts = speedOf(dir / "max_link_speed");
    link.max_width = widthOf(dir / "max_link_width");
    auto parent = dir.parent_path();
    if (sysfs::isPciAddress(parent.filename().string())) {
        link.upstream_max_gts = speedOf(parent / "max_link_speed");
        link.upstream_max_width = widthOf(parent / "max_link_width");
    }
    return link;
}

// Deeper than any real PCIe hierarchy (a root port, two switch levels, a NIC's own switch).
constexpr size_t kMaxBridges = 16;

} // namespace

std::vector<PcieHop> readPciePath(const fs::path& function_dir)
{
    std::vector<fs::path> above; // the bridges above the function, nearest first
    for (auto dir = function_dir.parent_path();
         sysfs::isPciAddress(dir.filename().string()) && above.size() <= kMaxBridges;
         dir = dir.parent_path())
        above.push_back(dir);
    // From the root port down a link and a switch alternate: root port - link - upstream port -
    // internal bus - downstream port - link - ... So a function below switches sits an odd
    // number of bridges below the host bridge, and the links above its own are those below
    // above[k + 1] for odd k. Any other shape (a PCI-to-PCI bridge) is not judged.
    if (above.size() % 2 == 0 || above.size() > kMaxBridges)
        return {};
    std::vector<PcieHop> path;
    for (size_t k = 1; k + 1 < above.size(); k += 2) {
        auto link = linkOf(above[k]);
        if (!link.current_gts && !link.current_width)
            continue; // a bridge that reports no link: nothing to judge
        path.push_back(
            {above[k + 1].filename().string(), above[k].filename().string(), std::move(link)});
    }
    return path;
}

std::optional<PcieLink> readPcieLink(const fs::path& function_dir)
{
    auto link = linkOf(function_dir);
    if (!link.current_gts && !link.current_width)
        return std::nullopt;
    link.path = readPciePath(function_dir);
    return link;
}

bool trainedDown(const PcieLink& link)
{
    auto speed_cap = lowerOf(link.max_gts, link.upstream_max_gts);
    auto width_cap = lowerOf(link.max_width, link.upstream_max_width);
    // Speeds are printed with one decimal ("2.5", "16.0"): compare with a little slack.
    bool slow = link.current_gts && speed_cap && *link.current_gts + 0.01 < *speed_cap;
    bool narrow = link.current_width && width_cap && *link.current_width < *width_cap;
    return slow || narrow;
}

} // namespace nicd::prefailure
