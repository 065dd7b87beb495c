// Small sysfs and configfs files: one read(2) of the whole text, and one write(2) of the whole
// text as `echo N > file` does (sysfs and configfs parse each write). Failures name the file.
// A knob (a file QoS provisioning changes) is written through the host when the daemon speaks
// ABI 1.4: nicd's own process may not write under /sys or configfs, its knob writer does.
#pragma once

#include <nicd/plugin/plugin.h>

#include <filesystem>
#include <string>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

pv1::Status ioFailure(const std::filesystem::path& path, int err);
pv1::Status readSmallFile(const std::filesystem::path& path, std::string& out);
pv1::Status writeSmallFile(const std::filesystem::path& path, const std::string& text, bool create);

// The host to write knobs through: `host` when it speaks ABI 1.4, else null.
pv1::IHost* knobHost(pv1::IHost& host);
// Through `knobs` (IHost::writeKnob) when it is not null, else straight to the file.
pv1::Status writeKnob(pv1::IHost* knobs, const std::filesystem::path& path,
                      const std::string& text);

} // namespace nicd::mlx5
