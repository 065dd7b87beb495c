// sandbox_probe ROOT CONFIG STEP...
// What nicd's process may write, tried from a process set up the way nicd sets itself up: the
// configuration loaded as nicd loads it, then startWrites (the textfile directory made, the knob
// writer forked, Landlock applied), then each step, one line each:
//   open:PATH     open PATH for writing, write nothing    "open PATH: allowed" or ": denied (why)"
//   create:PATH   create PATH, then remove it            "create PATH: allowed" or ...
//   mkdir:PATH    make the directory PATH, then remove it "mkdir PATH: allowed" or ...
//   knob:REL=V    ask the knob writer to write V and a newline to REL (under ROOT)
//                                                        "knob REL: written" or ": refused (why)"
//   group:REL     ask the knob writer to make the rdma_cm group REL
// The first line says whether Landlock is in force. The unit sandbox test runs it under the
// shipped unit (tests/integration/unit_sandbox_test.sh). Never point open: at a file whose write
// does something: it opens, it does not write, but where nothing denies the open it succeeds.
#include "app/options.hpp"
#include "app/start_writes.hpp"
#include "config/config_files.hpp"
#include "log/log.hpp"
#include "privilege/knob_writer.hpp"
#include "privilege/write_limits.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

using namespace nicd;

namespace {

std::string tried(int rc)
{
    return rc == 0 ? "allowed" : std::string("denied (") + std::strerror(errno) + ")";
}

std::string step(const HostPaths& paths, const std::string& s)
{
    auto colon = s.find(':');
    std::string kind = s.substr(0, colon);
    std::string arg = colon == std::string::npos ? "" : s.substr(colon + 1);
    if (kind == "open") {
        int fd = ::open(arg.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        return "open " + arg + ": " + tried(fd < 0 ? -1 : ::close(fd));
    }
    if (kind == "create") {
        int fd = ::open(arg.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        std::string out = "create " + arg + ": " + tried(fd < 0 ? -1 : ::close(fd));
        if (fd >= 0)
            ::unlink(arg.c_str());
        return out;
    }
    if (kind == "mkdir") {
        int rc = ::mkdir(arg.c_str(), 0755);
        std::string out = "mkdir " + arg + ": " + tried(rc);
        if (rc == 0)
            ::rmdir(arg.c_str());
        return out;
    }
    if (kind == "knob" || kind == "group") {
        privilege::KnobRequest r{privilege::KnobOp::MakeGroup, arg, ""};
        if (kind == "knob") {
            auto eq = arg.find('=');
            r = {privilege::KnobOp::Write, arg.substr(0, eq),
                 eq == std::string::npos ? "" : arg.substr(eq + 1) + "\n"};
        }
        auto reply = privilege::changeKnob(paths.root(), paths.simulated(), r);
        return kind + " " + r.path + ": " +
               (reply.err == 0 ? "written" : "refused (" + reply.message + ")");
    }
    return "unknown step " + s;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        (void)std::fprintf(stderr, "usage: %s ROOT CONFIG STEP...\n", argv[0]);
        return 2;
    }
    log::setup(log::Target::Stderr, spdlog::level::warn);
    app::Options options;
    options.root = argv[1];
    options.config_file = argv[2];
    HostPaths paths(options.root);
    auto config = config::loadAndReport(config::configFiles(options.config_file, paths), paths,
                                        options.dry_run);
    if (!config)
        return 2;
    auto limits = app::startWrites(paths, *config);
    std::printf("landlock: %s\n",
                limits.landlock.enforced
                    ? ("enforced (ABI " + std::to_string(limits.landlock.abi) + ")").c_str()
                    : ("not enforced: " + limits.landlock.why_not).c_str());
    for (int i = 3; i < argc; ++i)
        std::printf("%s\n", step(paths, argv[i]).c_str());
    return 0;
}
