# Read by cpack before each generator (CPACK_PROJECT_CONFIG_FILE). The DEB generator strips the
# files itself while it splits off the -dbgsym packages, so it must be given them unstripped;
# the RPMs ship no debuginfo, so they get stripped files.
if(CPACK_GENERATOR STREQUAL "RPM")
    set(CPACK_STRIP_FILES ON)
endif()
# CPackDeb puts CPACK_PACKAGE_DESCRIPTION_SUMMARY (the project's description) before each
# component's description unless it is CPack's default; the components carry their own synopsis.
if(CPACK_GENERATOR STREQUAL "DEB")
    set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CPACK_DEFAULT_PACKAGE_DESCRIPTION_SUMMARY}")
endif()
