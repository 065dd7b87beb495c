// The names in a directory open as a descriptor (readdir on a duplicate of it), so that what is
// done with them afterwards happens on that same descriptor (unlinkat, fstatat, renameat) and no
// path is looked up again.
#pragma once

#include <string>
#include <vector>

namespace nicd::paths {

// Every entry of the directory open as `dir` but "." and ".."; empty when it cannot be read.
// `dir` stays open and its position is not moved.
std::vector<std::string> entriesAt(int dir);

} // namespace nicd::paths
