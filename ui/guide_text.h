#pragma once
// Help ▸ Guide to the tabs (F1): a short page per tab for teaching — what it shows, how to read
// it, what to try, and links to the glossary terms it uses — then the glossary itself
// (glossary_text.h), as rich text, so tests can read it without a dialog.
#include <QString>

class QWidget;

namespace tandem::ui {

// The whole guide; `tab` (a tab's title, e.g. "Pipeline") puts that tab's section first.
QString guideText(const QString& tab = {});
// The guide in a non-modal dialog over `parent` that deletes itself when closed, scrolled to
// `anchor` when given ("glossary", "term-bubble").
void showGuideDialog(QWidget* parent, const QString& tab, const QString& anchor = {});

}  // namespace tandem::ui
