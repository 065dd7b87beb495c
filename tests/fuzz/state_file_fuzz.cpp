// libFuzzer target for the state-file loader: the bytes are one state.json, read as
// StateStore::load reads it (state/state_text.hpp, which throws nothing) and then, as
// StateKeeper::restore does, handed to HealthEngine::restore (and continueSequence). That may throw
// any std::exception on a document it refuses (the keeper catches std::exception and starts
// afresh); anything else, a crash or a sanitizer report is a finding. A restored engine must save
// what it restored: its document restores into a fresh engine, which then saves the same document.
#include "config/config.hpp"
#include "health/health_engine.hpp"
#include "state/state_text.hpp"

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

nlohmann::json saved(const nicd::health::HealthEngine& engine)
{
    std::string text;
    engine.appendJson(text);
    return nlohmann::json::parse(text);
}

void restore(const nlohmann::json& health)
{
    nicd::health::HealthEngine engine(nicd::defaultConfig());
    engine.continueSequence(health); // noexcept: takes last_seq when there is a usable one
    try {
        engine.restore(health);
    } catch (const std::exception&) {
        return;
    }
    const nlohmann::json first = saved(engine);
    nicd::health::HealthEngine again(nicd::defaultConfig());
    try {
        again.restore(first);
    } catch (const std::exception&) {
        std::abort(); // what the engine saved, it must read back
    }
    require(saved(again) == first);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto state = nicd::state::parseStateText(text);
    if (!state) {
        require(!state.error().message.empty());
        return 0;
    }
    restore(state->health);
    return 0;
}
