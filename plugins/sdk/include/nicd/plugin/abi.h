// The plugin ABI: one exported C symbol returning a plain, versioned descriptor.
// The daemon checks every field of the descriptor before it calls any plugin code.
#pragma once

#include <cstddef>
#include <cstdint>

#define NICD_PLUGIN_ABI_MAJOR 1U // a bump renames the entry symbol
#define NICD_PLUGIN_ABI_MINOR 8U // additive changes only: trailing virtuals or descriptor fields

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
// ABI 1.7: one key the plugin's section [plugin:<name>] takes besides Enabled=. nicd checks every
// key of the section against these, and each value against its type, before the plugin is
// created: a key not declared, or a value not of its type, is a configuration error naming the
// file and line, and the plugin is not created.
struct nicd_plugin_setting_v1 {
    const char* key;  // "ReadyFile": letters, digits, '_'
    const char* type; // "bool" (yes/no, true/false, on/off, 1/0), "uint" (decimal), "path" (an
                      // absolute path) or "string" (any text)
    const char* help; // one line: what it does, for nicctl config and the plugin's docs
};

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
    // ABI 1.7: the keys of its section, ended by an entry whose key is nullptr; nullptr when it
    // takes none but Enabled=. Read only when struct_size covers it and abi_minor >= 7 (an older
    // plugin's keys are passed to it unchecked, with a warning).
    const nicd_plugin_setting_v1* settings;
};

using nicd_plugin_entry_v1_fn = const nicd_plugin_descriptor_v1* (*)() noexcept;
}
