#pragma once
// A time axis whose keys are seconds but whose ticks read in the unit that suits the range shown:
// µs below 2 ms, ms below 2 s, s below 10 min, min above. Steps are chosen in that unit (so a
// minute axis steps by 1, 2 or 5 min, not by 50 s), and labels are the tick times in it. The
// owner calls setUnit(unitFor(range)) when the range changes and names the unit in the label.
#include <qcustomplot.h>
#include <QString>

namespace tandem::ui {

class TimeAxisTicker : public QCPAxisTicker {
public:
    struct Unit {
        QString name;      // "µs", "ms", "s", "min"
        double perSecond;  // display units in a second
    };
    // The unit for a time range `seconds` wide.
    static Unit unitFor(double seconds);

    void setUnit(const Unit& unit) { unit_ = unit; }
    const Unit& unit() const { return unit_; }

protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;

private:
    Unit unit_{QStringLiteral("ms"), 1e3};
};

}  // namespace tandem::ui
