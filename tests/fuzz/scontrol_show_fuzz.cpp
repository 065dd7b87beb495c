// libFuzzer target for slurm-check's reading of `scontrol show node NAME` (tools/nicctl/
// slurm_scontrol.hpp): whatever scontrol prints, a drain reason comes back only when the text
// describes exactly one node, of exactly the name asked, so that no update reaches another node.
// The name asked is the text's first NodeName= value, or "vm". Seeds: tests/data/fuzz/
// scontrol_show/.
#include "slurm_scontrol.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

// The NodeName= values at the start of lines, as the parser counts records.
size_t records(const std::string& text, const std::string& node, bool& named)
{
    size_t n = 0;
    named = false;
    for (size_t at = 0; at <= text.size();) {
        auto end = text.find('\n', at);
        auto line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (line.starts_with("NodeName=")) {
            ++n;
            named =
                line.substr(9, line.find(' ') == std::string::npos ? std::string::npos
                                                                   : line.find(' ') - 9) == node;
        }
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string node = "vm";
    if (text.starts_with("NodeName=")) {
        auto end = text.find_first_of(" \n", 9);
        node = text.substr(9, end == std::string::npos ? std::string::npos : end - 9);
    }
    auto reason = nicctl::slurm::drainReasonOf(text, node);
    bool named = false;
    const size_t n = records(text, node, named);
    require(reason.has_value() == (n == 1 && named));
    (void)nicctl::slurm::validNodeName(node);
    return 0;
}
