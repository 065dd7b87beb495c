// Running the real programs from tests: spawn with arguments and extra environment, capture
// output to a file, signal, and wait with a deadline.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace nicd::test {

class Process {
public:
    Process(std::vector<std::string> argv, std::map<std::string, std::string> env = {},
            std::filesystem::path output = {});
    ~Process(); // SIGKILL if still running
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    pid_t pid() const { return pid_; }
    void signal(int signo);
    // Exit status, or -1 on timeout (the process keeps running).
    int wait(std::chrono::milliseconds timeout);
    bool running();

private:
    pid_t pid_ = -1;
    int status_ = -1;
};

// Runs to completion; returns the exit status and fills `output` (stdout and stderr).
int run(const std::vector<std::string>& argv, std::string& output,
        std::chrono::milliseconds timeout = std::chrono::seconds(60));

// Polls `cond` every 20 ms until true or the deadline passes.
bool waitFor(const std::function<bool()>& cond, std::chrono::milliseconds timeout);

std::string readFile(const std::filesystem::path& p);

} // namespace nicd::test
