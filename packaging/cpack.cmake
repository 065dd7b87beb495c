# DEB and RPM from one tree: `make package` runs `cd build && cpack -G "DEB;RPM"` in a build
# configured with CMAKE_INSTALL_PREFIX=/usr (the default here). Two packages each: `nicd` (the
# daemon, its plugins (each of plugins/), unit, config, bus policy and interfaces, nicctl, man pages, completions,
# fleet files) and `nicd-sim` (the simulator, for labs and CI; the daemon does not need it).
# No tests, no test plugins, no SDK headers. The DEB generator strips the binaries and puts
# their debug symbols in nicd-dbgsym/nicd-sim-dbgsym (.ddeb); the RPMs are stripped and ship
# no debuginfo. `lintian` and `rpmlint` are clean (tests/integration/package_policy_test.sh).

# The default textfile directory ([textfile] Path=): owned by the package too, so nicd can write
# its file before (or without) node_exporter being installed. Directories may be shared between
# packages on both dpkg and rpm.
install(DIRECTORY DESTINATION ${NICD_TEXTFILE_DIR} COMPONENT nicd)

set(NICD_PACKAGE_CONTACT "nicd developers <nicd-dev@example.org>"
    CACHE STRING "Maintainer of the packages (Debian Maintainer, RPM Packager)")

# /usr/share/doc/<package>/: copyright and changelog.gz in each (Debian policy 12.5, 12.7).
set(NICD_PACKAGE_DATE "Wed, 25 Nov 2026 00:00:00 +0000" CACHE STRING "Date of the changelog entry")
configure_file(${CMAKE_CURRENT_LIST_DIR}/changelog.in ${CMAKE_BINARY_DIR}/packaging/changelog @ONLY)
add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/packaging/changelog.gz
    COMMAND gzip -9nc ${CMAKE_BINARY_DIR}/packaging/changelog > ${CMAKE_BINARY_DIR}/packaging/changelog.gz
    DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog)
add_custom_target(nicd_package_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
foreach(component nicd sim)
    set(docdir ${CMAKE_INSTALL_DATADIR}/doc/nicd)
    if(component STREQUAL "sim")
        set(docdir ${CMAKE_INSTALL_DATADIR}/doc/nicd-sim)
    endif()
    install(FILES ${CMAKE_CURRENT_LIST_DIR}/copyright ${CMAKE_BINARY_DIR}/packaging/changelog.gz
            DESTINATION ${docdir} COMPONENT ${component})
endforeach()

set(CPACK_PACKAGE_NAME nicd)
set(CPACK_PACKAGE_VENDOR "nicd developers")
set(CPACK_PACKAGE_CONTACT ${NICD_PACKAGE_CONTACT})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_COMPONENTS_ALL nicd sim)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_RPM_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING IGNORE) # one package per component
# Stripping: the DEB generator does it itself for the dbgsym packages (it must get unstripped
# files); the RPM generator gets stripped ones (packaging/cpack_per_generator.cmake).
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/cpack_per_generator.cmake)

set(nicd_summary "RoCE QoS provisioning and RDMA NIC health daemon")
set(nicd_description
    "nicd provisions RoCE QoS (DSCP trust, PFC, RoCE ToS, ECN) on NVIDIA/Mellanox\n\
NICs and verifies it, watches link state, counters, kernel driver errors and\n\
pre-failure signals (FEC margin, optics, temperature, firmware health) of every\n\
RDMA port, and publishes its verdicts on D-Bus (nicctl) and as a node_exporter\n\
textfile, with Prometheus rules, Alertmanager routes and a Grafana dashboard.")
set(sim_summary "Simulated GPU node with RDMA NICs, for running nicd without them")
set(sim_description
    "nicd-sim builds a simulated node in the kernel's sysfs layout (RDMA devices,\n\
netdevs, counters, DCB and ECN state, module EEPROMs) and injects faults\n\
into it, so nicd can be run, demonstrated and tested without RDMA hardware\n\
(nicd --root). For labs and CI; the daemon does not need it.")

set(CPACK_DEBIAN_NICD_PACKAGE_NAME nicd)
set(CPACK_DEBIAN_SIM_PACKAGE_NAME nicd-sim)
# The first line is the synopsis (packaging/cpack_per_generator.cmake keeps CPack from
# putting the project's description before it).
set(CPACK_DEBIAN_NICD_DESCRIPTION "${nicd_summary}\n${nicd_description}")
set(CPACK_DEBIAN_SIM_DESCRIPTION "${sim_summary}\n${sim_description}")
set(CPACK_DEBIAN_NICD_PACKAGE_SECTION net)
set(CPACK_DEBIAN_SIM_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON) # dpkg-shlibdeps: ${shlibs:Depends}
set(CPACK_DEBIAN_NICD_PACKAGE_SUGGESTS prometheus-node-exporter)
# lldpd: the neighbour of every port (nicd opens liblldpctl at run time; without lldpd it says so
# once and hears no neighbours).
set(CPACK_DEBIAN_NICD_PACKAGE_RECOMMENDS lldpd)
set(CPACK_DEBIAN_SIM_PACKAGE_SUGGESTS nicd)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON) # maintainer scripts 0755, conffiles 0644
set(CPACK_DEBIAN_NICD_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/deb/postinst ${CMAKE_CURRENT_LIST_DIR}/deb/prerm
    ${CMAKE_CURRENT_LIST_DIR}/deb/postrm ${CMAKE_CURRENT_LIST_DIR}/deb/conffiles)

