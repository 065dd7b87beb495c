#include <nicd/plugin/sdk/qos_port.h>
#include <nicd/plugin/sdk/scalar_setting.h>

#include <string>

namespace nicd::plugin::sdk {

namespace {

std::string show(std::optional<uint8_t> v)
{
    return v ? std::to_string(*v) : "unset";
}

} // namespace

v1::QosSettingReport scalarSetting(QosCall& call, const std::string& name, uint8_t want,
                                   const ScalarRead& read, const ScalarWrite& write)
{
    v1::QosSettingReport r;
    r.setting = name;
    r.desired = std::to_string(want);
    std::optional<uint8_t> have;
    if (auto s = read(have); !s) {
        call.fail(s);
        r.error = s.message;
        return r;
    }
    r.observed = show(have);
    r.compliant = have == want;
    if (!call.apply || r.compliant)
        return r;
    call.logChange(portName(call.dev, call.port) + " " + name + " " + r.observed + " -> " +
                   r.desired);
    r.changed = true;
    if (!call.writes())
        return r;
    if (auto s = write(want); !s) {
        call.fail(s);
        r.error = s.message;
    }
    if (auto s = read(have); !s) {
        call.fail(s);
        r.error = r.error.empty() ? s.message : r.error;
        r.observed.clear();
        r.compliant = false;
        return r;
    }
    r.observed = show(have);
    r.compliant = have == want;
    return r;
}

} // namespace nicd::plugin::sdk
