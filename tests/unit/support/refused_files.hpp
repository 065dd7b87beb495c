// Counter files whose reads are refused with EACCES, as a firmware refuses a restricted or
// Fabric-Manager function's counters: mode 0000. nicd's unit runs without CAP_DAC_OVERRIDE and
// CAP_DAC_READ_SEARCH, so such a file is refused to it even as root; a test running as root drops
// both from its thread's effective set while a NoDacOverride lives (capset is per thread).
#pragma once

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <gtest/gtest.h>

namespace nicd::test {

// Mode 0000: open() for reading fails with EACCES (without the DAC capabilities).
inline void refuseReads(const std::filesystem::path& file)
{
    std::filesystem::permissions(file, std::filesystem::perms::none);
}

class NoDacOverride {
public:
    NoDacOverride()
    {
        EXPECT_EQ(::syscall(SYS_capget, &header_, saved_), 0) << std::strerror(errno);
        __user_cap_data_struct reduced[2];
        std::memcpy(reduced, saved_, sizeof reduced);
        reduced[0].effective &= ~((1U << CAP_DAC_OVERRIDE) | (1U << CAP_DAC_READ_SEARCH));
        EXPECT_EQ(::syscall(SYS_capset, &header_, reduced), 0) << std::strerror(errno);
    }
    ~NoDacOverride() { (void)::syscall(SYS_capset, &header_, saved_); }
    NoDacOverride(const NoDacOverride&) = delete;
    NoDacOverride& operator=(const NoDacOverride&) = delete;

private:
    __user_cap_header_struct header_{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct saved_[2]{};
};

} // namespace nicd::test
