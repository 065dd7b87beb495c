// Runs a program (no shell), its output discarded or sent to a file, and waits for it.
#pragma once

#include <string>
#include <vector>

namespace nicd::sim::capture {

// Empty on exit status 0; else what went wrong ("exit status 2", "killed by signal 9", why it
// could not start). Its standard output goes to `stdout_fd` when given, else to /dev/null.
std::string runProgram(const std::vector<std::string>& argv, int stdout_fd = -1);

} // namespace nicd::sim::capture
