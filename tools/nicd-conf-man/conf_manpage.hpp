// nicd.conf(5), generated: the sections and keys come from the parser's own key table
// (configKeys()), what each accepts from the parser's own error for a value no key takes, and the
// defaults and descriptions from the shipped nicd.conf (which a unit test holds to the same
// table). A key the shipped file does not explain is an error, so the page cannot drift.
#pragma once

#include <string>
#include <vector>

namespace nicd::manpage {

struct ConfManpage {
    std::string roff;                // the page, when errors is empty
    std::vector<std::string> errors; // keys of the parser that nicd.conf does not document
};

// `shipped` is the text of the installed nicd.conf; `date` and `version` go into .TH.
ConfManpage renderConfManpage(const std::string& shipped, const std::string& date,
                              const std::string& version);

} // namespace nicd::manpage
