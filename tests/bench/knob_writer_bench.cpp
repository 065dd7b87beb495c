// knob_writer_bench [WRITES]
// What nicd's knob writer costs: WRITES writes of one ecn/ knob of a simulated node through the
// writer process (a request and its reply over the socket pair) and the same in nicd's process
// (privilege::applyKnobRequest, what the writer runs), the time per write of each; and the
// writer's resident memory. Method: docs/security.md.
#include "privilege/knob_files.hpp"
#include "privilege/knob_writer.hpp"
#include "sim.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace nicd::privilege;

namespace {

std::string statusOf(pid_t pid, const std::string& key)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key + ":", 0) == 0)
            return line.substr(key.size() + 1);
    return "?";
}

} // namespace

int main(int argc, char** argv)
{
    const int writes = argc > 1 ? std::atoi(argv[1]) : 20000;
    fs::path dir = fs::temp_directory_path() / ("nicd-knob-bench-" + std::to_string(getpid()));
    nicd::sim::CreateOptions o;
    o.devices = 1;
    nicd::sim::create(dir, o);
    const KnobRequest request{KnobOp::Write, "sys/class/net/ens1f0np0/ecn/roce_np/enable/3", "1\n"};
    auto started = KnobWriter::start(dir, true);
    if (!started) {
        std::fprintf(stderr, "knob_writer_bench: %s\n", started.error().message.c_str());
        return 1;
    }
    auto writer = std::move(*started);
    auto time = [&](auto&& write) {
        auto t0 = Clock::now();
        for (int i = 0; i < writes; ++i)
            if (write().err != 0)
                return -1.0;
        return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / writes;
    };
    double through = time([&] { return writer->submit(request); });
    KnobRoot root{::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC), dir, true};
    double direct = time([&] { return applyKnobRequest(root, request); });
    std::printf("knob write through the writer: %.1f us; in nicd's process: %.1f us (%d writes "
                "of a simulated ecn/ knob each)\n",
                through, direct, writes);
    std::printf("knob writer: VmRSS %s, RssAnon %s\n", statusOf(writer->pid(), "VmRSS").c_str(),
                statusOf(writer->pid(), "RssAnon").c_str());
    ::close(root.fd);
    writer.reset();
    fs::remove_all(dir);
    return through < 0 || direct < 0 ? 1 : 0;
}
