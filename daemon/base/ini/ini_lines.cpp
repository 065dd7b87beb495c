#include "ini/ini_lines.hpp"

#include "text/trim.hpp"

#include <ini.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace nicd::ini {

using text::trim;

namespace {

struct Reader {
    const IniVisitor* visitor = nullptr;
    std::string_view text;
    size_t pos = 0;
    int line = 0;
    std::string section;     // the current header, as read by us (inih cuts long names)
    bool skipping = false;   // under a malformed header: its keys are not reported again
    std::set<int> bad_lines; // lines already reported

    void syntaxError(const std::string& in_section, const std::string& message)
    {
        bad_lines.insert(line);
        visitor->on_syntax_error(line, in_section, message);
    }
};

bool isAlnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

bool validSectionName(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return isAlnum(c) || c == '_' || c == ':' || c == '/' || c == '.' || c == '-';
    });
}

bool validKeyName(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return isAlnum(c) || c == '_' || c == '.' || c == '-';
    });
}

// What is wrong with a trimmed, non-comment line, or "" when inih may have it.
std::string lineProblem(std::string_view t, size_t max_length)
{
    if (t.find('\0') != std::string_view::npos)
        return "line contains a NUL byte";
    if (t.size() > max_length)
        return "line is longer than " + std::to_string(max_length) + " characters";
    if (t.front() == '[') {
        auto close = t.find(']');
        if (close == std::string_view::npos)
            return "section header without closing ']': '" + std::string(t) + "'";
        if (close != t.size() - 1)
            return "unexpected text after ']' (comments go on their own line): '" + std::string(t) +
                   "'";
        auto name = t.substr(1, t.size() - 2);
        if (!validSectionName(name))
            return "section name '" + std::string(name) +
                   "' may contain only letters, digits and _ : / . -";
        return "";
    }
    auto eq = t.find('=');
    if (eq == std::string_view::npos)
        return "expected Key=Value, [section] or a # comment: '" + std::string(t) + "'";
    auto key = trim(t.substr(0, eq));
    if (key.empty())
        return "missing key name before '=': '" + std::string(t) + "'";
    if (!validKeyName(key))
        return "key name '" + std::string(key) + "' may contain only letters, digits and _ . -";
    return "";
}

// ini_reader: hands inih the next line, checked and trimmed (an empty line in its place when the
// line is a comment or could not be read).
char* readLine(char* buffer, int size, void* stream)
{
    auto& r = *static_cast<Reader*>(stream);
    if (r.pos >= r.text.size() || size < 2)
        return nullptr;
    size_t newline = r.text.find('\n', r.pos);
    size_t end = newline == std::string_view::npos ? r.text.size() : newline;
    std::string_view raw = r.text.substr(r.pos, end - r.pos);
    r.pos = newline == std::string_view::npos ? r.text.size() : newline + 1;
    ++r.line;
    if (r.line == 1 && raw.starts_with("\xEF\xBB\xBF")) // UTF-8 byte order mark
        raw.remove_prefix(3);

    buffer[0] = '\0';
    auto t = trim(raw);
    if (t.empty() || t.front() == '#' || t.front() == ';')
        return buffer;
    auto problem = lineProblem(t, static_cast<size_t>(size) - 1);
    if (!problem.empty() && t.front() == '[') {
        // A broken header: its keys are skipped, not given to the previous section.
        auto close = t.find(']');
        r.section = std::string(t.substr(1, close == std::string_view::npos ? close : close - 1));
        r.skipping = true;
        r.syntaxError("", problem);
        return buffer;
    }
    if (!problem.empty()) {
        r.syntaxError(r.section, problem);
        return buffer;
    }
    if (t.front() == '[') {
        r.section = std::string(t.substr(1, t.size() - 2));
        r.skipping = false;
        r.visitor->on_section(r.line, r.section);
    }
    std::copy(t.begin(), t.end(), buffer);
    buffer[t.size()] = '\0';
    return buffer;
}

// ini_handler: inih calls it while the line just read is current.
int onEntry(void* user, const char* /*section*/, const char* key, const char* value)
{
    auto& r = *static_cast<Reader*>(user);
    if (!r.skipping)
        r.visitor->on_entry(r.line, r.section, key, value);
    return 1;
}

} // namespace

void parseIni(std::string_view text, const IniVisitor& visitor)
{
    Reader r;
    r.visitor = &visitor;
    r.text = text;
    int first_error = ini_parse_stream(&readLine, &r, &onEntry, &r);
    // The reader hands inih only lines it can parse; should inih still object, say so.
    if (first_error > 0 && !r.bad_lines.contains(first_error))
        visitor.on_syntax_error(first_error, "", "the INI parser cannot read this line");
    else if (first_error < 0)
        visitor.on_syntax_error(0, "", "the INI parser failed (out of memory)");
}

} // namespace nicd::ini
