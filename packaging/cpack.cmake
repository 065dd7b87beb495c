# DEB and RPM from one tree: `make package` runs `cd build && cpack -G "DEB;RPM"` in a build
# configured with CMAKE_INSTALL_PREFIX=/usr (the default here). Only the `nicd` component ships:
# no tests, no test plugins, no SDK headers.

# The default textfile directory ([textfile] Path=): owned by the package too, so nicd can write
# its file before (or without) node_exporter being installed. Directories may be shared between
# packages on both dpkg and rpm.
set(NICD_TEXTFILE_DIR /var/lib/prometheus/node-exporter)
install(DIRECTORY DESTINATION ${NICD_TEXTFILE_DIR} COMPONENT nicd)

set(CPACK_PACKAGE_NAME nicd)
set(CPACK_PACKAGE_VENDOR "nicd developers")
set(CPACK_PACKAGE_CONTACT "nicd developers <nicd@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "RoCE QoS provisioning and RDMA NIC health daemon")
set(CPACK_PACKAGE_DESCRIPTION
    "nicd provisions RoCE QoS (DSCP trust, PFC, RoCE ToS) on NVIDIA/Mellanox NICs and verifies it, \
watches link state, counters and kernel driver errors of every RDMA port, and publishes health \
on D-Bus (nicctl) and as a node_exporter textfile.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_COMPONENTS_ALL nicd)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_RPM_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_PACKAGE_FILE_NAME nicd-${PROJECT_VERSION})

set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS prometheus-node-exporter)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON) # maintainer scripts 0755, conffiles 0644
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/deb/postinst ${CMAKE_CURRENT_LIST_DIR}/deb/prerm
    ${CMAKE_CURRENT_LIST_DIR}/deb/postrm ${CMAKE_CURRENT_LIST_DIR}/deb/conffiles)

set(CPACK_RPM_PACKAGE_LICENSE "Proprietary")
set(CPACK_RPM_PACKAGE_GROUP "System Environment/Daemons")
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
set(CPACK_RPM_POST_INSTALL_SCRIPT_FILE ${CMAKE_CURRENT_LIST_DIR}/rpm/post.sh)
set(CPACK_RPM_PRE_UNINSTALL_SCRIPT_FILE ${CMAKE_CURRENT_LIST_DIR}/rpm/preun.sh)
set(CPACK_RPM_POST_UNINSTALL_SCRIPT_FILE ${CMAKE_CURRENT_LIST_DIR}/rpm/postun.sh)
# CPack marks every file installed to an absolute destination as %config; list those that are
# not configuration here, each with an explicit directive (CPack 3.25 gives an entry without one
# the previous entry's), the directories with the trailing slash CPack records them with (and
# excluded from the automatic list below so they are not listed twice).
set(CPACK_RPM_USER_FILELIST
    "%config(noreplace) /etc/nicd/nicd.conf"
    "%dir /etc/nicd/nicd.conf.d/"
    "%dir ${NICD_TEXTFILE_DIR}/"
    "%attr(0644,root,root) ${NICD_SYSTEMD_UNIT_DIR}/nicd.service"
    "%attr(0755,root,root) ${NICD_PLUGIN_INSTALL_DIR}/nicd-plugin-mlx5.so")
# The package owns only its own directories, not the system's (the filesystem package owns
# those; claiming them with other attributes is an rpm conflict). The unit directory comes from
# units/CMakeLists.txt (pkg-config systemd).
set(nicd_rpm_system_dirs /etc /var /var/lib /var/lib/prometheus /usr/sbin /usr/share/dbus-1
                         /usr/share/dbus-1/system.d)
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
