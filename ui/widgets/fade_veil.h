#pragma once
// A translucent sheet over a widget that says "this is not current": it paints the window's
// colour at 55 % over whatever the widget shows, so the widget looks faded to 45 %, and lets the
// mouse through (tool tips still work). Unlike a QGraphicsOpacityEffect it composes nothing but
// the widget's own pixels (an effect repaints the page offscreen, where charts that draw from
// their own buffers stayed unfaded and, on some platforms, earlier tabs showed through). It
// follows the covered widget's size.
#include <QWidget>

namespace tandem::ui {

class FadeVeil : public QWidget {
    Q_OBJECT
public:
    static constexpr double kVeilOpacity = 0.55;  // of the window colour: the widget shows 45 %

    // Covers `covered` (becomes its child); hidden until setFaded(true).
    explicit FadeVeil(QWidget* covered);
    void setFaded(bool faded);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace tandem::ui
