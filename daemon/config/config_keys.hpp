// The configuration schema: which sections and keys exist, what each accepts, and where each
// value is stored in Config. (configKeys(), the list of keys, is declared in config.hpp.)
#pragma once

#include "config/config.hpp"
#include "text/result.hpp"

#include <string>
#include <string_view>

namespace nicd::config {

// Whether nicd knows `section`: daemon, textfile, provision, journal, health, device:<ibdev>,
// counter:<name>, counter:<name>/<ibdev>, plugin:<name>. If not, an Error says what is allowed.
Result<void> checkSection(const std::string& section);

// For [counter:NAME] and [counter:NAME/IBDEV]: an Error when NAME is not an IB PMA counter but
// close to one (symbol_eror, Symbol_Error: "did you mean symbol_error?"), a rule that would
// never apply. Other names pass: a plugin's counters are the driver's (nicctl counters lists
// them). Any other section passes.
Result<void> checkCounterName(const std::string& section);

// Stores `key`=`value` of a section that passed checkSection (or "" for a key before any
// section) in `config`. An Error saying what is allowed for an unknown key or a bad value;
// `config` is then unchanged.
Result<void> applyKey(Config& config, const std::string& section, const std::string& key,
                      std::string_view value);

} // namespace nicd::config
