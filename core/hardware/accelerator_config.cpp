#include "core/hardware/accelerator_config.h"

#include "core/common/enum_names.h"

namespace tandem::core::hardware {

namespace {
constexpr EnumNames<OperatorExecution, 2> kExecutionNames{{
    {OperatorExecution::Overlapped, "overlapped"},
    {OperatorExecution::Serial, "serial"},
}};
constexpr EnumNames<Precision, 3> kPrecisionNames{{
    {Precision::Fp16, "fp16"},
    {Precision::Bf16, "bf16"},
    {Precision::Fp8, "fp8"},
}};
}  // namespace

std::string_view toString(OperatorExecution e) {
    return enumName(kExecutionNames, e);
}

std::string_view toString(Precision p) {
    return enumName(kPrecisionNames, p);
}

}  // namespace tandem::core::hardware
