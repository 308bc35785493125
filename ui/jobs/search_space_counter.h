#pragma once
// Counts the chips and points a SearchSpace implies, through the core's SearchGrid, on a worker
// thread: enumerating PHAZE's space (75,712 candidate chips, 29,360 in the area window) takes
// tens of milliseconds and a large user space far longer, too long for the GUI thread. A
// JobRunner (latest only): starting a new count or cancel() makes a running one stale, and its
// result is dropped, so only the count of the latest space is ever reported; destroying the
// counter waits for a running enumeration.
#include <QObject>
#include <QString>
#include <cstdint>

#include "core/search/search_space.h"

namespace tandem::ui {

class JobRunner;

class SearchSpaceCounter : public QObject {
    Q_OBJECT
public:
    struct Counts {
        std::int64_t chips = -1;  // -1: unknown (not counted, or the enumeration failed)
        std::int64_t points = -1;
        QString error;       // the enumeration's message when it failed
        double seconds = 0;  // wall time of the enumeration
    };

    explicit SearchSpaceCounter(QObject* parent = nullptr);

    void count(const core::search::SearchSpace& space);
    void cancel();
    bool isCounting() const { return counting_; }
    // The latest finished, non-stale count.
    const Counts& counts() const { return counts_; }

signals:
    void counted();

private:
    JobRunner* runner_ = nullptr;
    bool counting_ = false;
    Counts counts_;
};

}  // namespace tandem::ui
