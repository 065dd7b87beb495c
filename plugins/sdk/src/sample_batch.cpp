#include <nicd/plugin/sdk/sample_batch.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace nicd::plugin::sdk {

namespace pv1 = ::nicd::plugin::v1;

SampleBatchBuilder::SampleBatchBuilder(pv1::SampleBatch& out)
    : out_(out), ref_(std::move(out.layout))
{
    out_.layout.reset();
    out_.netdevs.clear();
    out_.values.clear();
}

void SampleBatchBuilder::reserve(size_t n)
{
    out_.values.reserve(out_.values.size() + n);
}

uint32_t SampleBatchBuilder::netdevSlot(std::string_view netdev)
{
    if (netdev.empty())
        return 0;
    for (size_t i = 0; i < out_.netdevs.size(); ++i)
        if (out_.netdevs[i] == netdev)
            return static_cast<uint32_t>(i + 1);
    out_.netdevs.emplace_back(netdev);
    return static_cast<uint32_t>(out_.netdevs.size());
}

void SampleBatchBuilder::add(std::string_view source, uint32_t port, std::string_view netdev,
                             std::string_view name, pv1::SampleKind kind, uint64_t value)
{
    addSlot(source, port, netdevSlot(netdev), name, kind, value);
}

void SampleBatchBuilder::addSlot(std::string_view source, uint32_t port, uint32_t slot,
                                 std::string_view name, pv1::SampleKind kind, uint64_t value)
{
    const size_t i = out_.values.size();
    out_.values.push_back(value);
    if (!fresh_) {
        if (ref_ && i < ref_->series.size()) {
            const auto& k = ref_->series[i];
            if (k.port == port && k.kind == kind && k.netdev == slot && k.name == name &&
                k.source == source)
                return;
        }
        // The first series that differs: a new layout, starting with the ones that matched.
        fresh_ = std::make_shared<pv1::SampleLayout>();
        fresh_->series.reserve(std::max(i + 1, ref_ ? ref_->series.size() : size_t{0}));
        if (ref_)
            fresh_->series.assign(ref_->series.begin(),
                                  ref_->series.begin() + static_cast<std::ptrdiff_t>(i));
    }
    fresh_->series.push_back({std::string(source), port, slot, std::string(name), kind});
}

SampleBatchBuilder::Run::Run(SampleBatchBuilder& b, std::string_view source, uint32_t port,
                             std::string_view netdev, pv1::SampleKind kind)
    : b_(b), source_(source), port_(port), slot_(b.netdevSlot(netdev)), kind_(kind)
{
}

const std::string* SampleBatchBuilder::Run::expected()
{
    const size_t i = b_.out_.values.size();
    if (b_.fresh_ || !b_.ref_)
        return nullptr;
    const auto& series = b_.ref_->series;
    if (i >= end_) {
        // The reference's series of this run from here on, found once rather than at each value.
        end_ = i;
        while (end_ < series.size()) {
            const auto& k = series[end_];
            if (k.port != port_ || k.kind != kind_ || k.netdev != slot_ || k.source != source_)
                break;
            ++end_;
        }
        if (i >= end_)
            return nullptr;
    }
    return &series[i].name;
}

void SampleBatchBuilder::Run::add(std::string_view name, uint64_t value)
{
    b_.addSlot(source_, port_, slot_, name, kind_, value);
}

void SampleBatchBuilder::finish()
{
    if (finished_)
        return;
    finished_ = true;
    const size_t n = out_.values.size();
    if (!fresh_ && ref_ && ref_->series.size() != n) { // fewer than the reference: a prefix of it
        fresh_ = std::make_shared<pv1::SampleLayout>();
        fresh_->series.assign(ref_->series.begin(),
                              ref_->series.begin() + static_cast<std::ptrdiff_t>(n));
    }
    if (fresh_)
        out_.layout = n == 0 ? nullptr : internLayout(std::move(fresh_));
    else
        out_.layout = n == 0 ? nullptr : std::move(ref_);
}

namespace {

struct Registry {
    std::mutex mutex;
    // By a hash of the series: the layouts alive with that hash.
    std::unordered_multimap<size_t, std::weak_ptr<const pv1::SampleLayout>> layouts;
    size_t inserts = 0;
};

Registry& registry()
{
    static Registry r;
    return r;
}

size_t hashOf(const pv1::SampleLayout& l)
{
    size_t h = l.series.size();
    auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    for (const auto& k : l.series) {
        mix(std::hash<std::string>{}(k.name));
        mix(std::hash<std::string>{}(k.source));
        mix((static_cast<size_t>(k.port) << 32) ^ (static_cast<size_t>(k.netdev) << 8) ^
            static_cast<size_t>(k.kind));
    }
    return h;
}

} // namespace

std::shared_ptr<const pv1::SampleLayout> internLayout(std::shared_ptr<pv1::SampleLayout> layout)
{
    auto& r = registry();
    const size_t h = hashOf(*layout);
    std::lock_guard lock(r.mutex);
    auto [first, last] = r.layouts.equal_range(h);
    for (auto it = first; it != last; ++it)
        if (auto alive = it->second.lock(); alive && *alive == *layout)
            return alive;
    std::shared_ptr<const pv1::SampleLayout> kept = std::move(layout);
    r.layouts.emplace(h, kept);
    // Now and then, forget the layouts nobody uses any more.
    if (++r.inserts % 64 == 0)
        for (auto it = r.layouts.begin(); it != r.layouts.end();)
            it = it->second.expired() ? r.layouts.erase(it) : std::next(it);
    return kept;
}

std::vector<pv1::Sample> toSamples(const pv1::SampleBatch& batch)
{
    std::vector<pv1::Sample> out;
    if (!batch.layout)
        return out;
    out.reserve(batch.values.size());
    for (size_t i = 0; i < batch.values.size() && i < batch.layout->series.size(); ++i) {
        const auto& k = batch.layout->series[i];
        out.push_back({k.source, k.port, batch.netdevOf(k), k.name, batch.values[i], k.kind});
    }
    return out;
}

} // namespace nicd::plugin::sdk

namespace nicd::plugin::v1 {

// The ABI 1.3 default: what poll() gives, as a batch.
Status IPlugin::pollBatch(const DeviceRef& dev, SampleBatch& out) noexcept
{
    try {
        std::vector<Sample> samples;
        Status s = poll(dev, samples);
        nicd::plugin::sdk::SampleBatchBuilder b(out);
        b.reserve(samples.size());
        for (const auto& x : samples)
            b.add(x);
        b.finish();
        return s;
    } catch (const std::exception& e) {
        return Status::fail(Errc::Internal, dev.ibdev + ": " + e.what());
    }
}

} // namespace nicd::plugin::v1
