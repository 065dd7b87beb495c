#include "plugins/poll_failures.hpp"

#include <algorithm>

namespace nicd::plugins {

bool PollFailures::failed(const std::string& ibdev)
{
    failing_.insert(ibdev);
    return backoff_.failed(ibdev);
}

bool PollFailures::succeeded(const std::string& ibdev)
{
    failing_.erase(ibdev);
    return backoff_.succeeded(ibdev);
}

void PollFailures::forget(const std::string& ibdev)
{
    succeeded(ibdev);
}

uint32_t PollFailures::worst() const
{
    uint32_t worst = 0;
    for (const auto& dev : failing_)
        worst = std::max(worst, backoff_.failures(dev));
    return worst;
}

} // namespace nicd::plugins
