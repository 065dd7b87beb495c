#include "textfile/metric_writer.hpp"

#include "text/printable.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace nicd::textfile {

namespace {

// snake_case: [a-z_][a-z0-9_]*. Stricter than the format ([a-zA-Z_:][a-zA-Z0-9_:]*) because
// promtool's lint flags camelCase, and ':' is reserved for recording rules.
bool isSnakeCase(std::string_view name)
{
    if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
        return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

// Why promtool's lint would reject the family name, or nullptr.
const char* lintProblem(std::string_view name, MetricType type)
{
    if (!name.starts_with("nicd_"))
        return "must start with nicd_";
    if (!isSnakeCase(name))
        return "must be snake_case ([a-z0-9_])";
    for (std::string_view t : {"counter", "gauge", "histogram", "summary", "untyped"}) {
        auto inner = "_" + std::string(t) + "_";
        if (name.find(inner) != std::string_view::npos ||
            name.ends_with(inner.substr(0, inner.size() - 1)))
            return "must not contain its type (counter, gauge, ...)";
    }
    if (type == MetricType::Counter && !name.ends_with("_total"))
        return "is a counter and must end in _total";
    if (type != MetricType::Counter && name.ends_with("_total"))
        return "is not a counter and must not end in _total";
    return nullptr;
}

// Bytes that end a plain run: 1 for backslash, controls, DEL and non-ASCII, 2 for the double
// quote (which ends a run only inside a label value).
constexpr std::array<uint8_t, 256> kExpositionStops = [] {
    std::array<uint8_t, 256> t{};
    for (size_t c = 0; c < 0x20; ++c)
        t[c] = 1;
    for (size_t c = 0x7f; c < 256; ++c)
        t[c] = 1;
    t['\\'] = 1;
    t['"'] = 2;
    return t;
}();

// Appends `v` to `out`, escaping backslash and newline (and the double quote when `quote`) as the
// exposition format wants, and writing every other byte printable() would escape as the visible
// text \xNN (its backslash escaped in turn: "\\xNN" in the file).
void appendEscaped(std::string& out, std::string_view v, bool quote)
{
    const uint8_t stops = quote ? 3 : 1; // the quote stops a run only when quoting
    size_t i = 0;
    while (i < v.size()) {
        size_t run = i; // plain ASCII needing no escape is copied in one go
        while (run < v.size() &&
               (kExpositionStops[static_cast<unsigned char>(v[run])] & stops) == 0)
            ++run;
        out.append(v.substr(i, run - i));
        i = run;
        if (i == v.size())
            break;
        char c = v[i];
        if (c == '\\') {
            out += "\\\\";
            ++i;
        } else if (c == '\n') {
            out += "\\n";
            ++i;
        } else if (c == '"') {
            out += "\\\"";
            ++i;
        } else if (size_t n = showableLength(v, i); n > 0) {
            out.append(v.substr(i, n));
            i += n;
        } else {
            out += '\\';
            appendHexEscape(out, static_cast<unsigned char>(c));
            ++i;
        }
    }
}

} // namespace

void MetricWriter::family(std::string_view name, MetricType type, std::string_view help)
{
    if (const char* problem = lintProblem(name, type))
        throw std::logic_error("metric family " + std::string(name) + " " + problem);
    if (std::find(declared_.begin(), declared_.end(), name) != declared_.end())
        throw std::logic_error("metric family declared twice: " + std::string(name));
    declared_.emplace_back(name);
    current_ = name;
    std::fill(series_.begin(), series_.end(), 0);
    series_count_ = 0;
    checked_names_.clear();
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    appendEscaped(out_, help, false);
    out_ += "\n# TYPE ";
    out_ += name;
    out_ += type == MetricType::Counter ? " counter\n" : " gauge\n";
    lineDone();
}

void MetricWriter::append(const MetricWriter& rendered)
{
    for (const auto& name : rendered.declared_) {
        if (std::find(declared_.begin(), declared_.end(), name) != declared_.end())
            throw std::logic_error("metric family declared twice: " + name);
        declared_.push_back(name);
    }
    current_.clear(); // a sample needs a family() of its own after this
    duplicates_ += rendered.duplicates_;
    if (sink_) { // streaming: whole lines straight to the sink, no copy into the chunk buffer
        flush();
        if (!rendered.out_.empty())
            sink_(rendered.out_);
        return;
    }
    out_ += rendered.out_;
}

void MetricWriter::streamTo(Sink sink, size_t chunk)
{
    sink_ = std::move(sink);
    chunk_ = chunk;
    out_.reserve(chunk + chunk / 4);
}

bool MetricWriter::seenBefore(uint64_t hash)
{
    hash = hash == 0 ? 1 : hash;
    if ((series_count_ + 1) * 2 > series_.size()) { // at most half full
        std::vector<uint64_t> old(std::max<size_t>(series_.size() * 2, 256), 0);
        old.swap(series_);
        series_count_ = 0;
        for (uint64_t h : old)
            if (h != 0)
                seenBefore(h);
    }
    const size_t mask = series_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        if (series_[i] == hash)
            return true;
        if (series_[i] == 0) {
            series_[i] = hash;
            ++series_count_;
            return false;
        }
    }
}

