#include "prefailure/source_notes.hpp"

#include "log/log.hpp"

namespace nicd::prefailure {

void SourceNotes::missing(const std::string& device, const std::string& why)
{
    if (missing_.contains(device))
        return;
    missing_[device] = why;
    log::info({.device = device}, "{}: not available for {}: {}", source_, device, why);
}

void SourceNotes::failed(const std::string& device, const std::string& why)
{
    auto [it, added] = failed_.try_emplace(device, why);
    if (!added && it->second == why)
        return;
    it->second = why;
    log::error({.device = device}, "{}: {}: {}", source_, device, why);
}

void SourceNotes::fine(const std::string& device)
{
    missing_.erase(device);
    if (failed_.erase(device) > 0)
        log::info({.device = device}, "{}: {} reads again", source_, device);
}

} // namespace nicd::prefailure
