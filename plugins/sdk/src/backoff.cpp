#include <nicd/plugin/backoff.h>

#include <algorithm>

namespace nicd::plugin::sdk {

bool Backoff::shouldTry(const std::string& key)
{
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.skip_left == 0)
        return true;
    --it->second.skip_left;
    return false;
}

bool Backoff::failed(const std::string& key)
{
    auto& e = entries_[key];
    ++e.failures;
    uint32_t shift = std::min<uint32_t>(e.failures - 1, 31);
    e.skip_left = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{1} << shift, max_skip_));
    return e.failures == 1;
}

bool Backoff::succeeded(const std::string& key)
{
    return entries_.erase(key) > 0;
}

bool Backoff::unsupported(const std::string& key)
{
    auto& e = entries_[key];
    ++e.failures;
    e.skip_left = max_skip_;
    return e.failures == 1;
}

uint32_t Backoff::failures(const std::string& key) const
{
    auto it = entries_.find(key);
    return it == entries_.end() ? 0 : it->second.failures;
}

void Backoff::forget(const std::string& prefix)
{
    auto it = entries_.lower_bound(prefix);
    while (it != entries_.end() && it->first.starts_with(prefix))
        it = entries_.erase(it);
}

} // namespace nicd::plugin::sdk
