#!/usr/bin/env python3
"""Writes the hand-built netlink seeds of the fuzz targets into tests/data/fuzz/<target>/.

No real captures of these messages exist in the fixtures, so each seed is laid out here field by
field from the uapi structs (linux/netlink.h, rtnetlink.h, dcbnl.h, genetlink.h, devlink.h,
ethtool_netlink.h, rdma_netlink.h), in host byte order (x86-64, little-endian), as the kernel would send it and
as the unit tests build their messages. The outputs are committed; run this again only when a
seed is added or changed:
    python3 tests/fuzz/make_seeds.py
Crash inputs are not written here: they go to tests/data/fuzz/<target>/regressions/ as found.
"""

import os
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "fuzz")

NLA_F_NESTED = 0x8000
NLMSG_ERROR = 2
NLM_F_MULTI = 0x02


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def attr(type_, payload):
    """struct nlattr: nla_len (header + payload, not the padding), nla_type, payload, padding."""
    return pad4(struct.pack("<HH", 4 + len(payload), type_) + payload)


def nest(type_, *attrs):
    return attr(type_ | NLA_F_NESTED, b"".join(attrs))


def u8(v):
    return struct.pack("<B", v)


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v)


def strz(s):
    return s.encode() + b"\0"


def message(type_, flags, seq, body, pid=0):
    """struct nlmsghdr, then the body (already padded where it ends in attributes)."""
    body = pad4(body)
    return struct.pack("<IHHII", 16 + len(body), type_, flags, seq, pid) + body


def ack(seq, error=0, request_type=0):
    """NLMSG_ERROR: int error, then the request's nlmsghdr (as the kernel echoes it)."""
    request = struct.pack("<IHHII", 16, request_type, 0x05, seq, 0)
    return message(NLMSG_ERROR, 0x100, seq, struct.pack("<i", error) + request)


def write(target, name, data):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


# ---- rtnetlink DCB (plugins/mlx5/qos/dcb_codec.hpp, daemon/netlink/dcb_notification.hpp) ----

RTM_GETDCB, RTM_SETDCB = 78, 79
DCB_CMD_IEEE_SET, DCB_CMD_IEEE_GET, DCB_CMD_IEEE_DEL = 20, 21, 27
DCB_ATTR_IFNAME, DCB_ATTR_IEEE, DCB_ATTR_DCBX = 1, 13, 14
DCB_ATTR_IEEE_ETS, DCB_ATTR_IEEE_PFC, DCB_ATTR_IEEE_APP_TABLE = 1, 2, 3
DCB_ATTR_IEEE_APP, DCB_ATTR_DCB_APP = 1, 2
SEQ = 0x11223344  # the DCB target takes the sequence number from the first message


def dcbmsg(cmd):
    return struct.pack("<BBH", 0, cmd, 0)  # dcb_family AF_UNSPEC, cmd, dcb_pad


def ieee_pfc(enabled, delay):
    """struct ieee_pfc: cap, en, mbc, pad, delay u16, pad, requests[8] u64, indications[8] u64."""
    return struct.pack("<BBBxH2x", 8, enabled, 0, delay) + u64(0) * 8 + u64(0) * 8


def dcb_app(selector, priority, protocol):
    return struct.pack("<BBH", selector, priority, protocol)


def ieee_ets():
    """struct ieee_ets (59 bytes): willing, ets_cap, cbs, tc_tx_bw[8], tc_rx_bw[8], tc_tsa[8],
    prio_tc[8], tc_reco_bw[8], tc_reco_tsa[8], reco_prio_tc[8]."""
    return struct.pack("<BBB", 0, 8, 0) + bytes(7 * 8)


