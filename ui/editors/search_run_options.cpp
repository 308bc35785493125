#include "ui/editors/search_run_options.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>
#include <QThread>

#include "core/io/project_file.h"

namespace tandem::ui {

namespace {

struct ExplorerChoice {
    const char* name;
    const char* tooltip;
};
constexpr ExplorerChoice kExplorers[] = {
    {"exhaustive", QT_TRANSLATE_NOOP("SearchRunOptions", "Evaluate every point of the space.")},
    {"phaze", QT_TRANSLATE_NOOP("SearchRunOptions",
                                "PHAZE's area-descending heuristic, for comparison with the "
                                "paper.")},
    {"pruned", QT_TRANSLATE_NOOP("SearchRunOptions",
                                 "Skip points whose throughput bound cannot beat the best found "
                                 "so far; finds the same best point as exhaustive.")},
};

}  // namespace

SearchRunOptions::SearchRunOptions(QWidget* parent) : QGroupBox(tr("Explorer"), parent) {
    auto* form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    explorer_ = new QComboBox(this);
    explorer_->setObjectName("explorer");
    for (const ExplorerChoice& choice : kExplorers) {
        explorer_->addItem(choice.name, QString(choice.name));
        explorer_->setItemData(explorer_->count() - 1, tr(choice.tooltip), Qt::ToolTipRole);
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

QString SearchRunOptions::explorer() const {
    return explorer_->currentData().toString();
}

bool SearchRunOptions::setExplorer(const QString& name) {
    const int index = explorer_->findData(name);
    if (index < 0) return false;
    showing_ = true;
    explorer_->setCurrentIndex(index);
    showing_ = false;
    return true;
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
