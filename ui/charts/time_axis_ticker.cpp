#include "ui/charts/time_axis_ticker.h"

#include <cmath>

namespace tandem::ui {

TimeAxisTicker::Unit TimeAxisTicker::unitFor(double seconds) {
    const double size = std::abs(seconds);
    if (size < 2e-3) return {QStringLiteral("µs"), 1e6};
    if (size < 2) return {QStringLiteral("ms"), 1e3};
    if (size < 600) return {QStringLiteral("s"), 1};
    return {QStringLiteral("min"), 1.0 / 60};
}

double TimeAxisTicker::getTickStep(const QCPRange& range) {
    // A clean step in the display unit, converted back to seconds.
    const double f = unit_.perSecond;
    return QCPAxisTicker::getTickStep(QCPRange(range.lower * f, range.upper * f)) / f;
}

int TimeAxisTicker::getSubTickCount(double tickStep) {
    return QCPAxisTicker::getSubTickCount(tickStep * unit_.perSecond);
}

QString TimeAxisTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                                     int precision) {
    // Ticks are whole multiples of the step, so 0 is exactly 0; other rounding noise (0.3 s as
    // 0.30000000000000004) disappears in the label's six significant digits.
    return QCPAxisTicker::getTickLabel(tick * unit_.perSecond, locale, formatChar, precision);
}

}  // namespace tandem::ui