def ieee_state(cmd, ifname, apps):
    return dcbmsg(cmd) + attr(DCB_ATTR_IFNAME, strz(ifname)) + nest(
        DCB_ATTR_IEEE,
        attr(DCB_ATTR_IEEE_ETS, ieee_ets()),
        attr(DCB_ATTR_IEEE_PFC, ieee_pfc(0x08, 7)),
        nest(DCB_ATTR_IEEE_APP_TABLE,
             *(attr(DCB_ATTR_DCB_APP if sel == 255 else DCB_ATTR_IEEE_APP, dcb_app(sel, prio, proto))
               for sel, prio, proto in apps))) + attr(DCB_ATTR_DCBX, u8(0x08))


ROCE_APPS = [(5, 3, 26), (5, 6, 48), (255, 3, 3)]  # DSCP 26 and 48, PCP 3

write("dcb_codec", "get-reply-pfc-apps-dcbx.bin",
      message(RTM_GETDCB, 0, SEQ, ieee_state(DCB_CMD_IEEE_GET, "enp1s0f0np0", ROCE_APPS)) +
      ack(SEQ, 0, RTM_GETDCB))
write("dcb_codec", "get-refused-eopnotsupp.bin", ack(SEQ, -95, RTM_GETDCB))
write("dcb_codec", "set-reply-ok.bin",
      message(RTM_SETDCB, 0, SEQ, dcbmsg(DCB_CMD_IEEE_SET) + attr(DCB_ATTR_IEEE, u8(0))) +
      ack(SEQ, 0, RTM_SETDCB))
write("dcb_codec", "del-reply-einval-in-band.bin",
      message(RTM_SETDCB, 0, SEQ, dcbmsg(DCB_CMD_IEEE_DEL) + attr(DCB_ATTR_IEEE, u8(256 - 22))) +
      ack(SEQ, 0, RTM_SETDCB))

# dcbnl_notify(): after a successful IEEE_SET or IEEE_DEL the kernel multicasts the new state.
write("dcb_notification", "ieee-set-notification.bin",
      message(RTM_SETDCB, 0, 0, ieee_state(DCB_CMD_IEEE_SET, "enp1s0f0np0", ROCE_APPS)))
write("dcb_notification", "two-notifications.bin",
      message(RTM_SETDCB, 0, 0, ieee_state(DCB_CMD_IEEE_DEL, "enp1s0f1np1", [(5, 3, 26)])) +
      message(RTM_GETDCB, 0, 0, dcbmsg(DCB_CMD_IEEE_GET) + attr(DCB_ATTR_IFNAME, strz("bond0"))))

# ---- rtnetlink links (daemon/netlink/link_message.hpp) ----

RTM_NEWLINK, RTM_DELLINK = 16, 17
IFLA_IFNAME, IFLA_MTU, IFLA_OPERSTATE, IFLA_LINKMODE, IFLA_CARRIER = 3, 4, 16, 17, 33
IFF_UP, IFF_RUNNING, IFF_LOWER_UP = 0x1, 0x40, 0x10000
IF_OPER_DOWN, IF_OPER_UP = 2, 6


def ifinfomsg(index, flags):
    """struct ifinfomsg: family, pad, type (ARPHRD_ETHER), index, flags, change."""
    return struct.pack("<BxHiII", 0, 1, index, flags, 0xFFFFFFFF)


def link(type_, index, name, flags, operstate, carrier):
    return message(type_, 0, 0, ifinfomsg(index, flags) + attr(IFLA_IFNAME, strz(name)) +
                   attr(IFLA_MTU, u32(9000)) + attr(IFLA_OPERSTATE, u8(operstate)) +
                   attr(IFLA_LINKMODE, u8(0)) + attr(IFLA_CARRIER, u8(carrier)))


write("link_message", "newlink-up.bin",
      link(RTM_NEWLINK, 4, "enp1s0f0np0", IFF_UP | IFF_RUNNING | IFF_LOWER_UP, IF_OPER_UP, 1))
write("link_message", "newlink-down-and-dellink.bin",
      link(RTM_NEWLINK, 5, "enp1s0f1np1", IFF_UP, IF_OPER_DOWN, 0) +
      link(RTM_DELLINK, 7, "bond0", 0, IF_OPER_DOWN, 0))

