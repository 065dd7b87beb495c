// /etc/nicd/slurm-check.conf: the settings of `nicctl slurm-check`, as Key=Value lines ('#' and
// ';' start a comment), read with nicd's INI reader (ini/ini_lines.hpp); no sections. Pure.
// Unknown keys and bad values are errors naming the file, the line and the key; a missing file
// means every default.
//   DrainOn=fatal|degraded     which node verdict drains the node (default fatal)
//   Unreachable=ignore|drain   when nicd cannot be asked (default ignore: a line in slurmd's log)
//   ResumeAfterSec=N|never     healthy this long before a node slurm-check drained is resumed
//                              (default 300; never: a person resumes it)
//   StateFile=PATH             where it remembers since when nicd is healthy
//                              (default /var/lib/nicd/slurm-check.state)
#pragma once

#include "slurm_decision.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nicctl::slurm {

inline constexpr const char* kDefaultSettingsFile = "/etc/nicd/slurm-check.conf";
inline constexpr const char* kDefaultStateFile = "/var/lib/nicd/slurm-check.state";

struct CheckSettings {
    Settings decision;
    std::string state_file = kDefaultStateFile;
};

// Fills `out` from `text` (of `file`, for messages); every error is appended to `errors` as
// "FILE:LINE: KEY=: what is allowed".
void parseSettings(std::string_view text, const std::string& file, CheckSettings& out,
                   std::vector<std::string>& errors);

} // namespace nicctl::slurm
