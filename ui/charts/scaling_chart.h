#pragma once
// The Scaling tab's chart: devices across (log₂), and up the chosen metric of the best plan at
// each size — throughput (log scale, with the ideal, linear scaling from the set-up's size
// dashed: a straight line), MFU (linear), or days to train on a token budget (log scale). Sizes
// where nothing fits sit at the bottom as grey crosses.
// Hover a size for its plan (t, d, stages), devices in use, figures and scaling efficiency.
#include <QString>
#include <memory>

#include "core/search/scaling.h"
#include "ui/charts/chart_widget.h"

class QCPGraph;
class QCPTextElement;

namespace tandem::ui {

class ScalingChart : public ChartWidget {
    Q_OBJECT
public:
    enum class Metric { Throughput, Mfu, DaysToTrain };

    explicit ScalingChart(QWidget* parent = nullptr);
    ~ScalingChart() override;

    // `tokensPerSample`: the sequence length, for days to train on `tokens`.
    void setResult(std::shared_ptr<const core::search::ScalingResult> result, const QString& title,
                   double tokensPerSample);
    void setMetric(Metric metric);
    void setTokenBudget(double tokens);
    Metric metric() const { return metric_; }
    const std::shared_ptr<const core::search::ScalingResult>& result() const { return result_; }
    void clear(const QString& reason);

    // The drawn value at point i of the result (NaN where nothing fits), and the ideal line's.
    double value(std::size_t i) const;
    double idealValue(std::size_t i) const;
    QString titleText() const;
    QString pointTextAt(const QPoint& plotPosition) const;
    QPoint pointPixel(std::size_t i) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void redraw();
    double valueOf(const core::search::ScalingPoint& p) const;

    std::shared_ptr<const core::search::ScalingResult> result_;
    Metric metric_ = Metric::Throughput;
    double tokens_ = 300e9;
    double tokensPerSample_ = 0;
    QString title_;
    QCPGraph* measured_ = nullptr;
    QCPGraph* ideal_ = nullptr;
    QCPGraph* unfit_ = nullptr;
    QCPTextElement* titleElement_ = nullptr;
    class QCPItemText* message_ = nullptr;
};

}  // namespace tandem::ui