# ---- generic netlink: ethtool FEC (daemon/prefailure/fec_stats.hpp, ethtool_answer.hpp) ----

GENL_VERSION = 1
ETHTOOL_MSG_FEC_GET_REPLY = 30
ETHTOOL_A_FEC_HEADER, ETHTOOL_A_FEC_AUTO, ETHTOOL_A_FEC_ACTIVE, ETHTOOL_A_FEC_STATS = 1, 3, 4, 5
ETHTOOL_A_HEADER_DEV_INDEX, ETHTOOL_A_HEADER_DEV_NAME = 1, 2
ETHTOOL_A_FEC_STAT_PAD, ETHTOOL_A_FEC_STAT_CORRECTED = 1, 2
ETHTOOL_A_FEC_STAT_UNCORR, ETHTOOL_A_FEC_STAT_CORR_BITS = 3, 4
ETHTOOL_LINK_MODE_FEC_RS_BIT = 50
ETHTOOL_FAMILY = 0x1A  # the family id tests/fuzz/fec_stats_fuzz.cpp passes


def u64_array(values):
    return b"".join(u64(v) for v in values)


fec_attrs = (nest(ETHTOOL_A_FEC_HEADER, attr(ETHTOOL_A_HEADER_DEV_INDEX, u32(4)),
                  attr(ETHTOOL_A_HEADER_DEV_NAME, strz("enp1s0f0np0"))) +
             attr(ETHTOOL_A_FEC_AUTO, u8(0)) +
             attr(ETHTOOL_A_FEC_ACTIVE, u32(ETHTOOL_LINK_MODE_FEC_RS_BIT)) +
             nest(ETHTOOL_A_FEC_STATS, attr(ETHTOOL_A_FEC_STAT_PAD, b""),
                  attr(ETHTOOL_A_FEC_STAT_CORRECTED, u64_array([1200, 300, 300, 300, 300])),
                  attr(ETHTOOL_A_FEC_STAT_UNCORR, u64_array([2, 0, 1, 0, 1])),
                  attr(ETHTOOL_A_FEC_STAT_CORR_BITS, b"")))
write("fec_stats", "fec-get-reply-attrs.bin", fec_attrs)


def genl_datagram(seq):
    """A whole datagram: the family's reply (genlmsghdr: cmd, version, reserved) and the ack."""
    reply = message(ETHTOOL_FAMILY, 0, seq,
                    struct.pack("<BBH", ETHTOOL_MSG_FEC_GET_REPLY, GENL_VERSION, 0) + fec_attrs)
    return reply + ack(seq, 0, ETHTOOL_FAMILY)


# The target takes the sequence number from the first four bytes (nlmsg_len of the first
# message): give the reply that number so that the matcher keeps it.
first_len = len(genl_datagram(0)) - len(ack(0))
write("fec_stats", "fec-get-datagram.bin", genl_datagram(first_len))

# ---- generic netlink: devlink health (daemon/prefailure/devlink_health.hpp) ----

DEVLINK_ATTR_BUS_NAME, DEVLINK_ATTR_DEV_NAME, DEVLINK_ATTR_PORT_INDEX = 1, 2, 3
DEVLINK_ATTR_PAD = 61
DEVLINK_ATTR_HEALTH_REPORTER = 114
HR_NAME, HR_STATE, HR_ERR_COUNT, HR_RECOVER_COUNT = 115, 116, 117, 118
HR_DUMP_TS, HR_GRACEFUL_PERIOD, HR_AUTO_RECOVER, HR_AUTO_DUMP = 119, 120, 121, 141


