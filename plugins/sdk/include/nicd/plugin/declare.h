// What a plugin author writes once: NICD_DECLARE_PLUGIN(Mlx5Plugin, "mlx5", "1.0.0").
// The class must be `final`, constructible from IHost&, and implement IPlugin.
// A plugin whose section [plugin:<name>] takes keys besides Enabled= declares them (abi.h,
// nicd_plugin_setting_v1):
//   constexpr nicd_plugin_setting_v1 kSettings[] = {
//       {"ReadyFile", "path", "the driver's ready file"}, {nullptr, nullptr, nullptr}};
//   NICD_DECLARE_PLUGIN_WITH_SETTINGS(MyPlugin, "mine", "1.0.0", kSettings)
#pragma once

#include <nicd/plugin/plugin.h>

namespace nicd::plugin::v1::detail {
// The descriptor's destroy(): deletes the plugin as the class it was created as.
template <typename Class> void destroyPlugin(IPlugin* self) noexcept
{
    delete static_cast<Class*>(self);
}
} // namespace nicd::plugin::v1::detail

#define NICD_DECLARE_PLUGIN(Class, Name, Version)                                                  \
    NICD_DECLARE_PLUGIN_WITH_SETTINGS(Class, Name, Version, nullptr)

#define NICD_DECLARE_PLUGIN_WITH_SETTINGS(Class, Name, Version, Settings)                          \
    extern "C" __attribute__((visibility("default"))) const nicd_plugin_descriptor_v1*             \
    nicd_plugin_entry_v1() noexcept                                                                \
    {                                                                                              \
        static const nicd_plugin_descriptor_v1 descriptor{                                         \
            sizeof(nicd_plugin_descriptor_v1),                                                     \
            NICD_PLUGIN_ABI_MAJOR,                                                                 \
            NICD_PLUGIN_ABI_MINOR,                                                                 \
            Name,                                                                                  \
            Version,                                                                               \
            NICD_PLUGIN_TOOLCHAIN,                                                                 \
            [](::nicd::plugin::v1::IHost* host) noexcept -> ::nicd::plugin::v1::IPlugin* {         \
                try {                                                                              \
                    return new Class(*host);                                                       \
                } catch (...) {                                                                    \
                    return nullptr;                                                                \
                }                                                                                  \
            },                                                                                     \
            &::nicd::plugin::v1::detail::destroyPlugin<Class>,                                     \
            Settings};                                                                             \
        return &descriptor;                                                                        \
    }
