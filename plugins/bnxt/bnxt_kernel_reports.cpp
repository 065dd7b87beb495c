#include "bnxt_kernel_reports.hpp"

#include <nicd/plugin/sdk/soft_lockup.h>

#include <array>

namespace nicd::bnxt {

namespace pv1 = ::nicd::plugin::v1;

namespace {

// bnxt_en's poll loop (drivers/net/ethernet/broadcom/bnxt/bnxt.c: bnxt_poll, bnxt_poll_p5 for
// P5/P7 chips, bnxt_poll_nitroa0, and below them __bnxt_poll_cqs, __bnxt_poll_work,
// bnxt_rx_pkt) and bnxt_re's completion and command tasklets (drivers/infiniband/hw/bnxt_re/
// qplib_fp.c bnxt_qplib_service_nq, qplib_rcfw.c bnxt_qplib_service_creq).
constexpr std::array<std::string_view, 8> kPollFrames{
    "bnxt_poll",        "bnxt_poll_p5", "bnxt_poll_nitroa0",     "__bnxt_poll_cqs",
    "__bnxt_poll_work", "bnxt_rx_pkt",  "bnxt_qplib_service_nq", "bnxt_qplib_service_creq"};

} // namespace

bool classifyKernelReport(const pv1::KernelReport& report, pv1::KernelLineMatch& out) noexcept
{
    return plugin::sdk::classifySoftLockup(report, kPollFrames, "bnxt", out);
}

} // namespace nicd::bnxt
