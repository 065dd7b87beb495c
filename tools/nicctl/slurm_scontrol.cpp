#include "slurm_scontrol.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace nicctl::slurm {

namespace {

std::string firstLine(const std::string& s)
{
    auto line = s.substr(0, s.find('\n'));
    return line.empty() ? "no output" : line;
}

} // namespace

nicd::Result<std::string> drainReasonOf(const std::string& text, const std::string& node)
{
    // Each node's record starts with "NodeName=<name> " at the start of a line.
    std::istringstream in(text);
    std::vector<std::string> names;
    std::string reason;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("NodeName=")) {
            names.push_back(line.substr(
                9, line.find(' ') == std::string::npos ? std::string::npos : line.find(' ') - 9));
            continue;
        }
        auto start = line.find_first_not_of(' ');
        if (names.size() != 1 || start == std::string::npos ||
            line.compare(start, 7, "Reason=") != 0)
            continue;
        reason = line.substr(start + 7);
        // "text [root@2026-11-27T06:40:00]": Slurm appends who set it and when.
        if (auto open = reason.rfind(" ["); open != std::string::npos && reason.back() == ']')
            reason.erase(open);
        if (reason == "(null)")
            reason.clear();
    }
    if (names.empty())
        return nicd::Error{"not a node: " + firstLine(text)};
    if (names.size() > 1)
        return nicd::Error{fmt::format("names {} nodes ({}{}), not this one node: slurm-check "
                                       "drains only the node it runs on",
                                       names.size(), names[0] + ", " + names[1],
                                       names.size() > 2 ? ", ..." : "")};
    if (names[0] != node)
        return nicd::Error{"is node " + names[0] + ", not " + node};
    return reason;
}

bool validNodeName(const std::string& name)
{
    if (name.empty() || name.size() > 64 || name.front() == '-')
        return false;
    if (name.size() == 3 && std::toupper(static_cast<unsigned char>(name[0])) == 'A' &&
        std::toupper(static_cast<unsigned char>(name[1])) == 'L' &&
        std::toupper(static_cast<unsigned char>(name[2])) == 'L')
        return false; // Slurm's every node
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return false;
    return true;
}

CommandResult runCommand(const std::vector<std::string>& argv)
{
    CommandResult r;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        r.output = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    // Everything the child needs is made before fork: only async-signal-safe calls after it.
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const std::string cannot = "cannot run " + argv[0] + ": ";
    pid_t pid = fork();
    if (pid < 0) {
        r.output = std::string("fork: ") + std::strerror(errno);
        close(fds[0]);
        close(fds[1]);
        return r;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        execvp(args[0], args.data());
        const char* why = errno == ENOENT ? "not found\n" : "exec failed\n";
        (void)!write(STDERR_FILENO, cannot.data(), cannot.size());
        (void)!write(STDERR_FILENO, why, std::strlen(why));
        _exit(127);
    }
    close(fds[1]);
    char buf[4096];
    for (;;) {
        ssize_t n = read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (r.output.size() < (1u << 20))
            r.output.append(buf, static_cast<size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

namespace {

nicd::Result<void> update(const std::vector<std::string>& argv)
{
    auto r = runCommand(argv);
    if (r.status != 0)
        return nicd::Error{"scontrol update failed: " + firstLine(r.output)};
    return {};
}

} // namespace

nicd::Result<std::string> currentDrainReason(const std::string& node)
{
    auto r = runCommand({"scontrol", "show", "node", node});
    if (r.status != 0)
        return nicd::Error{"scontrol show node " + node + " failed: " + firstLine(r.output)};
    auto reason = drainReasonOf(r.output, node);
    if (!reason)
        return nicd::Error{"scontrol show node " + node + ": " + reason.error().message};
    return *reason;
}

nicd::Result<void> drainNode(const std::string& node, const std::string& reason)
{
    return update({"scontrol", "update", "nodename=" + node, "state=drain", "reason=" + reason});
}

nicd::Result<void> resumeNode(const std::string& node)
{
    return update({"scontrol", "update", "nodename=" + node, "state=resume"});
}

} // namespace nicctl::slurm
