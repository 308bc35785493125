#pragma once
// A thin frame around one editor field that turns red (with a pale red fill) while the field
// holds an invalid entry. The mark is drawn by the frame rather than by styling the field
// itself, because a style sheet border on a spin box replaces its native arrow buttons. The
// "invalid" property is set on both the frame and the field, for style sheets and tests.
#include <QFrame>

namespace tandem::ui {

class FieldFrame : public QFrame {
    Q_OBJECT
public:
    // Reparents `field` into the frame.
    FieldFrame(QWidget* field, QWidget* parent);

    QWidget* field() const { return field_; }
    void setInvalid(bool invalid);
    bool isInvalid() const;

private:
    QWidget* field_;
};

}  // namespace tandem::ui
