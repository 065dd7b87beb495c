// The nicd-sim command line, run as a user would: exit status, messages naming what is wrong,
// and the run loop's stop on SIGTERM.
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using test::readFile;

namespace {

class SimCliTest : public test::SimDirTest {
protected:
    // Runs nicd-sim with `args`; returns its exit status, stdout+stderr in `out_`.
    int sim(const std::string& args)
    {
        auto out = dir_.parent_path() / (dir_.filename().string() + ".out");
        int rc = std::system(
            (std::string(NICD_SIM_BIN) + " " + args + " >" + out.string() + " 2>&1").c_str());
        out_ = readFile(out);
        fs::remove(out);
        return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    }
    std::string node() const { return (dir_ / "node").string(); }
    std::string out_;
};

} // namespace

TEST_F(SimCliTest, CommandsAndFaults)
{
    ASSERT_EQ(sim("create " + node()), 0) << out_;
    ASSERT_EQ(sim("list " + node()), 0) << out_;
    EXPECT_NE(out_.find("mlx5_bond_0   lag  1:ACTIVE"), std::string::npos) << out_;
    ASSERT_EQ(sim("inject " + node() + " link-down mlx5_1"), 0) << out_;
    ASSERT_EQ(sim("inject " + node() + " errors mlx5_0 symbol_error 7 --port 1"), 0) << out_;
    ASSERT_EQ(sim("inject " + node() + " rate mlx5_0 rx_discards_phy 2.5"), 0) << out_;
    ASSERT_EQ(sim("tick " + node() + " --seconds 2"), 0) << out_;
    EXPECT_EQ(sim::counterValue(node(), "mlx5_0", "symbol_error"), 7U);
    EXPECT_EQ(sim::counterValue(node(), "mlx5_0", "rx_discards_phy"), 5U);
    EXPECT_EQ(readFile(dir_ / "node/sys/class/net/ens2f0np0/operstate"), "down\n");
    ASSERT_EQ(sim("inject " + node() + " flap mlx5_2 --times 2"), 0) << out_;
    EXPECT_EQ(sim::counterValue(node(), "mlx5_2", "link_downed"), 2U);
    ASSERT_EQ(sim("inject " + node() + " flap mlx5_2 --times 1 --down-sec 0.05 --up-sec 0"), 0)
        << out_;
    EXPECT_EQ(sim::counterValue(node(), "mlx5_2", "link_downed"), 3U);
    ASSERT_EQ(sim("inject " + node() + " link-drop mlx5_2 --port 1"), 0) << out_;
    EXPECT_EQ(readFile(dir_ / "node/sys/class/infiniband/mlx5_2/ports/1/phys_state"),
              "2: Polling\n");
    ASSERT_EQ(sim("inject " + node() + " link-drop-clear mlx5_2"), 0) << out_;
    EXPECT_EQ(sim::counterValue(node(), "mlx5_2", "link_downed"), 3U) << "a drop moves nothing";
    ASSERT_EQ(sim("inject " + node() + " wrap mlx5_0 rx_write_requests"), 0) << out_;
    EXPECT_EQ(sim::counterValue(node(), "mlx5_0", "rx_write_requests"), sim::kWrapStart);
    ASSERT_EQ(sim("inject " + node() + " reset-counters mlx5_0"), 0) << out_;
    EXPECT_EQ(sim::counterValue(node(), "mlx5_0", "symbol_error"), 0U);
    ASSERT_EQ(sim("inject " + node() + " remove mlx5_3"), 0) << out_;
    EXPECT_FALSE(fs::exists(dir_ / "node/sys/class/infiniband/mlx5_3"));
    ASSERT_EQ(sim("inject " + node() + " restore mlx5_3"), 0) << out_;
    ASSERT_EQ(sim("inject " + node() + " stall mlx5_3"), 0) << out_;
    ASSERT_EQ(sim("inject " + node() + " unstall mlx5_3"), 0) << out_;
    ASSERT_EQ(sim("inject " + node() + " rename mlx5_3 rocep93s0f0"), 0) << out_;
    EXPECT_TRUE(fs::exists(dir_ / "node/sys/class/infiniband/rocep93s0f0/ports/1/state"));
    ASSERT_EQ(sim("create " + node() + " --force --devices 4 --driver-ready"), 0) << out_;
    EXPECT_TRUE(fs::exists(dir_ / "node/run/mellanox/drivers/.driver-ready"));
    EXPECT_EQ(sim::list(node()).size(), 4U);
}

TEST_F(SimCliTest, FailuresExitNonZeroAndSayWhat)
{
    EXPECT_NE(sim("tick " + node()), 0);
    EXPECT_NE(out_.find("no simulated node at " + node()), std::string::npos) << out_;
    EXPECT_FALSE(fs::exists(node())); // nothing was created by the failed command
    ASSERT_EQ(sim("create " + node()), 0) << out_;
    EXPECT_NE(sim("create " + node()), 0);
    EXPECT_NE(out_.find("already holds a node"), std::string::npos) << out_;
    EXPECT_NE(sim("inject " + node() + " link-down mlx5_42"), 0);
    EXPECT_NE(out_.find("no simulated device 'mlx5_42'"), std::string::npos) << out_;
    EXPECT_NE(sim("inject " + node() + " errors mlx5_0 bogus_counter 1"), 0);
    EXPECT_NE(out_.find("mlx5_0 port 1 has no counter 'bogus_counter'"), std::string::npos) << out_;
    EXPECT_NE(sim("inject " + node() + " rename mlx5_0 mlx5_1"), 0);
    EXPECT_NE(out_.find("mlx5_1 is already the name of a device"), std::string::npos) << out_;
    EXPECT_NE(sim("inject " + node() + " rename mlx5_0"), 0); // NEW missing
    EXPECT_NE(sim("inject " + node() + " no-such-fault mlx5_0"), 0);
    EXPECT_NE(sim("inject " + node() + " errors mlx5_0 symbol_error"), 0); // N missing
    EXPECT_NE(sim("create " + node() + "2 --devices 0"), 0);
}

TEST_F(SimCliTest, RunTicksUntilCountOrSigterm)
{
    ASSERT_EQ(sim("create " + node()), 0) << out_;
    ASSERT_EQ(sim("run " + node() + " --interval-ms 10 --count 3"), 0) << out_;
    auto after_count = sim::counterValue(node(), "mlx5_0", "port_rcv_data");
    EXPECT_GT(after_count, 0U);

    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::execl(NICD_SIM_BIN, NICD_SIM_BIN, "run", node().c_str(), "--interval-ms", "20",
                static_cast<char*>(nullptr));
        ::_exit(127);
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (sim::counterValue(node(), "mlx5_0", "port_rcv_data") == after_count &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_GT(sim::counterValue(node(), "mlx5_0", "port_rcv_data"), after_count);
    ::kill(pid, SIGTERM);
    int status = 0;
    bool reaped = false;
    for (int i = 0; i < 200 && !reaped; ++i) {
        reaped = ::waitpid(pid, &status, WNOHANG) == pid;
        if (!reaped)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!reaped) { // still running: fail, and do not leak it
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        FAIL() << "nicd-sim run did not stop on SIGTERM";
    }
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
