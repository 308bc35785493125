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

int SearchRunOptions::threads() const {
    return threads_->value();
}

void SearchRunOptions::setThreads(int threads) {
    showing_ = true;
    threads_->setValue(threads);
    showing_ = false;
}

}  // namespace tandem::ui
