#pragma once
// The report as a PDF (issue 27 item 16: File ▸ Export report… to a .pdf): core's HTML report
// (core/io/training_report.h) laid out by QTextDocument on A4 pages, each inline SVG chart
// rendered by QSvgRenderer into an image at print resolution first (QTextDocument draws no
// SVG). Written atomically (QSaveFile): a failure leaves an existing file untouched.
#include <QImage>
#include <QSize>
#include <QString>
#include <optional>
#include <vector>

namespace tandem::ui {

// One inline SVG figure of an HTML report: where it stands in the text, its SVG size, and its
// drawing on white at the scale asked for.
struct ReportFigure {
    qsizetype start = 0, end = 0;
    QSize size;
    QImage image;
};

// Every inline SVG figure of `html`, drawn at `scale` pixels per SVG unit; nullopt (and the
// 1-based number of the figure in `failed`, when given) when one is not a drawable SVG.
std::optional<std::vector<ReportFigure>> reportFigures(const QString& html, double scale,
                                                       int* failed = nullptr);

// Writes `html` to `path` as a PDF; an empty string on success, else what went wrong and with
// which file.
QString writeReportPdf(const QString& html, const QString& path);

// How many inline SVG figures `html` holds — for tests.
int reportFigureCount(const QString& html);

}  // namespace tandem::ui
