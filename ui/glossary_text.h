#pragma once
// Help ▸ Glossary (Shift+F1): the terms a course on distributed training and accelerators uses —
// 1F1B, GPipe, bubble, microbatch, MFU, t/p/d, recomputation, sequence parallelism, ZeRO and the
// rest — each with a one-paragraph definition and its source. Each term has an anchor
// ("term-bubble"); the guide (guide_text.h) links every tab's section to the terms it uses and
// ends with this glossary, so a link lands on the definition in the same page.
#include <QString>
#include <vector>

namespace tandem::ui {

struct GlossaryEntry {
    QString anchor;      // "term-bubble": unique, used in links "#term-bubble"
    QString term;        // "Bubble"
    QString definition;  // rich text
};

// Every entry, in the order the glossary lists them (alphabetical).
const std::vector<GlossaryEntry>& glossaryEntries();
// <a href="#term-…">label</a> for the entry with that anchor (the term when `label` is empty);
// the anchor must be one of glossaryEntries().
QString glossaryLink(const QString& anchor, const QString& label = {});
// The glossary as one HTML section: a heading anchored "glossary", then one anchored paragraph
// per entry.
QString glossaryHtml();

}  // namespace tandem::ui
