#pragma once
// How a search is run, next to what it searches: the explorer (exhaustive, PHAZE's heuristic or
// bound-pruned; the names core::search::makeExplorer takes) and the worker thread count (0 for
// one per core). Results do not depend on the thread count; the explorer decides which points
// are evaluated.
#include <QGroupBox>
#include <QString>

class QComboBox;
class QSpinBox;

namespace tandem::ui {

class SearchRunOptions : public QGroupBox {
    Q_OBJECT
public:
    explicit SearchRunOptions(QWidget* parent = nullptr);

    QString explorer() const;
    // False (and nothing changes) for a name that is not listed.
    bool setExplorer(const QString& name);
    int threads() const;
    void setThreads(int threads);

signals:
    // A user edit of either choice (not the setters).
    void changed();

private:
    QComboBox* explorer_ = nullptr;
    QSpinBox* threads_ = nullptr;
    bool showing_ = false;
};

}  // namespace tandem::ui
