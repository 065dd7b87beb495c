// The ethtool statistics read against a fake kernel whose driver changes its number of statistics
// between the calls (mlx5 does on a channel-count, PFC or pause change): whatever count the kernel
// copies, nothing is written past nicd's buffers, and names and values always line up.
//
// The fake copies into the caller's memory as the kernel's copy_to_user does (process_vm_writev
// into this process takes the same path): byte by byte until a page it may not write, then EFAULT.
// Before the guard pages, nicd sized the buffers for the count asked plus 64 slots, and a kernel
// before 7b07be1ff1cb copied its current count regardless: the 100 -> 2000 change below wrote
// 1836 name slots (58 KB) past the heap buffer.
#include <nicd/plugin/sdk/ethtool_ioctl.h>
#include <nicd/plugin/sdk/guarded_buffer.h>

#include <linux/ethtool.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd;
namespace pv1 = nicd::plugin::v1;
namespace sdk = nicd::plugin::sdk;

namespace {

// What copy_to_user does: copies until the first byte this process may not write; true when
// all `n` bytes were copied.
bool copyToUser(void* to, const void* from, size_t n)
{
    iovec local{const_cast<void*>(from), n};
    iovec remote{to, n};
    return ::process_vm_writev(::getpid(), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(n);
}

std::string statName(uint32_t i)
{
    return "stat_" + std::to_string(i);
}
uint64_t statValue(uint32_t i)
{
    return 1000 + i;
}

// A driver whose count of statistics is counts[k] at the k-th ethtool call (the last one repeats),
// answered as net/ethtool/ioctl.c does before 7b07be1ff1cb: GSTRINGS and GSTATS copy the current
// count and report it in len/n_stats, whatever the caller asked. With `zero_on_mismatch`, as
// kernels after it do: a count other than the one asked is answered with 0 and nothing copied.
struct FakeKernel {
    std::vector<uint32_t> counts;
    bool zero_on_mismatch = false;
    size_t calls = 0;
    int faults = 0; // copies the guard page stopped

    uint32_t current() { return counts[std::min(calls++, counts.size() - 1)]; }

    int operator()(void* data)
    {
        uint32_t cmd = 0;
        std::memcpy(&cmd, data, sizeof cmd);
        const uint32_t n = current();
        switch (cmd) {
        case ETHTOOL_GSSET_INFO: {
            ethtool_sset_info info{};
            info.cmd = cmd;
            info.sset_mask = 1ULL << ETH_SS_STATS;
            auto* out = static_cast<uint8_t*>(data);
            return copy(out, &info, sizeof info) && copy(out + sizeof info, &n, sizeof n) ? 0
                                                                                          : EFAULT;
        }
        case ETHTOOL_GSTRINGS: {
            ethtool_gstrings head{};
            std::memcpy(&head, data, sizeof head);
            head.len = zero_on_mismatch && head.len != n ? 0 : n;
            std::vector<char> names(size_t{head.len} * ETH_GSTRING_LEN, '\0');
            for (uint32_t i = 0; i < head.len; ++i)
                std::memcpy(&names[i * ETH_GSTRING_LEN], statName(i).c_str(), statName(i).size());
            auto* out = static_cast<uint8_t*>(data);
            return copy(out, &head, sizeof head) &&
                           copy(out + sizeof head, names.data(), names.size())
                       ? 0
                       : EFAULT;
        }
        case ETHTOOL_GSTATS: {
            ethtool_stats head{};
            std::memcpy(&head, data, sizeof head);
            head.n_stats = zero_on_mismatch && head.n_stats != n ? 0 : n;
            std::vector<uint64_t> values(head.n_stats);
            for (uint32_t i = 0; i < head.n_stats; ++i)
                values[i] = statValue(i);
            auto* out = static_cast<uint8_t*>(data);
            return copy(out, &head, sizeof head) &&
                           copy(out + sizeof head, values.data(), values.size() * sizeof(uint64_t))
                       ? 0
                       : EFAULT;
        }
        default:
            return EOPNOTSUPP;
        }
    }

    bool copy(void* to, const void* from, size_t n)
    {
        if (n == 0 || copyToUser(to, from, n))
            return true;
        ++faults;
        return false;
    }
};

pv1::Status readFrom(FakeKernel& kernel, sdk::Stats& out)
{
    return sdk::readEthtoolStats("ens1f0np0", std::ref(kernel), out);
}

// Every name with its own value, in the driver's order.
void expectLinedUp(const sdk::Stats& stats, uint32_t count)
{
    ASSERT_EQ(stats.size(), count);
    for (uint32_t i = 0; i < count; ++i) {
        EXPECT_EQ(stats[i].first, statName(i));
        EXPECT_EQ(stats[i].second, statValue(i)) << stats[i].first;
    }
}

} // namespace

TEST(EthtoolStatsRead, ASteadyCountIsReadInFourCalls)
{
    FakeKernel kernel{{50}};
    sdk::Stats stats;
    auto s = readFrom(kernel, stats);
    ASSERT_TRUE(s) << s.message;
    expectLinedUp(stats, 50);
    EXPECT_EQ(kernel.calls, 4U) << "count, names, values, count again";
    EXPECT_EQ(kernel.faults, 0);
}

// The channel count goes from 2 to 63 between the size query and the names (mlx5: dozens of
// statistics per channel): the kernel copies 2000 names into a buffer for 100. The copy stops at
// the guard page (EFAULT), and the read made again with the new count lines up.
TEST(EthtoolStatsRead, ACountThatGrowsBeforeTheNamesStopsAtTheBufferEnd)
{
    FakeKernel kernel{{100, 2000}};
    sdk::Stats stats;
    auto s = readFrom(kernel, stats);
    ASSERT_TRUE(s) << s.message;
    EXPECT_EQ(kernel.faults, 1) << "the kernel's copy of 2000 names stopped at the buffer's end";
    expectLinedUp(stats, 2000);
}

// The same between the names and the values: the names were read for 100, the values are 3000.
TEST(EthtoolStatsRead, ACountThatGrowsBeforeTheValuesStopsAtTheBufferEnd)
{
    FakeKernel kernel{{100, 100, 3000}};
    sdk::Stats stats;
    auto s = readFrom(kernel, stats);
    ASSERT_TRUE(s) << s.message;
    EXPECT_EQ(kernel.faults, 1);
    expectLinedUp(stats, 3000);
}

// One statistic more is enough to reach the guard: no slack lets a value land outside the
// buffer unseen, and the count reported back differs anyway.
TEST(EthtoolStatsRead, OneMoreValueIsAlreadyStopped)
{
    FakeKernel kernel{{100, 100, 101}};
    sdk::Stats stats;
    ASSERT_TRUE(readFrom(kernel, stats));
    EXPECT_EQ(kernel.faults, 1);
    expectLinedUp(stats, 101);
}

// Fewer statistics (PFC turned off): the kernel copies fewer and says so; the read is made again
// rather than pairing 90 names with 100 slots of values.
TEST(EthtoolStatsRead, ACountThatShrinksIsReadAgain)
{
    FakeKernel kernel{{100, 90}};
    sdk::Stats stats;
    ASSERT_TRUE(readFrom(kernel, stats));
    EXPECT_EQ(kernel.faults, 0);
    expectLinedUp(stats, 90);
}

// A count that changes after the values were read (the last size query disagrees): read again.
TEST(EthtoolStatsRead, ACountThatChangesAfterTheValuesIsReadAgain)
{
    FakeKernel kernel{{100, 100, 100, 80}};
    sdk::Stats stats;
    ASSERT_TRUE(readFrom(kernel, stats));
    expectLinedUp(stats, 80);
}

TEST(EthtoolStatsRead, NewerKernelsAnswerAMismatchWithZero)
{
    FakeKernel kernel{{100, 120}, true};
    sdk::Stats stats;
    ASSERT_TRUE(readFrom(kernel, stats));
    EXPECT_EQ(kernel.faults, 0);
    expectLinedUp(stats, 120);
}

TEST(EthtoolStatsRead, ACountThatNeverSettlesIsBusyAndNeverOverflows)
{
    FakeKernel kernel;
    for (uint32_t n = 100; n < 6000; n += 300)
        kernel.counts.push_back(n); // more statistics at every call
    sdk::Stats stats;
    auto s = readFrom(kernel, stats);
    EXPECT_EQ(s.code, pv1::Errc::Busy);
    EXPECT_NE(s.message.find("ens1f0np0: the ethtool statistics count changed on every one of 4"),
              std::string::npos)
        << s.message;
    EXPECT_TRUE(stats.empty());
    EXPECT_EQ(kernel.faults, 4) << "each attempt's copy was stopped at the buffer's end";
}

TEST(GuardedBuffer, TheByteAfterTheBufferCannotBeWritten)
{
    sdk::GuardedBuffer buffer;
    auto* p = static_cast<char*>(buffer.get(100)); // rounded up to 104
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 8, 0U);
    std::vector<char> bytes(105, 'x');
    EXPECT_TRUE(copyToUser(p, bytes.data(), 104));
    EXPECT_FALSE(copyToUser(p, bytes.data(), 105));
    // A smaller buffer reuses the mapping, zeroed, and ends at the same guard.
    auto* q = static_cast<char*>(buffer.get(16));
    EXPECT_EQ(q, p + 104 - 16);
    EXPECT_EQ(std::count(q, q + 16, '\0'), 16);
    EXPECT_FALSE(copyToUser(q, bytes.data(), 17));
    // A larger one is mapped afresh, with its own guard.
    auto* r = static_cast<char*>(buffer.get(3 * 4096 + 8));
    ASSERT_NE(r, nullptr);
    std::vector<char> big(3 * 4096 + 9, 'y');
    EXPECT_TRUE(copyToUser(r, big.data(), 3 * 4096 + 8));
    EXPECT_FALSE(copyToUser(r, big.data(), 3 * 4096 + 9));
}
