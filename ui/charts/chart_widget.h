#pragma once
// The base of every chart (ARCHITECTURE.md §1.10, §6.3): a QWidget that owns one QCustomPlot and
// exports it to PNG, PDF or SVG. Only files under ui/charts include qcustomplot.h; everything
// else sees charts through these widgets (QCustomPlot is forward-declared here). Exports are
// atomic (QSaveFile): a failed export leaves an existing file untouched.
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <optional>

class QCustomPlot;
class QFontMetrics;
class QResizeEvent;
class QCPItemText;
class QCPTextElement;

namespace tandem::ui {

class ChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit ChartWidget(QWidget* parent = nullptr);
    ~ChartWidget() override;

    QCustomPlot* plot() const { return plot_; }

    // Writes the chart to `path`; the format follows the suffix (.png, .pdf, .svg). Width and
    // height in pixels (0: the widget's current size, at least 800 × 500). Returns an empty
    // string on success, else a message naming the file and what went wrong. A non-empty
    // `caption` (model, chip, plan) is drawn under the chart in the file only.
    QString exportTo(const QString& path, int width = 0, int height = 0,
                     const QString& caption = {}) const;

    // For QFileDialog: "PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)".
    static QString exportFilter();

    // What the chart shows — the model and the chip ("GPT-3 175B on 1,024 × a100-80gb (108 TC
    // 16×16 · …)"), set by whoever gives it data — as a bold row above everything else, in the
    // window and in exports alike (issue 27 item 10). Empty removes the row.
    // A subject wider than the chart breaks into lines at its " · " separators (a part wider
    // than a line on its own is elided), and again whenever the chart is resized or exported.
    void setSubject(const QString& subject);
    QString subject() const { return subjectText_; }

    // `text` in lines of at most `width` pixels in `metrics`: its " · "-separated parts packed
    // greedily, joined by " · " within a line and by line breaks between lines; a part wider
    // than `width` alone elided at its end. Exposed for the tests.
    static QString wrapSubject(const QString& text, const QFontMetrics& metrics, int width);
    // `text` in lines of at most `width` pixels in `metrics`: each of its lines broken at spaces,
    // greedily; a word wider than `width` alone elided at its end. Exposed for the tests.
    static QString wrapWords(const QString& text, const QFontMetrics& metrics, int width);

protected:
    void resizeEvent(QResizeEvent* event) override;

    // The legend in a row above the axis rect, left-aligned (an empty element beside it takes
    // the spare width), no border, filled column by column, wrapping after `wrap` entries when
    // wrap > 0.
    void placeLegendAbove(int wrap = 0);
    // A grey text item centred in the axis rect, for "No plan: …" and similar states. Give it
    // its text with setMessage(), which keeps it within the axis rect.
    QCPItemText* addCentredMessage();
    // Sets `message`'s text, broken into lines (wrapWords) no wider than nine tenths of its axis
    // rect, and again whenever the plot is laid out anew (resized, exported at another size).
    void setMessage(QCPItemText* message, const QString& text);
    // Keyboard navigation shared by the charts: + / = and − zoom, ← / → pan the x axis (and
    // ↑ / ↓ the y axis, and zoom it too, when `vertical`), then replot. False for other keys.
    bool navigate(int key, bool vertical);
    // Tool tips that follow the pointer, for an event filter installed on plot_: on a ToolTip
    // event, or a mouse move while a tip shows, shows textAt(position) there, or hides the tip
    // where the text is empty. Returns what the filter returns for such an event (true, eaten,
    // for the ToolTip event); nothing for any other event or object.
    std::optional<bool> followToolTip(QObject* watched, QEvent* event,
                                      const std::function<QString(const QPoint&)>& textAt) const;

    QCustomPlot* plot_ = nullptr;

private:
    // Sets the subject row's text wrapped for a chart `width` pixels wide.
    void wrapSubjectTo(int width) const;
    // Re-breaks every message for its axis rect's current width.
    void wrapMessages() const;

    QCPTextElement* subject_ = nullptr;  // row 0 of the plot layout while there is a subject
    QString subjectText_;
    QList<QCPItemText*> messages_;  // owned by plot_
};

}  // namespace tandem::ui
