#pragma once
// The roofline of the current chip (core/estimate/roofline.h), log-log: arithmetic intensity
// (FLOP per HBM byte) across, attained FLOP/s up; the compute roof (the tensor cores' peak) and
// the memory roof (sustained HBM bandwidth × intensity) meet at the marked ridge point. Each
// operator of the chosen layer is a dot — GEMMs blue, fused GEMMs green, vector operators
// orange; forward filled, backward rings — and hovering one names it with its FLOPs, bytes,
// intensity, attained FLOP/s, share of its roof and what bounds it: the roof it comes within
// half of, else what the roofline leaves out (the vector cores' lanes, a GEMM's tiling).
#include <QString>
#include <optional>

#include "core/estimate/roofline.h"
#include "ui/charts/chart_widget.h"

class QCPGraph;
class QCPItemText;
class QCPItemStraightLine;
class QCPTextElement;

namespace tandem::ui {

class RooflineChart : public ChartWidget {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    ~RooflineChart() override;

    // `title` names what is shown ("attn block 1 — gpt3-175b on tpuv4-like").
    void setRoofline(core::estimate::Roofline roofline, const QString& title);
    void clear(const QString& reason);

    const std::optional<core::estimate::Roofline>& roofline() const { return roofline_; }
    QString titleText() const;
    // The point under `plotPosition` (within a few pixels), as an index into points; and its
    // tooltip (empty when there is none).
    std::optional<std::size_t> pointAt(const QPoint& plotPosition) const;
    QString pointTextAt(const QPoint& plotPosition) const;
    // Where point i is drawn, in plot() pixels.
    QPoint pointPixel(std::size_t i) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::optional<core::estimate::Roofline> roofline_;
    QCPGraph* roof_ = nullptr;
    std::vector<QCPGraph*> classes_;  // (GEMM, fused, vector) × (forward, backward)
    QCPItemStraightLine* ridge_ = nullptr;
    QCPItemText* ridgeLabel_ = nullptr;
    QCPItemText* message_ = nullptr;
    QCPTextElement* title_ = nullptr;
};

}  // namespace tandem::ui
