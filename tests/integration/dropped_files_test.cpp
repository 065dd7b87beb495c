// Counter files the firmware refuses, on a simulated node (`nicd-sim inject refuse`: EACCES for
// nicd, which runs without CAP_DAC_OVERRIDE as its unit does): the daemon's IB PMA counters/ file
// and the mlx5 plugin's hw_counters/ file are each tried on the backoff's schedule, dropped at
// the third refusal in a row, said once in the log with the file and errno, counted in
// nicd_dropped_files, and never opened again (strace attached to the running daemon sees no
// access to them while the files beside them are read every cycle); readable again, they stay
// dropped until a reload reads them again.
#include "support/daemon_fixture.hpp"

#include <signal.h>

#include <sstream>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
using nicd::test::DaemonTest;
namespace fs = std::filesystem;

namespace {

// Lines of `trace` (strace -y) that touch file `name` of directory `dir`: an openat of it
// relative to the directory, or a read of a descriptor of it.
size_t touches(const fs::path& trace, const std::string& dir, const std::string& name)
{
    std::istringstream in(test::readFile(trace));
    size_t n = 0;
    for (std::string line; std::getline(in, line);)
        n += line.find(dir + "/" + name + ">") != std::string::npos ||
                     line.find(dir + ">, \"" + name + "\"") != std::string::npos
                 ? 1
                 : 0;
    return n;
}

} // namespace

TEST_F(DaemonTest, RefusedCounterFilesAreDroppedAndNotReadAgainUntilAReload)
{
    std::string out;
    if (geteuid() != 0 || test::run({"strace", "-V"}, out) != 0)
        GTEST_SKIP() << "needs root (setpriv --bounding-set, strace -p) and strace";
    for (const char* counter : {"symbol_error", "out_of_buffer"})
        sim::refuseCounter(root_, "mlx5_0", counter, true);
    // The unit's capabilities in this respect: no CAP_DAC_OVERRIDE, no CAP_DAC_READ_SEARCH.
    auto argv = nicd({});
    argv.insert(argv.begin(),
                {"setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"});
    const auto log = dir_ / "nicd.log";
    test::Process daemon(argv, {}, log);
    // counters/ at PmaIntervalMs=1000: tried at reads 1, 3 and 6.
    ASSERT_TRUE(textfileShows("nicd_dropped_files{device=\"mlx5_0\"} 2", 20s))
        << test::readFile(log);
    // A device that dropped nothing has no series (Counters=all: 0).
    EXPECT_EQ(textfileText().find("nicd_dropped_files{device=\"mlx5_1\"}"), std::string::npos);
    const std::string said = "refused 3 reads in a row; dropped, not read again until nicd is "
                             "reloaded or the node reboots";
    const auto text = test::readFile(log);
    EXPECT_NE(text.find("ports/1/counters: symbol_error (Permission denied): " + said),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("ports/1/hw_counters/out_of_buffer: Permission denied: " + said),
              std::string::npos)
        << text;
    size_t times = 0;
    for (size_t at = text.find(said); at != std::string::npos; at = text.find(said, at + 1))
        ++times;
    EXPECT_EQ(times, 2U) << "each file said once";

    // Three PMA reads and some fifteen polls later: never touched, while their neighbours are
    // read (counted loosely: a sanitizer build under strace on a busy machine polls less often).
    const auto trace = dir_ / "strace.out";
    test::Process strace({"strace", "-f", "-y", "-qq", "-e", "trace=openat,read,pread64", "-o",
                          trace.string(), "-p", std::to_string(daemon.pid())});
    std::this_thread::sleep_for(3500ms);
    strace.signal(SIGINT);
    ASSERT_GE(strace.wait(10s), 0) << "strace detached";
    const std::string pma = "mlx5_0/ports/1/counters", hw = "mlx5_0/ports/1/hw_counters";
    EXPECT_EQ(touches(trace, pma, "symbol_error"), 0U);
    EXPECT_EQ(touches(trace, hw, "out_of_buffer"), 0U);
    EXPECT_GE(touches(trace, pma, "port_rcv_data"), 1U) << test::readFile(trace).substr(0, 3000);
    EXPECT_GE(touches(trace, hw, "rx_write_requests"), 3U);

    // Readable again: still dropped (nothing reads them to see), until a reload.
    for (const char* counter : {"symbol_error", "out_of_buffer"})
        sim::refuseCounter(root_, "mlx5_0", counter, false);
    std::this_thread::sleep_for(1500ms);
    EXPECT_TRUE(textfileShows("nicd_dropped_files{device=\"mlx5_0\"} 2", 1s));
    daemon.signal(SIGHUP);
    EXPECT_TRUE(test::waitFor(
        [&] {
            return textfileText().find("nicd_dropped_files{device=\"mlx5_0\"}") ==
                   std::string::npos;
        },
        10s))
        << "read again after the reload: none dropped";
    EXPECT_TRUE(textfileShows(
        "nicd_ib_port_pma_total{device=\"mlx5_0\",port=\"1\",counter=\"symbol_error\"}", 10s));
    EXPECT_TRUE(textfileShows(
        "nicd_port_hw_stat_total{device=\"mlx5_0\",port=\"1\",counter=\"out_of_buffer\"}", 10s));
    daemon.signal(SIGTERM);
    EXPECT_EQ(daemon.wait(10s), 0);
}
