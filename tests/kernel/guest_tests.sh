#!/bin/sh
# Inside the guest (tests/kernel/vm.sh, on the node of rxe_node.sh): the kernel tests, then the
# tests of the other folders that need a real kernel's RDMA device. A test that needs one and
# skips here is a failure: the device is there. netdevsim is the exception: no Debian 12 kernel
# package builds it (CONFIG_NETDEVSIM is not set in linux-image-amd64, -cloud-amd64 or -rt-amd64),
# so the devlink health test skips in this guest too, and says why.
set -u
build=${NICD_BUILD_DIR:?NICD_BUILD_DIR names the build directory}
status=0
"$build/tests/kernel_tests" || status=1
needs_device="RdmaStatsClient.TheKernelListsItsDevicesAndDoesNotKnowAMadeUpOne:VerbsProbe.EveryListedDeviceOpensAndAnswersOnAHealthyNode"
out=$("$build/tests/unit_tests" \
    "--gtest_filter=$needs_device:DevlinkNetlinkLive.NetdevsimReporterErrorShowsInDumpAndNotification" 2>&1) ||
    status=1
printf '%s\n' "$out"
for t in $(printf '%s' "$needs_device" | tr ':' ' '); do
    if printf '%s\n' "$out" | grep -q "^\[  SKIPPED \] $t"; then
        echo "guest_tests.sh: $t skipped on a node with rxe0" >&2
        status=1
    fi
    printf '%s\n' "$out" | grep -q "^\[       OK \] $t" || status=1
done
exit $status
