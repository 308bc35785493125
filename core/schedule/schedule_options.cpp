#include "core/schedule/schedule_options.h"

#include <cmath>
#include <sstream>

namespace tandem::core::schedule {

std::string_view toString(Formulation formulation) {
    switch (formulation) {
        case Formulation::Fast:
            return "fast";
        case Formulation::Reference:
            return "reference";
    }
    return "?";
}

bool parseFormulation(std::string_view text, Formulation& out) {
    if (text == "fast") {
        out = Formulation::Fast;
        return true;
    }
    if (text == "reference") {
        out = Formulation::Reference;
        return true;
    }
    return false;
}

Status ScheduleOptions::validate() const {
    std::ostringstream message;
    if (!(std::isfinite(timeLimitSeconds) && timeLimitSeconds > 0 && timeLimitSeconds <= 86400)) {
        message << "schedule options: timeLimitSeconds = " << timeLimitSeconds
                << ", allowed (0, 86400]";
        return Error{message.str()};
    }
    if (!(std::isfinite(relativeGap) && relativeGap >= 0 && relativeGap < 1)) {
        message << "schedule options: relativeGap = " << relativeGap << ", allowed [0, 1)";
        return Error{message.str()};
    }
    if (cbcThreads < 1 || cbcThreads > 64) {
        message << "schedule options: cbcThreads = " << cbcThreads << ", allowed 1..64";
        return Error{message.str()};
    }
    if (searchExpansionLimit < 0 || searchExpansionLimit > 1000000000) {
        message << "schedule options: searchExpansionLimit = " << searchExpansionLimit
                << ", allowed 0..1000000000";
        return Error{message.str()};
    }
    if (milpNodeLimit < 0 || milpNodeLimit > 1000000000) {
        message << "schedule options: milpNodeLimit = " << milpNodeLimit
                << ", allowed 0..1000000000";
        return Error{message.str()};
    }
    if (formulation != Formulation::Fast && formulation != Formulation::Reference) {
        message << "schedule options: formulation = " << static_cast<int>(formulation)
                << ", allowed fast or reference";
        return Error{message.str()};
    }
    return Status::success();
}

}  // namespace tandem::core::schedule
