// Loading the configuration: which files, in which order, and every error of every file.
#include "config/config.hpp"

#include "config/config_keys.hpp"
#include "config/tree_keys.hpp"
#include "config/value_parsers.hpp"
#include "ini/ini_lines.hpp"
#include "text/printable.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <system_error>

namespace nicd {

namespace {

// The whole file, nullopt when it is missing (told apart: the main file may be absent), or an
// Error saying why it cannot be read. A file over kMaxConfigFileBytes is an error, read no
// further than that.
Result<std::optional<std::string>> readWholeFile(const std::filesystem::path& file)
{
    // Never waited on: a FIFO in a drop-in directory (or a --root tree) would hang nicd.
    int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return std::optional<std::string>();
        return Error{std::string("cannot open: ") + std::strerror(errno)};
    }
    if (struct stat st{}; ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{S_ISDIR(st.st_mode) ? std::string("cannot read: ") + std::strerror(EISDIR)
                                         : std::string("not a regular file (never waited on)")};
    }
    std::string text;
    char buffer[8192];
    for (;;) {
        if (text.size() > kMaxConfigFileBytes) {
            ::close(fd);
            return Error{"larger than 1 MiB: not read (a configuration file is a few KiB; is "
                         "this the file you meant?)"};
        }
        ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            text.append(buffer, static_cast<size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            Error error{std::string("cannot read: ") + std::strerror(errno)};
            ::close(fd);
            return error;
        }
        break;
    }
    ::close(fd);
    return std::optional<std::string>(std::move(text));
}

// The *.conf files of the drop-in directory in lexical order; hidden files are skipped.
std::vector<std::filesystem::path> dropinFiles(const std::filesystem::path& dir,
                                               std::vector<ConfigError>& errors)
{
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec == std::errc::no_such_file_or_directory)
        return files;
    for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        auto name = it->path().filename().string();
        if (name.ends_with(".conf") && !name.starts_with("."))
            files.push_back(it->path());
    }
    if (ec)
        errors.push_back(
            {dir.string(), 0, "", "", "cannot list the drop-in directory: " + ec.message()});
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
        return a.filename().string() < b.filename().string();
    });
    return files;
}

// [health] WiringMap=: the file it names, parsed; its errors name that file and line.
void readWiringMap(Config& config, const HostPaths& paths, std::vector<ConfigError>& errors)
{
    config::WiringMap& map = config.health.wiring;
    if (map.file.empty())
        return;
    auto read = readWholeFile(paths.host(map.file));
    if (!read || !*read) {
        auto origin = config.origins.find({"health", "WiringMap"});
        errors.push_back(
            {origin == config.origins.end() ? map.file : origin->second.file,
             origin == config.origins.end() ? 0 : origin->second.line, "health", "WiringMap",
             !read ? map.file + ": " + read.error().message : map.file + ": no such file",
             map.file});
        return;
    }
    for (const auto& e : config::parseWiringMap(**read, map.rules))
        errors.push_back({map.file, e.line, "", "", e.message});
}

} // namespace

std::vector<std::string> formatErrors(const std::vector<ConfigError>& errors)
{
    std::vector<std::string> lines;
    for (size_t i = 0; i < errors.size() && i < kShownConfigErrors; ++i)
        lines.push_back(errors[i].format());
    if (errors.size() > kShownConfigErrors) {
        const size_t more = errors.size() - kShownConfigErrors;
        lines.push_back("... and " + std::to_string(more) + " more error" + (more == 1 ? "" : "s") +
                        " (fix these first)");
    }
    return lines;
}

std::string ConfigError::format() const
{
    std::string out = file;
    if (line > 0)
        out += ":" + std::to_string(line);
    out += ": ";
    if (!section.empty())
        out += "[" + section + "] ";
    if (!key.empty())
        out += key + "=" + value + ": ";
    return printable(out + message);
}

