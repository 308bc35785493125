#include "ui/widgets/flow_layout.h"

#include <QStyle>
#include <QWidget>
#include <algorithm>

namespace tandem::ui {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent) {
    if (spacing >= 0) setSpacing(spacing);
}

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addSpacing(int pixels) {
    addItem(new QSpacerItem(pixels, 0, QSizePolicy::Fixed, QSizePolicy::Minimum));
}

void FlowLayout::addItem(QLayoutItem* item) {
    items_.append(item);
}

QLayoutItem* FlowLayout::itemAt(int index) const {
    return index >= 0 && index < items_.size() ? items_.at(index) : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index) {
    return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

namespace {
// Hidden widgets, and containers whose contents are all hidden, take no room; spacers (whose
// isEmpty() is true too) do.
bool skipped(const QLayoutItem* item) {
    if (const_cast<QLayoutItem*>(item)->spacerItem()) return false;
    return item->isEmpty() || item->sizeHint().width() <= 0;
}
}  // namespace

int FlowLayout::gap() const {
    if (spacing() >= 0) return spacing();
    const QWidget* owner = parentWidget();
    return owner ? owner->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, owner)
                 : 6;
}

int FlowLayout::heightForWidth(int width) const {
    return arrange(QRect(0, 0, width, 0), false);
}

QSize FlowLayout::minimumSize() const {
    QSize size;
    for (const QLayoutItem* item : items_) size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
    // One line: the width every item wants side by side.
    int width = 0, height = 0;
    for (const QLayoutItem* item : items_) {
        if (skipped(item)) continue;
        width += item->sizeHint().width() + (width > 0 ? gap() : 0);
        height = std::max(height, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int space = gap();
    // Lines of [first, last) items, each laid out once its height is known.
    int y = area.y();
    int first = 0;
    while (first < items_.size()) {
        int x = area.x(), lineHeight = 0, last = first;
        for (; last < items_.size(); ++last) {
            const QLayoutItem* item = items_.at(last);
            if (skipped(item)) continue;
            const int width = item->sizeHint().width();
            if (x > area.x() && x + width > area.right() + 1) break;  // wrap
            x += width + space;
            lineHeight = std::max(lineHeight, item->sizeHint().height());
        }
        if (apply) {
            x = area.x();
            for (int i = first; i < last; ++i) {
                QLayoutItem* item = items_.at(i);
                if (skipped(item)) continue;
                const QSize hint = item->sizeHint();
                const int width = std::min(hint.width(), area.width());
                item->setGeometry(
                    QRect(x, y + (lineHeight - hint.height()) / 2, width, hint.height()));
                x += width + space;
            }
        }
        y += lineHeight + (last < items_.size() ? space : 0);
        first = std::max(last, first + 1);
    }
    return y - rect.y() + contentsMargins().bottom();
}

}  // namespace tandem::ui
