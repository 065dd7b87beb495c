// Runs a program (no shell) with its output discarded, and waits for it.
#pragma once

#include <string>
#include <vector>

namespace nicd::sim::capture {

// Empty on exit status 0; else what went wrong ("exit status 2", "killed by signal 9", why it
// could not start).
std::string runProgram(const std::vector<std::string>& argv);

} // namespace nicd::sim::capture
