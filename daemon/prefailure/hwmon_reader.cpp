#include "prefailure/hwmon_reader.hpp"

#include "inventory/sysfs_values.hpp"

#include <charconv>
#include <map>

namespace nicd::prefailure {

namespace fs = std::filesystem;

std::optional<double> parseMillidegrees(std::string_view text)
{
    auto milli = sysfs::parseInt(text);
    return milli ? std::optional<double>(*milli / 1000.0) : std::nullopt;
}

namespace {

// "temp12_input" -> 12; 0 when the name is not a temperature input.
int inputChannel(const std::string& name)
{
    constexpr std::string_view kPrefix = "temp", kSuffix = "_input";
    if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix) ||
        name.size() <= kPrefix.size() + kSuffix.size())
        return 0;
    auto digits = std::string_view(name).substr(kPrefix.size(),
                                                name.size() - kPrefix.size() - kSuffix.size());
    int n = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    return ec == std::errc() && ptr == digits.data() + digits.size() ? n : 0;
}

std::optional<double> optionalTemp(const fs::path& file)
{
    auto v = sysfs::readValue(file);
    return v ? parseMillidegrees(*v) : std::nullopt;
}

void readChannels(const fs::path& hwmon, HwmonRead& out)
{
    std::map<int, fs::path> inputs;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(hwmon, ec))
        if (int ch = inputChannel(e.path().filename().string()); ch > 0)
            inputs[ch] = e.path();
    for (const auto& [ch, input] : inputs) {
        auto text = sysfs::readFile(input);
        auto celsius = text ? parseMillidegrees(*text) : std::nullopt;
        if (!celsius) {
            out.errors.push_back(input.string() + ": " +
                                 (text ? "not a number" : text.error().message));
            continue;
        }
        auto prefix = hwmon / ("temp" + std::to_string(ch));
        TemperatureSensor s;
        // A NIC's temp1 is its chip: mlx5 labels it "asic", bnxt_en registers no label; one name
        // for every vendor, so that a dashboard and a rule select the chip's sensor alike.
        s.label = sysfs::readValue(prefix.string() + "_label")
                      .value_or(ch == 1 ? "asic" : "temp" + std::to_string(ch));
        s.celsius = *celsius;
        s.crit_celsius = optionalTemp(prefix.string() + "_crit");
        s.highest_celsius = optionalTemp(prefix.string() + "_highest");
        out.sensors.push_back(std::move(s));
    }
}

} // namespace

HwmonRead readHwmon(const fs::path& function_dir)
{
    HwmonRead out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(function_dir / "hwmon", ec)) {
        if (!e.path().filename().string().starts_with("hwmon"))
            continue;
        out.present = true;
        readChannels(e.path(), out);
    }
    return out;
}

} // namespace nicd::prefailure
