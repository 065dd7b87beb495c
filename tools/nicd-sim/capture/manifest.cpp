#include "capture/manifest.hpp"

#include <nlohmann/json.hpp>

namespace nicd::sim::capture {

std::string Manifest::toJson() const
{
    nlohmann::ordered_json j;
    j["format"] = 1;
    j["nicd_sim_version"] = nicd_sim_version;
    j["captured_at"] = captured_at;
    j["source"] = kind == NodeKind::Real       ? "real node"
                  : kind == NodeKind::RealTree ? "real node's tree"
                                               : "simulated node";
    j["identifiers"] = scrubbed ? "scrubbed" : "kept";
    j["devices"] = devices;
    j["netdevs"] = netdevs;
    j["gpus"] = gpus;
    j["timeout_ms"] = timeout_ms;
    j["timed_out"] = timed_out;
    j["samples"] = {
        {"count", samples}, {"interval_ms", interval_ms}, {"offsets_s", sample_offsets}};
    j["kernel_lines"] = {{"entries", kernel_lines},
                         {"export", kKernelExportFile},
                         {"journal", journal_file.empty() ? nlohmann::ordered_json(nullptr)
                                                          : nlohmann::ordered_json(journal_file)}};
    j["said"] = said;
    auto skipped_json = nlohmann::ordered_json::array();
    for (const auto& s : skipped)
        skipped_json.push_back({{"source", s.source}, {"item", s.item}, {"why", s.why}});
    j["skipped"] = skipped_json;
    auto first = nlohmann::ordered_json::array();
    for (const auto& [path, why] : unreadable_first)
        first.push_back({{"path", path}, {"why", why}});
    j["unreadable"] = {{"count", unreadable_count}, {"first", first}};
    j["duration_s"] = duration_s;
    // Bytes that are not UTF-8 (a hostile file name) are written as U+FFFD, never thrown on.
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace nicd::sim::capture
