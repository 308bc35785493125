#include "ui/report_pdf.h"

#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>
#include <algorithm>
#include <cmath>

namespace tandem::ui {

namespace {

const QRegularExpression& svgPattern() {
    static const QRegularExpression pattern("<svg\\b.*?</svg>",
                                            QRegularExpression::DotMatchesEverythingOption);
    return pattern;
}

// Figures are drawn at this many pixels per point of their SVG size: sharp on paper.
constexpr double kFigureScale = 3.0;
// QTextDocument lays an A4 page with 15 mm margins out about 680 px wide: wider figures are
// shrunk to this width (their aspect kept) so that nothing is cut at the right edge.
constexpr int kMaxFigureWidth = 620;

}  // namespace

int reportFigureCount(const QString& html) {
    int count = 0;
    for (auto it = svgPattern().globalMatch(html); it.hasNext(); it.next()) ++count;
    return count;
}

std::optional<std::vector<ReportFigure>> reportFigures(const QString& html, double scale,
                                                       int* failed) {
    std::vector<ReportFigure> figures;
    for (auto it = svgPattern().globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        QSvgRenderer renderer(match.captured(0).toUtf8());
        if (!renderer.isValid()) {
            if (failed) *failed = int(figures.size()) + 1;
            return std::nullopt;
        }
        ReportFigure figure;
        figure.start = match.capturedStart();
        figure.end = match.capturedEnd();
        figure.size = renderer.defaultSize().isValid() ? renderer.defaultSize() : QSize(640, 360);
        figure.image = QImage(figure.size * scale, QImage::Format_ARGB32_Premultiplied);
        figure.image.fill(Qt::white);
        QPainter painter(&figure.image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter);
        painter.end();
        figures.push_back(std::move(figure));
    }
    return figures;
}

QString writeReportPdf(const QString& html, const QString& path) {
    if (QFileInfo(path).suffix().toLower() != "pdf")
        return QObject::tr("Cannot write %1: a PDF report's name must end in .pdf.").arg(path);
    int failed = 0;
    const auto figures = reportFigures(html, kFigureScale, &failed);
    if (!figures)
        return QObject::tr(
                   "Cannot write %1: figure %2 of the report is not a drawable SVG "
                   "(an internal error; the HTML export still works).")
            .arg(path)
            .arg(failed);
    QTextDocument document;
    QString laidOut;
    qsizetype from = 0;
    for (std::size_t i = 0; i < figures->size(); ++i) {
        const ReportFigure& figure = (*figures)[i];
        const QString name = QStringLiteral("figure-%1").arg(i);
        document.addResource(QTextDocument::ImageResource, QUrl(name), figure.image);
        laidOut += html.mid(from, figure.start - from);
        const double shrink = std::min(1.0, double(kMaxFigureWidth) / figure.size.width());
        laidOut += QStringLiteral("<p><img src=\"%1\" width=\"%2\" height=\"%3\"></p>")
                       .arg(name)
                       .arg(std::lround(figure.size.width() * shrink))
                       .arg(std::lround(figure.size.height() * shrink));
        from = figure.end;
    }
    laidOut += html.mid(from);
    document.setHtml(laidOut);

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
    {
        QPdfWriter writer(&file);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                         QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
        writer.setCreator(QStringLiteral("Tandem"));
        writer.setTitle(document.metaInformation(QTextDocument::DocumentTitle));
        document.print(&writer);
    }
    if (!file.commit()) return QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

}  // namespace tandem::ui
