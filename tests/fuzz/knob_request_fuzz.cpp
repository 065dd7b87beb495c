// libFuzzer target for what nicd's knob writer takes from the daemon (the side it trusts least):
// the bytes are one request datagram, decoded, matched against the knob shapes and its value
// checked, as the writer does before it touches a file; the value is also tried as a class link.
// Nothing but DecodeError may be thrown, nothing may crash, and whatever is accepted must be a
// knob: a device name the kernel could have, components below it without ".", ".." or "", a link
// that resolves under sys/devices to that device.
#include "privilege/knob_protocol.hpp"
#include "privilege/knob_shapes.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using namespace nicd::privilege;

void require(bool ok)
{
    if (!ok)
        std::abort();
}

bool plain(const std::string& c)
{
    return !c.empty() && c != "." && c != ".." && c.find('/') == std::string::npos;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    KnobRequest decoded;
    try {
        decoded = decodeKnobRequest(bytes);
    } catch (const nicd::plugin::sdk::DecodeError&) {
        return 0;
    }
    const KnobRequest* request = &decoded;
    require(encodeKnobRequest(*request) == bytes);
    auto matched = matchKnob(request->op, request->path);
    if (!matched)
        return 0;
    const KnobTarget* t = &*matched;
    require(t->anchor == KnobAnchor::ClassNet ? validNetdevName(t->device)
                                              : validIbdevName(t->device));
    for (const auto& c : t->beneath)
        require(plain(c));
    require((request->op == KnobOp::MakeGroup) == t->beneath.empty());
    (void)checkKnobValue(t->kind, request->value);
    if (auto target = classLinkTarget(t->anchor, t->device, request->value)) {
        require(target->size() >= 4 && (*target)[0] == "sys" && (*target)[1] == "devices");
        require(target->back() == t->device);
        for (const auto& c : *target)
            require(plain(c));
    }
    return 0;
}
