// tandem: the desktop application.
#include <QApplication>

#include "ui/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Tandem");
    QApplication::setOrganizationName("Tandem");
    QApplication::setApplicationVersion("0.1.0");
    tandem::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
