#include "kernel_log/user_reports.hpp"

#include <array>
#include <cctype>

namespace nicd::kernel_log {

bool isUserProgramReport(std::string_view m)
{
    if (m.starts_with("potentially unexpected fatal signal"))
        return true;
    if (m.starts_with("traps: "))
        m.remove_prefix(7);
    // "<comm>[<pid>]" with a comm of 1 to 15 bytes (TASK_COMM_LEN - 1) that may hold '[' itself.
    static constexpr std::array kAfterPid{": segfault at ",
                                          " general protection fault",
                                          " trap ",
                                          ": unhandled ",
                                          ": bad frame in ",
                                          " bad frame in ",
                                          ": potentially unexpected fatal signal"};
    constexpr size_t kMaxComm = 15;
    for (size_t open = 1; open <= kMaxComm && open < m.size(); ++open) {
        if (m[open] != '[')
            continue;
        size_t end = open + 1;
        while (end < m.size() && std::isdigit(static_cast<unsigned char>(m[end])))
            ++end;
        if (end == open + 1 || end >= m.size() || m[end] != ']')
            continue;
        auto rest = m.substr(end + 1);
        for (const char* after : kAfterPid)
            if (rest.starts_with(after))
                return true;
    }
    return false;
}

} // namespace nicd::kernel_log
