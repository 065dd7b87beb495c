#include "privilege/knob_protocol.hpp"

#include <cerrno>
#include <cstdint>

namespace nicd::privilege {

using plugin::sdk::DecodeError;

std::string encodeKnobRequest(const KnobRequest& r)
{
    std::string out(1, static_cast<char>(r.op));
    out += r.path;
    out += '\0';
    out += r.value;
    return out;
}

KnobRequest decodeKnobRequest(std::string_view bytes)
{
    if (bytes.size() > kKnobMessageMax)
        throw DecodeError(std::string("a request longer than ") + std::to_string(kKnobMessageMax) +
                          " bytes");
    if (bytes.empty())
        throw DecodeError("an empty request");
    KnobRequest r;
    const char op = bytes.front();
    if (op != static_cast<char>(KnobOp::Write) && op != static_cast<char>(KnobOp::MakeGroup))
        throw DecodeError("an unknown operation");
    r.op = static_cast<KnobOp>(op);
    bytes.remove_prefix(1);
    auto nul = bytes.find('\0');
    if (nul == std::string_view::npos)
        throw DecodeError("a request without the NUL after its path");
    r.path = bytes.substr(0, nul);
    r.value = bytes.substr(nul + 1);
    if (r.path.empty())
        throw DecodeError("a request without a path");
    if (r.value.find('\0') != std::string::npos)
        throw DecodeError("a value with a NUL in it");
    return r;
}

std::string encodeKnobReply(const KnobReply& r)
{
    auto e = static_cast<uint32_t>(r.err);
    std::string out;
    for (int i = 0; i < 4; ++i)
        out += static_cast<char>((e >> (8 * i)) & 0xffU);
    out += r.message.substr(0, kKnobMessageMax - 4);
    return out;
}

KnobReply decodeKnobReply(std::string_view bytes)
{
    if (bytes.size() < 4)
        return {EPROTO, "nicd's knob writer answered " + std::to_string(bytes.size()) +
                            " bytes, not a reply"};
    uint32_t e = 0;
    for (int i = 0; i < 4; ++i)
        e |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[static_cast<size_t>(i)]))
             << (8 * i);
    return {static_cast<int>(e), std::string(bytes.substr(4))};
}

} // namespace nicd::privilege
