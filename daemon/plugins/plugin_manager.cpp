#include "plugins/plugin_manager.hpp"

#include "log/log.hpp"

#include <algorithm>

namespace nicd {

namespace pv1 = plugin::v1;

namespace {
bool enabled(const std::map<std::string, std::string>& section)
{
    auto it = section.find("Enabled");
    if (it == section.end())
        return true;
    std::string v = it->second;
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    return !(v == "no" || v == "false" || v == "0" || v == "off");
}
} // namespace

PluginManager::PluginManager(HostPaths paths, const Config& config)
    : paths_(std::move(paths)), plugin_config_(config.plugins)
{
}

PluginManager::~PluginManager()
{
    shutdown();
}

void PluginManager::loadDirectory(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        auto name = e.path().filename().string();
        if (name.starts_with("nicd-plugin-") && name.ends_with(".so"))
            files.push_back(e.path());
    }
    if (ec)
        log::error({}, "plugin directory {}: {}; running without plugins", dir.string(),
                   ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
        load(f);
}

void PluginManager::load(const std::filesystem::path& file)
{
    auto entry = std::make_unique<Loaded>();
    auto& st = entry->status;
    auto name = pluginNameFromFile(file);
    st.name = name;
    st.file = file.string();
    if (plugin_config_.contains(name) && !enabled(plugin_config_[name])) {
        st.state = PluginState::Disabled;
        st.last_error = "disabled by [plugin:" + name + "] Enabled=no";
        log::info({.plugin = name}, "plugin {} ({}) is disabled in the configuration", name,
                  file.string());
        plugins_.push_back(std::move(entry));
        return;
    }
    for (const auto& other : plugins_)
        if (other->status.name == name && other->lib.handle != nullptr) {
            st.state = PluginState::Failed;
            st.last_error = file.string() + ": a plugin named '" + name +
                            "' is already loaded from " + other->status.file;
            log::error({.plugin = name}, "{}", st.last_error);
            plugins_.push_back(std::move(entry));
            return;
        }
    if (!loadPluginLibrary(file, entry->lib, st)) {
        log::error({.plugin = name}, "plugin refused: {}", st.last_error);
        plugins_.push_back(std::move(entry));
        return;
    }
    entry->host = std::make_unique<PluginHost>(st.name, paths_, plugin_config_[st.name]);
    pv1::IPlugin* p = entry->lib.descriptor->create(entry->host.get());
    if (p == nullptr) {
        st.state = PluginState::Disabled;
        st.last_error =
            file.string() + ": create() failed (the plugin's constructor threw or refused)";
        log::error({.plugin = st.name}, "plugin {} disabled: {}", st.name, st.last_error);
        plugins_.push_back(std::move(entry));
        return;
    }
    pv1::Status s = p->init();
    if (!s) {
        st.state = PluginState::Disabled;
        st.last_error = "init failed: " + s.message;
        log::error({.plugin = st.name}, "plugin {} disabled: {}", st.name, st.last_error);
        entry->lib.descriptor->destroy(p);
        plugins_.push_back(std::move(entry));
        return;
    }
    entry->plugin = p;
    st.state = PluginState::Running;
    log::info({.plugin = st.name}, "plugin {} {} loaded from {} (ABI {}.{})", st.name, st.version,
              st.file, st.abi_major, st.abi_minor);
    plugins_.push_back(std::move(entry));
}

pv1::DeviceRef PluginManager::toDeviceRef(const Device& dev)
{
    pv1::DeviceRef r;
    r.ibdev = dev.ibdev;
    r.pci_address = dev.pci_address;
    r.driver = dev.driver;
    r.sysfs_path = dev.sysfs_path;
    for (const auto& p : dev.ports)
        r.ports.push_back({p.num, p.link_layer, p.netdevs});
    return r;
}

void PluginManager::assign(Inventory& inventory)
{
    for (auto& lp : plugins_) {
        if (lp->plugin == nullptr)
            continue;
        std::set<std::string> present;
        for (auto& dev : inventory.devices) {
            if (!dev.plugin.empty())
                continue;
            auto ref = toDeviceRef(dev);
            if (!lp->plugin->claims(ref))
                continue;
            present.insert(dev.ibdev);
            if (!lp->attached.contains(dev.ibdev)) {
                pv1::Status s = lp->plugin->attach(ref);
                if (!s) {
                    log::warn({.device = dev.ibdev, .plugin = lp->status.name},
                              "plugin {} cannot attach {}: {}", lp->status.name, dev.ibdev,
                              s.message);
                    continue;
                }
                lp->attached.insert(dev.ibdev);
                log::info({.device = dev.ibdev, .plugin = lp->status.name},
                          "{} managed by plugin {}", dev.ibdev, lp->status.name);
            }
            dev.plugin = lp->status.name;
        }
        for (auto it = lp->attached.begin(); it != lp->attached.end();) {
            if (present.contains(*it)) {
                ++it;
                continue;
            }
            pv1::DeviceRef gone;
            gone.ibdev = *it;
            lp->plugin->detach(gone);
            log::info({.device = *it, .plugin = lp->status.name},
                      "{} is gone; detached from plugin {}", *it, lp->status.name);
            lp->skip.erase(*it);
            it = lp->attached.erase(it);
        }
        lp->status.devices = static_cast<uint32_t>(lp->attached.size());
    }
}

PluginManager::Loaded* PluginManager::pluginFor(const Device& dev)
{
    for (auto& lp : plugins_)
        if (lp->plugin != nullptr && lp->status.name == dev.plugin)
            return lp.get();
    return nullptr;
}

const PluginManager::Loaded* PluginManager::pluginFor(const Device& dev) const
{
    return const_cast<PluginManager*>(this)->pluginFor(dev);
}

void PluginManager::poll(const Device& dev, DeviceSamples& out)
{
    Loaded* lp = pluginFor(dev);
    if (lp == nullptr)
        return;
    auto& skip = lp->skip[dev.ibdev];
    if (skip > 0) { // backing off after failures
        --skip;
        return;
    }
    auto& st = lp->status;
    pv1::Status s = lp->plugin->poll(toDeviceRef(dev), out.samples);
    if (s) {
        if (st.consecutive_failures > 0)
            log::info({.device = dev.ibdev, .plugin = st.name}, "plugin {} reads {} again", st.name,
                      dev.ibdev);
        st.consecutive_failures = 0;
        st.state = PluginState::Running;
        st.last_error.clear();
        return;
    }
    ++st.consecutive_failures;
    st.last_error = dev.ibdev + ": " + s.message;
    out.errors.push_back({dev.ibdev, 0, "plugin " + st.name, s.message});
    skip = static_cast<uint32_t>(
        std::min<uint64_t>(uint64_t{1} << std::min<uint64_t>(st.consecutive_failures - 1, 6), 64));
    if (st.consecutive_failures == 1)
        log::warn({.device = dev.ibdev, .plugin = st.name}, "plugin {} failed reading {}: {}",
                  st.name, dev.ibdev, s.message);
    if (st.consecutive_failures >= kDegradedAfter && st.state != PluginState::Degraded) {
        st.state = PluginState::Degraded;
        log::error({.plugin = st.name}, "plugin {} degraded after {} failed polls: {}", st.name,
                   st.consecutive_failures, s.message);
    }
}

pv1::Status PluginManager::qos(const Device& dev, const Port& port, const pv1::QosDesired& desired,
                               pv1::QosReport& out, bool apply)
{
    Loaded* lp = pluginFor(dev);
    if (lp == nullptr)
        return pv1::Status::fail(pv1::Errc::NoDevice,
                                 dev.ibdev + " is not managed by a running plugin");
    auto ref = toDeviceRef(dev);
    pv1::PortRef p{port.num, port.link_layer, port.netdevs};
    return apply ? lp->plugin->applyQos(ref, p, desired, out)
                 : lp->plugin->verifyQos(ref, p, desired, out);
}

bool PluginManager::classifyKernelLine(std::string_view line, pv1::KernelLineMatch& out) const
{
    for (const auto& lp : plugins_)
        if (lp->plugin != nullptr && lp->plugin->classifyKernelLine(line, out))
            return true;
    return false;
}

std::vector<PluginStatus> PluginManager::statuses() const
{
    std::vector<PluginStatus> out;
    for (const auto& lp : plugins_)
        out.push_back(lp->status);
    return out;
}

void PluginManager::shutdown()
{
    if (shut_down_)
        return;
    shut_down_ = true;
    for (auto& lp : plugins_) {
        if (lp->plugin == nullptr)
            continue;
        lp->plugin->shutdown();
        lp->lib.descriptor->destroy(lp->plugin);
        lp->plugin = nullptr;
        // No dlclose: a plugin's static destructors at exit are not worth the risk.
    }
}

} // namespace nicd
