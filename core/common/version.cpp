#include "core/common/version.h"

#ifndef TANDEM_VERSION
#error "TANDEM_VERSION must be defined by the build (core/CMakeLists.txt)"
#endif

namespace tandem::core {

std::string_view version() {
    return TANDEM_VERSION;
}

}  // namespace tandem::core
