#include <nicd/plugin/sdk/guarded_buffer.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace nicd::plugin::sdk {

GuardedBuffer::~GuardedBuffer()
{
    release();
}

void GuardedBuffer::release()
{
    if (map_ != nullptr)
        ::munmap(map_, usable_ + static_cast<size_t>(::sysconf(_SC_PAGESIZE)));
    map_ = nullptr;
    usable_ = 0;
}

void* GuardedBuffer::get(size_t size)
{
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t rounded = (size + 7) & ~size_t{7};
    if (rounded < size) // overflow
        return nullptr;
    if (rounded > usable_) {
        release();
        const size_t usable = (rounded + page - 1) / page * page;
        void* m = ::mmap(nullptr, usable + page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return nullptr;
        map_ = static_cast<char*>(m);
        usable_ = usable;
        if (::mprotect(map_ + usable_, page, PROT_NONE) != 0) {
            release(); // without its guard the buffer is not what it claims to be
            return nullptr;
        }
    }
    char* start = map_ + usable_ - rounded;
    std::memset(start, 0, rounded);
    return start;
}

} // namespace nicd::plugin::sdk
