#include "ui/panels/extra_models_list.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>
#include <utility>

#include "core/model/model_zoo.h"
#include "ui/jobs/model_load_job.h"

namespace tandem::ui {

namespace {
constexpr int kLabelRole = Qt::UserRole + 1;  // the row's text when it is not loading
}

ExtraModelsList::ExtraModelsList(QWidget* parent)
    : QWidget(parent), job_(new ModelLoadJob(JobRunner::Answers::Every, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("&Also search for:"), this);
    label->setToolTip(
        tr("Models a search ranks together with the set-up's model: each point is scored by the "
           "geometric mean of every model's throughput over its throughput on the reference "
           "chip (tandem-cli search --model a,b)"));
    list_ = new QListWidget(this);
    label->setBuddy(list_);
    list_->setToolTip(
        tr("Check the models to search alongside the set-up's model (Space toggles the current "
           "row); none checked: a single-model search"));
    list_->setMaximumHeight(list_->fontMetrics().height() * 7);
    for (const auto& entry : core::model::zooModels()) {
        const QString name = QString::fromStdString(entry.name);
        addRow(name, name, QString::fromStdString(entry.description));
    }
    layout->addWidget(label);
    layout->addWidget(list_);
    connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (!quiet_) userToggled(item);
    });
    connect(job_, &ModelLoadJob::loaded, this, &ExtraModelsList::answered);
}

ExtraModelsList::~ExtraModelsList() = default;  // the job, a child, cancels and waits

QListWidgetItem* ExtraModelsList::addRow(const QString& label, const QString& reference,
                                         const QString& tip) {
    const bool wasQuiet = std::exchange(quiet_, true);
    auto* item = new QListWidgetItem(label, list_);
    item->setData(Qt::UserRole, reference);
    item->setData(kLabelRole, label);
    item->setToolTip(tip);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Unchecked);
    quiet_ = wasQuiet;
    return item;
}

QListWidgetItem* ExtraModelsList::itemOf(const QString& reference) const {
    for (int row = 0; row < list_->count(); ++row)
        if (list_->item(row)->data(Qt::UserRole).toString() == reference) return list_->item(row);
    return nullptr;
}

QStringList ExtraModelsList::checked() const {
    QStringList out;
    for (int row = 0; row < list_->count(); ++row) {
        const QListWidgetItem* item = list_->item(row);
        const QString reference = item->data(Qt::UserRole).toString();
        if (item->checkState() == Qt::Checked && reference != main_) out << reference;
    }
    return out;
}

std::vector<core::model::ModelSourcePtr> ExtraModelsList::models() const {
    std::vector<core::model::ModelSourcePtr> out;
    for (const QString& reference : checked())
        if (const auto it = cache_.find(reference); it != cache_.end()) out.push_back(it->second);
    return out;
}

void ExtraModelsList::showLoading(const QString& reference, bool loading) {
    const bool wasQuiet = std::exchange(quiet_, true);
    if (QListWidgetItem* item = itemOf(reference)) {
        const QString label = item->data(kLabelRole).toString();
        item->setText(loading ? tr("%1 (loading…)").arg(label) : label);
    }
    quiet_ = wasQuiet;
}

void ExtraModelsList::forget(const QString& reference) {
    for (auto it = loads_.begin(); it != loads_.end(); ++it)
        if (it->second == reference) {
            job_->cancel(it->first);
            loads_.erase(it);
            showLoading(reference, false);
            if (loads_.empty()) emit loadingChanged(false);
            return;
        }
}

void ExtraModelsList::userToggled(QListWidgetItem* item) {
    const QString reference = item->data(Qt::UserRole).toString();
    const bool on = item->checkState() == Qt::Checked;
    if (!on) {
        forget(reference);
        emit toggled(reference, false);
        return;
    }
    if (cache_.count(reference)) {
        emit toggled(reference, true);
        return;
    }
    for (const auto& [id, loading] : loads_)
        if (loading == reference) return;  // already on its way
    const bool wasIdle = loads_.empty();
    loads_[job_->load({reference}, 0)] = reference;
    showLoading(reference, true);
    if (wasIdle) emit loadingChanged(true);
}

void ExtraModelsList::answered(quint64 id, const std::vector<ModelLoad>& loads) {
    const auto it = loads_.find(id);
    if (it == loads_.end()) return;
    const QString reference = it->second;
    loads_.erase(it);
    showLoading(reference, false);
    remember(loads);
    const bool loaded = cache_.count(reference) > 0;
    const QListWidgetItem* item = itemOf(reference);
    const bool stillChecked = item && item->checkState() == Qt::Checked && reference != main_;
    if (!loaded) uncheck(reference);
    if (loads_.empty()) emit loadingChanged(false);
    if (!loaded) {
        const QString why = loads.empty() ? reference : loads.front().error;
        emit loadFailed(tr("Also search for: %1").arg(why));
    } else if (stillChecked) {
        emit toggled(reference, true);
    }
}

void ExtraModelsList::remember(const std::vector<ModelLoad>& loads) {
    for (const ModelLoad& load : loads)
        if (load.model) cache_[load.reference] = load.model;
}

bool ExtraModelsList::setChecked(const QStringList& references, QString* error) {
    cancelLoads();
    QStringList usable;
    bool ok = true;
    for (const QString& reference : references) {
        if (reference == main_ || usable.contains(reference)) continue;
        if (!cache_.count(reference)) {
            const std::vector<ModelLoad> loads = ModelLoadJob::loadNow({reference}, 0);
            remember(loads);
            if (!cache_.count(reference)) {
                const QString message =
                    tr("Also search for: %1").arg(loads.empty() ? reference : loads.front().error);
                if (error) *error = message;
                emit loadFailed(message);
                ok = false;
                continue;
            }
        }
        usable << reference;
    }
    const bool wasQuiet = std::exchange(quiet_, true);
    for (const QString& reference : usable)
        if (!itemOf(reference)) addRow(QFileInfo(reference).fileName(), reference, reference);
    for (int row = 0; row < list_->count(); ++row) {
        QListWidgetItem* item = list_->item(row);
        const bool on = usable.contains(item->data(Qt::UserRole).toString());
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    quiet_ = wasQuiet;
    return ok;
}

void ExtraModelsList::cancelLoads() {
    const std::map<quint64, QString> running = std::exchange(loads_, {});
    for (const auto& [id, reference] : running) {
        job_->cancel(id);
        showLoading(reference, false);
        uncheck(reference);
    }
    if (!running.empty()) emit loadingChanged(false);
}

void ExtraModelsList::uncheck(const QString& reference) {
    const bool wasQuiet = std::exchange(quiet_, true);
    if (QListWidgetItem* item = itemOf(reference)) item->setCheckState(Qt::Unchecked);
    quiet_ = wasQuiet;
}

void ExtraModelsList::setMainModel(const QString& reference) {
    forget(reference);
    const bool wasQuiet = std::exchange(quiet_, true);
    if (QListWidgetItem* old = itemOf(main_))
        old->setFlags(old->flags() | Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    main_ = reference;
    if (QListWidgetItem* item = itemOf(main_)) {
        item->setCheckState(Qt::Unchecked);
        item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable));
    }
    quiet_ = wasQuiet;
}

}  // namespace tandem::ui