ProvisionSettings Config::provisionFor(const std::string& ibdev) const
{
    ProvisionSettings s = provision.settings;
    auto it = devices.find(ibdev);
    if (it == devices.end())
        return s;
    const DeviceOverride& d = it->second;
    s.mode = d.mode.value_or(s.mode);
    s.trust = d.trust.value_or(s.trust);
    s.pfc_priorities = d.pfc_priorities.value_or(s.pfc_priorities);
    s.roce_tos = d.roce_tos.value_or(s.roce_tos);
    s.ecn = d.ecn.value_or(s.ecn);
    if (d.cnp_dscp)
        s.cnp_dscp = d.cnp_dscp;
    if (d.cnp_priority)
        s.cnp_priority = d.cnp_priority;
    return s;
}

Config defaultConfig()
{
    Config c;
    c.daemon.plugin_directory = NICD_DEFAULT_PLUGIN_DIR;
    return c;
}

void parseConfigText(const std::string& text, const std::string& file_name, Config& config,
                     std::vector<ConfigError>& errors, const HostPaths& paths,
                     std::vector<ConfigError>* warnings)
{
    bool skipping = false; // under a section nicd does not know: reported once, at its header
    // Where each key was first given in this file, per section: a second value is an error, not
    // a silent override (drop-ins, which are other files, may override).
    std::map<std::pair<std::string, std::string>, int> first_line;
    ini::IniVisitor visitor;
    visitor.on_section = [&](int line, const std::string& section) {
        auto known = config::checkSection(section);
        skipping = !known;
        if (skipping)
            errors.push_back({file_name, line, section, "", known.error().message});
        else if (auto counter = config::checkCounterName(section); !counter)
            errors.push_back({file_name, line, section, "", counter.error().message});
        else
            config.origins.try_emplace({section, ""}, Config::Origin{file_name, line});
    };
    visitor.on_entry = [&](int line, const std::string& section, const std::string& key,
                           const std::string& value) {
        if (skipping)
            return;
        auto [first, fresh] = first_line.try_emplace({section, key}, line);
        if (!fresh) {
            errors.push_back({file_name, line, section, key,
                              "given twice in this section (first on line " +
                                  std::to_string(first->second) + "); give it once",
                              value});
            return;
        }
        if (paths.simulated() && config::ignoredInTree(section, key)) {
            Config scratch; // the value is checked, not used
            if (auto applied = config::applyKey(scratch, section, key, value); !applied)
                errors.push_back({file_name, line, section, key, applied.error().message, value});
            else if (warnings)
                warnings->push_back(
                    {file_name, line, section, key, config::ignoredInTreeWhy(), value});
            return;
        }
        if (auto inside = config::staysInTree(paths, section, key, value); !inside)
            errors.push_back({file_name, line, section, key, inside.error().message, value});
        else if (auto applied = config::applyKey(config, section, key, value); !applied)
            errors.push_back({file_name, line, section, key, applied.error().message, value});
        else
            config.origins[{section, key}] = {file_name, line, std::string(config::trim(value))};
    };
    visitor.on_syntax_error = [&](int line, const std::string& section, const std::string& why) {
        errors.push_back({file_name, line, section, "", why});
    };
    ini::parseIni(text, visitor);
}

ConfigResult loadConfig(const std::filesystem::path& main_file,
                        const std::filesystem::path& dropin_dir, const HostPaths& paths,
                        bool main_required)
{
    ConfigResult result;
    Config config = defaultConfig();
    std::vector<std::filesystem::path> files{main_file};
    auto dropins = dropinFiles(dropin_dir, result.errors);
    files.insert(files.end(), dropins.begin(), dropins.end());
    for (const auto& file : files) {
        auto read = readWholeFile(file);
        if (read && !*read && file == main_file && !main_required)
            continue; // no nicd.conf: the defaults
        if (!read || !*read) {
            const std::string error =
                !read ? read.error().message
                : file == main_file
                    ? "no such file (named by --config; nicd does not fall back to the defaults)"
                    : "cannot open: " + std::string(std::strerror(ENOENT));
            result.errors.push_back({file.string(), 0, "", "", error});
            continue;
        }
        parseConfigText(**read, file.string(), config, result.errors, paths, &result.warnings);
        config.sources.push_back(file);
    }
    if (result.errors.empty())
        result.errors = config::defaultsLeavingTree(config, paths, main_file.string());
    if (result.errors.empty())
        readWiringMap(config, paths, result.errors);
    if (result.errors.empty())
        result.config = std::move(config);
    return result;
}

} // namespace nicd
