#include "slurm_settings.hpp"

#include "ini/ini_lines.hpp"
#include "text/result.hpp"

#include <fmt/format.h>

#include <charconv>

namespace nicctl::slurm {

namespace {

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
    // nicd's INI reader (the same lines nicd.conf is read with); this file has no sections.
    nicd::ini::IniVisitor v;
    v.on_section = [&](int line, const std::string&) {
        errors.push_back(
            fmt::format("{}:{}: expected Key=Value (this file has no sections)", file, line));
    };
    v.on_entry = [&](int line, const std::string& section, const std::string& key,
                     const std::string& value) {
        if (!section.empty())
            return; // under a section header: said once, at the header
        if (auto taken = apply(out, key, value); !taken)
            errors.push_back(fmt::format("{}:{}: {}=: {}", file, line, key, taken.error().message));
    };
    v.on_syntax_error = [&](int line, const std::string&, const std::string& message) {
        errors.push_back(fmt::format("{}:{}: {}", file, line, message));
    };
    nicd::ini::parseIni(text, v);
}

} // namespace nicctl::slurm
