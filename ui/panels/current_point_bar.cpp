#include "ui/panels/current_point_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "ui/widgets/elided_label.h"

namespace tandem::ui {

CurrentPointBar::CurrentPointBar(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("currentPointBar"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 3, 8, 3);
    // Long texts (a multi-model point's per-model throughputs) elide instead of widening the
    // window; the whole text is the label's tool tip.
    label_ = new ElidedLabel(this);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label_, 1);
    model_ = new QComboBox(this);
    model_->setToolTip(
        tr("Which of the searched models the views show at this point: its plan, "
           "schedule and where its time goes"));
    layout->addWidget(model_);
    connect(model_, &QComboBox::activated, this, &CurrentPointBar::modelChosen);
    const auto button = [&](const QString& text, const QString& tip,
                            void (CurrentPointBar::*sig)()) {
        auto* b = new QPushButton(text, this);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, sig);
        layout->addWidget(b);
        return b;
    };
    use_ = button(tr("Use as set-up"),
                  tr("Copy this point's chip, microbatch size and recompute into the set-up dock"),
                  &CurrentPointBar::useAsSetUp);
    compare_ = button(tr("Compare with set-up"),
                      tr("Show this point and the set-up side by side in the Comparison tab"),
                      &CurrentPointBar::compareWithSetUp);
    export_ =
        button(tr("Export plan…"),
               tr("Save the shown point's plan as JSON (the form of tandem-cli place --json)"),
               &CurrentPointBar::exportPlan);
    back_ = button(tr("Back to set-up"), tr("Show the set-up's point again"),
                   &CurrentPointBar::backToSetUp);
    refresh();
}

void CurrentPointBar::setModels(const QStringList& names, int shown) {
    const QSignalBlocker block(model_);
    model_->clear();
    for (const QString& name : names) model_->addItem(tr("Views show: %1").arg(name));
    model_->setCurrentIndex(shown);
    refresh();
}

void CurrentPointBar::showSetUp(const QString& what) {
    pointIndex_ = -1;
    what_ = what;
    models_.clear();
    refresh();
}

void CurrentPointBar::showSearchPoint(qint64 pointIndex, const QString& what,
                                      const QString& models) {
    pointIndex_ = pointIndex;
    what_ = what;
    models_ = models;
    refresh();
}

void CurrentPointBar::setNotUpdated(const QString& why) {
    notUpdated_ = why;
    refresh();
}

QString CurrentPointBar::text() const {
    return label_->fullText();
}

void CurrentPointBar::refresh() {
    QString text = showsSearchPoint()
                       ? tr("Showing <b>design-space point %1</b>: %2 — not the set-up")
                             .arg(pointIndex_)
                             .arg(what_.toHtmlEscaped())
                       : tr("Showing <b>the set-up</b>: %1").arg(what_.toHtmlEscaped());
    if (showsSearchPoint() && !models_.isEmpty())
        text += tr(" · per model: %1").arg(models_.toHtmlEscaped());
    if (!notUpdated_.isEmpty())
        text += tr(" · <span style='color:#b35900'><b>Not updated</b>: %1 — the views show the "
                   "last valid set-up</span>")
                    .arg(notUpdated_.toHtmlEscaped());
    label_->setFullText(text);
    setStyleSheet(showsSearchPoint() ? QStringLiteral("#currentPointBar { background: #fff6d6; }")
                                     : QStringLiteral("#currentPointBar { background: #eef4fb; }"));
    for (QPushButton* b : {use_, compare_, back_}) b->setVisible(showsSearchPoint());
    model_->setVisible(showsSearchPoint() && model_->count() > 1);
}

}  // namespace tandem::ui
