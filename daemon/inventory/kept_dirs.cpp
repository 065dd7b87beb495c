#include "inventory/kept_dirs.hpp"

namespace nicd::inventory {

plugin::sdk::CounterDir& KeptDirs::use(const std::string& path)
{
    auto& e = dirs_[path];
    if (!e.dir)
        e.dir = std::make_unique<plugin::sdk::CounterDir>(path, path_check_every_);
    e.used = true;
    return *e.dir;
}

bool KeptDirs::used(const std::string& path) const
{
    auto it = dirs_.find(path);
    return it != dirs_.end() && it->second.used;
}

void KeptDirs::checkPathsNext()
{
    for (auto& [path, e] : dirs_)
        e.dir->checkPathNext();
}

void KeptDirs::finish()
{
    std::erase_if(dirs_, [](const auto& kv) { return !kv.second.used; });
    for (auto& [path, e] : dirs_)
        e.used = false;
}

} // namespace nicd::inventory
