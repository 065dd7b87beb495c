// RoCE QoS over D-Bus: Apply and Verify through nicctl on a private bus, many Verify calls at
// once sharing rounds, and a dry-run Apply in enforce mode.
#include "support/provisioning_fixture.hpp"

#include <systemd/sd-bus.h>

#include <regex>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
using test::ProvisioningTest;

TEST_F(ProvisioningTest, ApplyAndVerifyOverDbus)
{
    writeConfig("Mode=verify\n");
    bus_ = std::make_unique<test::PrivateBus>(dir_ / "bus");
    start({"--bus", bus_->address()});
    auto nicctl = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {NICCTL_BIN, "--bus", bus_->address()});
        std::string out;
        int rc = test::run(args, out);
        return std::make_pair(rc, out);
    };
    ASSERT_TRUE(test::waitFor([&] { return nicctl({"verify"}).first != 3; }, 15s))
        << nicctl({"verify"}).second << log();
    auto [rc, out] = nicctl({"--json", "verify"});
    ASSERT_EQ(rc, 1) << "a fresh node is not compliant: " << out;
    auto rows = nlohmann::json::parse(out);
    bool saw = false;
    for (const auto& r : rows)
        if (r["device"] == "mlx5_2" && r["setting"] == "pfc") {
            saw = true;
            EXPECT_EQ(r["desired"], "3");
            EXPECT_EQ(r["observed"], "none");
            EXPECT_FALSE(r["compliant"].get<bool>());
            EXPECT_FALSE(r["changed"].get<bool>());
        }
    EXPECT_TRUE(saw) << out;
    // ECN beside the others: both points read back as off on the fresh driver.
    std::set<std::string> ecn;
    for (const auto& r : rows)
        if (r["device"] == "mlx5_2" && r["setting"].get<std::string>().starts_with("ecn_"))
            ecn.insert(r["setting"].get<std::string>() + " " + r["desired"].get<std::string>() +
                       " " + r["observed"].get<std::string>());
    EXPECT_EQ(ecn, (std::set<std::string>{"ecn_np 3 none", "ecn_rp 3 none"})) << out;
    // Mode=verify: Apply reads but never writes, so the ports stay noncompliant.
    auto [arc, apply] = nicctl({"apply"});
    EXPECT_EQ(arc, 1) << apply;
    EXPECT_NE(dcb("ens3f0np0").find("pfc_en=0\n"), std::string::npos);
    // The port's D-Bus object carries the outcome.
    std::string prop;
    test::run({"busctl", "--address=" + bus_->address(), "get-property", "io.nicd.Nicd1",
               "/io/nicd/Nicd1/device/mlx5_2/port/1", "io.nicd.Nicd1.Port", "QosStatus"},
              prop);
    EXPECT_EQ(prop, "s \"noncompliant\"\n");
    test::run({"busctl", "--address=" + bus_->address(), "get-property", "io.nicd.Nicd1",
               "/io/nicd/Nicd1/device/mlx5_2/port/1", "io.nicd.Nicd1.Port", "QosObserved"},
              prop);
    EXPECT_NE(prop.find("\"ecn_np\" \"none\""), std::string::npos) << prop;
    test::run({"busctl", "--address=" + bus_->address(), "get-property", "io.nicd.Nicd1",
               "/io/nicd/Nicd1/device/mlx5_5/port/1", "io.nicd.Nicd1.Port", "QosStatus"},
              prop);
    EXPECT_EQ(prop, "s \"skipped: virtual function (QoS belongs to its PF)\"\n");
}

