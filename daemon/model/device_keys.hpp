// What is kept per device is kept under the device's name: the name alone, or the first member of
// a pair or tuple ((device, port), (device, port, code)). When a device's hardware gets a new name
// (health/device_identity.hpp), moveDeviceKeys moves such a map's entries to it.
#pragma once

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace nicd {

template <typename Key> auto& deviceOfKey(Key& key)
{
    if constexpr (std::is_same_v<std::remove_const_t<Key>, std::string>)
        return key;
    else
        return std::get<0>(key);
}

// Moves every entry of `map` kept under device `from` to the same key under `to`. Where `to`
// already has the key, that entry (the newer) is kept and the moved one dropped.
template <typename Map>
void moveDeviceKeys(Map& map, const std::string& from, const std::string& to)
{
    if (from == to)
        return;
    for (auto it = map.begin(); it != map.end();) {
        if (deviceOfKey(it->first) != from) {
            ++it;
            continue;
        }
        auto node = map.extract(it++);
        deviceOfKey(node.key()) = to;
        map.insert(std::move(node));
    }
}

} // namespace nicd
