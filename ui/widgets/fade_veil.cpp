#include "ui/widgets/fade_veil.h"

#include <QEvent>
#include <QPainter>

namespace tandem::ui {

FadeVeil::FadeVeil(QWidget* covered) : QWidget(covered) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    covered->installEventFilter(this);
    setGeometry(covered->rect());
    hide();
}

void FadeVeil::setFaded(bool faded) {
    if (faded) {
        setGeometry(parentWidget()->rect());
        raise();
    }
    setVisible(faded);
}

void FadeVeil::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    QColor veil = palette().color(QPalette::Window);
    veil.setAlphaF(kVeilOpacity);
    painter.fillRect(rect(), veil);
}

bool FadeVeil::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        setGeometry(parentWidget()->rect());
    if (watched == parentWidget() && event->type() == QEvent::ChildAdded && isVisible())
        raise();  // stays on top of children added later
    return QWidget::eventFilter(watched, event);
}

}  // namespace tandem::ui
