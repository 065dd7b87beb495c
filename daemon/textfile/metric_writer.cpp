#include "textfile/metric_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nicd {

void MetricWriter::family(std::string_view name, MetricType type, std::string_view help)
{
    if (!name.starts_with("nicd_"))
        throw std::logic_error("metric family without the nicd_ prefix: " + std::string(name));
    if (std::find(declared_.begin(), declared_.end(), name) != declared_.end())
        throw std::logic_error("metric family declared twice: " + std::string(name));
    declared_.emplace_back(name);
    current_ = name;
    out_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, escapeHelp(help), name,
                        type == MetricType::Counter ? "counter" : "gauge");
}

void MetricWriter::begin(Labels labels)
{
    if (current_.empty())
        throw std::logic_error("metric sample before any family");
    out_ += current_;
    if (labels.size() != 0) {
        out_ += '{';
        bool first = true;
        for (const auto& [k, v] : labels) {
            if (!first)
                out_ += ',';
            first = false;
            out_ += k;
            out_ += "=\"";
            out_ += escapeLabelValue(v);
            out_ += '"';
        }
        out_ += '}';
    }
    out_ += ' ';
}

void MetricWriter::sample(Labels labels, double value)
{
    begin(labels);
    out_ += formatDouble(value);
    out_ += '\n';
}

void MetricWriter::sample(Labels labels, uint64_t value)
{
    begin(labels);
    out_ += std::to_string(value);
    out_ += '\n';
}

std::string MetricWriter::escapeLabelValue(std::string_view v)
{
    std::string out;
    out.reserve(v.size());
    for (char c : v) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string MetricWriter::escapeHelp(std::string_view v)
{
    std::string out;
    for (char c : v) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string MetricWriter::formatDouble(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "+Inf" : "-Inf";
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return fmt::format("{}", static_cast<int64_t>(v));
    return fmt::format("{}", v); // shortest representation that round-trips
}

} // namespace nicd
