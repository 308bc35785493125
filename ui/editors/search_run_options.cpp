#include "ui/editors/search_run_options.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>
#include <QThread>
#include <string_view>

#include "core/io/project_file.h"

namespace tandem::ui {

namespace {

const char* tooltipOf(core::search::ExplorerKind kind) {
    using core::search::ExplorerKind;
    switch (kind) {
        case ExplorerKind::Exhaustive:
            return QT_TRANSLATE_NOOP("SearchRunOptions", "Evaluate every point of the space.");
        case ExplorerKind::Phaze:
            return QT_TRANSLATE_NOOP("SearchRunOptions",
                                     "PHAZE's area-descending heuristic, for comparison with the "
                                     "paper.");
        case ExplorerKind::Pruned:
            return QT_TRANSLATE_NOOP("SearchRunOptions",
                                     "Skip points whose throughput bound cannot beat the best "
                                     "found so far; finds the same best point as exhaustive.");
    }
    return "";
}

const char* tooltipOf(core::search::SearchObjective objective) {
    using core::search::SearchObjective;
    switch (objective) {
        case SearchObjective::Throughput:
            return QT_TRANSLATE_NOOP("SearchRunOptions",
                                     "Samples per second: the fastest point is best (PHAZE's "
                                     "objective).");
        case SearchObjective::ThroughputPerWatt:
            return QT_TRANSLATE_NOOP("SearchRunOptions",
                                     "Samples per joule (shown per kJ): the point that trains on "
                                     "the least energy is best.");
        case SearchObjective::Cost:
            return QT_TRANSLATE_NOOP("SearchRunOptions",
                                     "Samples per device-hour: the point that needs the fewest "
                                     "device-hours, hence the lowest cost to train at any price, "
                                     "is best.");
    }
    return "";
}

}  // namespace

SearchRunOptions::SearchRunOptions(QWidget* parent) : QGroupBox(tr("Explorer"), parent) {
    auto* form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    explorer_ = new QComboBox(this);
    explorer_->setObjectName("explorer");
    for (core::search::ExplorerKind kind : core::search::kExplorerKinds) {
        const std::string_view name = core::search::toString(kind);
        explorer_->addItem(QString::fromUtf8(name.data(), qsizetype(name.size())), int(kind));
        explorer_->setItemData(explorer_->count() - 1, tr(tooltipOf(kind)), Qt::ToolTipRole);
    }
    explorer_->setToolTip(tr("How the space is walked; hover an entry for details"));
    form->addRow(tr("Explorer:"), explorer_);
    objective_ = new QComboBox(this);
    objective_->setObjectName("objective");
    for (core::search::SearchObjective objective : core::search::kSearchObjectives) {
        const std::string_view title = core::search::objectiveTitle(objective);
        const std::string_view unit = core::search::objectiveUnit(objective);
        objective_->addItem(
            QStringLiteral("%1 (%2)").arg(QString::fromUtf8(title.data(), qsizetype(title.size())),
                                          QString::fromUtf8(unit.data(), qsizetype(unit.size()))),
            int(objective));
        objective_->setItemData(objective_->count() - 1, tr(tooltipOf(objective)), Qt::ToolTipRole);
    }
    objective_->setToolTip(
        tr("What the search ranks points by (tandem-cli search --objective); each point's plan "
           "is its fastest. Hover an entry for details"));
    form->addRow(tr("Rank by:"), objective_);
    threads_ = new QSpinBox(this);
    threads_->setObjectName("threads");
    threads_->setRange(0, int(core::io::ProjectFile::kMaxThreads));
    threads_->setSpecialValueText(tr("all cores (%1)").arg(QThread::idealThreadCount()));
    threads_->setSuffix(tr(" threads"));
    threads_->setToolTip(tr("Worker threads for the search; the results do not depend on it"));
    form->addRow(tr("Threads:"), threads_);
    connect(explorer_, &QComboBox::currentIndexChanged, this, [this] {
        if (!showing_) emit changed();
    });
    connect(objective_, &QComboBox::currentIndexChanged, this, [this] {
        if (!showing_) emit changed();
    });
    connect(threads_, &QSpinBox::valueChanged, this, [this] {
        if (!showing_) emit changed();
    });
}

core::search::ExplorerKind SearchRunOptions::explorer() const {
    return core::search::ExplorerKind(explorer_->currentData().toInt());
}

void SearchRunOptions::setExplorer(core::search::ExplorerKind kind) {
    const int index = explorer_->findData(int(kind));
    if (index < 0) return;  // only a value cast from outside the enum
    showing_ = true;
    explorer_->setCurrentIndex(index);
    showing_ = false;
}

core::search::SearchObjective SearchRunOptions::objective() const {
    return core::search::SearchObjective(objective_->currentData().toInt());
}

void SearchRunOptions::setObjective(core::search::SearchObjective objective) {
    const int index = objective_->findData(int(objective));
    if (index < 0) return;  // only a value cast from outside the enum
    showing_ = true;
    objective_->setCurrentIndex(index);
    showing_ = false;
}

int SearchRunOptions::threads() const {
    return threads_->value();
}

void SearchRunOptions::setThreads(int threads) {
    showing_ = true;
    threads_->setValue(threads);
    showing_ = false;
}

}  // namespace tandem::ui
