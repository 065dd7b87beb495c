#include "conf_manpage.hpp"

#include "config/config.hpp"
#include "config/config_keys.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace nicd::manpage {

namespace {

// One documented key: its default (fixed sections) or example value, and what explains it.
struct KeyDoc {
    std::string value;
    std::string text;
    bool is_default = false;
};

// A family of keys the file explains once: "Optics<Q><Level>=", each <...> a capitalised word.
struct KeyPattern {
    std::string name;
    std::regex keys;
    std::string text;
};

// What the shipped file says: per section, the keys in file order; per generic section (as
// configKeys() names it: "device:", "counter:", ...) the paragraph before its example.
struct ShippedDoc {
    std::string preamble;
    std::map<std::string, std::map<std::string, KeyDoc>> keys;
    std::map<std::string, std::string> section_text;
    std::vector<KeyPattern> patterns; // "Optics<Q><Level>=": a family of keys, one text
};

std::string joinText(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& l : lines)
        out += (out.empty() ? "" : "\n") + l;
    return out;
}

// "device:mlx5_0" -> "device:", "counter:a/b" -> "counter:", "signals" -> "signals".
std::string genericSection(const std::string& s)
{
    auto colon = s.find(':');
    return colon == std::string::npos ? s : s.substr(0, colon + 1);
}

void addPatterns(ShippedDoc& doc, const std::string& text)
{
    static const std::regex token(R"(([A-Z][A-Za-z]*(<[A-Za-z]+>)+)=)");
    for (std::sregex_iterator it(text.begin(), text.end(), token), end; it != end; ++it) {
        std::string name = (*it)[1];
        std::string re = std::regex_replace(name, std::regex("<[A-Za-z]+>"), "[A-Z][A-Za-z]*");
        doc.patterns.push_back({name, std::regex(re), text});
    }
}

ShippedDoc readShipped(const std::string& shipped)
{
    static const std::regex section_re(R"(^\[([^\]]+)\]$)");
    static const std::regex key_re(R"(^#([A-Za-z]+)=(.*)$)");
    static const std::regex example_section_re(R"(^#   \[([^\]]+)\]$)");
    static const std::regex example_key_re(R"(^#   ([A-Za-z]+)=(.*)$)");
    ShippedDoc doc;
    std::istringstream in(shipped);
    std::string line, section;
    std::vector<std::string> comment;
    bool examples = false, in_example = false;
    std::smatch m;
    while (std::getline(in, line)) {
        if (line.starts_with("# The sections below are examples")) {
            examples = true;
            comment.clear();
            continue;
        }
        if (!examples && std::regex_match(line, m, section_re)) {
            section = m[1];
            comment.clear();
        } else if (!examples && std::regex_match(line, m, key_re)) {
            doc.keys[section][m[1]] = {m[2], joinText(comment), true};
            comment.clear();
        } else if (examples && std::regex_match(line, m, example_section_re)) {
            section = genericSection(m[1]);
            if (!comment.empty()) {
                doc.section_text[section] = joinText(comment);
                addPatterns(doc, doc.section_text[section]);
            }
            comment.clear();
            in_example = true;
        } else if (examples && std::regex_match(line, m, example_key_re)) {
            doc.keys[section].try_emplace(m[1], KeyDoc{m[2], "", false});
        } else if (line == "#") {
            if (in_example || !comment.empty())
                comment.push_back(""); // a paragraph break
            in_example = false;
        } else if (line.starts_with("# ")) {
            if (in_example)
                comment.clear();
            in_example = false;
            comment.push_back(line.substr(2));
        } else if (line.empty() && !examples) {
            if (section.empty() && doc.preamble.empty())
                doc.preamble = joinText(comment);
            comment.clear();
        }
    }
    return doc;
}

// Text for roff: backslashes escaped, no line starting with a control character, hyphens in
// option-like words escaped so they print as the ASCII minus a reader can copy.
std::string roffText(const std::string& text)
{
    std::string out;
    bool line_start = true;
    for (char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (line_start && (c == '.' || c == '\''))
            out += "\\&" + std::string(1, c);
        else if (c == '-')
            out += "\\-";
        else
            out += c;
        line_start = c == '\n';
    }
    return out;
}

// A paragraph that introduced the file's example ends with ':'; here it ends a sentence.
std::string endSentence(std::string text)
{
    if (text.ends_with(":"))
        text.back() = '.';
    return text;
}

// Paragraphs separated by empty lines; "- " bullets become indented paragraphs.
std::string roffParagraphs(const std::string& text)
{
    std::istringstream in(text);
    std::string line, out;
    bool open = false;
    while (std::getline(in, line)) {
        if (line.empty()) {
            if (open)
                out += ".PP\n";
            open = false;
            continue;
        }
        if (line.starts_with("- ")) {
            out += ".IP \\(bu 2\n";
            line = line.substr(2);
        } else if (line.starts_with("  ") && !out.empty()) {
            line = line.substr(2);
        }
        out += roffText(line) + "\n";
        open = true;
    }
    return out;
}

