// The value of one hexadecimal digit, either case: the one hex reader of nicd's parsers of text
// (GIDs in sysfs, MACs in captures, the bytes lldpcli prints).
#pragma once

namespace nicd::text {

// 0-15, or -1 for a character that is not a hexadecimal digit.
inline int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace nicd::text
