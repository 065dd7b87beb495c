// Small sysfs and configfs files: one read(2) of the whole text, and one write(2) of the whole
// text as `echo N > file` does (sysfs and configfs parse each write). Failures name the file.
#pragma once

#include <nicd/plugin/plugin.h>

#include <filesystem>
#include <string>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

pv1::Status ioFailure(const std::filesystem::path& path, int err);
pv1::Status readSmallFile(const std::filesystem::path& path, std::string& out);
pv1::Status writeSmallFile(const std::filesystem::path& path, const std::string& text, bool create);

} // namespace nicd::mlx5
