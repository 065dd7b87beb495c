// Reading this project's own sources in tests that hold the tree to a rule (the vendor boundary,
// one way to open a host path): comments blanked, code and its literals kept.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace nicd::test {

// `text` with its comments blanked; string, character and raw string literals are code and kept.
inline std::string withoutComments(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    size_t i = 0;
    auto at = [&](size_t k) { return k < text.size() ? text[k] : '\0'; };
    while (i < text.size()) {
        char c = text[i];
        if (c == '/' && at(i + 1) == '/') {
            while (i < text.size() && text[i] != '\n')
                ++i;
        } else if (c == '/' && at(i + 1) == '*') {
            auto end = text.find("*/", i + 2);
            i = end == std::string::npos ? text.size() : end + 2;
            out += ' ';
        } else if (c == 'R' && at(i + 1) == '"') {
            auto open = text.find('(', i + 2);
            if (open == std::string::npos) {
                out += text.substr(i);
                break;
            }
            const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
            auto end = text.find(close, open);
            end = end == std::string::npos ? text.size() : end + close.size();
            out += text.substr(i, end - i);
            i = end;
        } else if (c == '"' ||
                   (c == '\'' && !std::isalnum(static_cast<unsigned char>(at(i - 1))))) {
            size_t j = i + 1;
            while (j < text.size() && text[j] != c && text[j] != '\n')
                j += text[j] == '\\' ? 2 : 1;
            j = std::min(j + 1, text.size());
            out += text.substr(i, j - i);
            i = j;
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

} // namespace nicd::test
