#include "core/schedule/resource_profile.h"

#include <algorithm>
#include <iterator>

namespace tandem::core::schedule {

ResourceProfile::ResourceProfile(int tensorCores, int vectorCores)
    : tensorCores_(tensorCores), vectorCores_(vectorCores), times_{0.0}, used_{Demand{}} {}

bool ResourceProfile::fits(int segment, const Demand& demand) const {
    const Demand& u = used_[segment];
    return u.tensorCores + demand.tensorCores <= tensorCores_ &&
           u.vectorCores + demand.vectorCores <= vectorCores_ && u.link + demand.link <= 1;
}

int ResourceProfile::segmentAt(double time) const {
    // Last breakpoint ≤ time; times start at 0 and every query time is ≥ 0.
    const auto it = std::upper_bound(times_.begin(), times_.end(), time);
    return static_cast<int>(std::distance(times_.begin(), it)) - 1;
}

double ResourceProfile::earliestStart(double earliest, double duration,
                                      const Demand& demand) const {
    if (duration <= 0) return earliest;
    double t = earliest;
    const int segments = static_cast<int>(times_.size());
    int k = segmentAt(t);
    for (;;) {
        // Check every segment overlapping [t, t + duration); on a conflict restart at its end.
        int j = k;
        bool ok = true;
        while (j < segments && (j == k || times_[j] < t + duration)) {
            if (!fits(j, demand)) {
                ok = false;
                break;
            }
            ++j;
        }
        if (ok) return t;
        // Segment j is busy; the last segment is always empty, so j + 1 exists.
        k = j + 1;
        t = times_[k];
    }
}

int ResourceProfile::split(double time) {
    const int k = segmentAt(time);
    if (times_[k] == time) return k;
    times_.insert(times_.begin() + k + 1, time);
    used_.insert(used_.begin() + k + 1, used_[k]);
    return k + 1;
}

void ResourceProfile::reserve(double start, double end, const Demand& demand) {
    if (!(end > start)) return;
    const int first = split(start);
    const int last = split(end);  // segment starting at end: not covered
    for (int k = first; k < last; ++k) {
        used_[k].tensorCores += demand.tensorCores;
        used_[k].vectorCores += demand.vectorCores;
        used_[k].link += demand.link;
    }
}

}  // namespace tandem::core::schedule
