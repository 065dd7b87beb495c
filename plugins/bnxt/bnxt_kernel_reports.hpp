// bnxt driver failures in multi-line kernel reports (IPlugin::classifyKernelReport, ABI 1.5), as
// data for the SDK's soft-lockup classifier (nicd/plugin/sdk/soft_lockup.h): a soft-lockup report
// whose trace runs (the running frame, not a speculative "? frame") in bnxt_en's NAPI poll loop
// or bnxt_re's notification-queue and command-queue tasklets means the driver is wedged there.
#pragma once

#include <nicd/plugin/sdk/soft_lockup.h>

#include <array>
#include <string_view>

namespace nicd::bnxt {

// bnxt_en's poll loop (drivers/net/ethernet/broadcom/bnxt/bnxt.c: bnxt_poll, bnxt_poll_p5 for
// P5/P7 chips, bnxt_poll_nitroa0, and below them __bnxt_poll_cqs, __bnxt_poll_work,
// bnxt_rx_pkt) and bnxt_re's completion and command tasklets (drivers/infiniband/hw/bnxt_re/
// qplib_fp.c bnxt_qplib_service_nq, qplib_rcfw.c bnxt_qplib_service_creq).
inline constexpr std::array<std::string_view, 8> kPollFrames{
    "bnxt_poll",        "bnxt_poll_p5", "bnxt_poll_nitroa0",     "__bnxt_poll_cqs",
    "__bnxt_poll_work", "bnxt_rx_pkt",  "bnxt_qplib_service_nq", "bnxt_qplib_service_creq"};
inline constexpr plugin::sdk::PollLoop kPollLoop{"bnxt", kPollFrames};

} // namespace nicd::bnxt
