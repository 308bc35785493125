#include "ui/charts/chart_widget.h"

#include <qcustomplot.h>
#include <algorithm>

#include <QFileInfo>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>

namespace tandem::ui {

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setNoAntialiasingOnDrag(true);
    // Layout runs before every drawing, on screen and into a file, with the size drawn at.
    connect(plot_, &QCustomPlot::afterLayout, this, &ChartWidget::wrapMessages);
}

ChartWidget::~ChartWidget() = default;

std::optional<bool> ChartWidget::followToolTip(
    QObject* watched, QEvent* event, const std::function<QString(const QPoint&)>& textAt) const {
    if (watched != plot_ || !(event->type() == QEvent::ToolTip ||
                              (event->type() == QEvent::MouseMove && QToolTip::isVisible())))
        return std::nullopt;
    const QPoint local = event->type() == QEvent::ToolTip
                             ? static_cast<QHelpEvent*>(event)->pos()
                             : static_cast<QMouseEvent*>(event)->position().toPoint();
    const QString text = textAt(local);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(plot_->mapToGlobal(local), text, plot_);
    return event->type() == QEvent::ToolTip;
}

void ChartWidget::placeLegendAbove(int wrap) {
    plot_->legend->setVisible(true);
    plot_->legend->setBorderPen(Qt::NoPen);
    if (wrap > 0) plot_->legend->setWrap(wrap);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    plot_->legend->setMargins(QMargins(6, 4, 6, 0));
    auto* legendRow = new QCPLayoutGrid;
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, legendRow);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    legendRow->addElement(0, 0, plot_->legend);
    legendRow->addElement(0, 1, new QCPLayoutElement(plot_));
    legendRow->setColumnStretchFactor(0, 0.001);
}

QCPItemText* ChartWidget::addCentredMessage() {
    auto* message = new QCPItemText(plot_);
    message->position->setType(QCPItemPosition::ptAxisRectRatio);
    message->position->setCoords(0.5, 0.5);
    message->setColor(QColor(0x55, 0x55, 0x55));
    messages_.append(message);
    return message;
}

namespace {
const char* const kFullText = "tandemFullText";  // a message's text before wrapping

// Appends `parts` to `lines` packed greedily: joined by `separator` while a line stays within
// `width` pixels; a part starts a new line otherwise (every line holds at least one part).
void packLines(const QStringList& parts, const QString& separator, const QFontMetrics& metrics,
               int width, QStringList& lines) {
    QString line;
    for (const QString& part : parts) {
        const QString joined = line.isEmpty() ? part : line + separator + part;
        if (line.isEmpty() || metrics.horizontalAdvance(joined) <= width) {
            line = joined;
            continue;
        }
        lines.append(line);
        line = part;
    }
    lines.append(line);
}

// The lines joined by line breaks, each wider than `width` elided at its end.
QString elidedLines(QStringList lines, const QFontMetrics& metrics, int width) {
    for (QString& l : lines)
        if (metrics.horizontalAdvance(l) > width) l = metrics.elidedText(l, Qt::ElideRight, width);
    return lines.join(QLatin1Char('\n'));
}

int messageWidth(const QCPItemText* message) {
    const QCPAxisRect* rect = message->position->axisRect();
    return std::max(40, int((rect ? rect->width() : 400) * 0.9));
}
}  // namespace

void ChartWidget::setMessage(QCPItemText* message, const QString& text) {
    message->setProperty(kFullText, text);
    message->setText(wrapWords(text, QFontMetrics(message->font()), messageWidth(message)));
}

void ChartWidget::wrapMessages() const {
    for (QCPItemText* message : messages_) {
        const QVariant full = message->property(kFullText);
        if (!full.isValid()) continue;
        const QString wrapped =
            wrapWords(full.toString(), QFontMetrics(message->font()), messageWidth(message));
        if (wrapped != message->text()) message->setText(wrapped);
    }
}

QString ChartWidget::wrapWords(const QString& text, const QFontMetrics& metrics, int width) {
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n')))
        packLines(paragraph.split(QLatin1Char(' ')), QStringLiteral(" "), metrics, width, lines);
    return elidedLines(lines, metrics, width);
}

