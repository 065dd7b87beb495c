#include "plugins/plugin_manager.hpp"

#include "config/value_parsers.hpp"
#include "log/log.hpp"
#include "plugins/plugin_schemas.hpp"
#include "privilege/write_limits.hpp"

#include <nicd/plugin/sdk/backoff.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <utility>

namespace nicd::plugins {

namespace pv1 = plugin::v1;

namespace {

// The daemon's settings plugins follow (nicd/plugin/sdk/backoff.h), as IHost::config() gives them.
std::map<std::string, std::string> daemonSettings(const DaemonConfig& daemon)
{
    return {{plugin::sdk::kDropAfterKey, std::to_string(daemon.drop_counter_after)}};
}

} // namespace

PluginManager::PluginManager(HostPaths paths, const Config& config)
    : paths_(std::move(paths)), sections_(config), daemon_settings_(daemonSettings(config.daemon))
{
}

void PluginManager::configure(const Config& config)
{
    daemon_settings_ = daemonSettings(config.daemon);
    for (auto& lp : plugins_) {
        if (lp->host)
            lp->host->setDaemonSettings(daemon_settings_);
        lp->reattach = lp->plugin != nullptr;
    }
}

PluginManager::~PluginManager()
{
    shutdown();
}

void PluginManager::loadDirectory(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (!pluginNameFromFile(e.path()).empty())
            files.push_back(e.path());
    if (ec)
        log::error({}, "plugin directory {}: {}; running without its plugins", dir.string(),
                   ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
        load(f);
    logSectionsWithoutPlugin(sections_, files, dir);
}

void PluginManager::record(std::unique_ptr<Loaded> entry)
{
    std::lock_guard lock(mutex_);
    plugins_.push_back(std::move(entry));
}

void PluginManager::load(const std::filesystem::path& file)
{
    auto entry = std::make_unique<Loaded>();
    auto& st = entry->status;
    const auto name = pluginNameFromFile(file);
    st.name = name;
    st.file = file.string();
    if (!pluginEnabled(sections_, name)) {
        st.state = PluginState::Disabled;
        st.last_error = file.string() + ": disabled by [plugin:" + name + "] Enabled=no";
        log::info({.plugin = name}, "plugin {} ({}) is disabled in the configuration", name,
                  file.string());
        return record(std::move(entry));
    }
    for (const auto& other : plugins_)
        if (other->status.name == name && other->lib.handle != nullptr) {
            st.state = PluginState::Failed;
            st.last_error = file.string() + ": a plugin named '" + name +
                            "' is already loaded from " + other->status.file;
            log::error({.plugin = name}, "plugin refused: {}", st.last_error);
            return record(std::move(entry));
        }
    if (!loadPluginLibrary(file, entry->lib, st)) {
        log::error({.plugin = name}, "plugin refused: {}", st.last_error);
        return record(std::move(entry));
    }
    // Its section against the keys it declares (ABI 1.7), before any of its code runs: a mistake
    // there leaves it out, as a configuration error would leave nicd.
    if (auto refused = sectionRefusal(sections_, st.name, entry->lib.descriptor)) {
        st.state = PluginState::Failed;
        st.last_error = file.string() + ": not created: " + *refused;
        log::error({.plugin = st.name}, "plugin refused: {}", st.last_error);
        return record(std::move(entry));
    }
    entry->host = std::make_unique<PluginHost>(st.name, paths_, sections_.plugins[st.name]);
    entry->host->setDaemonSettings(daemon_settings_);
    pv1::IPlugin* p = entry->lib.descriptor->create(entry->host.get());
    if (p == nullptr) {
        st.state = PluginState::Disabled;
        st.last_error =
            file.string() + ": create() failed (the plugin's constructor threw or refused)";
        log::error({.plugin = st.name}, "plugin {} disabled: {}", st.name, st.last_error);
        return record(std::move(entry));
    }
    if (pv1::Status s = p->init(); !s) {
        st.state = PluginState::Disabled;
        st.last_error = file.string() + ": init failed: " + s.message;
        log::error({.plugin = st.name}, "plugin {} disabled: {}", st.name, st.last_error);
        entry->lib.descriptor->destroy(p);
        return record(std::move(entry));
    }
    entry->plugin = p;
    st.state = PluginState::Running;
    log::info({.plugin = st.name}, "plugin {} {} loaded from {} (ABI {}.{})", st.name, st.version,
              st.file, st.abi_major, st.abi_minor);
    if (st.abi_minor >= 6) // older plugins' vtables end before describePlugin
        describe(*entry);
    record(std::move(entry));
    std::lock_guard lock(mutex_);
    auto meanings = std::make_shared<ReporterMeanings>();
    for (const auto& lp : plugins_)
        for (const auto& r : lp->traits.reporters)
            (*meanings)[lp->status.name][r.name] = r.meaning;
    reporter_meanings_ = std::move(meanings);
}

// What the plugin says about itself, checked: a ready file must be an absolute path at least two
// directories deep without "." or ".." in it (it is resolved under the root; one directly under
// /run would find its directory always there and wait for ever), a reporter a devlink name, said
// once, a meaning one this daemon knows (else Unknown). What fails is logged and left out.
void PluginManager::describe(Loaded& lp)
{
    const std::string& name = lp.status.name;
    pv1::PluginTraits said;
    lp.plugin->describePlugin(said);
    if (const auto& f = said.driver_ready_file; !f.empty()) {
        std::filesystem::path p(f);
        bool plain = p.is_absolute() && f.size() < 4096 && f.find('\0') == std::string::npos;
        size_t parts = 0;
        for (const auto& part : p.relative_path()) {
            plain = plain && part != "." && part != ".." && !part.empty();
            ++parts;
        }
        if (plain && parts >= 3)
            lp.traits.driver_ready_file = p.lexically_normal().string();
        else
            log::error({.plugin = name},
                       "plugin {} names a driver ready file '{}' that is not an absolute path two "
                       "directories deep without . or ..: ignored",
                       name, f);
    }
    std::set<std::string> seen;
    for (auto& r : said.reporters) {
        const bool named = !r.name.empty() && r.name.size() <= 64 &&
                           std::all_of(r.name.begin(), r.name.end(), [](unsigned char c) {
                               return std::isalnum(c) != 0 || c == '_' || c == '-';
                           });
        if (!named || !seen.insert(r.name).second) {
            log::error({.plugin = name},
                       "plugin {} describes a devlink health reporter named '{}': {}; ignored",
                       name, r.name, named ? "described twice" : "not a reporter name");
            continue;
        }
        if (r.meaning > pv1::kLastReporterMeaning)
            r.meaning = pv1::ReporterMeaning::Unknown;
        lp.traits.reporters.push_back(std::move(r));
    }
}

std::map<std::string, std::string> PluginManager::driverReadyFiles() const
{
    std::lock_guard lock(mutex_);
    std::map<std::string, std::string> out;
    for (const auto& lp : plugins_)
        if (lp->plugin != nullptr && lp->status.devices > 0 &&
            !lp->traits.driver_ready_file.empty())
            out.emplace(lp->status.name, lp->traits.driver_ready_file);
    return out;
}

std::shared_ptr<const ReporterMeanings> PluginManager::reporterMeanings() const
{
    std::lock_guard lock(mutex_);
    return reporter_meanings_;
}

pv1::DeviceRef PluginManager::toDeviceRef(const Device& dev)
{
    pv1::DeviceRef r;
    r.ibdev = dev.ibdev;
    r.pci_address = dev.pci_address;
    r.driver = dev.driver;
    r.sysfs_path = dev.sysfs_path;
    for (const auto& p : dev.ports)
        r.ports.push_back(toPortRef(p));
    return r;
}

pv1::PortRef PluginManager::toPortRef(const Port& port)
{
    return {port.num, port.link_layer, port.netdevs};
}

void PluginManager::assign(Inventory& inventory)
{
    for (auto& lp : plugins_)
        if (lp->plugin != nullptr)
            assignOne(*lp, inventory);
}

void PluginManager::assignOne(Loaded& lp, Inventory& inventory)
{
    const std::string& name = lp.status.name;
    std::set<std::string> reattached; // attached again below without a word
    if (std::exchange(lp.reattach, false)) {
        for (const auto& [ibdev, ref] : lp.attached) {
            lp.plugin->detach(ref);
            reattached.insert(ibdev);
        }
        lp.attached.clear();
    }
    std::set<std::string> present;
    for (auto& dev : inventory.devices) {
        if (!dev.plugin.empty()) // an earlier plugin (in file order) claimed it
            continue;
        auto ref = toDeviceRef(dev);
        if (!lp.plugin->claims(ref))
            continue;
        if (dev.claimed_by.empty())
            dev.claimed_by = name;
        if (!lp.attached.contains(dev.ibdev)) {
            if (pv1::Status s = lp.plugin->attach(ref); !s) {
                if (lp.attach_failed.insert(dev.ibdev).second)
                    log::warn({.device = dev.ibdev, .plugin = name},
                              "plugin {} cannot attach {}: {}; retrying each cycle", name,
                              dev.ibdev, s.message);
                continue;
            }
            lp.attach_failed.erase(dev.ibdev);
            lp.lags.erase(dev.ibdev);
            if (lp.status.abi_minor >= 6) { // older plugins' vtables end before describeDevice
                pv1::DeviceTraits traits;
                lp.plugin->describeDevice(ref, traits);
                if (traits.lag)
                    lp.lags.insert(dev.ibdev);
            }
            if (!reattached.contains(dev.ibdev))
                log::info({.device = dev.ibdev, .plugin = name}, "{} managed by plugin {}",
                          dev.ibdev, name);
        }
        lp.attached[dev.ibdev] = ref;
        present.insert(dev.ibdev);
        dev.plugin = name;
        if (lp.lags.contains(dev.ibdev) && dev.function != DeviceFunction::VirtualFunction)
            dev.function = DeviceFunction::Lag;
    }
    for (auto it = lp.attached.begin(); it != lp.attached.end();) {
        if (present.contains(it->first)) {
            ++it;
            continue;
        }
        lp.plugin->detach(it->second);
        log::info({.device = it->first, .plugin = name}, "{} is gone; detached from plugin {}",
                  it->first, name);
        lp.polls.forget(it->first);
        lp.lags.erase(it->first);
        it = lp.attached.erase(it);
    }
    std::lock_guard lock(mutex_);
    lp.status.devices = static_cast<uint32_t>(lp.attached.size());
    lp.status.consecutive_failures = lp.polls.worst();
    lp.status.state = lp.polls.state();
}

PluginManager::Loaded* PluginManager::pluginFor(const Device& dev) const
{
    if (dev.plugin.empty())
        return nullptr;
    for (const auto& lp : plugins_)
        if (lp->plugin != nullptr && lp->status.name == dev.plugin)
            return lp.get();
    return nullptr;
}

void PluginManager::poll(const Device& dev, DeviceSamples& out)
{
    Loaded* lp = pluginFor(dev);
    if (lp == nullptr || !lp->polls.shouldPoll(dev.ibdev))
        return;
    const std::string& name = lp->status.name; // never changes once loaded
    // The layout this device's last poll gave is the reference for this one (ABI 1.3); a plugin
    // of an older ABI gives Samples, made into a batch here.
    auto& last_layout = lp->layouts[dev.ibdev];
    out.plugin.layout = last_layout;
    pv1::Status s;
    if (lp->status.abi_minor >= 3) { // set at load, never changed
        s = lp->plugin->pollBatch(toDeviceRef(dev), out.plugin);
    } else {
        std::vector<pv1::Sample> samples;
        s = lp->plugin->poll(toDeviceRef(dev), samples);
        plugin::sdk::SampleBatchBuilder b(out.plugin);
        b.reserve(samples.size());
        for (const auto& x : samples)
            b.add(x);
        b.finish();
    }
    last_layout = out.plugin.layout;
    if (lp->status.abi_minor >= 5) // older plugins' vtables end before describeLayout
        out.meanings = lp->meanings.meaningsOf(*lp->plugin, out.plugin.layout);
    const bool partial = !s && !out.plugin.empty();
    if (!s)
        out.errors.push_back({dev.ibdev, 0, "plugin " + name, s.message});
    if (s || partial) {
        if (lp->polls.succeeded(dev.ibdev))
            log::info({.device = dev.ibdev, .plugin = name}, "plugin {} reads {} again", name,
                      dev.ibdev);
    } else if (lp->polls.failed(dev.ibdev)) {
        log::warn({.device = dev.ibdev, .plugin = name},
                  "plugin {} failed reading {}: {}; backing off", name, dev.ibdev, s.message);
    }
    std::lock_guard lock(mutex_);
    auto& st = lp->status;
    const PluginState was = st.state;
    st.consecutive_failures = lp->polls.worst();
    st.state = lp->polls.state();
    if (!s && !partial)
        st.last_error = dev.ibdev + ": " + s.message;
    else if (st.consecutive_failures == 0)
        st.last_error.clear();
    if (st.state == PluginState::Degraded && was != PluginState::Degraded)
        log::error({.device = dev.ibdev, .plugin = name},
                   "plugin {} degraded: {} polls of {} failed in a row: {}", name,
                   lp->polls.failures(dev.ibdev), dev.ibdev, s.message);
    else if (st.state == PluginState::Running && was == PluginState::Degraded)
        log::info({.plugin = name}, "plugin {} running again: every device reads", name);
}

namespace {

// A plugin older than ABI 1.4 writes host knobs itself, which nicd's own process may not where
// its writes are limited (privilege/write_limits.hpp): its "Permission denied" says why.
pv1::Status explainDeniedKnobs(const PluginStatus& st, pv1::Status s, pv1::QosReport& out)
{
    if (st.abi_minor >= 4 || !privilege::writesLimited())
        return s;
    const std::string denied = std::strerror(EACCES);
    const std::string why = "; plugin " + st.name + " (ABI 1." + std::to_string(st.abi_minor) +
                            ") writes host knobs itself, which nicd's process may not: a plugin "
                            "of ABI 1.4 changes them through nicd's knob writer";
    for (auto& r : out.settings)
        if (r.error.find(denied) != std::string::npos)
            r.error += why;
    if (s.message.find(denied) != std::string::npos)
        s.message += why;
    return s;
}

} // namespace

pv1::Status PluginManager::qos(QosCall call, const Device& dev, const Port& port,
                               const pv1::QosDesired& desired, pv1::QosReport& out)
{
    Loaded* lp = pluginFor(dev);
    if (lp == nullptr)
        return pv1::Status::fail(pv1::Errc::NoDevice,
                                 dev.ibdev + " is not managed by a running plugin");
    return explainDeniedKnobs(
        lp->status, (lp->plugin->*call)(toDeviceRef(dev), toPortRef(port), desired, out), out);
}

pv1::Status PluginManager::verifyQos(const Device& dev, const Port& port,
                                     const pv1::QosDesired& desired, pv1::QosReport& out)
{
    return qos(&pv1::IPlugin::verifyQos, dev, port, desired, out);
}

pv1::Status PluginManager::applyQos(const Device& dev, const Port& port,
                                    const pv1::QosDesired& desired, pv1::QosReport& out)
{
    return qos(&pv1::IPlugin::applyQos, dev, port, desired, out);
}

bool PluginManager::classifyKernelRecord(const pv1::KernelRecord& rec,
                                         pv1::KernelLineMatch& out) const
{
    for (const auto& lp : plugins_) {
        if (lp->plugin == nullptr)
            continue;
        // An older plugin's vtable ends before classifyKernelRecord: the SDK's default, here.
        bool hit = lp->status.abi_minor >= 4
                       ? lp->plugin->classifyKernelRecord(rec, out)
                       : !rec.deviceLess() && lp->plugin->classifyKernelLine(rec.message, out);
        if (hit)
            return true;
    }
    return false;
}

bool PluginManager::classifyKernelReport(const pv1::KernelReport& report, std::string& plugin,
                                         pv1::KernelLineMatch& out) const
{
    for (const auto& lp : plugins_) {
        if (lp->plugin == nullptr || lp->status.abi_minor < 5)
            continue;
        if (lp->plugin->classifyKernelReport(report, out)) {
            plugin = lp->status.name;
            return true;
        }
    }
    return false;
}

std::vector<PluginStatus> PluginManager::statuses() const
{
    std::lock_guard lock(mutex_);
    std::vector<PluginStatus> out;
    out.reserve(plugins_.size());
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
        // No dlclose: static destructors of a plugin at exit are not worth the risk.
    }
}

} // namespace nicd::plugins
