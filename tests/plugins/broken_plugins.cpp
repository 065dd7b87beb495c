// Deliberately broken plugins, one per case, each built into its own directory. The behaviour
// is chosen at compile time with NICD_TEST_CASE; NICD_TEST_DESCRIPTOR breaks one descriptor
// field, NICD_TEST_NULL_DESCRIPTOR returns none, NICD_TEST_NO_ENTRY exports no entry symbol,
// NICD_TEST_MARK_ON_LOAD runs code as the file is loaded (before nicd can check anything).
#include <nicd/plugin/declare.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace pv1 = nicd::plugin::v1;

#define NICD_CASE_GOOD 1
#define NICD_CASE_CTOR_THROWS 2
#define NICD_CASE_INIT_FAILS 3
#define NICD_CASE_POLL_FAILS 4
#define NICD_CASE_OLD_QOS 5 // writes a host knob itself, as plugins before ABI 1.4 do
// Classifies every line with "Fatal" in it (built as an ABI 1.3 one).
#define NICD_CASE_KERNEL_LINES 6
// Recognises every multi-line report (built as an ABI 1.4 one, and as one of this ABI).
#define NICD_CASE_KERNEL_REPORTS 7
// Says what its series mean (built as an ABI 1.5 one, and as one of 1.4): see describeLayout.
#define NICD_CASE_MEANINGS 8
// Says what it is and what its devices are (built as an ABI 1.6 one, and as one of 1.5): see
// describePlugin and describeDevice.
#define NICD_CASE_TRAITS 9

