#pragma once
// The calibration dialog's predicted-vs-measured scatter (Hardware ▸ Calibrate from
// measurements…): one point per measured run at (measured, predicted) iteration time in
// seconds, on logarithmic axes (or linear ones) with the same range on both, the diagonal
// predicted = measured and the ±10 % band. The fitted points are the result's validated
// predictions (core::calibration::CalibrationResult::validatedRuns), coloured by whether the run
// was predicted out of sample (k-fold: every run, by the fit without its fold; hold-out: the
// held-out runs) or in sample (the runs a hold-out fit was fitted on; every run without
// validation or after a cancel); the start's predictions are drawn grey behind them. Runs
// predicted not to fit in HBM have no time and are left out (notDrawn() counts them). Hovering a
// point names the run with its times and error.
#include <QPoint>
#include <QPointF>
#include <QString>
#include <cstddef>
#include <vector>

#include "core/calibration/calibration_result.h"
#include "core/validation/measured_run.h"
#include "ui/charts/chart_widget.h"

class QCPCurve;
class QCPGraph;
class QCPItemText;

namespace tandem::ui {

class CalibrationChart : public ChartWidget {
    Q_OBJECT
public:
    enum class Series { Start, InSample, OutOfSample };
    struct Dot {
        std::size_t run = 0;  // index into the runs
        double measuredSeconds = 0;
        double predictedSeconds = 0;
        Series series = Series::InSample;
    };

    explicit CalibrationChart(QWidget* parent = nullptr);
    ~CalibrationChart() override;

    // `runs` in the result's order (the calibration's runs).
    void setResult(const core::calibration::CalibrationResult& result,
                   const std::vector<core::validation::MeasuredRun>& runs);
    // Shows nothing but `reason` in the plot area.
    void clear(const QString& reason);
    void setLogarithmic(bool logarithmic);
    bool logarithmic() const { return logarithmic_; }

    // Every point drawn, the start's first, each series in run order.
    const std::vector<Dot>& dots() const { return dots_; }
    // The (measured, predicted) points a series holds in the plot, in run order.
    std::vector<QPointF> drawnPoints(Series series) const;
    // The legend's name of a series ("Cross-validated (out of fold)"), empty when not shown.
    QString seriesName(Series series) const;
    // Runs with no predicted time (they do not fit in HBM) in the fitted series.
    int notDrawn() const { return notDrawn_; }
    // A dot's position in plot() pixels, and the tooltip text of the dot nearest a position
    // (within a few pixels; empty when there is none).
    QPoint pixelOf(const Dot& dot) const;
    QString pointTextAt(const QPoint& plotPosition) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QCPCurve* curveOf(Series series) const;
    void applyScale();

    std::vector<Dot> dots_;
    std::vector<QString> pointText_;  // per dot: the tooltip
    int notDrawn_ = 0;
    bool logarithmic_ = true;
    double low_ = 0.1, high_ = 1;  // the data's range in seconds (both axes)
    QCPCurve* start_ = nullptr;    // owned by plot_
    QCPCurve* inSample_ = nullptr;
    QCPCurve* outOfSample_ = nullptr;
    QCPGraph* diagonal_ = nullptr;
    QCPGraph* bandAbove_ = nullptr;
    QCPGraph* bandBelow_ = nullptr;
    QCPItemText* message_ = nullptr;
};

}  // namespace tandem::ui