def reporter(bus, dev, port, name, state, errors, recovers):
    handle = attr(DEVLINK_ATTR_BUS_NAME, strz(bus)) + attr(DEVLINK_ATTR_DEV_NAME, strz(dev))
    if port is not None:
        handle += attr(DEVLINK_ATTR_PORT_INDEX, u32(port))
    return handle + nest(DEVLINK_ATTR_HEALTH_REPORTER, attr(HR_NAME, strz(name)),
                         attr(HR_STATE, u8(state)), attr(DEVLINK_ATTR_PAD, b""),
                         attr(HR_ERR_COUNT, u64(errors)), attr(DEVLINK_ATTR_PAD, b""),
                         attr(HR_RECOVER_COUNT, u64(recovers)), attr(DEVLINK_ATTR_PAD, b""),
                         attr(HR_GRACEFUL_PERIOD, u64(500)), attr(HR_AUTO_RECOVER, u8(1)),
                         attr(HR_AUTO_DUMP, u8(1)))


write("devlink_health", "port-reporter-tx-healthy.bin",
      reporter("pci", "0000:08:00.0", 65535, "tx", 0, 3, 3))
write("devlink_health", "device-reporter-fw-fatal-error.bin",
      reporter("pci", "0000:08:00.1", None, "fw_fatal", 1, 1, 0) +
      attr(DEVLINK_ATTR_PAD, b"") + attr(HR_DUMP_TS, u64(1700000000000)))

# ---- RDMA netlink hw counters (plugins/sdk: nicd/plugin/sdk/rdma_stats_codec.h) ----

RDMA_NL_NLDEV = 5
RDMA_NLDEV_CMD_GET, RDMA_NLDEV_CMD_STAT_GET = 1, 17
RDMA_NLDEV_ATTR_PAD, RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_DEV_NAME = 0, 1, 2
RDMA_NLDEV_ATTR_PORT_INDEX, RDMA_NLDEV_ATTR_FW_VERSION = 3, 5
STAT_HWCOUNTERS, STAT_HWCOUNTER_ENTRY = 80, 81
STAT_HWCOUNTER_ENTRY_NAME, STAT_HWCOUNTER_ENTRY_VALUE = 82, 83
NLMSG_DONE = 3
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSGERR_ATTR_MSG = 1
EOPNOTSUPP = 95


def rdma_type(cmd):
    """RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd)."""
    return (RDMA_NL_NLDEV << 10) + cmd


def hw_entry(name, value, pad=False):
    """rdma_nl_stat_hwcounter_entry(): the name, (a pad where u64 needs aligning), the value."""
    return nest(STAT_HWCOUNTER_ENTRY, attr(STAT_HWCOUNTER_ENTRY_NAME, strz(name)),
                *([attr(RDMA_NLDEV_ATTR_PAD, b"")] if pad else []),
                attr(STAT_HWCOUNTER_ENTRY_VALUE, u64(value)))


def stat_reply_attrs(index, name, port, counters):
    return (attr(RDMA_NLDEV_ATTR_DEV_INDEX, u32(index)) + attr(RDMA_NLDEV_ATTR_DEV_NAME, strz(name)) +
            attr(RDMA_NLDEV_ATTR_PORT_INDEX, u32(port)) +
            nest(STAT_HWCOUNTERS, *(hw_entry(n, v, pad=(i == 1)) for i, (n, v) in enumerate(counters))))


MLX5_PORT = [("rx_write_requests", 3809045607), ("out_of_buffer", 41), ("np_cnp_sent", 12),
             ("req_transport_retries_exceeded", 0), ("rx_icrc_encapsulated", 0)]
write("rdma_stats", "stat-get-reply-attrs.bin", stat_reply_attrs(3, "mlx5_0", 1, MLX5_PORT))


def with_first_length_as_seq(build):
    """The target takes the sequence number from the first four bytes (the first message's
    nlmsg_len): build the datagram once to learn it, then again with that number."""
    return build(len(build(0)[0]))[1]


def stat_datagram(seq):
    reply = message(rdma_type(RDMA_NLDEV_CMD_STAT_GET), 0, seq,
                    stat_reply_attrs(3, "mlx5_0", 1, MLX5_PORT))
    return reply, reply


