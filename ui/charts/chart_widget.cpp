#include "ui/charts/chart_widget.h"

#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace tandem::ui {

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setNoAntialiasingOnDrag(true);
}

ChartWidget::~ChartWidget() = default;

QString ChartWidget::exportFilter() {
    return tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)");
}

QString ChartWidget::exportTo(const QString& path, int width, int height) const {
    if (width <= 0) width = std::max(plot_->width(), 800);
    if (height <= 0) height = std::max(plot_->height(), 500);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "png" && suffix != "pdf" && suffix != "svg")
        return tr("Cannot export to %1: the file name must end in .png, .pdf or .svg.").arg(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("Cannot write %1: %2").arg(path, file.errorString());
    bool drawn = false;
    if (suffix == "png") {
        drawn = plot_->toPixmap(width, height).save(&file, "PNG");
    } else if (suffix == "pdf") {
        QPdfWriter writer(&file);
        writer.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setResolution(72);
        writer.setCreator("Tandem");
        QCPPainter painter;
        if (painter.begin(&writer)) {
            plot_->toPainter(&painter, width, height);
            drawn = painter.end();
        }
    } else {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(QSize(width, height));
        generator.setViewBox(QRect(0, 0, width, height));
        generator.setTitle("Tandem chart");
        QCPPainter painter;
        if (painter.begin(&generator)) {
            plot_->toPainter(&painter, width, height);
            drawn = painter.end();
        }
    }
    if (!drawn) {
        file.cancelWriting();
        return tr("Cannot export %1: drawing the chart failed.").arg(path);
    }
    if (!file.commit()) return tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

}  // namespace tandem::ui