// The parser's own words for what `key` accepts: the error for a value no key takes. Empty when
// the key takes any text (lists of globs).
std::string accepts(const std::string& generic, const std::string& key)
{
    std::string section = generic;
    if (generic == "device:")
        section = "device:mlx5_0";
    else if (generic == "counter:")
        section = "counter:symbol_error";
    else if (generic == "plugin:")
        section = "plugin:mlx5";
    Config scratch = defaultConfig();
    auto applied = config::applyKey(scratch, section, key, "?");
    if (applied)
        return {};
    std::string why = applied.error().message;
    if (why.starts_with("expected "))
        why = why.substr(9);
    // The parser quotes the bad value back ("('?' is not a priority)"): not part of the range.
    return std::regex_replace(why, std::regex(R"( ?\('\?'[^)]*\))"), "");
}

const std::vector<std::pair<std::string, std::string>> kSectionTitles = {
    {"daemon", "[daemon]"},        {"textfile", "[textfile]"},
    {"provision", "[provision]"},  {"journal", "[journal]"},
    {"health", "[health]"},        {"signals", "[signals]"},
    {"device:", "[device:IBDEV]"}, {"counter:", "[counter:NAME] and [counter:NAME/IBDEV]"},
    {"plugin:", "[plugin:NAME]"},
};

} // namespace

ConfManpage renderConfManpage(const std::string& shipped, const std::string& date,
                              const std::string& version)
{
    ConfManpage page;
    const ShippedDoc doc = readShipped(shipped);
    const auto known = configKeys();
    std::ostringstream r;
    r << ".TH NICD.CONF 5 \"" << date << "\" \"nicd " << version << "\" \"nicd\"\n"
      << ".SH NAME\nnicd.conf \\- configuration of the nicd RDMA NIC daemon\n"
      << ".SH SYNOPSIS\n.B /etc/nicd/nicd.conf\n.br\n.B /etc/nicd/nicd.conf.d/*.conf\n"
      << ".SH DESCRIPTION\n"
      << roffParagraphs(doc.preamble)
      << ".PP\nThis page is generated from the key table nicd's parser uses: every key below "
         "exists, and \\(lqAccepts\\(rq is what the parser itself accepts.\n";
    for (const auto& [generic, title] : kSectionTitles) {
        if (!known.contains(generic)) {
            page.errors.push_back("section " + title + " is documented but unknown to the parser");
            continue;
        }
        r << ".SH \"" << roffText(title) << "\"\n";
        if (doc.section_text.contains(generic) &&
            !(generic == "signals")) // [signals]' example paragraph belongs to its pattern
            r << roffParagraphs(endSentence(doc.section_text.at(generic))) << ".PP\n";
        std::set<std::string> patterns_done;
        const auto keys_it = doc.keys.find(generic);
        for (const auto& key : known.at(generic)) {
            const KeyDoc* kd = nullptr;
            if (keys_it != doc.keys.end() && keys_it->second.contains(key))
                kd = &keys_it->second.at(key);
            auto pattern =
                std::find_if(doc.patterns.begin(), doc.patterns.end(),
                             [&key](const KeyPattern& p) { return std::regex_match(key, p.keys); });
            if (pattern != doc.patterns.end()) {
                if (!patterns_done.insert(pattern->name).second)
                    continue;
                std::string names;
                for (const auto& k : known.at(generic))
                    if (std::regex_match(k, pattern->keys))
                        names += (names.empty() ? "" : ", ") + k;
                r << ".TP\n.BI \"" << roffText(pattern->name) << "=\"\n"
                  << roffParagraphs(endSentence(pattern->text)) << ".IP\nKeys: " << roffText(names)
                  << ".\n";
                if (auto a = accepts(generic, key); !a.empty())
                    r << ".IP\nAccepts: " << roffText(a) << ".\n";
                continue;
            }
            if (!kd || (kd->is_default && kd->text.empty())) {
                page.errors.push_back("[" + generic + "] " + key +
                                      "= is a key of the parser that nicd.conf does not explain");
                continue;
            }
            r << ".TP\n.B \"" << roffText(key) << "=\"\n";
            if (!kd->text.empty())
                r << roffParagraphs(kd->text);
            else if (generic == "device:" && doc.keys.contains("provision") &&
                     doc.keys.at("provision").contains(key))
                r << "Overrides [provision] " << roffText(key) << "= for this device.\n.IP\n"
                  << roffParagraphs(doc.keys.at("provision").at(key).text);
            if (kd->is_default)
                r << ".IP\nDefault: "
                  << (kd->value.empty() ? std::string("empty")
                                        : "\\fB" + roffText(kd->value) + "\\fR")
                  << ".\n";
            else
                r << ".IP\nExample: \\fB" << roffText(kd->value) << "\\fR.\n";
            if (auto a = accepts(generic, key); !a.empty())
                r << ".IP\nAccepts: " << roffText(a) << ".\n";
        }
    }
    r << ".SH FILES\n.TP\n.B /etc/nicd/nicd.conf\nThe main file, every key commented out with "
         "its default.\n.TP\n.B /etc/nicd/nicd.conf.d/*.conf\nDrop\\-ins, read in lexical order "
         "after the main file; a later value wins.\n"
      << ".SH \"SEE ALSO\"\n.BR nicd (8),\n.BR nicctl (8),\n.BR nicd\\-sim (1)\n";
    page.roff = r.str();
    return page;
}

} // namespace nicd::manpage