void MetricWriter::lineDone()
{
    if (sink_ && out_.size() >= chunk_)
        flush();
}

void MetricWriter::flush()
{
    if (!sink_ || out_.empty())
        return;
    sink_(out_);
    out_.clear();
}

bool MetricWriter::begin(Labels labels)
{
    if (current_.empty())
        throw std::logic_error("metric sample before any family");
    const size_t start = out_.size();
    out_ += current_;
    if (labels.size() != 0) {
        out_ += '{';
        bool first = true;
        size_t i = 0;
        for (const auto& [k, v] : labels) {
            // A family's label names are the same literals sample after sample: each is checked
            // when first seen at its position.
            if (i >= checked_names_.size() || checked_names_[i] != k) {
                if (!isSnakeCase(k) || k.starts_with("__"))
                    throw std::logic_error("invalid label name '" + std::string(k) + "' in " +
                                           current_);
                checked_names_.resize(std::max(checked_names_.size(), i + 1));
                checked_names_[i].assign(k);
            }
            ++i;
            if (!first)
                out_ += ',';
            first = false;
            out_ += k;
            out_ += "=\"";
            appendEscaped(out_, v, true);
            out_ += '"';
        }
        out_ += '}';
    }
    auto series = std::string_view(out_).substr(start + current_.size());
    if (seenBefore(std::hash<std::string_view>{}(series))) {
        out_.resize(start);
        ++duplicates_;
        return false;
    }
    out_ += ' ';
    return true;
}

void MetricWriter::sample(Labels labels, double value)
{
    if (!begin(labels))
        return;
    out_ += formatDouble(value);
    out_ += '\n';
    lineDone();
}

void MetricWriter::sample(Labels labels, uint64_t value)
{
    if (!begin(labels))
        return;
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    out_.append(buf, end);
    out_ += '\n';
    lineDone();
}

void MetricWriter::sampleEscaped(std::initializer_list<std::string_view> pieces, uint64_t value)
{
    if (current_.empty())
        throw std::logic_error("metric sample before any family");
    out_ += current_;
    out_ += '{';
    for (auto piece : pieces)
        out_ += piece;
    out_ += "} ";
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    out_.append(buf, end);
    out_ += '\n';
    lineDone();
}

std::string MetricWriter::escapeLabelValue(std::string_view v)
{
    std::string out;
    out.reserve(v.size());
    appendEscaped(out, v, true);
    return out;
}

std::string MetricWriter::escapeHelp(std::string_view v)
{
    std::string out;
    out.reserve(v.size());
    appendEscaped(out, v, false);
    return out;
}

std::string MetricWriter::formatDouble(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "+Inf" : "-Inf";
    // Whole numbers below 2^53 are exact as integers; write them without an exponent.
    if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0)
        return fmt::format("{}", static_cast<int64_t>(v));
    return fmt::format("{}", v); // shortest representation that reads back as the same double
}

} // namespace nicd::textfile
