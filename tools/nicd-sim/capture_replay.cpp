#include "capture_replay.hpp"

#include "files.hpp"
#include "node_state.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

namespace nicd::sim {

namespace {

constexpr const char* kCaptureDir = "run/nicd-sim/capture";

fs::path positionFile(const fs::path& root)
{
    return root / kCaptureDir / "position";
}

size_t position(const fs::path& root)
{
    try {
        return static_cast<size_t>(readNumber(positionFile(root)));
    } catch (const SimError&) {
        return 1; // a fresh capture holds sample 1
    }
}

CaptureSample loadSample(const fs::path& root, size_t index)
{
    auto file = root / samplePath(index);
    return parseSample(readText(file), file.string());
}

void apply(const fs::path& root, const CaptureSample& s, size_t index)
{
    NodeLock lock(root);
    for (const auto& [rel, content] : s.files)
        writeText(root, root / rel, content);
    writeNumber(root, positionFile(root), index);
}

} // namespace

bool isCapture(const fs::path& root)
{
    return fs::exists(root / kCaptureDir / "manifest.json");
}

std::string samplePath(size_t index)
{
    return fmt::format("{}/samples/{:04d}.json", kCaptureDir, index);
}

std::string formatSample(const CaptureSample& s)
{
    nlohmann::ordered_json j;
    j["offset_s"] = s.offset_s;
    j["files"] = s.files;
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

CaptureSample parseSample(const std::string& text, const std::string& where)
{
    try {
        auto j = nlohmann::json::parse(text);
        CaptureSample s;
        s.offset_s = j.at("offset_s").get<double>();
        s.files = j.at("files").get<std::map<std::string, std::string>>();
        for (const auto& [rel, content] : s.files)
            if (rel.empty() || rel.front() == '/' || rel.find("..") != std::string::npos)
                throw SimError(where + ": a sample may only name paths inside the node: " + rel);
        return s;
    } catch (const nlohmann::json::exception& e) {
        throw SimError(where + " is not a capture sample: " + e.what());
    }
}

size_t sampleCount(const fs::path& root)
{
    size_t n = 0;
    while (fs::exists(root / samplePath(n + 1)))
        ++n;
    return n;
}

size_t playSamples(const fs::path& root, std::optional<int> interval_ms, int count,
                   const std::atomic<bool>& stop)
{
    const size_t total = sampleCount(root);
    if (total == 0)
        throw SimError(root.string() + " is a capture without samples (capture it again)");
    size_t at = std::min(position(root), total);
    size_t written = 0;
    if (at == total) { // the last is in place: start over
        apply(root, loadSample(root, 1), 1);
        at = 1;
        ++written;
    }
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const double base = loadSample(root, at).offset_s;
    for (size_t next = at + 1; next <= total && !stop; ++next) {
        if (count > 0 && written >= static_cast<size_t>(count))
            break;
        auto sample = loadSample(root, next);
        double after = interval_ms ? *interval_ms / 1000.0 * static_cast<double>(next - at)
                                   : sample.offset_s - base;
        auto due = start + std::chrono::duration_cast<clock::duration>(
                               std::chrono::duration<double>(std::max(0.0, after)));
        // Sleep in short steps so a signal stops the replay promptly.
        while (!stop && clock::now() < due)
            std::this_thread::sleep_for(
                std::min<clock::duration>(due - clock::now(), std::chrono::milliseconds(50)));
        if (stop)
            break;
        apply(root, sample, next);
        ++written;
    }
    return written;
}

} // namespace nicd::sim