def dump_datagram(seq):
    def device(index, name):
        return message(rdma_type(RDMA_NLDEV_CMD_GET), NLM_F_MULTI, seq,
                       attr(RDMA_NLDEV_ATTR_DEV_INDEX, u32(index)) +
                       attr(RDMA_NLDEV_ATTR_DEV_NAME, strz(name)) +
                       attr(RDMA_NLDEV_ATTR_PORT_INDEX, u32(1)) +
                       attr(RDMA_NLDEV_ATTR_FW_VERSION, strz("28.41.1000")))
    first = device(3, "mlx5_0")
    return first, first + device(5, "mlx5_bond_0") + message(NLMSG_DONE, NLM_F_MULTI, seq, u32(0))


def refused_datagram(seq):
    """NLMSG_ERROR -EOPNOTSUPP as a socket with NETLINK_CAP_ACK and NETLINK_EXT_ACK gets it."""
    request = struct.pack("<IHHII", 32, rdma_type(RDMA_NLDEV_CMD_STAT_GET), 0x01, seq, 0)
    error = message(NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS, seq,
                    struct.pack("<i", -EOPNOTSUPP) + request +
                    attr(NLMSGERR_ATTR_MSG, strz("Counters are not supported")))
    return error, error


write("rdma_stats", "stat-get-datagram.bin", with_first_length_as_seq(stat_datagram))
write("rdma_stats", "device-dump-datagram.bin", with_first_length_as_seq(dump_datagram))
write("rdma_stats", "stat-get-refused-eopnotsupp.bin", with_first_length_as_seq(refused_datagram))


# ---- any netlink datagram: the SDK's splitter and status reader (netlink_messages.h) ----
write("netlink_messages", "dump-then-done.bin", with_first_length_as_seq(dump_datagram))
write("netlink_messages", "error-with-extack.bin", with_first_length_as_seq(refused_datagram))
write("netlink_messages", "link-then-ack.bin",
      link(RTM_NEWLINK, 4, "enp1s0f0np0", IFF_UP | IFF_RUNNING | IFF_LOWER_UP, IF_OPER_UP, 1) +
      ack(0))

# ---- PCIe config space: the ACS extended capability (daemon/readiness/acs_config.hpp) ----
PCI_EXT_CAP_ID_ERR = 0x0001
PCI_EXT_CAP_ID_ACS = 0x000D


def config_space(chain, acs_control, size=4096):
    """A bridge's config file: 64 header bytes, then extended capabilities (id, offset) linked in
    order from 0x100, the ACS one with its capability and control registers."""
    b = bytearray(4096)
    struct.pack_into("<HH", b, 0, 0x8086, 0x352A)  # vendor, device
    b[0x0E] = 0x01  # header type 1: a bridge
    for i, (cap, at) in enumerate(chain):
        nxt = chain[i + 1][1] if i + 1 < len(chain) else 0
        struct.pack_into("<I", b, at, cap | 1 << 16 | nxt << 20)
        if cap == PCI_EXT_CAP_ID_ACS:
            struct.pack_into("<HH", b, at + 4, 0x007F, acs_control)
    return bytes(b[:size])


write("acs_config", "bridge-acs-redirect-on.bin",
      config_space([(PCI_EXT_CAP_ID_ERR, 0x100), (PCI_EXT_CAP_ID_ACS, 0x148)], 0x001D))
write("acs_config", "bridge-acs-off.bin", config_space([(PCI_EXT_CAP_ID_ACS, 0x100)], 0x0000))
write("acs_config", "bridge-unprivileged-64.bin",
      config_space([(PCI_EXT_CAP_ID_ACS, 0x100)], 0x001D, 64))

# ---- LLDP: the DCBX TLVs a switch advertises (daemon/neighbor/dcbx_tlv.hpp) ----
# The target's input: the host's QoS (flags: bit 0 trust DSCP, bit 1 willing, bit 2 RoCE priority
# known, bits 7..5 that priority; the PFC bitmap; the RoCE ToS), then records of (OUI choice
# 0 IEEE 802.1 / 1 CEE / 2 another, subtype, big-endian length, information string). The
# information strings are IEEE 802.1Q-2018 Annex D.2's and CEE DCBX v1.01's layouts, as lldpd
# hands them over (the bytes after OUI and subtype).
OUI_IEEE, OUI_CEE, OUI_OTHER = 0, 1, 2


