#pragma once
// Core's validation messages reworded for the set-up forms. The core names a field by its key
// ("accelerator.numTensorCores = 0 is out of range", "training.microbatch = 8 is larger than
// training.globalBatch = 4") and a size in bytes ("= 1048576", "[1024, 68719476736] (B)"), the
// words of the CLI, its flags and its JSON; core stays so. A form says what it shows instead:
// the field's label ("Tensor cores = 0 is out of range") and sizes through core::formatBytes
// ("1.00 MiB"; an inexact figure adds the exact count: "40.0 MiB (41,947,136 B)"). The fields a
// message names can also be asked for, so a rule between two fields marks both.
#include <QString>
#include <QStringList>
#include <string_view>
#include <vector>

#include "core/hardware/parameter_spec.h"

class QRegularExpressionMatch;

namespace tandem::ui {

class FieldMessages {
public:
    // A field messages may name as "<section>.<key>" (any section when `section` is empty) or,
    // for a camelCase key, as the bare key; its value is a byte count when the unit is "B".
    void add(std::string_view section, const core::hardware::ParameterSpec& spec);
    void add(const QString& section, const QString& key, const QString& label, bool bytes);

    // `message` in the form's words: keys replaced by labels, byte counts formatted.
    QString humanize(const QString& message) const;
    // The keys `message` names, in the order they first appear, each once.
    QStringList keysNamedIn(const QString& message) const;

    // core::formatBytes, plus the exact count when the rounded figure is not exact.
    static QString bytesText(double bytes);

private:
    struct Field {
        QString section;
        QString key;
        QString label;
        bool bytes = false;
    };
    // Calls `found(field, match)` for every key named in `message`; the match captures the
    // section (1), key (2), entry index (3), and the value that may follow: " = " (4), "1024" (5).
    template <class Found>
    void forEachKey(const QString& message, Found found) const;

    std::vector<Field> fields_;
};

}  // namespace tandem::ui
