// Help ▸ About Tandem: the version (CMake's project version, the same `tandem-cli --version`
// prints), the licence, the research system Tandem re-creates and the libraries it is built on.
#pragma once

#include <QString>

class QWidget;

namespace tandem::ui {

// The About box's rich text; a function of its own so tests can read it without a dialog.
QString aboutText();

// Shows the About box (modal) over `parent`.
void showAboutDialog(QWidget* parent);

}  // namespace tandem::ui
