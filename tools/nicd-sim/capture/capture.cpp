// The capture, start to end: read (sample 1, the later samples, the kernel lines), scrub, write
// into a staging directory beside DIR, turn the kernel lines into a journal file, rename into
// place, and tar it. See capture.hpp.
#include "capture/capture.hpp"

#include "capture/capture_scrub.hpp"
#include "capture/capture_sources.hpp"
#include "capture/capture_state.hpp"
#include "capture/host_files.hpp"
#include "capture/kernel_lines.hpp"
#include "capture/scrub_text.hpp"
#include "capture/tree_writer.hpp"
#include "files.hpp"
#include "node_state.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <ctime>
#include <memory>
#include <thread>

namespace nicd::sim::capture {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kToolTimeout{2000};
constexpr const char* kFallbackMachineId = "00000000000000000000000000000001";

std::string utcNow(std::time_t t)
{
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    std::array<char, 32> buf{};
    (void)std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf.data();
}

void checkDestination(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::exists(dir, ec))
        return;
    if (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec))
        throw SimError("capture: " + dir.string() +
                       " already exists and is not an empty directory (choose a new one)");
}

// Holds the simulated source's lock while it is read, so a `nicd-sim run` on it never changes
// a file half way through a sample.
std::unique_ptr<NodeLock> lockSource(const fs::path& src, bool real_node)
{
    if (!real_node && fs::is_directory(simDir(src)))
        return std::make_unique<NodeLock>(src);
    return nullptr;
}

// Hostnames RDMA devices carry in node_desc ("gpu-node-01 mlx5_0"): not captured, but learnt.
void learnNodeDescriptions(const fs::path& src, const CapturedNode& node, HostNames& names)
{
    for (const auto& d : node.devices) {
        auto r = readNodeFile(src / d.ib_rel / "node_desc");
        auto first = r.data.substr(0, r.data.find_first_of(" \t\n"));
        if (!first.empty())
            names.hostnames.push_back(first);
    }
}

std::vector<std::string> nicNames(const CapturedNode& node)
{
    std::vector<std::string> names(node.netdevs.begin(), node.netdevs.end());
    for (const auto& d : node.devices) {
        names.push_back(d.name);
        names.push_back(d.pci_address);
    }
    return names;
}

void describe(Manifest& m, const CapturedNode& node)
{
    for (const auto& d : node.devices)
        m.devices.push_back(d.name);
    m.netdevs.assign(node.netdevs.begin(), node.netdevs.end());
    m.gpus = node.gpus;
}

} // namespace

CaptureResult capture(const fs::path& dir_given, const CaptureOptions& o)
{
    const auto started = Clock::now();
    const auto dir = fs::absolute(dir_given).lexically_normal();
    if (o.samples < 1 || o.samples > kMaxSamples)
        throw SimError(fmt::format("--samples {}: must be from 1 to {}", o.samples, kMaxSamples));
    checkDestination(dir);
    std::error_code ec;
    const auto src = fs::canonical(o.source, ec);
    if (ec || !fs::is_directory(src))
        throw SimError("capture: the source " + o.source.string() + " is not a directory");
    const bool real_node = src == "/";

    CaptureResult result;
    Manifest& m = result.manifest;
    m.nicd_sim_version = NICD_VERSION;
    const std::time_t wall = std::time(nullptr);
    m.captured_at = utcNow(wall);
    m.real_node = real_node;
    m.scrubbed = !o.keep_identifiers;
    m.samples = o.samples;
    m.interval_ms = o.samples > 1 ? o.interval_ms : 0;

    auto tools = real_node ? kernelToolOutputs(kToolTimeout) : simulatedToolOutputs(src);
    CaptureTree tree;
    SysfsWalk walk(src, tree, m, o.counter_deadline);
    CapturedNode node;
    ToolCapture captured;
    HostNames names;
    {
        auto lock = lockSource(src, real_node);
        node = walk.run(o.devices);
        captured = captureToolOutputs(*tools, node, tree, m);
        names = captureHostFiles(src, real_node, node, tree, m);
    }
    learnNodeDescriptions(src, node, names);
    auto previous = sampleOf(tree, node, captured, 0);
    tree.file(samplePath(1), formatSample(previous));
    for (int k = 2; k <= o.samples; ++k) {
        std::this_thread::sleep_until(started + std::chrono::milliseconds(o.interval_ms) * (k - 1));
        auto lock = lockSource(src, real_node);
        const double offset = std::chrono::duration<double>(Clock::now() - started).count();
        auto t = readSampleSources(walk, *tools, node, captured, m);
        m.sample_offsets.push_back(offset);
        auto sample = sampleOf(t, node, captured, offset);
        tree.file(samplePath(static_cast<size_t>(k)), formatSample(changedSince(previous, sample)));
        previous = std::move(sample);
    }
    auto lines = readKernelEntries(src, names.boot_id, nicNames(node), m);
    for (auto& h : journalHostnames(src))
        names.hostnames.push_back(std::move(h));

    IdentifierMap ids(o.keep_identifiers);
    scrubCapture(tree, lines, names, ids);
    const auto machine_id = names.machine_id.size() == 32 ? ids.machineId(names.machine_id)
                                                          : std::string(kFallbackMachineId);
    const auto hostname =
        names.hostnames.empty() ? std::string("localhost") : ids.hostname(names.hostnames.front());
    tree.file(kKernelExportFile, journalExport(lines, names.boot_id, machine_id, hostname),
              Scrub::Done);
    tree.file(std::string(kCaptureDir) + "/position", "1\n", Scrub::Done);
    m.kernel_lines = lines.size();
    describe(m, node);

    const auto staging =
        dir.parent_path() / fmt::format(".{}.partial-{}", dir.filename().string(), ::getpid());
    fs::remove_all(staging, ec);
    try {
        writeTree(tree, staging);
        captureState(node, tree, captured.ethtool, src).save(staging);
        if (!lines.empty()) {
            const auto journal =
                fmt::format("var/log/journal/{}/capture-kernel.journal", machine_id);
            auto why = writeJournalFile(staging / kKernelExportFile, staging / journal);
            if (why.empty())
                m.journal_file = journal;
            else
                m.skip("journal file", "", why);
        }
        m.duration_s = std::chrono::duration<double>(Clock::now() - started).count();
        writeText(staging, staging / kManifestFile,
                  replaceKnownForms(m.toJson(), ids.knownForms()));
        fs::remove(dir, ec); // an empty directory in the way
        fs::rename(staging, dir);
    } catch (...) {
        fs::remove_all(staging, ec);
        throw;
    }
    result.dir = dir;
    if (o.tar) {
        result.tarball = dir.string() + ".tar.gz";
        if (auto why = writeTarball(dir, result.tarball, wall); !why.empty())
            throw SimError("capture: " + dir.string() + " is complete, but " +
                           result.tarball.string() + " could not be written: " + why);
    }
    return result;
}

} // namespace nicd::sim::capture
