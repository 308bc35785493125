#pragma once
// The Sensitivity tab's tornado chart: one row per hardware parameter, the most influential on
// the chosen metric on top (ties keep core's order, which ranks by throughput), with a bar for the
// parameter moved down (blue) and one for it moved up (orange), each as the relative change of the
// chosen metric — throughput, or energy per sample — against the unperturbed point, in per cent. A
// side that could not be evaluated (outside the parameter's range) has no bar; one where nothing
// fits shows −100 % of throughput. Hover a row for the values, the resulting figures and any note.
#include <QString>
#include <memory>
#include <vector>

#include "core/search/sensitivity.h"
#include "ui/charts/chart_widget.h"

class QCPBars;
class QCPItemText;
class QCPTextElement;

namespace tandem::ui {

class TornadoChart : public ChartWidget {
    Q_OBJECT
public:
    enum class Metric { Throughput, Energy };

    explicit TornadoChart(QWidget* parent = nullptr);
    ~TornadoChart() override;

    // `rows`: how many of the most influential parameters to draw (0: all).
    void setResult(std::shared_ptr<const core::search::SensitivityResult> result,
                   const QString& title, int rows = 0);
    void setMetric(Metric metric);
    Metric metric() const { return metric_; }
    void clear(const QString& reason);

    int rowCount() const;
    QString rowLabel(int row) const;  // top row is 0
    // The drawn change of a row's side (per cent); NaN when that side has no bar.
    double barPercent(int row, bool high) const;
    QString titleText() const;
    QString rowTextAt(const QPoint& plotPosition) const;
    QPoint rowCentre(int row) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void redraw();
    const core::search::SensitivityEntry* entryOfRow(int row) const;
    double change(const core::search::SensitivityEntry& e, bool high) const;

    std::shared_ptr<const core::search::SensitivityResult> result_;
    std::vector<std::size_t> order_;  // entries by impact on the metric, row 0 first
    int rows_ = 0;
    Metric metric_ = Metric::Throughput;
    QString title_;
    QCPBars* low_ = nullptr;
    QCPBars* high_ = nullptr;
    QCPItemText* message_ = nullptr;
    QCPTextElement* titleElement_ = nullptr;
};

}  // namespace tandem::ui
