#pragma once
// How a search is run, next to what it searches: the explorer (exhaustive, PHAZE's heuristic or
// bound-pruned; one entry per core::search::ExplorerKind, shown by its name), what it ranks the
// points by (core::search::SearchObjective: throughput, throughput per watt, cost to train) and
// the worker thread count (0 for one per core). Results do not depend on the thread count; the
// explorer decides which points are evaluated, the objective which is best.
#include <QGroupBox>

#include "core/search/explorer.h"
#include "core/search/search_objective.h"

class QComboBox;
class QSpinBox;

namespace tandem::ui {

class SearchRunOptions : public QGroupBox {
    Q_OBJECT
public:
    explicit SearchRunOptions(QWidget* parent = nullptr);

    core::search::ExplorerKind explorer() const;
    void setExplorer(core::search::ExplorerKind kind);
    core::search::SearchObjective objective() const;
    void setObjective(core::search::SearchObjective objective);
    int threads() const;
    void setThreads(int threads);

signals:
    // A user edit of either choice (not the setters).
    void changed();

private:
    QComboBox* explorer_ = nullptr;
    QComboBox* objective_ = nullptr;
    QSpinBox* threads_ = nullptr;
    bool showing_ = false;
};

}  // namespace tandem::ui
