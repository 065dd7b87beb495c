#include "support/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace nicd::test {

Process::Process(std::vector<std::string> argv, std::map<std::string, std::string> env,
                 std::filesystem::path output)
{
    pid_ = fork();
    if (pid_ == 0) {
        for (const auto& [k, v] : env)
            setenv(k.c_str(), v.c_str(), 1);
        if (!output.empty()) {
            int fd = open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
                close(fd);
            }
        }
        std::vector<char*> args;
        for (auto& a : argv)
            args.push_back(a.data());
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
}

Process::~Process()
{
    if (running()) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status_, 0);
    }
}

void Process::signal(int signo)
{
    kill(pid_, signo);
}

bool Process::running()
{
    if (pid_ <= 0 || status_ != -1)
        return false;
    int st = 0;
    pid_t r = waitpid(pid_, &st, WNOHANG);
    if (r == pid_) {
        status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        return false;
    }
    return true;
}

int Process::wait(std::chrono::milliseconds timeout)
{
    waitFor([this] { return !running(); }, timeout);
    return running() ? -1 : status_;
}

int run(const std::vector<std::string>& argv, std::string& output,
        std::chrono::milliseconds timeout)
{
    char tmpl[] = "/tmp/nicd-run-XXXXXX";
    int fd = mkstemp(tmpl);
    close(fd);
    int rc = 0;
    {
        Process p(argv, {}, tmpl);
        rc = p.wait(timeout);
    }
    output = readFile(tmpl);
    unlink(tmpl);
    return rc;
}

bool waitFor(const std::function<bool()>& cond, std::chrono::milliseconds timeout)
{
    auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
        if (cond())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return cond();
}

std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace nicd::test