bool ChartWidget::navigate(int key, bool vertical) {
    QCPAxis* x = plot_->xAxis;
    QCPAxis* y = plot_->yAxis;
    switch (key) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            x->scaleRange(0.5, x->range().center());
            if (vertical) y->scaleRange(0.5, y->range().center());
            break;
        case Qt::Key_Minus:
            x->scaleRange(2.0, x->range().center());
            if (vertical) y->scaleRange(2.0, y->range().center());
            break;
        case Qt::Key_Left:
            x->moveRange(-0.25 * x->range().size());
            break;
        case Qt::Key_Right:
            x->moveRange(0.25 * x->range().size());
            break;
        case Qt::Key_Up:
            if (!vertical) return false;
            y->moveRange(-0.25 * y->range().size());
            break;
        case Qt::Key_Down:
            if (!vertical) return false;
            y->moveRange(0.25 * y->range().size());
            break;
        default:
            return false;
    }
    plot_->replot();
    return true;
}

QString ChartWidget::wrapSubject(const QString& text, const QFontMetrics& metrics, int width) {
    static const QString separator = QStringLiteral(" · ");
    QStringList lines;
    packLines(text.split(separator), separator, metrics, width, lines);
    return elidedLines(lines, metrics, width);
}

void ChartWidget::wrapSubjectTo(int width) const {
    if (!subject_) return;
    const QMargins margins = subject_->margins();
    const QString wrapped = wrapSubject(subjectText_, QFontMetrics(subject_->font()),
                                        std::max(1, width - margins.left() - margins.right()));
    if (wrapped != subject_->text()) subject_->setText(wrapped);
}

void ChartWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!subject_) return;
    wrapSubjectTo(plot_->width());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ChartWidget::setSubject(const QString& subject) {
    if (subject == subjectText_) return;
    subjectText_ = subject;
    QCPLayoutGrid* layout = plot_->plotLayout();
    if (subject.isEmpty()) {
        if (subject_) {
            layout->remove(subject_);
            layout->simplify();  // the emptied row
            subject_ = nullptr;
        }
    } else if (subject_) {
        subject_->setText(subject);
    } else {
        layout->insertRow(0);
        subject_ = new QCPTextElement(plot_, subject, QFont(font().family(), 10, QFont::Bold));
        subject_->setTextColor(QColor(0x22, 0x22, 0x22));
        subject_->setMargins(QMargins(6, 4, 6, 0));
        layout->addElement(0, 0, subject_);
        layout->setRowStretchFactor(0, 0.001);
    }
    wrapSubjectTo(plot_->width());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString ChartWidget::exportFilter() {
    return tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)");
}

QString ChartWidget::exportTo(const QString& path, int width, int height,
                              const QString& caption) const {
    if (width <= 0) width = std::max(plot_->width(), 800);
    if (height <= 0) height = std::max(plot_->height(), 500);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "png" && suffix != "pdf" && suffix != "svg")
        return tr("Cannot export to %1: the file name must end in .png, .pdf or .svg.").arg(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("Cannot write %1: %2").arg(path, file.errorString());
    // The caption is a row of the plot's layout while the file is drawn.
    QCPTextElement* captionRow = nullptr;
    if (!caption.isEmpty()) {
        captionRow = new QCPTextElement(plot_, caption, QFont(font().family(), font().pointSize()));
        captionRow->setTextColor(QColor(80, 80, 80));
        captionRow->setMargins(QMargins(6, 2, 6, 6));
        plot_->plotLayout()->addElement(plot_->plotLayout()->rowCount(), 0, captionRow);
    }
    wrapSubjectTo(width);
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
    wrapSubjectTo(plot_->width());
    if (captionRow) {
        plot_->plotLayout()->remove(captionRow);
        plot_->plotLayout()->simplify();
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
    if (!drawn) {
        file.cancelWriting();
        return tr("Cannot export %1: drawing the chart failed.").arg(path);
    }
    if (!file.commit()) return tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

}  // namespace tandem::ui
