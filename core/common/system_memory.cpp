#include "core/common/system_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <fstream>
#include <string>

namespace tandem::core {

namespace {

// The value of "Key:   123 kB" in a /proc file, in bytes; -1 when the file or key is missing.
std::int64_t procKilobytes(const char* file, const std::string& key) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, key.size(), key) != 0 || line.size() <= key.size() ||
            line[key.size()] != ':')
            continue;
        try {
            return std::int64_t(std::stoll(line.substr(key.size() + 1))) * 1024;
        } catch (const std::exception&) {
            return -1;
        }
    }
    return -1;
}

// What the soft limit `resource` leaves above `used` bytes; -1 when there is no limit.
std::int64_t leftUnder(int resource, std::int64_t used) {
    rlimit limit{};
    if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return -1;
    const auto cap = std::int64_t(std::min<rlim_t>(limit.rlim_cur, rlim_t(INT64_MAX)));
    return std::max<std::int64_t>(0, cap - std::max<std::int64_t>(used, 0));
}

}  // namespace

std::int64_t availableMemoryBytes() {
    std::int64_t available = procKilobytes("/proc/meminfo", "MemAvailable");
    if (available < 0) {
        const long pages = ::sysconf(_SC_AVPHYS_PAGES);
        const long pageSize = ::sysconf(_SC_PAGESIZE);
        if (pages > 0 && pageSize > 0) available = std::int64_t(pages) * pageSize;
    }
    for (const std::int64_t left :
         {leftUnder(RLIMIT_AS, procKilobytes("/proc/self/status", "VmSize")),
          leftUnder(RLIMIT_DATA, procKilobytes("/proc/self/status", "VmData"))})
        if (left >= 0) available = available < 0 ? left : std::min(available, left);
    return available;
}

}  // namespace tandem::core
