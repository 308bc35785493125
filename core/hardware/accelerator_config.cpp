#include "core/hardware/accelerator_config.h"

#include "core/common/enum_names.h"

namespace tandem::core::hardware {

namespace {
constexpr EnumNames<OperatorExecution, 2> kExecutionNames{{
    {OperatorExecution::Overlapped, "overlapped"},
    {OperatorExecution::Serial, "serial"},
}};
}  // namespace

std::string_view toString(OperatorExecution e) {
    return enumName(kExecutionNames, e);
}

}  // namespace tandem::core::hardware
