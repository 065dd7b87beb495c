// INI text to section headers and Key=Value entries, each with its line number, through inih.
//
// Debian's inih is built without INI_HANDLER_LINENO, so the text is fed to ini_parse_stream one
// line per reader call and the reader counts. The reader also checks each line before inih sees
// it, so that every malformed line is reported (inih only returns the first) and none is
// misread:
//  - leading whitespace is dropped (inih would take an indented line as a continuation of the
//    previous value);
//  - a header must be "[name]" with name made of letters, digits and _ : / . - ; keys under a
//    malformed header are skipped, not attributed to the previous section;
//  - a key must be made of letters, digits and _ . - and be followed by '=' (inih would also
//    split at ':');
//  - a line longer than inih's line buffer is an error, not silently cut.
// Comments start with '#' or ';'; inih also ends a value at " ;" (inline comment).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace nicd::ini {

struct IniVisitor {
    // A well-formed "[name]" header (name without the brackets).
    std::function<void(int line, const std::string& section)> on_section;
    // Key=Value under the current section ("" before the first header); key and value trimmed.
    std::function<void(int line, const std::string& section, const std::string& key,
                       const std::string& value)>
        on_entry;
    // A line that cannot be read; `message` says what was expected.
    std::function<void(int line, const std::string& section, const std::string& message)>
        on_syntax_error;
};

void parseIni(std::string_view text, const IniVisitor& visitor);

} // namespace nicd::ini
