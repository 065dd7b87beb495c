// `nicd-sim reboot DIR`: the node boots again. Only the boot ID changes: what was removed stays
// removed (a NIC whose firmware did not come up), and every port keeps its state.
#include "node_state.hpp"

#include <fmt/format.h>

namespace nicd::sim {

void reboot(const fs::path& root, const std::string& boot_id)
{
    NodeLock lock(root);
    auto file = root / "proc/sys/kernel/random/boot_id";
    std::string next = boot_id;
    if (next.empty()) { // the current one's last group, plus one: another boot, the same each run
        auto now = readText(file);
        while (!now.empty() && (now.back() == '\n' || now.back() == ' '))
            now.pop_back();
        auto dash = now.rfind('-');
        uint64_t tail = 0;
        try {
            tail = std::stoull(now.substr(dash + 1), nullptr, 16);
        } catch (const std::exception&) {
            throw SimError(file.string() + " holds no boot ID: '" + now + "'");
        }
        next = fmt::format("{}-{:012x}", now.substr(0, dash), (tail + 1) & 0xffffffffffffULL);
    }
    writeText(root, file, next + "\n");
}

} // namespace nicd::sim
