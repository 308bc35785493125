#pragma once
// A one-line label that never widens its window: its minimum width is a few characters, and when
// its text is wider than the room it gets, it shows the text elided at the end ("…") and offers
// the whole of it as its tool tip. Rich text (the <b> and <span> the point bar uses) is shown as
// such while it fits and as its plain text, elided, when it does not. A tool tip set with
// setBaseToolTip() stays first; the full text follows it while the text is elided.
#include <QLabel>
#include <QString>

namespace tandem::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    explicit ElidedLabel(const QString& text, QWidget* parent = nullptr);

    void setFullText(const QString& text);  // plain or rich text (Qt::mightBeRichText)
    QString fullText() const { return full_; }
    void setBaseToolTip(const QString& tip);
    // True while the shown text is shortened.
    bool isElided() const { return elided_; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    QString plainText() const;
    int fullWidth() const;

    QString full_;
    QString baseToolTip_;
    bool elided_ = false;
};

}  // namespace tandem::ui