namespace {

class TestPlugin final : public pv1::IPlugin {
public:
    explicit TestPlugin(pv1::IHost& host) : host_(host)
    {
#if NICD_TEST_CASE == NICD_CASE_CTOR_THROWS
        throw std::runtime_error("constructor refuses");
#endif
    }
    pv1::Status init() noexcept override
    {
#if NICD_TEST_CASE == NICD_CASE_INIT_FAILS
        return pv1::Status::fail(pv1::Errc::NotSupported, "no supported hardware found by init");
#else
        return pv1::Status::ok();
#endif
    }
    bool claims(const pv1::DeviceRef& dev) const noexcept override
    {
        return dev.driver == "mlx5_core";
    }
    pv1::Status attach(const pv1::DeviceRef&) noexcept override
    {
        return pv1::Status::ok();
    }
    void detach(const pv1::DeviceRef&) noexcept override {}
    pv1::Status poll(const pv1::DeviceRef& dev, std::vector<pv1::Sample>& out) noexcept override
    {
        (void)dev;
#if NICD_TEST_CASE == NICD_CASE_POLL_FAILS
        // The test steers each device's outcome with marker files: <FailDir>/<ibdev> fails the
        // poll outright, <PartialDir>/<ibdev> returns a sample and an error, <HangDir>/<ibdev>
        // does not return while the marker is there (a plugin stuck in a firmware command).
        while (marked("HangDir", dev.ibdev))
            usleep(10'000);
        if (marked("FailDir", dev.ibdev))
            return pv1::Status::fail(pv1::Errc::Io, dev.ibdev + ": simulated read failure");
        if (marked("PartialDir", dev.ibdev)) {
            out.push_back({"test", 1, "", "partial", 1, pv1::SampleKind::Counter});
            return pv1::Status::fail(pv1::Errc::Io, dev.ibdev + ": simulated partial read");
        }
#endif
#if NICD_TEST_CASE == NICD_CASE_MEANINGS
        // Another vendor's names for what mlx5 calls local_ack_timeout_err and
        // rx_prio3_pause_duration, a meaning from a newer SDK, a priority out of range, and how
        // often the daemon asked.
        out.push_back({"hw_counters", 1, "", "to_retransmits", polls_, pv1::SampleKind::Counter});
        out.push_back(
            {"ethtool", 1, "eth0", "rx_pfc_pause_us_3", polls_, pv1::SampleKind::Counter});
        out.push_back({"hw_counters", 1, "", "from_the_future", 1, pv1::SampleKind::Counter});
        out.push_back({"ethtool", 1, "eth0", "rx_pfc_frames_9", 1, pv1::SampleKind::Counter});
        out.push_back({"test", 1, "", "describe_calls", describe_calls_, pv1::SampleKind::Gauge});
#endif
        out.push_back({"test", 1, "", "polls", ++polls_, pv1::SampleKind::Counter});
        return pv1::Status::ok();
    }
    pv1::Status verifyQos(const pv1::DeviceRef&, const pv1::PortRef&, const pv1::QosDesired&,
                          pv1::QosReport& out) noexcept override
    {
#if NICD_TEST_CASE == NICD_CASE_OLD_QOS
        out.settings.push_back({"ecn_np", "3", "none", false, false, ""});
        return pv1::Status::ok();
#else
        (void)out;
        return pv1::Status::fail(pv1::Errc::NotSupported, "test plugin");
#endif
    }
    pv1::Status applyQos(const pv1::DeviceRef& dev, const pv1::PortRef& port,
                         const pv1::QosDesired&, pv1::QosReport& out) noexcept override
    {
#if NICD_TEST_CASE == NICD_CASE_OLD_QOS
        // ECN's notification point on priority 3 of the port's netdevs, written straight.
        for (const auto& nd : port.netdevs) {
            auto file = host_.root() + "/sys/class/net/" + nd + "/ecn/roce_np/enable/3";
            int fd = ::open(file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
            bool ok = fd >= 0 && ::write(fd, "1\n", 2) == 2;
            std::string error = ok ? "" : file + ": " + std::strerror(errno);
            if (fd >= 0)
                ::close(fd);
            out.settings.push_back({"ecn_np", "3", ok ? "3" : "", ok, ok, error});
            if (!ok)
                return pv1::Status::fail(pv1::Errc::PermissionDenied, error, EACCES);
        }
        (void)dev;
        return pv1::Status::ok();
#else
        (void)dev;
        (void)port;
        (void)out;
        return pv1::Status::fail(pv1::Errc::NotSupported, "test plugin");
#endif
    }
    bool classifyKernelLine(std::string_view line,
                            pv1::KernelLineMatch& out) const noexcept override
    {
#if NICD_TEST_CASE == NICD_CASE_KERNEL_LINES
        if (line.find("Fatal") == std::string_view::npos)
            return false;
        out.code = "test.fatal";
        out.message = "a fatal line";
        out.action = "none";
        return true;
#else
        (void)line;
        (void)out;
        return false;
#endif
    }
#if NICD_TEST_CASE == NICD_CASE_KERNEL_LINES
    // What this plugin would answer were it asked as one of ABI 1.4: everything. Its descriptor
    // says 1.3, so the daemon must not ask.
    bool classifyKernelRecord(const pv1::KernelRecord&,
                              pv1::KernelLineMatch& out) const noexcept override
    {
        out.code = "test.any";
        return true;
    }
#endif
#if NICD_TEST_CASE == NICD_CASE_KERNEL_REPORTS
    // Built against this SDK, so its vtable has the slot; a plugin really built for ABI 1.4 has
    // none, and the daemon must not call past the end of its vtable: a descriptor saying 1.4
    // means this is never asked.
    bool classifyKernelReport(const pv1::KernelReport& report,
                              pv1::KernelLineMatch& out) const noexcept override
    {
        out.code = "test.report";
        out.message = std::string(report.kind) + ": " + std::string(report.header);
        return true;
    }
#endif
#if NICD_TEST_CASE == NICD_CASE_MEANINGS
    // The series of poll() in its order, one fewer than there are (the rest None). Built against
    // this SDK, so its vtable has the slot; a descriptor saying 1.4 means it is never asked.
    void describeLayout(const pv1::SampleLayout& layout,
                        std::vector<pv1::SeriesMeaning>& out) const noexcept override
    {
        ++describe_calls_;
        for (const auto& k : layout.series) {
            if (k.name == "to_retransmits")
                out.push_back({pv1::Meaning::LocalAckTimeout, pv1::kNoPriority, false});
            else if (k.name == "rx_pfc_pause_us_3")
                out.push_back({pv1::Meaning::RxPauseDuration, 3, true});
            else if (k.name == "from_the_future")
                out.push_back({static_cast<pv1::Meaning>(999), pv1::kNoPriority, false});
            else if (k.name == "rx_pfc_frames_9")
                out.push_back({pv1::Meaning::RxPauseFrames, 9, true});
        }
    }
#endif
#if NICD_TEST_CASE == NICD_CASE_TRAITS
    // A ready file ([plugin:<name>] ReadyFile= replaces it), a reporter of each meaning, one not
    // named as devlink names reporters, a meaning from a newer SDK and a reporter said twice;
    // mlx5_1 is a LAG. Built
    // against this SDK, so its vtable has the slots; a descriptor saying 1.5 means they are
    // never asked.
    void describePlugin(pv1::PluginTraits& out) const noexcept override
    {
        out.driver_ready_file = host_.config("ReadyFile").value_or("/run/test-driver/.ready");
        out.reporters = {{"fw", pv1::ReporterMeaning::FirmwareFatal},
                         {"health", pv1::ReporterMeaning::FirmwareError},
                         {"tx", pv1::ReporterMeaning::Recoverable},
                         {"fw reset\n", pv1::ReporterMeaning::FirmwareFatal},
                         {"future", static_cast<pv1::ReporterMeaning>(99)},
                         { "fw",
                           pv1::ReporterMeaning::Recoverable }};
    }
    void describeDevice(const pv1::DeviceRef& dev, pv1::DeviceTraits& out) const noexcept override
    {
        out.lag = dev.ibdev == "mlx5_1";
    }
#endif
    void shutdown() noexcept override {}

private:
    bool marked(const char* key, const std::string& ibdev) const
    {
        auto dir = host_.config(key);
        return dir && access((*dir + "/" + ibdev).c_str(), F_OK) == 0;
    }

    pv1::IHost& host_;
    uint64_t polls_ = 0;
    [[maybe_unused]] mutable uint64_t describe_calls_ = 0; // only some variants count
};

#if defined(NICD_TEST_MARK_ON_LOAD)
// What a plugin planted by someone else would do: run as soon as dlopen maps it.
__attribute__((constructor)) void markLoaded()
{
    if (const char* marker = std::getenv("NICD_TEST_MARKER")) {
        int fd = ::open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0)
            ::close(fd);
    }
}
#endif

// The keys of the test plugins' sections (ABI 1.7).
constexpr nicd_plugin_setting_v1 kTestSettings[] = {
    {"ReadyFile", "path", "the driver ready file it reports"},
    {"HangDir", "path", "a poll of a device named by a file here hangs"},
    {"FailDir", "path", "a poll of a device named by a file here fails"},
    {"PartialDir", "path", "a poll of a device named by a file here is partial"},
    {nullptr, nullptr, nullptr}};

} // namespace

#if defined(NICD_TEST_NULL_DESCRIPTOR)
extern "C" __attribute__((visibility("default"))) const nicd_plugin_descriptor_v1*
nicd_plugin_entry_v1() noexcept
{
    return nullptr;
}
#elif defined(NICD_TEST_DESCRIPTOR)
// Hand-written descriptors that break one rule each.
extern "C" __attribute__((visibility("default"))) const nicd_plugin_descriptor_v1*
nicd_plugin_entry_v1() noexcept
{
    static nicd_plugin_descriptor_v1 d{
        sizeof(nicd_plugin_descriptor_v1),
        NICD_PLUGIN_ABI_MAJOR,
        NICD_PLUGIN_ABI_MINOR,
        NICD_TEST_NAME,
        "0.0.1",
        NICD_PLUGIN_TOOLCHAIN,
        [](pv1::IHost* h) noexcept -> pv1::IPlugin* { return new TestPlugin(*h); },
        [](pv1::IPlugin* p) noexcept { delete static_cast<TestPlugin*>(p); },
        kTestSettings};
    NICD_TEST_DESCRIPTOR;
    return &d;
}
#elif !defined(NICD_TEST_NO_ENTRY)
NICD_DECLARE_PLUGIN_WITH_SETTINGS(TestPlugin, NICD_TEST_NAME, "0.0.1", kTestSettings)
#endif
