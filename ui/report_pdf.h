#pragma once
// The report as a PDF (issue 27 item 16: File ▸ Export report… to a .pdf): core's HTML report
// (core/io/training_report.h) laid out by QTextDocument on A4 pages, each inline SVG chart
// rendered by QSvgRenderer into an image at print resolution first (QTextDocument draws no
// SVG). Written atomically (QSaveFile): a failure leaves an existing file untouched.
#include <QString>

namespace tandem::ui {

// Writes `html` to `path` as a PDF; an empty string on success, else what went wrong and with
// which file.
QString writeReportPdf(const QString& html, const QString& path);

// How many inline SVG figures `html` holds, and the HTML with each replaced by an image named
// "figure-N" (N from 0), as writeReportPdf lays it out — for tests.
int reportFigureCount(const QString& html);

}  // namespace tandem::ui
