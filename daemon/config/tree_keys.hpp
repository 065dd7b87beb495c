// A configuration read for a tree given with --root is the tree's, and the tree is data: the
// keys whose values are host paths must lead beneath it, and the one that names code to load is
// not used. (On the host itself, root "/", neither applies.)
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "text/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nicd::config {

// [daemon] PluginDirectory= under --root: plugins load from --plugin-directory or the installed
// directory, never from a path a tree's configuration names.
bool ignoredInTree(const std::string& section, const std::string& key);
std::string ignoredInTreeWhy();

// Whether `value`, given for a key that names a host path ([daemon] StateDirectory=, [textfile]
// Path=, [provision] DriverReadyFile=), stays in the tree `paths` relocates into; an Error saying
// why it leads out (".." above it, or a symlink in it that leads out, named). Success also for
// other keys and values that are no absolute path (their parser says what is wrong), and on the
// host.
Result<void> staysInTree(const HostPaths& paths, const std::string& section, const std::string& key,
                         std::string_view value);

// The same for the values in force once every file is read: a default no line set (nicd's own
// /var/lib/nicd) may lead out of the tree through its links as well. Errors naming `file` (the
// main configuration file) and the key, no line.
std::vector<ConfigError> defaultsLeavingTree(const Config& config, const HostPaths& paths,
                                             const std::string& file);

} // namespace nicd::config
