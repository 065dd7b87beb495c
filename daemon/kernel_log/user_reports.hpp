// The kernel's reports about user programs: lines that start with a name a user chose.
#pragma once

#include <string_view>

namespace nicd::kernel_log {

// Whether a device-less line is the kernel's report about a user program: a fault or signal
// report, which starts with the program's name ("prog[4212]: segfault at 0 ip ...",
// "traps: prog[4212] general protection fault ...", "prog[4212]: unhandled signal 11 ..."). Only
// the report's start is looked at: a name chosen to look like the start of another report (a
// comm is at most 15 bytes) never makes a genuine kernel report look like one of these.
bool isUserProgramReport(std::string_view message);

} // namespace nicd::kernel_log
