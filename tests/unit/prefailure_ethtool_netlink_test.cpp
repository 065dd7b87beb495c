// The ethtool netlink exchange: matching answers to requests (reply then ack, errors with extack,
// stale messages) over hand-built datagrams, and EthtoolNetlink against this machine's kernel (lo,
// a missing netdev, a veth pair).
#include "prefailure/ethtool_netlink.hpp"
#include "prefailure/fec_stats.hpp"
#include "support/netlink_attrs.hpp"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::prefailure;
using namespace nicd::test;

// ---- ethtool_detail ----

namespace {

constexpr uint32_t kSeq = 0x01020304;

// The request header a FEC reply starts with.
Bytes header(const std::string& netdev)
{
    return nest(ETHTOOL_A_FEC_HEADER, {u32Attr(ETHTOOL_A_HEADER_DEV_INDEX, 7),
                                       stringAttr(ETHTOOL_A_HEADER_DEV_NAME, netdev)});
}
constexpr uint16_t kFamily = 0x1a;

Bytes genlReply(uint8_t cmd, uint32_t seq, const Bytes& attrs)
{
    Bytes payload = {cmd, ETHTOOL_GENL_VERSION, 0, 0};
    payload.insert(payload.end(), attrs.begin(), attrs.end());
    return nlmsg(kFamily, 0, seq, payload);
}

std::string absorbError(const Bytes& datagram)
{
    ethtool_detail::Answer answer;
    try {
        ethtool_detail::absorbDatagram(datagram, kSeq, kFamily, ETHTOOL_MSG_FEC_GET_REPLY, answer);
    } catch (const DecodeError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(EthtoolAnswer, ReplyThenAckInOneDatagram)
{
    Bytes attrs = header("eth0");
    Bytes datagram = cat({genlReply(ETHTOOL_MSG_FEC_GET_REPLY, kSeq, attrs), nlError(kSeq, 0, "")});
    ethtool_detail::Answer answer;
    ethtool_detail::absorbDatagram(datagram, kSeq, kFamily, ETHTOOL_MSG_FEC_GET_REPLY, answer);
    EXPECT_TRUE(answer.finished);
    EXPECT_EQ(answer.error, 0);
    EXPECT_TRUE(answer.has_reply);
    EXPECT_EQ(answer.reply, attrs);
}

TEST(EthtoolAnswer, ErrorWithExtackAndStaleMessagesSkipped)
{
    Bytes datagram = cat({genlReply(ETHTOOL_MSG_FEC_GET_REPLY, kSeq - 1, header("old0")),
                          nlError(kSeq - 1, ENODEV, "stale"),
                          nlError(kSeq, EIO,
                                  "mlx5_core: Query module eeprom by page "
                                  "failed, read 0 bytes, err -5, status 3")});
    ethtool_detail::Answer answer;
    ethtool_detail::absorbDatagram(datagram, kSeq, kFamily, ETHTOOL_MSG_FEC_GET_REPLY, answer);
    EXPECT_TRUE(answer.finished);
    EXPECT_EQ(answer.error, EIO);
    EXPECT_FALSE(answer.has_reply);
    EXPECT_NE(answer.extack.find("status 3"), std::string::npos);
}

TEST(EthtoolAnswer, MalformedDatagramsThrow)
{
    Bytes overlong = nlError(kSeq, 0, "");
    overlong[0] = 0xf0;
    EXPECT_NE(absorbError(overlong).find("length 240"), std::string::npos);
    Bytes truncated_error = nlmsg(NLMSG_ERROR, 0, kSeq, {0, 0, 0, 0});
    EXPECT_NE(absorbError(truncated_error).find("nlmsgerr"), std::string::npos);
    for (int32_t status : {INT32_MIN, 1, -4096}) {
        Bytes odd = nlError(kSeq, 0, "");
        std::memcpy(odd.data() + NLMSG_HDRLEN, &status, sizeof status);
        EXPECT_NE(absorbError(odd).find("not 0 or a negative errno"), std::string::npos) << status;
    }
    Bytes wrong_cmd = genlReply(ETHTOOL_MSG_LINKINFO_GET_REPLY, kSeq, {});
    EXPECT_NE(absorbError(wrong_cmd).find("command"), std::string::npos);
    EXPECT_EQ(absorbError(Bytes(10, 0)), "no error") << "a tail shorter than a header is ignored";
}

TEST(EthtoolAnswer, EepromIoErrorNoModuleRule)
{
    using ethtool_detail::eepromIoErrorMeansNoModule;
    EXPECT_TRUE(eepromIoErrorMeansNoModule("mlx5_core: Query module eeprom by page failed, read "
                                           "0 bytes, err -5, status 3"));
    EXPECT_TRUE(eepromIoErrorMeansNoModule("Query module eeprom by page failed, read 0 bytes, "
                                           "err -5, status 1"));
    EXPECT_FALSE(eepromIoErrorMeansNoModule("Query module eeprom by page failed, read 0 bytes, "
                                            "err -5, status 9"));
    EXPECT_TRUE(eepromIoErrorMeansNoModule("Query module eeprom by page failed, read 0 bytes, "
                                           "err -5"));
    EXPECT_FALSE(eepromIoErrorMeansNoModule("Query module eeprom by page failed, read 48 bytes, "
                                            "err -5"));
    EXPECT_TRUE(eepromIoErrorMeansNoModule("No module present indication"));
    EXPECT_FALSE(eepromIoErrorMeansNoModule(
        "Error occurred while trying to access module's EEPROM using I2C"));
    EXPECT_TRUE(eepromIoErrorMeansNoModule(""));
}

// ---- EthtoolNetlink against this machine's kernel ----

namespace {

constexpr std::chrono::milliseconds kLiveTimeout{2000};
constexpr std::chrono::seconds kMaxCallTime{5};
constexpr uint8_t kI2cA0 = 0x50;
constexpr uint8_t kHalfPage = 128;

template <class T> std::string describe(const Reply<T>& reply)
{
    const char* names[] = {"Ok", "Unsupported", "Failed"};
    return std::string(names[static_cast<int>(reply.status)]) + ": " + reply.message;
}

// A veth pair for the test's lifetime; empty name when it could not be made.
class VethPair {
public:
    VethPair()
    {
        std::string candidate = "nfec" + std::to_string(::getpid() % 100000);
        std::string command =
            "ip link add " + candidate + "a type veth peer name " + candidate + "b >/dev/null 2>&1";
        if (std::system(command.c_str()) == 0)
            name_ = candidate + "a";
    }
    ~VethPair()
    {
        if (!name_.empty())
            (void)std::system(("ip link del " + name_ + " >/dev/null 2>&1").c_str());
    }
    const std::string& name() const { return name_; }

private:
    std::string name_;
};

} // namespace

TEST(EthtoolNetlinkLive, LoopbackHasNoFecAndNoModule)
{
    EthtoolNetlink ethtool(kLiveTimeout);
    auto start = std::chrono::steady_clock::now();
    Reply<FecStats> fec = ethtool.readFec("lo");
    EXPECT_EQ(fec.status, Reply<FecStats>::Status::Unsupported) << describe(fec);
    EXPECT_NE(fec.message.find("lo"), std::string::npos) << fec.message;
    EXPECT_NE(fec.message.find("FEC_GET"), std::string::npos) << fec.message;

    auto eeprom = ethtool.readModuleEeprom("lo", kI2cA0, 0, 0, 0, kHalfPage);
    EXPECT_EQ(eeprom.status, Reply<std::vector<uint8_t>>::Status::Unsupported) << describe(eeprom);
    EXPECT_TRUE(eeprom.value.empty());
    EXPECT_NE(eeprom.message.find("MODULE_EEPROM_GET"), std::string::npos) << eeprom.message;
    EXPECT_LT(std::chrono::steady_clock::now() - start, kMaxCallTime);
    std::cout << "lo: " << describe(fec) << "\nlo: " << describe(eeprom) << "\n";
}

TEST(EthtoolNetlinkLive, MissingNetdevIsNamed)
{
    EthtoolNetlink ethtool(kLiveTimeout);
    Reply<FecStats> fec = ethtool.readFec("does-not-exist0");
    EXPECT_NE(fec.status, Reply<FecStats>::Status::Ok) << describe(fec);
    EXPECT_NE(fec.message.find("does-not-exist0"), std::string::npos) << fec.message;
    auto eeprom = ethtool.readModuleEeprom("does-not-exist0", kI2cA0, 0, 0, 0, 1);
    EXPECT_NE(eeprom.status, Reply<std::vector<uint8_t>>::Status::Ok) << describe(eeprom);
    EXPECT_NE(eeprom.message.find("does-not-exist0"), std::string::npos) << eeprom.message;
    std::cout << "does-not-exist0: " << describe(fec) << "\n";
}

TEST(EthtoolNetlinkLive, BadLengthFailsWithoutAsking)
{
    EthtoolNetlink ethtool(kLiveTimeout);
    auto zero = ethtool.readModuleEeprom("lo", kI2cA0, 0, 0, 0, 0);
    auto big = ethtool.readModuleEeprom("lo", kI2cA0, 0, 0, 0, kHalfPage + 1);
    EXPECT_EQ(zero.status, Reply<std::vector<uint8_t>>::Status::Failed);
    EXPECT_EQ(big.status, Reply<std::vector<uint8_t>>::Status::Failed);
    EXPECT_NE(big.message.find("outside 1-128"), std::string::npos) << big.message;
}

TEST(EthtoolNetlinkLive, TinyTimeoutNeverHangs)
{
    EthtoolNetlink ethtool(std::chrono::milliseconds(1));
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 3; ++i) {
        Reply<FecStats> fec = ethtool.readFec("lo");
        EXPECT_NE(fec.status, Reply<FecStats>::Status::Ok) << describe(fec);
        std::cout << "lo with 1 ms: " << describe(fec) << "\n";
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, kMaxCallTime);
}

TEST(EthtoolNetlinkLive, ZeroTimeoutFailsAsATimeout)
{
    EthtoolNetlink ethtool(std::chrono::milliseconds(0));
    auto start = std::chrono::steady_clock::now();
    Reply<FecStats> fec = ethtool.readFec("lo");
    if (fec.status == Reply<FecStats>::Status::Unsupported)
        GTEST_SKIP() << "no generic netlink here: " << fec.message;
    EXPECT_EQ(fec.status, Reply<FecStats>::Status::Failed) << describe(fec);
    EXPECT_NE(fec.message.find("timeout"), std::string::npos) << fec.message;
    EXPECT_NE(fec.message.find("lo"), std::string::npos) << fec.message;
    EXPECT_LT(std::chrono::steady_clock::now() - start, kMaxCallTime);
    std::cout << "lo with 0 ms: " << describe(fec) << "\n";
}

TEST(EthtoolNetlinkLive, VethPairHasNoFecAndNoModule)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "creating a veth pair needs root";
    VethPair veth;
    if (veth.name().empty())
        GTEST_SKIP() << "ip link add ... type veth failed (no CAP_NET_ADMIN, no veth module or "
                        "no ip command)";
    EthtoolNetlink ethtool(kLiveTimeout);
    Reply<FecStats> fec = ethtool.readFec(veth.name());
    EXPECT_EQ(fec.status, Reply<FecStats>::Status::Unsupported) << describe(fec);
    EXPECT_NE(fec.message.find(veth.name()), std::string::npos) << fec.message;
    auto eeprom = ethtool.readModuleEeprom(veth.name(), kI2cA0, 0, 0, 0, kHalfPage);
    EXPECT_EQ(eeprom.status, Reply<std::vector<uint8_t>>::Status::Unsupported) << describe(eeprom);
    std::cout << veth.name() << ": " << describe(fec) << "\n"
              << veth.name() << ": " << describe(eeprom) << "\n";
}
