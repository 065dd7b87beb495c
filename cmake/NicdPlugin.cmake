# nicd_add_plugin(<name> SOURCES <src>... [OUTPUT_DIRECTORY <dir>] [LIBRARIES <lib>...])
# Builds nicd-plugin-<name>.so as a MODULE with hidden visibility that exports only the entry symbol.
function(nicd_add_plugin name)
    cmake_parse_arguments(P "" "OUTPUT_DIRECTORY" "SOURCES;LIBRARIES" ${ARGN})
    if(NOT P_OUTPUT_DIRECTORY)
        set(P_OUTPUT_DIRECTORY ${NICD_BUILD_PLUGIN_DIR})
    endif()
    set(target nicd-plugin-${name})
    add_library(${target} MODULE ${P_SOURCES})
    set_target_properties(${target} PROPERTIES
        PREFIX ""
        OUTPUT_NAME nicd-plugin-${name}
        LIBRARY_OUTPUT_DIRECTORY ${P_OUTPUT_DIRECTORY}
        CXX_VISIBILITY_PRESET hidden
        VISIBILITY_INLINES_HIDDEN ON)
    target_link_libraries(${target} PRIVATE nicd_plugin_sdk ${P_LIBRARIES})
    set(map ${CMAKE_SOURCE_DIR}/plugins/sdk/plugin.map)
    target_link_options(${target} PRIVATE -Wl,--version-script=${map})
    if(NOT NICD_SANITIZE)
        # With sanitizers the runtime symbols resolve from the executable.
        target_link_options(${target} PRIVATE -Wl,--no-undefined)
    endif()
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${map})
endfunction()

# nicd_add_plugin_library(<target> SOURCES <src>...)
# A plugin's sources but its entry point, as a static library compiled the way plugins are (hidden
# visibility): the plugin links it, and so can tests and tools, without compiling them again.
function(nicd_add_plugin_library target)
    cmake_parse_arguments(L "" "" "SOURCES" ${ARGN})
    add_library(${target} STATIC ${L_SOURCES})
    set_target_properties(${target} PROPERTIES
        CXX_VISIBILITY_PRESET hidden
        VISIBILITY_INLINES_HIDDEN ON)
    target_link_libraries(${target} PUBLIC nicd_plugin_sdk PkgConfig::LIBNL)
endfunction()
