// The capture, start to end: walk the devices, read the host files, read the samples (each by
// the same pass, stamped when it was half done), the kernel lines; scrub; write into a private
// staging directory beside DIR, turn the kernel lines into a journal file, rename into place,
// and tar it. See capture.hpp.
#include "capture/capture.hpp"

#include "capture/capture_scrub.hpp"
#include "capture/capture_sources.hpp"
#include "capture/capture_state.hpp"
#include "capture/host_files.hpp"
#include "capture/kernel_lines.hpp"
#include "capture/neighbors_capture.hpp"
#include "capture/scrub_text.hpp"
#include "capture/source_lock.hpp"
#include "capture/tree_writer.hpp"
#include "files.hpp"
#include "node_state.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
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

// DIR as given ("/tmp/cap/", "cap/.") made absolute, without "." or a trailing separator.
fs::path destinationOf(const fs::path& given)
{
    std::error_code ec;
    auto dir = fs::absolute(given, ec).lexically_normal();
    if (ec)
        throw SimError("capture: " + given.string() + ": " + ec.message());
    if (!dir.has_filename() && dir.has_relative_path())
        dir = dir.parent_path();
    if (!dir.has_relative_path() || dir.filename() == "..")
        throw SimError("capture: " + given.string() + " names no directory a capture can go in");
    return dir;
}

void checkDestination(const fs::path& dir, bool tar)
{
    std::error_code ec;
    auto st = fs::symlink_status(dir, ec);
    if (fs::exists(st) && (!fs::is_directory(st) || !fs::is_empty(dir, ec) || ec))
        throw SimError("capture: " + dir.string() +
                       " already exists and is not an empty directory (choose a new one)");
    const fs::path tarball = dir.string() + ".tar.gz";
    if (tar && fs::exists(fs::symlink_status(tarball, ec)))
        throw SimError("capture: " + tarball.string() +
                       " already exists (remove it, or choose another DIR)");
}

NodeKind kindOf(const fs::path& src)
{
    if (src == "/")
        return NodeKind::Real;
    std::error_code ec; // a regular file, not a FIFO or link there (a hostile tree)
    return fs::is_regular_file(fs::symlink_status(simDir(src) / "state.json", ec))
               ? NodeKind::Simulated
               : NodeKind::RealTree;
}

DeviceReads::ToolsFactory toolsFor(NodeKind kind, const fs::path& src,
                                   std::shared_ptr<const FileReader> reader,
                                   std::chrono::milliseconds timeout)
{
    switch (kind) {
    case NodeKind::Real:
        return [timeout] { return kernelToolOutputs(std::min(timeout, kToolTimeout)); };
    case NodeKind::Simulated:
        return [src, reader] { return simulatedToolOutputs(src, reader); };
    case NodeKind::RealTree:
        break;
    }
    return [] { return unavailableToolOutputs(); };
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

// Reads the samples into `tree`: sample 1's files into the tree itself (it holds sample 1), each
// sample's file with what changed since the one before. Sample k's reads start when its stamp is
// due (sample 1's plus k - 1 intervals), so a sample is never early, and late by half its reads.
void readSamples(const fs::path& src, DeviceReads& reads, CapturedNode& node, ToolCapture& captured,
                 const CaptureOptions& o, CaptureTree& tree, Manifest& m)
{
    Clock::time_point first_at;
    CaptureSample previous;
    for (int k = 1; k <= o.samples; ++k) {
        if (k > 1)
            std::this_thread::sleep_until(first_at +
                                          std::chrono::milliseconds(o.interval_ms) * (k - 1));
        SourceLock lock(src);
        const auto begin = Clock::now();
        auto t = reads.sample(node, captured, k == 1);
        const auto at = begin + (Clock::now() - begin) / 2; // its reads were half done
        if (k == 1) {
            first_at = at;
            for (auto& [rel, e] : t.entries())
                tree.entries()[rel] = e;
        }
        const double offset = std::chrono::duration<double>(at - first_at).count();
        m.sample_offsets.push_back(offset);
        auto sample = sampleOf(t, node, captured, offset);
        tree.file(samplePath(static_cast<size_t>(k)),
                  formatSample(k == 1 ? sample : changedSince(previous, sample)));
        previous = std::move(sample);
    }
}

// Renames the staging directory to DIR; when DIR filled up meanwhile (a long --samples run),
// to a new directory beside it instead, saying so in `moved`.
fs::path moveIntoPlace(const fs::path& staging, const fs::path& dir, std::string& moved)
{
    if (::rename(staging.c_str(), dir.c_str()) == 0) // DIR absent, or an empty directory
        return dir;
    const int err = errno;
    if (err != ENOTEMPTY && err != EEXIST && err != ENOTDIR && err != EISDIR)
        throw SimError("capture: cannot rename " + staging.string() + " to " + dir.string() + ": " +
                       std::strerror(err));
    std::string name = dir.string() + ".XXXXXX";
    if (::mkdtemp(name.data()) == nullptr || ::rename(staging.c_str(), name.c_str()) != 0)
        throw SimError("capture: " + dir.string() + " is in the way and no place beside it: " +
                       std::strerror(errno) + "; the capture is in " + staging.string());
    moved = dir.string() + " was no longer empty when the capture ended";
    return name;
}

fs::path makeStaging(const fs::path& dir)
{
    std::string name = (dir.parent_path() / ("." + dir.filename().string() + ".partial-XXXXXX"));
    if (::mkdtemp(name.data()) == nullptr) // 0700: the capture's top, private
        throw SimError("capture: cannot create a directory beside " + dir.string() + ": " +
                       std::strerror(errno));
    return name;
}

} // namespace

