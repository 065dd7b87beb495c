// How a pre-failure source reports what it could not read, per device (or netdev) and source:
// a missing interface (an old kernel, no module, no netlink family, no permission) once at info
// level, never as an error; a malformed reply or capture as an error when it first appears or
// changes, and at info level when that device reads well again. Nothing here is a condition.
#pragma once

#include <map>
#include <string>

namespace nicd::prefailure {

class SourceNotes {
public:
    explicit SourceNotes(std::string source) : source_(std::move(source)) {}

    void missing(const std::string& device, const std::string& why);
    void failed(const std::string& device, const std::string& why);
    void fine(const std::string& device);

private:
    std::string source_;
    std::map<std::string, std::string> missing_; // device -> what was said
    std::map<std::string, std::string> failed_;
};

} // namespace nicd::prefailure
