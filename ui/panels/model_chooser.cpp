#include "ui/panels/model_chooser.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <utility>

#include "core/common/units.h"
#include "core/model/model_zoo.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

ModelChooser::ModelChooser(QWidget* parent)
    : QWidget(parent), job_(new ModelLoadJob(JobRunner::Answers::LatestOnly, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Model:"), this));
    combo_ = new QComboBox(this);
    for (const auto& entry : core::model::zooModels()) {
        combo_->addItem(text(entry.name), text(entry.name));
        combo_->setItemData(combo_->count() - 1, text(entry.description), Qt::ToolTipRole);
    }
    combo_->setToolTip(tr("Model from the zoo, or Open… for a model file"));
    row->addWidget(combo_, 1);
    auto* open = new QPushButton(tr("Open…"), this);
    open->setToolTip(
        tr("Load a Tandem model file, a Hugging Face config.json or an ONNX model "
           "(weights are never read)"));
    row->addWidget(open);
    layout->addLayout(row);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    loadingRow_ = new QWidget(this);
    auto* loadingLayout = new QHBoxLayout(loadingRow_);
    loadingLayout->setContentsMargins(0, 0, 0, 0);
    loadingLabel_ = new QLabel(loadingRow_);
    loadingLayout->addWidget(loadingLabel_, 1);
    auto* busy = new QProgressBar(loadingRow_);
    busy->setRange(0, 0);  // indeterminate: an import does not say how far it is
    busy->setMaximumWidth(120);
    loadingLayout->addWidget(busy);
    auto* cancel = new QPushButton(tr("Cancel"), loadingRow_);
    cancel->setObjectName(QStringLiteral("cancelModelLoad"));
    cancel->setToolTip(tr("Stop loading; the loaded model stays"));
    loadingLayout->addWidget(cancel);
    loadingRow_->setVisible(false);
    layout->addWidget(loadingRow_);

    connect(combo_, &QComboBox::currentIndexChanged, this, &ModelChooser::picked);
    connect(open, &QPushButton::clicked, this, &ModelChooser::openFile);
    connect(cancel, &QPushButton::clicked, this, &ModelChooser::cancelClicked);
    connect(job_, &ModelLoadJob::loaded, this, &ModelChooser::receive);
}

ModelChooser::~ModelChooser() = default;  // the job, a child, cancels and waits

quint64 ModelChooser::load(const QStringList& references, std::int64_t bytesPerElement) {
    abandon();
    pending_ = job_->load(references, bytesPerElement);
    pendingWhat_ = references.isEmpty() ? QString() : QFileInfo(references.front()).fileName();
    refreshLoading();
    return pending_;
}

void ModelChooser::abandon() {
    if (!pending_) return;
    const quint64 id = std::exchange(pending_, 0);
    job_->cancel(id);
    showLoaded();
    refreshLoading();
    emit abandoned(id);
}

void ModelChooser::receive(quint64 id, const std::vector<ModelLoad>& loads) {
    if (id != pending_) return;
    pending_ = 0;
    refreshLoading();
    if (loads.empty() || !loads.front().model) showLoaded();
    emit answered(id, loads);
}

void ModelChooser::show(const ModelLoad& loaded) {
    loaded_ = loaded;
    const QString& reference = loaded_.reference;
    if (combo_->findData(reference) < 0) {
        combo_->addItem(QFileInfo(reference).fileName(), reference);
        combo_->setItemData(combo_->count() - 1, reference, Qt::ToolTipRole);
    }
    showLoaded();
    summary_->setText(summary());
}

void ModelChooser::showLoaded() {
    const QSignalBlocker blocker(combo_);
    combo_->setCurrentIndex(combo_->findData(loaded_.reference));
}

QString ModelChooser::summary() const {
    if (!loaded_.model) return {};
    const ModelOverview& o = loaded_.overview;
    if (!o.buildError.isEmpty())
        return tr("Cannot build %1: %2").arg(text(loaded_.model->name()), o.buildError);
    return tr("%1 parameters · %2 layers · %3 per sample (forward + backward) · sequence %4 "
              "tokens")
        .arg(text(core::formatCount(o.parameters)))
        .arg(o.layers)
        .arg(text(core::formatFlops(o.flopsPerSample)))
        .arg(o.sequenceLength);
}

void ModelChooser::setExtraLoading(bool loading) {
    extraLoading_ = loading;
    refreshLoading();
}

void ModelChooser::refreshLoading() {
    QStringList what;
    if (pending_) what << pendingWhat_;
    if (extraLoading_) what << tr("extra models");
    loadingLabel_->setText(tr("Loading %1…").arg(what.join(tr(", "))));
    loadingRow_->setVisible(!what.isEmpty());
}

void ModelChooser::picked(int index) {
    if (index < 0) return;
    const QString reference = combo_->itemData(index).toString();
    if (reference == loaded_.reference)
        abandon();  // back to the loaded model: nothing to load
    else
        emit chosen(reference);
}

void ModelChooser::openFile() {
    const QString filters =
        tr("Models (*.json *.onnx);;Tandem model or Hugging Face config "
           "(*.json);;ONNX (*.onnx);;All files (*)");
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), {}, filters);
    if (!path.isEmpty()) emit chosen(path);
}

}  // namespace tandem::ui
