#include "model/prefailure_readings.hpp"

namespace nicd {

const char* toString(ModuleStandard s)
{
    switch (s) {
    case ModuleStandard::Sff8472:
        return "sff-8472";
    case ModuleStandard::Sff8636:
        return "sff-8636";
    case ModuleStandard::Cmis:
        return "cmis";
    case ModuleStandard::Unknown:
        break;
    }
    return "unknown";
}

} // namespace nicd
