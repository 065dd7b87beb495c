#include "slurm_settings.hpp"

#include "text/result.hpp"

#include <fmt/format.h>

#include <charconv>

namespace nicctl::slurm {

namespace {

std::string_view trim(std::string_view s)
{
    const char* space = " \t\r";
    auto b = s.find_first_not_of(space);
    if (b == std::string_view::npos)
        return {};
    return s.substr(b, s.find_last_not_of(space) - b + 1);
}

// Takes `value`, or says what is allowed (nicd's edge convention: text/result.hpp).
nicd::Result<void> apply(CheckSettings& out, std::string_view key, std::string_view value)
{
    if (key == "DrainOn") {
        if (value != "fatal" && value != "degraded")
            return nicd::Error{"expected fatal or degraded"};
        out.decision.drain_on_degraded = value == "degraded";
    } else if (key == "Unreachable") {
        if (value != "ignore" && value != "drain")
            return nicd::Error{"expected ignore or drain"};
        out.decision.drain_when_unreachable = value == "drain";
    } else if (key == "ResumeAfterSec") {
        if (value == "never") {
            out.decision.resume_after_sec.reset();
            return {};
        }
        uint64_t n = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec != std::errc() || end != value.data() + value.size() || n > 31'536'000)
            return nicd::Error{"expected seconds (0 to 31536000) or never"};
        out.decision.resume_after_sec = n;
    } else if (key == "StateFile") {
        if (value.empty() || value.front() != '/')
            return nicd::Error{"expected an absolute path"};
        out.state_file = std::string(value);
    } else {
        return nicd::Error{"unknown key (DrainOn, Unreachable, ResumeAfterSec, StateFile)"};
    }
    return {};
}

} // namespace

void parseSettings(std::string_view text, const std::string& file, CheckSettings& out,
                   std::vector<std::string>& errors)
{
    int number = 0;
    while (!text.empty()) {
        auto nl = text.find('\n');
        auto line = trim(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++number;
        if (line.empty() || line.front() == '#' || line.front() == ';')
            continue;
        auto eq = line.find('=');
        if (eq == std::string_view::npos) {
            errors.push_back(fmt::format("{}:{}: expected Key=Value", file, number));
            continue;
        }
        auto key = trim(line.substr(0, eq));
        if (auto taken = apply(out, key, trim(line.substr(eq + 1))); !taken)
            errors.push_back(
                fmt::format("{}:{}: {}=: {}", file, number, key, taken.error().message));
    }
}

} // namespace nicctl::slurm
