#pragma once
// Where the time per batch goes, one horizontal stacked bar per plan (Comparison and Summary):
// compute, recompute, tensor-parallel collectives, pipeline transfers, pipeline bubble, the
// exposed data-parallel sync and the optimizer step — core's TimeBreakdown, whose parts sum to
// the plan's time per batch — in seconds, each bar labelled with its name, and its model FLOPs
// utilisation (MFU) at its end when known. Rows without a plan say why (or "—").
#include <QString>
#include <QStringList>
#include <vector>

#include "ui/charts/chart_widget.h"

class QCPBars;
class QCPItemText;

namespace tandem::core::placement {
struct Plan;
}

namespace tandem::ui {

class BreakdownChart : public ChartWidget {
    Q_OBJECT
public:
    struct Row {
        QString label;
        const core::placement::Plan* plan = nullptr;  // null: `missing` says why
        QString missing;                              // e.g. "nothing fits"; "—" when empty
    };
    static constexpr int kPartCount = 7;

    explicit BreakdownChart(QWidget* parent = nullptr);

    void setRows(const std::vector<Row>& rows);
    void clear();

    // What is drawn, for tests: seconds of part `part` (0 = compute … 6 = optimizer) in row
    // `row`, the parts' names, and the text at a row's end ("MFU 41 %", or "—").
    double partSeconds(int row, int part) const;
    QStringList partNames() const;
    QString rowNote(int row) const;
    int rowCount() const { return int(notes_.size()); }

private:
    std::vector<QCPBars*> parts_;
    std::vector<QCPItemText*> notes_;
};

}  // namespace tandem::ui