// Clients calling Verify all at once (or in a loop) are answered, and the rounds they cause stay
// bounded: calls made while a verify round waits to start share it, so the worker that also runs
// the collection cycles is never queued a round per caller. The calls go out together on one
// connection (sd-bus, asynchronously), so most reach nicd while the first round runs.
TEST_F(ProvisioningTest, ManyVerifyCallsAtOnceShareRounds)
{
    // No periodic round in the count: on a busy machine the calls and the wait for the next
    // publish can outlast a 5 s VerifyIntervalSec.
    writeConfig("Mode=verify\n", 3600);
    bus_ = std::make_unique<test::PrivateBus>(dir_ / "bus");
    start({"--bus", bus_->address()});
    std::string out;
    ASSERT_TRUE(test::waitFor(
        [&] {
            return test::run({NICCTL_BIN, "--bus", bus_->address(), "verify"}, out) == 1;
        },
        15s))
        << out << log();
    auto verifyRounds = [&] {
        std::smatch m;
        auto text = textfile();
        static const std::regex re(R"(nicd_qos_rounds_total\{kind="verify"\} (\d+)\n)");
        return std::regex_search(text, m, re) ? std::stoi(m[1]) : -1;
    };
    // The count before the calls, once the rounds so far are all published: nicctl verify's own
    // round is published paced, after it answered, so a count read at once can miss it.
    int before = -1;
    ASSERT_TRUE(test::waitFor(
        [&] {
            int now = verifyRounds();
            bool settled = now >= 1 && now == before;
            before = now;
            if (!settled)
                std::this_thread::sleep_for(500ms); // longer than a paced publish waits (250 ms)
            return settled;
        },
        15s))
        << textfile();

    sd_bus* bus = nullptr;
    ASSERT_GE(sd_bus_new(&bus), 0);
    std::unique_ptr<sd_bus, decltype(&sd_bus_flush_close_unref)> owned(bus,
                                                                       &sd_bus_flush_close_unref);
    ASSERT_GE(sd_bus_set_address(bus, bus_->address().c_str()), 0);
    ASSERT_GE(sd_bus_set_bus_client(bus, 1), 0);
    ASSERT_GE(sd_bus_start(bus), 0);
    struct Answers {
        int replies = 0;
        int errors = 0;
        std::string first_error;
    } answers;
    constexpr int kCalls = 12;
    for (int i = 0; i < kCalls; ++i) {
        sd_bus_message* call = nullptr;
        ASSERT_GE(sd_bus_message_new_method_call(bus, &call, "io.nicd.Nicd1", "/io/nicd/Nicd1",
                                                 "io.nicd.Nicd1.Manager", "Verify"),
                  0);
        int r = sd_bus_call_async(
            bus, nullptr, call,
            [](sd_bus_message* m, void* data, sd_bus_error*) -> int {
                auto* a = static_cast<Answers*>(data);
                if (sd_bus_message_is_method_error(m, nullptr)) {
                    if (a->errors++ == 0)
                        a->first_error = sd_bus_message_get_error(m)->message;
                } else {
                    ++a->replies;
                }
                return 0;
            },
            &answers, 30'000'000);
        sd_bus_message_unref(call);
        ASSERT_GE(r, 0);
    }
    auto deadline = std::chrono::steady_clock::now() + 30s;
    while (answers.replies + answers.errors < kCalls && std::chrono::steady_clock::now() < deadline)
        if (sd_bus_process(bus, nullptr) == 0)
            sd_bus_wait(bus, 100'000);
    EXPECT_EQ(answers.replies, kCalls)
        << answers.errors << " errors, first: " << answers.first_error;

    // The textfile shows the rounds with the next publish.
    ASSERT_TRUE(test::waitFor([&] { return verifyRounds() > before; }, 5s)) << textfile();
    std::this_thread::sleep_for(500ms);
    int rounds = verifyRounds() - before;
    // One round for the first call, one for the calls that came while it ran, and on a loaded
    // machine (the bus relaying the calls one by one: CI's made 4) a few more for calls the loop
    // read only after the one before had started: never anywhere near a round a caller.
    EXPECT_LE(rounds, kCalls / 2) << kCalls << " calls at once made " << rounds << " verify rounds";
}

TEST_F(ProvisioningTest, DryRunApplyOverDbusInEnforceMode)
{
    writeConfig("");
    bus_ = std::make_unique<test::PrivateBus>(dir_ / "bus");
    start({"--bus", bus_->address()});
    ASSERT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << log();
    std::string out;
    ASSERT_EQ(test::run({NICD_SIM_BIN, "inject", root_.string(), "qos-drift", "mlx5_3"}, out), 0);
    auto drifted = dcb("ens4f0np0");
    ASSERT_EQ(test::run({NICCTL_BIN, "--bus", bus_->address(), "apply", "--dry-run"}, out), 0)
        << out;
    EXPECT_TRUE(
        std::regex_search(out, std::regex(R"(mlx5_3/1 +pfc +3 +4 +- +noncompliant, would change)")))
        << out;
    EXPECT_EQ(dcb("ens4f0np0"), drifted) << "a dry run writes nothing";
    ASSERT_EQ(test::run({NICCTL_BIN, "--bus", bus_->address(), "apply"}, out), 0) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex(R"(mlx5_3/1 +pfc +3 +3 +- +compliant, changed)")))
        << out;
    EXPECT_NE(dcb("ens4f0np0").find("pfc_en=8\n"), std::string::npos);
}
