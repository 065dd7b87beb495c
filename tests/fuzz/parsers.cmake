# nicd_fuzz_parsers: what the libFuzzer targets reach, and nothing more, compiled with clang's
# coverage instrumentation, ASan and UBSan (any UB aborts, so that libFuzzer sees it). The list is
# explicit: the daemon's other stages need sdbus-c++, libnl and ibverbs and would only slow the
# build. A parser that starts to call into another file fails to link here: add that file.
find_package(PkgConfig REQUIRED)
pkg_check_modules(INIH REQUIRED IMPORTED_TARGET inih)
pkg_check_modules(SYSTEMD REQUIRED IMPORTED_TARGET libsystemd)
find_package(fmt REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(spdlog REQUIRED)

set(daemon ${CMAKE_SOURCE_DIR}/daemon)
set(mlx5 ${CMAKE_SOURCE_DIR}/plugins/mlx5)
# Pure helpers shared by stages (text escaping): small, and any of the parsers may use them.
file(GLOB helper_sources CONFIGURE_DEPENDS ${daemon}/base/text/*.cpp)
# The health engine, for the state file's health memory: every rule family restores its part.
file(GLOB health_sources CONFIGURE_DEPENDS ${daemon}/health/*.cpp ${daemon}/model/*.cpp
     ${daemon}/base/log/*.cpp)
list(APPEND health_sources ${daemon}/prefailure/pcie_link.cpp) # the training rules' verdict

add_library(nicd_fuzz_parsers STATIC
    # the netlink message splitter and attribute reader every netlink decoder below walks with
    # (plugin SDK)
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/netlink_messages.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/netlink_attrs.cpp
    # the one matcher of a request's answer (NetlinkRequester reads every datagram through it) and
    # the generic netlink payload split (plugin SDK)
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/netlink_answer.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/genl_payload.cpp
    # rtnetlink: links and DCB notifications (daemon), DCB replies (plugin SDK)
    ${daemon}/netlink/link_message.cpp
    ${daemon}/netlink/dcb_notification.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/dcb_codec.cpp
    # LLDP: the DCBX TLVs a switch advertises, and their comparison with the host's QoS
    ${daemon}/neighbor/dcbx_tlv.cpp
    ${daemon}/neighbor/cee_dcbx_tlv.cpp
    ${daemon}/neighbor/switch_qos_compare.cpp
    # LLDP: what lldpcli prints of the neighbours (the simulator's twin, a capture's)
    ${daemon}/neighbor/lldpcli_json.cpp
    # generic netlink and JSON replies: ethtool FEC and module EEPROM, devlink health
    ${daemon}/prefailure/ethtool_answer.cpp
    ${daemon}/prefailure/fec_stats.cpp
    ${daemon}/prefailure/devlink_health.cpp
    ${daemon}/prefailure/module_eeprom.cpp
    ${daemon}/prefailure/module_cmis.cpp
    ${daemon}/prefailure/module_sff8472.cpp
    ${daemon}/prefailure/module_sff8636.cpp
    # RDMA netlink hw counters (plugin SDK)
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/rdma_stats_codec.cpp
    # netdev statistics (plugin SDK): ethtool -S text and the ioctl's buffers
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/ethtool_text.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/ethtool_ioctl.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/guarded_buffer.cpp
    # kernel lines: their origin (journald's trusted fields), the user-program filter, the SDK's
    # matcher and the mlx5 and bnxt patterns; multi-line reports: the daemon's window, the
    # trace-line reader, mlx5's and bnxt's poll loops (data in their headers)
    ${daemon}/kernel_log/trusted_fields.cpp
    ${daemon}/kernel_log/user_reports.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/printed_record.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/pcie_report.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/kernel_line_matcher.cpp
    ${mlx5}/kernel_patterns.cpp
    ${daemon}/kernel_log/report_window.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/stack_frame.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/soft_lockup.cpp
    ${CMAKE_SOURCE_DIR}/plugins/bnxt/bnxt_kernel_lines.cpp
    # configuration: INI lines and every key's value parser
    ${daemon}/config/config.cpp
    ${daemon}/config/config_keys.cpp
    ${daemon}/config/prefailure_keys.cpp
    ${daemon}/base/ini/ini_lines.cpp
    ${daemon}/config/value_parsers.cpp
    ${daemon}/config/firmware_values.cpp
    ${daemon}/config/tree_keys.cpp
    ${daemon}/config/wiring_map.cpp
    ${daemon}/base/paths/beneath.cpp
    # the state file
    ${daemon}/state/state_text.cpp
    # sysfs values
    ${daemon}/inventory/sysfs_values.cpp
    ${daemon}/inventory/gpu_profiles.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/counter_dir.cpp
    # samples' layouts (the health engine reads snapshots through them)
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/sample_batch.cpp
    ${CMAKE_SOURCE_DIR}/plugins/sdk/src/plugin_defaults.cpp
    # the textfile's escaping
    ${daemon}/textfile/metric_writer.cpp
    # the readiness checks' decoders: a bridge's ACS capability, GIDs (the health engine judges
    # readiness with them)
    ${daemon}/readiness/acs_config.cpp
    ${daemon}/readiness/gid_text.cpp
    ${daemon}/readiness/gpudirect_evidence.cpp
    # slurm-check's reading of `scontrol show node` (nicctl)
    ${CMAKE_SOURCE_DIR}/tools/nicctl/slurm_scontrol.cpp
    # what nicd's knob writer takes from the daemon
    ${daemon}/privilege/knob_protocol.cpp
    ${daemon}/privilege/knob_shapes.cpp
    ${helper_sources}
    ${health_sources})
target_include_directories(nicd_fuzz_parsers PUBLIC ${daemon} ${daemon}/base ${mlx5} ${CMAKE_SOURCE_DIR}/plugins
                           ${CMAKE_SOURCE_DIR}/plugins/sdk/include ${CMAKE_SOURCE_DIR}/tools/nicctl)
target_compile_definitions(nicd_fuzz_parsers PUBLIC
    NICD_VERSION="${PROJECT_VERSION}"
    NICD_DEFAULT_PLUGIN_DIR="${CMAKE_INSTALL_FULL_LIBDIR}/nicd/plugins")
target_compile_options(nicd_fuzz_parsers PUBLIC
    -g -O1 -fno-omit-frame-pointer
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all)
target_link_options(nicd_fuzz_parsers PUBLIC -fsanitize=address,undefined)
target_link_libraries(nicd_fuzz_parsers PUBLIC
    PkgConfig::INIH PkgConfig::SYSTEMD fmt::fmt nlohmann_json::nlohmann_json spdlog::spdlog)
