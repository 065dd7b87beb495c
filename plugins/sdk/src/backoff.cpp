#include <nicd/plugin/sdk/backoff.h>

#include <algorithm>
#include <cerrno>
#include <charconv>

namespace nicd::plugin::sdk {

bool Backoff::isRefusal(int err)
{
    return err == EINVAL || err == EOPNOTSUPP || err == EACCES;
}

bool Backoff::shouldTry(const std::string& key)
{
    auto it = entries_.find(key);
    if (it == entries_.end())
        return true;
    if (it->second.dropped)
        return false;
    if (it->second.skip_left == 0)
        return true;
    --it->second.skip_left;
    return false;
}

Backoff::Change Backoff::failed(const std::string& key, int err)
{
    auto& e = entries_[key];
    if (e.dropped)
        return Change::None;
    ++e.failures;
    e.refusals = isRefusal(err) ? e.refusals + 1 : 0;
    if (drop_after_ > 0 && e.refusals >= drop_after_) {
        e.dropped = true;
        ++dropped_;
        return Change::Dropped;
    }
    uint32_t shift = std::min<uint32_t>(e.failures - 1, 31);
    e.skip_left = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{1} << shift, max_skip_));
    return e.failures == 1 ? Change::StartedFailing : Change::None;
}

bool Backoff::failed(const std::string& key)
{
    return failed(key, 0) == Change::StartedFailing;
}

bool Backoff::succeeded(const std::string& key)
{
    auto it = entries_.find(key);
    if (it == entries_.end())
        return false;
    if (it->second.dropped)
        --dropped_;
    entries_.erase(it);
    return true;
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

bool Backoff::dropped(const std::string& key) const
{
    auto it = entries_.find(key);
    return it != entries_.end() && it->second.dropped;
}

void Backoff::forget(const std::string& prefix)
{
    auto it = entries_.lower_bound(prefix);
    while (it != entries_.end() && it->first.starts_with(prefix)) {
        if (it->second.dropped)
            --dropped_;
        it = entries_.erase(it);
    }
}

void Backoff::retryDropped()
{
    std::erase_if(entries_, [](const auto& kv) { return kv.second.dropped; });
    dropped_ = 0;
}

uint32_t dropAfterSetting(const std::optional<std::string>& value)
{
    uint32_t n = 0;
    if (!value || value->empty())
        return Backoff::kDropAfter;
    auto [ptr, ec] = std::from_chars(value->data(), value->data() + value->size(), n);
    return ec == std::errc() && ptr == value->data() + value->size() ? n : Backoff::kDropAfter;
}

} // namespace nicd::plugin::sdk
