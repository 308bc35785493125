#pragma once
// Help ▸ Guide to the tabs (F1): a short page per tab for teaching — what it shows, how to read
// it, what to try — as rich text, so tests can read it without a dialog.
#include <QString>

class QWidget;

namespace tandem::ui {

// The whole guide; `tab` (a tab's title, e.g. "Pipeline") puts that tab's section first.
QString guideText(const QString& tab = {});
// The guide in a non-modal dialog over `parent` that deletes itself when closed.
void showGuideDialog(QWidget* parent, const QString& tab);

}  // namespace tandem::ui
