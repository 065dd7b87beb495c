// What nicd does at start, while it is still one thread, before it writes anything: the
// directories it writes made (the textfile's: textfile/textfile_dir.hpp), then the knob writer
// forked and this process's writes limited (privilege/write_limits.hpp). main and the sandbox
// probe (tests/tools) start alike.
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "privilege/write_limits.hpp"

namespace nicd::app {

privilege::WriteLimits startWrites(const HostPaths& paths, const Config& config);

} // namespace nicd::app
