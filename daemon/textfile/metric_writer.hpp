// Prometheus text exposition (version 0.0.4) for the textfile collector: one HELP and TYPE per
// family, families in the order declared, label values escaped, no timestamps, every name
// prefixed nicd_.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::textfile {

// Label sets are written inline at each call site: no allocation per sample. Within a family,
// give every sample the same label names in the same order (node_exporter fills missing labels
// with "", which changes the series' identity).
using Labels = std::initializer_list<std::pair<std::string_view, std::string_view>>;

enum class MetricType : uint8_t { Gauge, Counter };

class MetricWriter {
public:
    // Starts a family; later samples belong to it until the next family(). Names that break the
    // contract or promtool's lint throw std::logic_error (a programming error the unit tests
    // catch): no nicd_ prefix, not snake_case, the type in the name (nicd_x_counter_total), a
    // counter without _total or a gauge with it; so does declaring a family twice.
    void family(std::string_view name, MetricType type, std::string_view help);

    // Counter values and exact integers (up to 2^64-1) go through the uint64_t overload; doubles
    // are written with the shortest text that reads back as the same double (NaN, +Inf, -Inf).
    // A label name that is not snake_case, or starts with "__", throws std::logic_error.
    void sample(Labels labels, double value);
    void sample(Labels labels, uint64_t value);
    void sample(double value) { sample(Labels{}, value); }
    // A sample whose label text the caller assembled from values it escaped itself
    // (escapeLabelValue) and knows to be unique in the family: `pieces` concatenated are what
    // goes between the braces (name="value",...). No check, no escaping: for the thousands of
    // counter series a cycle writes, whose labels are checked once per layout.
    void sampleEscaped(std::initializer_list<std::string_view> pieces, uint64_t value);

    // A sample whose label values repeat an earlier one of the same family is dropped (and
    // counted): node_exporter would refuse the duplicate series and log an error every scrape.
    size_t duplicatesDropped() const { return duplicates_; }

    // Whole families rendered earlier by another (non-streaming) writer, appended as they are,
    // with their declarations (a family declared twice throws as family() does) and the
    // duplicates that writer dropped.
    void append(const MetricWriter& rendered);

    const std::string& text() const { return out_; }
    std::string take() { return std::move(out_); }
    void reserve(size_t bytes) { out_.reserve(bytes); }

    // Streaming instead of one string: whole lines go to `sink` whenever `chunk` bytes are
    // pending, and at flush(). Only text() of what is still pending is kept.
    using Sink = std::function<void(std::string_view)>;
    void streamTo(Sink sink, size_t chunk);
    void flush();

    // Backslash, double quote and newline escaped; every other control byte and every byte that
    // is not valid UTF-8 (which would make node_exporter reject the whole file) becomes the
    // visible text \xNN, as in nicd's logs and on D-Bus (text/printable.hpp): "\\xNN" in the file.
    static std::string escapeLabelValue(std::string_view v);
    // The same without the double quote.
    static std::string escapeHelp(std::string_view v);
    static std::string formatDouble(double v);

private:
    bool begin(Labels labels); // false: a duplicate, nothing written
    void lineDone();           // hands pending lines to the sink once a chunk is full

    std::string out_;
    std::string current_;
    std::vector<std::string> declared_;
    // Hashes of the current family's label sets, an open-addressing table (0 = empty): no
    // allocation per sample.
    std::vector<uint64_t> series_;
    size_t series_count_ = 0;
    bool seenBefore(uint64_t hash);          // records `hash`; true when it was there already
    std::vector<std::string> checked_names_; // label names already checked, by position
    size_t duplicates_ = 0;
    Sink sink_;
    size_t chunk_ = 0;
};

} // namespace nicd::textfile
