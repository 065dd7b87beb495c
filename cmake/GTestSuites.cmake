# nicd_add_gtest_suites(<target> <label> [EXCLUDE <regex>])
# Registers one ctest test per GoogleTest suite of <target> (named as the suite, run with
# --gtest_filter=<suite>.* by tests/support/gtest_suite.sh), listed after each build as
# gtest_discover_tests lists single tests; suites whose whole name matches <regex> are left out.
# For unit tests: a test of its own for each of ~900 unit tests spent more time starting the
# binary (its static initialisers; under ASan its shadow memory) than running them, while the
# whole binary passes in one process. A suite all of whose tests skip is reported skipped.
function(nicd_add_gtest_suites target label)
    cmake_parse_arguments(PARSE_ARGV 2 arg "" "EXCLUDE" "")
    set(ctest_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake)
    add_custom_command(TARGET ${target} POST_BUILD
        COMMAND ${CMAKE_COMMAND} -D TEST_EXECUTABLE=$<TARGET_FILE:${target}>
                -D CTEST_FILE=${ctest_file} -D LABEL=${label}
                -D RUNNER=${CMAKE_SOURCE_DIR}/tests/support/gtest_suite.sh
                "-DEXCLUDE=${arg_EXCLUDE}"
                -P ${CMAKE_SOURCE_DIR}/cmake/gtest_suites_list.cmake
        BYPRODUCTS ${ctest_file}
        VERBATIM)
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${ctest_file})
endfunction()
