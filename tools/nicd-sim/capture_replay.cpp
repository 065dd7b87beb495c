#include "capture_replay.hpp"

#include "beneath.hpp"
#include "files.hpp"
#include "node_state.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

namespace nicd::sim {

namespace {

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

CaptureSample loadSample(const fs::path& root, size_t index, const SamplePaths& allowed)
{
    auto file = root / samplePath(index);
    auto sample = parseSample(readText(file), file.string());
    auto check = [&](const std::string& rel) {
        if (!allowed.allowed(rel))
            throw SimError(file.string() +
                           ": a sample may only name the counter, ethtool and "
                           "FEC files of the node's devices, not " +
                           rel);
    };
    for (const auto& [rel, content] : sample.files)
        check(rel);
    for (const auto& rel : sample.fifos)
        check(rel);
    return sample;
}

void apply(const fs::path& root, const CaptureSample& s, size_t index)
{
    BeneathWriter writer(root); // first: it refuses a run/nicd-sim that is a symlink
    NodeLock lock(root);
    for (const auto& [rel, content] : s.files)
        writer.replace(rel, content);
    for (const auto& rel : s.fifos)
        writer.replaceWithFifo(rel);
    writer.replace(std::string(kCaptureDir) + "/position", std::to_string(index) + "\n");
}

bool isDigits(const std::string& s)
{
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

bool isCapture(const fs::path& root)
{
    std::error_code ec;
    return fs::exists(root / kCaptureDir / "manifest.json", ec);
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
    if (!s.fifos.empty())
        j["fifos"] = s.fifos;
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

CaptureSample parseSample(const std::string& text, const std::string& where)
{
    try {
        auto j = nlohmann::json::parse(text);
        CaptureSample s;
        s.offset_s = j.at("offset_s").get<double>();
        s.files = j.at("files").get<std::map<std::string, std::string>>();
        s.fifos = j.value("fifos", std::set<std::string>{});
        auto check = [&](const std::string& rel) {
            if (!plainComponents(rel))
                throw SimError(where + ": a sample may only name paths inside the node: " + rel);
        };
        for (const auto& [rel, content] : s.files)
            check(rel);
        for (const auto& rel : s.fifos)
            check(rel);
        return s;
    } catch (const nlohmann::json::exception& e) {
        throw SimError(where + " is not a capture sample: " + e.what());
    }
}

SamplePaths::SamplePaths(const NodeState& state)
{
    for (const auto& [name, d] : state.devices)
        if (plainComponents(d.ib_dir))
            ib_dirs_.insert(d.ib_dir);
}

bool SamplePaths::allowed(const std::string& rel) const
{
    auto parts = plainComponents(rel);
    if (!parts)
        return false;
    const size_t n = parts->size();
    if (n == 4 && (*parts)[0] == "run" && (*parts)[1] == "nicd-sim")
        return (*parts)[2] == "ethtool" || (*parts)[2] == "ethtool-fec";
    // <ib_dir>/ports/<n>/{counters,hw_counters}/<name>
    if (n < 5 || (*parts)[n - 4] != "ports" || !isDigits((*parts)[n - 3]) ||
        ((*parts)[n - 2] != "counters" && (*parts)[n - 2] != "hw_counters"))
        return false;
    std::string ib_dir = (*parts)[0];
    for (size_t i = 1; i + 4 < n; ++i)
        ib_dir += "/" + (*parts)[i];
    return ib_dirs_.contains(ib_dir);
}

size_t sampleCount(const fs::path& root)
{
    size_t n = 0;
    std::error_code ec;
    while (fs::exists(root / samplePath(n + 1), ec))
        ++n;
    return n;
}

size_t playSamples(const fs::path& root, std::optional<int> interval_ms, int count,
                   const std::atomic<bool>& stop)
{
    const size_t total = sampleCount(root);
    if (total == 0)
        throw SimError(root.string() + " is a capture without samples (capture it again)");
    const SamplePaths allowed(NodeState::load(root));
    size_t at = std::min(position(root), total);
    size_t written = 0;
    if (at == total) { // the last is in place: start over
        apply(root, loadSample(root, 1, allowed), 1);
        at = 1;
        ++written;
    }
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const double base = loadSample(root, at, allowed).offset_s;
    for (size_t next = at + 1; next <= total && !stop; ++next) {
        if (count > 0 && written >= static_cast<size_t>(count))
            break;
        auto sample = loadSample(root, next, allowed);
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
