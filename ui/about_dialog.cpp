#include "ui/about_dialog.h"

#include <QMessageBox>
#include <QtGlobal>

#include "core/common/version.h"

namespace tandem::ui {

QString aboutText() {
    const QString version =
        QString::fromUtf8(core::version().data(), static_cast<qsizetype>(core::version().size()));
    return QObject::tr(
               "<h3>Tandem %1</h3>"
               "<p>Co-optimises the hardware architecture of a deep-learning training "
               "accelerator and the placement of a model across a cluster of it.</p>"
               "<p>Tandem re-creates PHAZE: Y. Wang, J. Tarnawski, A. Phanishayee, D. Mahajan, "
               "<i>Integrated Hardware Architecture and Device Placement Search</i>, ICML 2024 "
               "(arXiv 2407.13143).</p>"
               "<p>Built with Qt %2, QCustomPlot, COIN-OR CBC, nlohmann/json and ONNX.</p>"
               "<p>Licence: GNU General Public License, version 3 or later "
               "(GPL-3.0-or-later).</p>")
        .arg(version, QString::fromLatin1(qVersion()));
}

void showAboutDialog(QWidget* parent) {
    QMessageBox::about(parent, QObject::tr("About Tandem"), aboutText());
}

}  // namespace tandem::ui
