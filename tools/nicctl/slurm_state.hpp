// What `nicctl slurm-check` remembers between runs (slurmd starts it anew each time): since when
// nicd has been healthy, in a small file ("healthy_since=<unix seconds>\n", or empty when it is
// not), written atomically (paths/atomic_file.hpp). A file that cannot be read or parsed is
// taken as "not known": the healthy time starts again, which only delays a resume.
#pragma once

#include "text/result.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace nicctl::slurm {

std::optional<uint64_t> parseHealthySince(const std::string& text);
std::string healthySinceText(std::optional<uint64_t> since);

std::optional<uint64_t> loadHealthySince(const std::string& file);
// On failure an Error "cannot write FILE: ...". Creates the file's directory (0755) if missing.
nicd::Result<void> saveHealthySince(const std::string& file, std::optional<uint64_t> since);

} // namespace nicctl::slurm
