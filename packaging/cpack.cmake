# DEB and RPM from one tree: `make package` (cpack -G "DEB;RPM" in a build configured with
# CMAKE_INSTALL_PREFIX=/usr). Only the `nicd` component ships: no tests, no test plugins.
set(CPACK_PACKAGE_NAME nicd)
set(CPACK_PACKAGE_VENDOR "nicd developers")
set(CPACK_PACKAGE_CONTACT "nicd developers <nicd@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "RoCE QoS provisioning and RDMA NIC health daemon")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_COMPONENTS_ALL nicd)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_RPM_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_PACKAGE_FILE_NAME nicd-${PROJECT_VERSION})

set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_SOURCE_DIR}/packaging/deb/postinst ${CMAKE_SOURCE_DIR}/packaging/deb/prerm
    ${CMAKE_SOURCE_DIR}/packaging/deb/postrm ${CMAKE_SOURCE_DIR}/packaging/deb/conffiles)

set(CPACK_RPM_PACKAGE_LICENSE "Proprietary")
set(CPACK_RPM_PACKAGE_GROUP "System Environment/Daemons")
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
set(CPACK_RPM_POST_INSTALL_SCRIPT_FILE ${CMAKE_SOURCE_DIR}/packaging/rpm/post.sh)
set(CPACK_RPM_PRE_UNINSTALL_SCRIPT_FILE ${CMAKE_SOURCE_DIR}/packaging/rpm/preun.sh)
set(CPACK_RPM_POST_UNINSTALL_SCRIPT_FILE ${CMAKE_SOURCE_DIR}/packaging/rpm/postun.sh)
set(CPACK_RPM_USER_FILELIST "%config(noreplace) /etc/nicd/nicd.conf")
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION /etc /etc/nicd /lib /lib/systemd /lib/systemd/system
    /usr/share/dbus-1 /usr/share/dbus-1/system.d /usr/lib/x86_64-linux-gnu)

include(CPack)
