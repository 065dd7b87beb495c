// bnxt_en and bnxt_re driver errors in kernel log records: pure classification
// (IPlugin::classifyKernelRecord). Only records the kernel printed about a device are matched,
// and only after their dev_printk() prefix names that device (sdk::printedAbout): bnxt_en's own
// lines ("bnxt_en <bdf>[ <netdev>]: ..."), bnxt_re's through its PCI parent ("bnxt_en <bdf>
// bnxt_re0: ...", "bnxt_en <bdf>: QPLIB: ...") and bnxt_re's ("infiniband bnxt_reN: ..."), and
// the PCIe port's AER/DPC reports about a function below it (sdk::classifyPcie).
// Device-less records are never matched: bnxt prints nothing the kernel itself reports without a
// device that nicd needs (bnxt_re_ib_init's pr_err "Failed to register with IB" names none).
#pragma once

#include <nicd/plugin/plugin.h>

namespace nicd::bnxt {

bool classifyKernelRecord(const ::nicd::plugin::v1::KernelRecord& rec,
                          ::nicd::plugin::v1::KernelLineMatch& out) noexcept;

} // namespace nicd::bnxt
