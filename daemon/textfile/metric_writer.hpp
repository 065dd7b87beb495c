// Prometheus text exposition (version 0.0.4) for the textfile collector: one HELP and TYPE per
// family, families in the order declared, label values escaped, no timestamps, every name
// prefixed nicd_.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd {

// Label sets are written inline at each call site: no allocation per sample.
using Labels = std::initializer_list<std::pair<std::string_view, std::string_view>>;

enum class MetricType : uint8_t { Gauge, Counter };

class MetricWriter {
public:
    // Starts a family; later samples belong to it until the next family(). Declaring a family
    // twice, or a name without the nicd_ prefix, throws std::logic_error (a programming error).
    void family(std::string_view name, MetricType type, std::string_view help);

    void sample(Labels labels, double value);
    void sample(Labels labels, uint64_t value);
    void sample(double value) { sample(Labels{}, value); }

    const std::string& text() const { return out_; }
    std::string take() { return std::move(out_); }
    void reserve(size_t bytes) { out_.reserve(bytes); }

    static std::string escapeLabelValue(std::string_view v);
    static std::string escapeHelp(std::string_view v);
    static std::string formatDouble(double v);

private:
    void begin(Labels labels);

    std::string out_;
    std::string current_;
    std::vector<std::string> declared_;
};

} // namespace nicd
