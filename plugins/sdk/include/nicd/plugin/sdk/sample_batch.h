// Building a plugin::v1::SampleBatch (ABI 1.3) from values read in a stable order. Shared by the
// daemon (its own counters/ reader, and the batches it makes of older plugins' samples) and by
// plugins.
#pragma once

#include <nicd/plugin/plugin.h>

#include <memory>
#include <string_view>

namespace nicd::plugin::sdk {

// Appends one value per add() to `out`, whose layout (the one the last read gave) is the
// reference: while every series added is the reference's, in its order, the batch keeps that
// layout and nothing is allocated but the values; from the first one that differs a new layout
// is made, and finish() installs it (interned: see internLayout). Netdev names go to the batch's
// own table, so that devices that differ only in their netdevs share one layout.
class SampleBatchBuilder {
public:
    explicit SampleBatchBuilder(v1::SampleBatch& out);
    SampleBatchBuilder(const SampleBatchBuilder&) = delete;
    SampleBatchBuilder& operator=(const SampleBatchBuilder&) = delete;

    void add(std::string_view source, uint32_t port, std::string_view netdev, std::string_view name,
             v1::SampleKind kind, uint64_t value);
    void add(const v1::Sample& s) { add(s.source, s.port, s.netdev, s.name, s.kind, s.value); }
    // Reserves room for `n` more values.
    void reserve(size_t n);
    // Done: the batch's layout is the reference or the new one.
    void finish();

    // Values of one source, port, netdev and kind in a row (a netdev's statistics): the source
    // and netdev are looked up once, and a reader that checked a value's name against
    // expected() adds it with addExpected(), the name compared once in all.
    class Run {
    public:
        Run(SampleBatchBuilder& b, std::string_view source, uint32_t port, std::string_view netdev,
            v1::SampleKind kind);
        // The name the next value has in the reference layout, while the batch follows it and
        // the reference's next series is of this run; null otherwise.
        const std::string* expected();
        // The next value, whose name is the one expected() gave just before.
        void addExpected(uint64_t value) { b_.out_.values.push_back(value); }
        void add(std::string_view name, uint64_t value);

    private:
        SampleBatchBuilder& b_;
        std::string_view source_;
        uint32_t port_;
        uint32_t slot_;
        v1::SampleKind kind_;
        // The reference's series from where expected() last looked on, up to end_, are this run's.
        size_t end_ = 0;
    };

private:
    uint32_t netdevSlot(std::string_view netdev);
    void addSlot(std::string_view source, uint32_t port, uint32_t slot, std::string_view name,
                 v1::SampleKind kind, uint64_t value);

    v1::SampleBatch& out_;
    std::shared_ptr<const v1::SampleLayout> ref_;
    std::shared_ptr<v1::SampleLayout> fresh_; // set once the series differ from the reference
    bool finished_ = false;
};

// A layout equal to one made before and still in use (by another device of the same kind, say)
// is that one; otherwise `layout` itself, remembered. One registry per module (the daemon and
// each plugin), thread-safe.
std::shared_ptr<const v1::SampleLayout> internLayout(std::shared_ptr<v1::SampleLayout> layout);

// The batch as Samples (names copied): for callers of the ABI 1.0 poll() and the daemon's
// model of an older plugin's samples.
std::vector<v1::Sample> toSamples(const v1::SampleBatch& batch);

} // namespace nicd::plugin::sdk
