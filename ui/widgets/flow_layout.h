#pragma once
// A layout that places its items left to right and wraps to a new line when the next one does
// not fit, like words in a paragraph: a row of controls that needs 900 pixels takes two lines in
// 600 instead of widening the window. Its minimum width is that of its widest item; its height
// follows the width (heightForWidth). Items keep their size hints; a line's items are centred
// vertically. Spacing: the style's layout spacing unless set.
#include <QLayout>
#include <QList>

namespace tandem::ui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = -1);
    ~FlowLayout() override;

    // Inserts a fixed gap before the next item (on the same line only).
    void addSpacing(int pixels);

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(items_.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    // Lays the items out in `rect` (or only measures, when `apply` is false); the height used.
    int arrange(const QRect& rect, bool apply) const;
    int gap() const;

    QList<QLayoutItem*> items_;
};

}  // namespace tandem::ui