set(CPACK_RPM_NICD_PACKAGE_NAME nicd)
set(CPACK_RPM_SIM_PACKAGE_NAME nicd-sim)
set(CPACK_RPM_NICD_PACKAGE_SUMMARY ${nicd_summary})
set(CPACK_RPM_SIM_PACKAGE_SUMMARY ${sim_summary})
set(CPACK_RPM_NICD_PACKAGE_DESCRIPTION "${nicd_description}")
set(CPACK_RPM_SIM_PACKAGE_DESCRIPTION "${sim_description}")
set(CPACK_RPM_PACKAGE_LICENSE "LicenseRef-nicd-proprietary")
set(CPACK_RPM_PACKAGE_GROUP "System Environment/Daemons")
set(CPACK_RPM_PACKAGE_URL "https://example.org/nicd")
set(CPACK_RPM_SPEC_MORE_DEFINE "%define packager ${NICD_PACKAGE_CONTACT}")
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
set(CPACK_RPM_NICD_PACKAGE_SUGGESTS lldpd) # CPack 3.25 writes no Recommends: for RPM
set(CPACK_RPM_NICD_POST_INSTALL_SCRIPT_FILE ${CMAKE_CURRENT_LIST_DIR}/rpm/post.sh)
set(CPACK_RPM_NICD_PRE_UNINSTALL_SCRIPT_FILE ${CMAKE_CURRENT_LIST_DIR}/rpm/preun.sh)
set(CPACK_RPM_NICD_POST_UNINSTALL_SCRIPT_FILE ${CMAKE_CURRENT_LIST_DIR}/rpm/postun.sh)
# CPack marks every file installed to an absolute destination as %config; list those that are
# not configuration here, each with an explicit directive (CPack 3.25 gives an entry without one
# the previous entry's), the directories with the trailing slash CPack records them with (and
# excluded from the automatic list below so they are not listed twice).
set(CPACK_RPM_NICD_USER_FILELIST
    "%config(noreplace) /etc/nicd/nicd.conf"
    "%config(noreplace) /etc/nicd/slurm-check.conf"
    "%dir /etc/nicd/nicd.conf.d/"
    "%dir ${NICD_TEXTFILE_DIR}/"
    "%attr(0644,root,root) ${NICD_SYSTEMD_UNIT_DIR}/nicd.service")
# Every vendor's plugin (the top-level CMakeLists.txt adds each folder of plugins/).
foreach(plugin ${NICD_VENDOR_PLUGINS})
    list(APPEND CPACK_RPM_NICD_USER_FILELIST
         "%attr(0755,root,root) ${NICD_PLUGIN_INSTALL_DIR}/${plugin}")
endforeach()
# The packages own only their own directories, not the system's (the filesystem package and
# others own those; claiming them with other attributes is an rpm conflict). The unit directory
# comes from units/CMakeLists.txt (pkg-config systemd).
set(nicd_rpm_system_dirs /etc /var /var/lib /var/lib/prometheus /usr/sbin /usr/share/dbus-1
    /usr/share/dbus-1/system.d /usr/share/dbus-1/interfaces /usr/share/doc /usr/share/man
    /usr/share/man/man1 /usr/share/man/man5 /usr/share/man/man8 /usr/share/bash-completion
    /usr/share/bash-completion/completions /usr/share/zsh /usr/share/zsh/vendor-completions)
foreach(dir ${CMAKE_INSTALL_FULL_LIBDIR} ${NICD_SYSTEMD_UNIT_DIR} /lib/systemd/system
            /usr/lib/systemd/system)
    while(NOT dir STREQUAL "/" AND NOT dir STREQUAL "")
        list(APPEND nicd_rpm_system_dirs ${dir})
        get_filename_component(dir ${dir} DIRECTORY)
    endwhile()
endforeach()
list(REMOVE_DUPLICATES nicd_rpm_system_dirs)
list(APPEND nicd_rpm_system_dirs /etc/nicd/nicd.conf.d ${NICD_TEXTFILE_DIR}) # listed above
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION ${nicd_rpm_system_dirs})

include(CPack)
