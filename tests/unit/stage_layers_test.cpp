// A library per stage, no upward include and a namespace per folder (issue 41):
// daemon/CMakeLists.txt builds the daemon's folders as one static library per stage of the data
// flow, declared bottom up with nicd_stage(<library> <folder>...). This reads those declarations
// and every source under daemon/, and fails on a folder in no stage or in two, and on an #include
// of a folder in a stage above the including file's (one in the same stage, or below, is fine).
// daemon/base/ (text, paths, log, ini: what tools link) sits below every stage and includes no
// stage.
#include "support/sim_tree.hpp"
#include "support/source_text.hpp"

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

struct Stages {
    std::vector<std::string> libraries;  // bottom up
    std::map<std::string, size_t> level; // folder -> index in libraries
    std::vector<std::string> twice;      // folders declared in two stages
};

Stages declaredStages()
{
    Stages s;
    // The CMake file's lines, less their # comments.
    std::istringstream lines(
        nicd::test::readFile(fs::path(NICD_SOURCE_DIR) / "daemon/CMakeLists.txt"));
    std::string text;
    for (std::string line; std::getline(lines, line);)
        text += line.substr(0, line.find('#')) + "\n";
    // A call names a library (nicd_...); the function's own definition names `library`.
    const std::regex call(R"(nicd_stage\(\s*(nicd_\w+)([^)]*)\))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), call);
         it != std::sregex_iterator(); ++it) {
        const std::string library = (*it)[1];
        s.libraries.push_back(library);
        std::istringstream folders((*it)[2].str());
        for (std::string f; folders >> f;)
            if (!s.level.emplace(f, s.libraries.size() - 1).second)
                s.twice.push_back(f);
    }
    return s;
}

std::vector<std::string> daemonFolders()
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(fs::path(NICD_SOURCE_DIR) / "daemon"))
        if (e.is_directory() && e.path().filename() != "base")
            out.push_back(e.path().filename().string());
    return out;
}

// The folders `file` includes headers of ("health" for #include "health/x.hpp").
std::vector<std::string> includedFolders(const fs::path& file)
{
    const auto text = nicd::test::withoutComments(nicd::test::readFile(file));
    static const std::regex include(R"re(#\s*include\s*"([a-z_]+)/)re");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), include);
         it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1]);
    return out;
}

bool isSource(const fs::path& p)
{
    return p.extension() == ".cpp" || p.extension() == ".hpp";
}

TEST(StageLayers, EveryFolderIsInOneStage)
{
    auto stages = declaredStages();
    ASSERT_GE(stages.libraries.size(), 5u) << "no nicd_stage() declarations read";
    EXPECT_TRUE(stages.twice.empty()) << "in two stages: " << testing::PrintToString(stages.twice);
    for (const auto& folder : daemonFolders())
        EXPECT_TRUE(stages.level.contains(folder))
            << "daemon/" << folder << "/ is in no nicd_stage() of daemon/CMakeLists.txt";
}

TEST(StageLayers, NoFolderIncludesAStageAboveItsOwn)
{
    auto stages = declaredStages();
    ASSERT_FALSE(stages.libraries.empty());
    std::vector<std::string> upward;
    for (const auto& folder : daemonFolders()) {
        auto own = stages.level.find(folder);
        if (own == stages.level.end())
            continue; // EveryFolderIsInOneStage says so
        for (const auto& e :
             fs::directory_iterator(fs::path(NICD_SOURCE_DIR) / "daemon" / folder)) {
            if (!isSource(e.path()))
                continue;
            for (const auto& to : includedFolders(e.path()))
                if (auto at = stages.level.find(to);
                    at != stages.level.end() && at->second > own->second)
                    upward.push_back("daemon/" + folder + "/" + e.path().filename().string() +
                                     " (" + stages.libraries[own->second] + ") includes " + to +
                                     "/ (" + stages.libraries[at->second] + ")");
        }
    }
    EXPECT_TRUE(upward.empty()) << testing::PrintToString(upward);
}

TEST(StageLayers, TheBaseIncludesNoStage)
{
    auto stages = declaredStages();
    std::vector<std::string> found;
    for (const auto& e :
         fs::recursive_directory_iterator(fs::path(NICD_SOURCE_DIR) / "daemon/base")) {
        if (!isSource(e.path()))
            continue;
        for (const auto& to : includedFolders(e.path()))
            if (stages.level.contains(to))
                found.push_back(e.path().lexically_relative(NICD_SOURCE_DIR).string() +
                                " includes " + to + "/");
    }
    EXPECT_TRUE(found.empty()) << testing::PrintToString(found);
}

// Files whose code is the plain nicd namespace on purpose (docs/architecture.md, "A namespace
// per folder"): the vocabulary every stage and tool takes, and the sysfs attribute readers.
bool plainNicdOnPurpose(const std::string& relative)
{
    static const std::set<std::string> files{
        "daemon/config/config.hpp",          "daemon/config/config.cpp",
        "daemon/config/config_keys.cpp",     "daemon/config/host_paths.hpp",
        "daemon/inventory/sysfs_values.hpp", "daemon/inventory/sysfs_values.cpp"};
    return relative.starts_with("daemon/model/") || relative.starts_with("daemon/base/text/") ||
           files.contains(relative);
}

} // namespace

// Each folder is a namespace, nicd::<folder>: every file of it opens that namespace (or one
// nested in it); a file may also open another's, to forward-declare that folder's classes.
TEST(StageLayers, EachFolderIsItsOwnNamespace)
{
    const std::regex opens(R"(^namespace (nicd(?:::\w+)*) \{)");
    std::vector<std::string> wrong;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(NICD_SOURCE_DIR) / "daemon")) {
        if (!isSource(e.path()))
            continue;
        const auto relative = e.path().lexically_relative(NICD_SOURCE_DIR).string();
        if (plainNicdOnPurpose(relative))
            continue;
        const std::string folder = e.path().parent_path().filename().string();
        if (folder == "daemon")
            continue; // main.cpp
        bool own = false;
        std::istringstream lines(nicd::test::readFile(e.path()));
        for (std::string line; std::getline(lines, line);) {
            std::smatch m;
            if (!std::regex_search(line, m, opens))
                continue;
            const std::string ns = m[1];
            if (ns == "nicd::" + folder || ns.starts_with("nicd::" + folder + "::"))
                own = true;
        }
        if (!own)
            wrong.push_back(relative + " does not open nicd::" + folder);
    }
    EXPECT_TRUE(wrong.empty()) << testing::PrintToString(wrong);
}