def dcbx_host(trust=True, willing=False, roce_priority=None, pfc=(3,), tos=106):
    flags = (1 if trust else 0) | (2 if willing else 0)
    if roce_priority is not None:
        flags |= 4 | roce_priority << 5
    return bytes([flags, sum(1 << p for p in pfc), tos])


def dcbx_tlv(oui, subtype, info):
    return bytes([oui, subtype]) + struct.pack(">H", len(info)) + bytes(info)


def cee_sub(type_, body):
    return struct.pack(">H", type_ << 9 | len(body)) + bytes(body)


# ETS as tcpdump 4.99.3 decoded it: willing, 8 TCs, priority n in TC n, TCs 0-3 ETS 10/20/30/40 %.
ETS_TCPDUMP = [0x80, 0x01, 0x23, 0x45, 0x67, 10, 20, 30, 40, 0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 255]
# APP: Ethertype 0x8906 on 3, UDP 4791 on 4, DSCP 26 on 5.
APP_TCPDUMP = [0x00, 0x61, 0x89, 0x06, 0x83, 0x12, 0xb7, 0xa5, 0x00, 0x1a]

write("dcbx_tlv", "lldpd-experiment-pfc.bin",
      dcbx_host(roce_priority=3) + dcbx_tlv(OUI_IEEE, 11, [0x08, 0x08]))
write("dcbx_tlv", "ets-pfc-app-as-tcpdump-decodes.bin",
      dcbx_host(roce_priority=3) + dcbx_tlv(OUI_OTHER, 1, [0x03, 0x6c, 0x00, 0x00, 0x10]) +
      dcbx_tlv(OUI_IEEE, 9, ETS_TCPDUMP) + dcbx_tlv(OUI_IEEE, 10, ETS_TCPDUMP) +
      dcbx_tlv(OUI_IEEE, 11, [0x88, 0x08]) + dcbx_tlv(OUI_IEEE, 12, APP_TCPDUMP))
write("dcbx_tlv", "cee-control-pg-pfc.bin",
      dcbx_host() + dcbx_tlv(OUI_CEE, 2,
                             cee_sub(1, [0, 0, 0, 0, 0, 1, 0, 0, 0, 1]) +
                             cee_sub(2, [0, 0, 0xc0, 0, 0x00, 0x01, 0x00, 0x0f,
                                         50, 50, 0, 0, 0, 0, 0, 0, 8]) +
                             cee_sub(3, [0, 0, 0x80, 0, 0x08, 8])))
# Every mismatch: PFC 4,5 willing, DSCP 26 on 5, priority 5 in an ETS class with 0 %; the host
# willing, trusting PCP.
ETS_STARVED = [0x80, 0x01, 0x23, 0x45, 0x67, 25, 25, 25, 25, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2]
write("dcbx_tlv", "every-mismatch.bin",
      dcbx_host(trust=False, willing=True, roce_priority=3) + dcbx_tlv(OUI_IEEE, 11, [0x88, 0x30]) +
      dcbx_tlv(OUI_IEEE, 9, ETS_STARVED) + dcbx_tlv(OUI_IEEE, 12, [0x00, 0xa5, 0x00, 0x1a]))
# A PFC capability of 9, an APP TLV sent twice, a cut ETS TLV, a Port VLAN ID TLV.
write("dcbx_tlv", "malformed-and-repeated.bin",
      dcbx_host() + dcbx_tlv(OUI_IEEE, 11, [0x09, 0x08]) + dcbx_tlv(OUI_IEEE, 12, APP_TCPDUMP) +
      dcbx_tlv(OUI_IEEE, 12, APP_TCPDUMP) + dcbx_tlv(OUI_IEEE, 9, ETS_TCPDUMP[:20]) +
      dcbx_tlv(OUI_IEEE, 1, [0x00, 0x64]))
