#include "model/readiness.hpp"

namespace nicd {

const char* toString(ReadyCheck::Verdict v)
{
    switch (v) {
    case ReadyCheck::Verdict::Ok:
        return "ok";
    case ReadyCheck::Verdict::Failed:
        return "failed";
    case ReadyCheck::Verdict::Unknown:
        return "unknown";
    case ReadyCheck::Verdict::Skipped:
        return "skipped";
    }
    return "unknown";
}

} // namespace nicd
