// The plugin ABI: one exported C symbol returning a plain, versioned descriptor.
// The daemon checks every field of the descriptor before it calls any plugin code.
#pragma once

#include <cstddef>
#include <cstdint>

#define NICD_PLUGIN_ABI_MAJOR 1U // a bump renames the entry symbol
#define NICD_PLUGIN_ABI_MINOR 6U // additive changes only: trailing virtuals or descriptor fields

#define NICD_PLUGIN_STR2(x) #x
#define NICD_PLUGIN_STR(x) NICD_PLUGIN_STR2(x)
// std types cross the boundary, so the C++ ABI is libstdc++'s: the loader refuses a mismatch.
#define NICD_PLUGIN_TOOLCHAIN                                                                      \
    "gcc" NICD_PLUGIN_STR(__GNUC__) ";cxx11abi=" NICD_PLUGIN_STR(_GLIBCXX_USE_CXX11_ABI)

#define NICD_PLUGIN_ENTRY_SYMBOL "nicd_plugin_entry_v1"

namespace nicd::plugin::v1 {
class IPlugin;
class IHost;
} // namespace nicd::plugin::v1

extern "C" {
struct nicd_plugin_descriptor_v1 {
    uint32_t struct_size; // sizeof as compiled into the plugin; >= the v1.0 size
    uint16_t abi_major;   // == NICD_PLUGIN_ABI_MAJOR of the daemon
    uint16_t abi_minor;   // <= NICD_PLUGIN_ABI_MINOR of the daemon
    const char* name;     // "mlx5": file nicd-plugin-mlx5.so, D-Bus .../plugin/mlx5
    const char* version;  // the plugin's own version
    const char* toolchain;
    // nullptr means creation failed; the reason goes through host->log().
    nicd::plugin::v1::IPlugin* (*create)(nicd::plugin::v1::IHost* host) noexcept;
    void (*destroy)(nicd::plugin::v1::IPlugin* self) noexcept;
};

using nicd_plugin_entry_v1_fn = const nicd_plugin_descriptor_v1* (*)() noexcept;
}
