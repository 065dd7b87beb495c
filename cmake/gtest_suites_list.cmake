# Run after a test executable is built (cmake -P, from nicd_add_gtest_suites): asks it for its
# tests and writes CTEST_FILE, one add_test() per suite, for ctest to include.
#   TEST_EXECUTABLE  the GoogleTest binary
#   CTEST_FILE       the file to write
#   LABEL            the ctest label of every suite
#   RUNNER           tests/support/gtest_suite.sh, which runs one suite (77 when all of it skipped)
#   EXCLUDE          a regular expression: suites whose whole name it matches get no test
execute_process(COMMAND ${TEST_EXECUTABLE} --gtest_list_tests
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0)
    file(REMOVE ${CTEST_FILE})
    message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${rc}):\n${listing}${errors}")
endif()

# A suite is a line of its own, "Suite." (or "Prefix/Suite/0.  # TypeParam = ..."); its tests
# follow, indented.
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(content "")
set(count 0)
foreach(line IN LISTS lines)
    if(line MATCHES "^([A-Za-z0-9_/]+)\\.( .*)?$")
        set(suite ${CMAKE_MATCH_1})
        if(EXCLUDE AND suite MATCHES "^(${EXCLUDE})$")
            continue()
        endif()
        string(APPEND content
            "add_test([==[${suite}]==] bash [==[${RUNNER}]==] [==[${TEST_EXECUTABLE}]==]"
            " [==[${suite}]==])\n"
            "set_tests_properties([==[${suite}]==] PROPERTIES LABELS [==[${LABEL}]==]"
            " SKIP_RETURN_CODE 77)\n")
        math(EXPR count "${count} + 1")
    endif()
endforeach()
if(count EQUAL 0)
    message(FATAL_ERROR "${TEST_EXECUTABLE} lists no test suite")
endif()
file(WRITE ${CTEST_FILE} "${content}")
