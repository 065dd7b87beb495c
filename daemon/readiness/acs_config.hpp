// The PCIe Access Control Services (ACS) extended capability of a bridge, decoded from its config
// space as sysfs gives it (/sys/bus/pci/devices/<bdf>/config). With P2P Request Redirect or P2P
// Completion Redirect set on a bridge between a NIC and a GPU, their peer-to-peer traffic
// (GPUDirect RDMA) is sent up to the root complex instead of across the switch: bandwidth drops,
// or the transfers stall (NCCL's troubleshooting guide: disable ACS on PCIe switches).
//
// Layout (PCIe Base Specification, "ACS Extended Capability"; Linux include/uapi/linux/
// pci_regs.h): extended capabilities form a chain from offset 0x100, each starting with a 32-bit
// little-endian header, capability ID in bits 15:0 (ACS: 0x000D, PCI_EXT_CAP_ID_ACS), version in
// 19:16, next offset in 31:20 (PCI_EXT_CAP_NEXT: (header >> 20) & 0xffc; below 0x100 ends it).
// The ACS capability register is at +4 (16 bits), the control register at +6: bit 0 Source
// Validation, 1 Translation Blocking, 2 P2P Request Redirect (PCI_ACS_RR), 3 P2P Completion
// Redirect (PCI_ACS_CR), 4 Upstream Forwarding, 5 P2P Egress Control, 6 Direct Translated P2P.
//
// The kernel gives the extended space (offset 0x100 and up) only to a reader that opened the file
// with CAP_SYS_ADMIN (config_read in drivers/pci/pci-sysfs.c: file_ns_capable(filp,
// &init_user_ns, CAP_SYS_ADMIN), else 64 bytes): nicd's unit does not grant it, so a read of 64
// bytes says "cannot tell", never "no ACS". Pure; bytes from outside (a fuzz target covers it).
#pragma once

#include "model/readiness.hpp"

#include <cstdint>
#include <span>

namespace nicd::readiness {

inline constexpr uint16_t kAcsCapabilityId = 0x000d;
inline constexpr uint16_t kAcsRequestRedirect = 1U << 2;    // PCI_ACS_RR
inline constexpr uint16_t kAcsCompletionRedirect = 1U << 3; // PCI_ACS_CR
inline constexpr uint16_t kAcsEgressControl = 1U << 5;      // PCI_ACS_EC
inline constexpr size_t kConfigSpaceSize = 4096;            // PCI_CFG_SPACE_EXP_SIZE
inline constexpr size_t kUnprivilegedConfigSize = 64;       // what config_read gives others

// What `config` (the bytes read from the file, at most 4096) says of the ACS capability: Short
// when it holds no more than the unprivileged 64 bytes; Ok otherwise, with `capability` set when
// the chain holds one (a conventional function's 256 bytes have no extended space: none).
AcsInputs decodeAcs(std::span<const uint8_t> config);

// Whether P2P traffic is redirected upstream: Request or Completion Redirect set.
inline bool redirectsPeerTraffic(const AcsInputs& a)
{
    return a.read == AcsInputs::Read::Ok && a.capability &&
           (a.control & (kAcsRequestRedirect | kAcsCompletionRedirect)) != 0;
}

} // namespace nicd::readiness
