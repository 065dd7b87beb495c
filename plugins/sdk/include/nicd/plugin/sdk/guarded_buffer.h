// Memory for the kernel to write into when it may write more than it was asked to: the ethtool
// ioctls ETHTOOL_GSTRINGS and ETHTOOL_GSTATS copy the driver's *current* number of statistics,
// whatever count the caller passed (kernels before 7b07be1ff1cb; shared/reference/counters.md
// §2.1), and mlx5 changes that number with the channel count, PFC and more. The buffer ends flush
// against a page mapped PROT_NONE: the kernel's copy_to_user stops at it and the ioctl fails with
// EFAULT, so no count, however large, writes past the buffer into nicd's memory.
#pragma once

#include <cstddef>

namespace nicd::plugin::sdk {

class GuardedBuffer {
public:
    GuardedBuffer() = default;
    ~GuardedBuffer();
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;

    // `size` zeroed bytes, 8-byte aligned, whose end (`size` rounded up to 8) is the first byte of
    // the guard page. The mapping is kept and reused while it is large enough. nullptr when no
    // memory could be mapped.
    void* get(size_t size);

private:
    void release();

    char* map_ = nullptr;
    size_t usable_ = 0; // bytes before the guard page
};

} // namespace nicd::plugin::sdk
