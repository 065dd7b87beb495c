// nicd-sim: create and drive a simulated GPU node (see sim.hpp; commands in cli/).
#include "cli/registry.hpp"

#include <cstdio>

int main(int argc, char** argv)
{
    CLI::App app{"nicd-sim - a simulated GPU node with RDMA NICs, in the kernel's sysfs layout"};
    std::filesystem::path dir;
    nicd::sim::cli::Action action;
    nicd::sim::cli::buildCommandLine(app, dir, action);
    CLI11_PARSE(app, argc, argv);
    try {
        if (action)
            action(dir);
    } catch (const std::exception& e) {
        (void)std::fprintf(stderr, "nicd-sim: %s\n", e.what());
        return 1;
    }
    return 0;
}
