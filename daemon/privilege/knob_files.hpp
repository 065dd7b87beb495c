// What nicd's knob writer does with a request: the knob's file is found beneath the root
// directory following no symlink but the one class link of sysfs it expects (classLinkTarget),
// must be a regular file, and is written in one write(2), as `echo N > file` does; or the
// rdma_cm group is made. On a simulated root configfs is a plain directory, so a new group gets
// what the kernel would fill in: ports/<n>/default_roce_tos ("0\n") for each port of the device.
// Every failure is an errno and a message naming the file.
#pragma once

#include "privilege/knob_protocol.hpp"

#include <filesystem>

namespace nicd::privilege {

struct KnobRoot {
    int fd = -1;                // the root directory, opened once
    std::filesystem::path path; // as the messages show it: "/" on a real node
    bool simulated = false;
};

// Checks the request (matchKnob, checkKnobValue) and carries it out.
KnobReply applyKnobRequest(const KnobRoot& root, const KnobRequest& request);

} // namespace nicd::privilege
