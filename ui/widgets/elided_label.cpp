#include "ui/widgets/elided_label.h"

#include <QEvent>
#include <QFontMetrics>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

namespace tandem::ui {

namespace {
constexpr int kMinimumCharacters = 8;  // what stays readable at the narrowest
}

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

ElidedLabel::ElidedLabel(const QString& text, QWidget* parent) : ElidedLabel(parent) {
    setFullText(text);
}

void ElidedLabel::setFullText(const QString& text) {
    if (text == full_ && !QLabel::text().isEmpty()) return;
    full_ = text;
    refresh();
    updateGeometry();
}

void ElidedLabel::setBaseToolTip(const QString& tip) {
    baseToolTip_ = tip;
    refresh();
}

QString ElidedLabel::plainText() const {
    if (!Qt::mightBeRichText(full_)) return full_;
    QTextDocument document;
    document.setHtml(full_);
    return document.toPlainText();
}

// The width the text needs on one line: rich text as laid out (bold is wider), plain as is.
int ElidedLabel::fullWidth() const {
    if (!Qt::mightBeRichText(full_)) return QFontMetrics(font()).horizontalAdvance(full_);
    QTextDocument document;
    document.setDefaultFont(font());
    document.setDocumentMargin(0);
    document.setHtml(full_);
    return int(std::ceil(document.idealWidth()));
}

QSize ElidedLabel::minimumSizeHint() const {
    const QFontMetrics metrics(font());
    const QMargins m = contentsMargins();
    return {metrics.horizontalAdvance(QLatin1Char('x')) * kMinimumCharacters + m.left() + m.right(),
            QLabel::minimumSizeHint().height()};
}

QSize ElidedLabel::sizeHint() const {
    const QMargins m = contentsMargins();
    return {fullWidth() + m.left() + m.right() + 2 * margin(), QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    refresh();
}

void ElidedLabel::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) refresh();
}

void ElidedLabel::refresh() {
    const QString plain = plainText();
    const QFontMetrics metrics(font());
    const int room = contentsRect().width() - 2 * margin();
    elided_ = fullWidth() > room;
    if (elided_) {
        setTextFormat(Qt::PlainText);
        QLabel::setText(metrics.elidedText(plain, Qt::ElideRight, std::max(0, room)));
    } else {
        setTextFormat(Qt::AutoText);
        QLabel::setText(full_);
    }
    QString tip = baseToolTip_;
    if (elided_) tip += (tip.isEmpty() ? QString() : QStringLiteral("\n\n")) + plain;
    setToolTip(tip);
}

}  // namespace tandem::ui
