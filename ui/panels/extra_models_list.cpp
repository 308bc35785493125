#include "ui/panels/extra_models_list.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>
#include <utility>

#include "core/model/model_zoo.h"

namespace tandem::ui {

ExtraModelsList::ExtraModelsList(QWidget* parent) : QWidget(parent) {
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
        if (quiet_) return;
        emit toggled(item->data(Qt::UserRole).toString(), item->checkState() == Qt::Checked);
    });
}

QListWidgetItem* ExtraModelsList::addRow(const QString& label, const QString& reference,
                                         const QString& tip) {
    const bool wasQuiet = std::exchange(quiet_, true);
    auto* item = new QListWidgetItem(label, list_);
    item->setData(Qt::UserRole, reference);
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

void ExtraModelsList::setChecked(const QStringList& references) {
    const bool wasQuiet = std::exchange(quiet_, true);
    for (const QString& reference : references)
        if (!itemOf(reference)) addRow(QFileInfo(reference).fileName(), reference, reference);
    for (int row = 0; row < list_->count(); ++row) {
        QListWidgetItem* item = list_->item(row);
        const QString reference = item->data(Qt::UserRole).toString();
        const bool on = references.contains(reference) && reference != main_;
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    quiet_ = wasQuiet;
}

void ExtraModelsList::uncheck(const QString& reference) {
    const bool wasQuiet = std::exchange(quiet_, true);
    if (QListWidgetItem* item = itemOf(reference)) item->setCheckState(Qt::Unchecked);
    quiet_ = wasQuiet;
}

void ExtraModelsList::setMainModel(const QString& reference) {
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