CaptureResult capture(const fs::path& dir_given, const CaptureOptions& o)
{
    const auto started = Clock::now();
    const auto dir = destinationOf(dir_given);
    if (o.samples < 1 || o.samples > kMaxSamples)
        throw SimError(fmt::format("--samples {}: must be from 1 to {}", o.samples, kMaxSamples));
    if (o.timeout <= std::chrono::milliseconds(0) || o.timeout > kMaxTimeout)
        throw SimError(
            fmt::format("--timeout: must be above 0 and at most {} s", kMaxTimeout.count() / 1000));
    checkDestination(dir, o.tar);
    std::error_code ec;
    const auto src = fs::canonical(o.source, ec);
    if (ec || !fs::is_directory(src, ec))
        throw SimError("capture: the source " + o.source.string() + " is not a directory");
    const auto kind = kindOf(src);

    CaptureResult result;
    Manifest& m = result.manifest;
    m.nicd_sim_version = NICD_VERSION;
    const std::time_t wall = std::time(nullptr);
    m.captured_at = utcNow(wall);
    m.kind = kind;
    m.scrubbed = !o.keep_identifiers;
    m.samples = o.samples;
    m.interval_ms = o.samples > 1 ? o.interval_ms : 0;
    m.timeout_ms = static_cast<long>(o.timeout.count());
    m.sample_offsets.clear();
    if (kind == NodeKind::RealTree)
        m.skip("tool outputs", "",
               "ethtool and FEC statistics, module EEPROMs, DCB and devlink health come from the "
               "kernel, and only for / (whose kernel it is): capture in the node's namespaces "
               "(nsenter -t 1 -a nicd-sim capture DIR) to have them");

    auto root = std::make_shared<const NodeRoot>(src);
    auto reader = std::make_shared<const FileReader>(
        o.read_file ? o.read_file
                    : FileReader([root](const fs::path& f) { return root->read(f); }));
    CaptureTree tree;
    SysfsWalk walk(root, tree, m, reader);
    DeviceReads reads(walk, toolsFor(kind, src, reader, o.timeout), o.timeout, m);
    CapturedNode node;
    HostNames names;
    {
        SourceLock lock(src);
        node = reads.walk(walk.deviceNames(o.devices), tree);
        names = captureHostFiles(*root, kind, node, tree, m);
        // The twin of a 512-port node is near 1 MiB: read up to what nicd reads.
        const FileReader twin_reader =
            o.read_file ? o.read_file : FileReader([root](const fs::path& f) {
                return root->read(f, kMaxNeighborsTwin);
            });
        captureNeighbors(kind, src, twin_reader, std::min(o.timeout, kToolTimeout), tree, m);
    }
    for (const auto& d : node.devices)
        if (!d.node_desc_host.empty())
            names.hostnames.push_back(d.node_desc_host);
    ToolCapture captured;
    readSamples(src, reads, node, captured, o, tree, m);
    auto lines = readKernelEntries(src, names.boot_id, nicNames(node), m);
    for (auto& h : journalHostnames(src))
        names.hostnames.push_back(std::move(h));

    // The simulator's state names the devices and netdevs: scrubbed with the rest.
    tree.file("run/nicd-sim/state.json", captureState(node, tree, captured.ethtool, src).text(),
              Scrub::Known);
    IdentifierMap ids(o.keep_identifiers);
    scrubCapture(tree, lines, names, ids, m);
    const auto machine_id = names.machine_id.size() == 32 ? ids.machineId(names.machine_id)
                                                          : std::string(kFallbackMachineId);
    const auto hostname =
        names.hostnames.empty() ? std::string("localhost") : ids.hostname(names.hostnames.front());
    tree.file(kKernelExportFile,
              journalExport(lines, ids.bootId(names.boot_id), machine_id, hostname), Scrub::Done);
    tree.file(std::string(kCaptureDir) + "/position", "1\n", Scrub::Done);
    m.kernel_lines = lines.size();
    describe(m, node);

    const auto staging = makeStaging(dir);
    try {
        writeTree(tree, staging);
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
        result.dir = moveIntoPlace(staging, dir, result.moved);
    } catch (...) {
        fs::remove_all(staging, ec);
        throw;
    }
    if (o.tar) {
        result.tarball = result.dir.string() + ".tar.gz";
        if (auto why = writeTarball(result.dir, result.tarball, wall); !why.empty())
            throw SimError("capture: " + result.dir.string() + " is complete, but " +
                           result.tarball.string() + " could not be written: " + why);
    }
    return result;
}

} // namespace nicd::sim::capture
