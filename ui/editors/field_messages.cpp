#include "ui/editors/field_messages.h"

#include <QLocale>
#include <QRegularExpression>
#include <cmath>

#include "core/common/units.h"

namespace tandem::ui {

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

bool isCamelCase(const QString& key) {
    for (QChar c : key)
        if (c.isUpper()) return true;
    return false;
}

// A word with an optional section prefix and entry index, and the value that may follow it:
// "accelerator.numTensorCores = 16", "hbmCapacityBytes[0] = 1024", "globalBufferBytes 2097152"
// (a chip described by its fields), "globalBufferBytes lists 2097152 twice".
const QRegularExpression& keyPattern() {
    static const QRegularExpression pattern(
        R"((?<![\w.])(?:([a-z]+)\.)?([A-Za-z][A-Za-z0-9]*)(\[\d+\])?(?:( = | lists | )(-?\d+)(?![\w.]))?)");
    return pattern;
}

// A byte range as ParameterSpec::describeRange() writes it: "[1024, 68719476736] (B)".
const QRegularExpression& byteRangePattern() {
    static const QRegularExpression pattern(R"(\[(\d+), (\d+)\] \(B\))");
    return pattern;
}

// "1048576 B", but neither "1.5 B" (a count in billions) nor "1200 B/s".
const QRegularExpression& bytesPattern() {
    static const QRegularExpression pattern(R"((?<![\w.])(\d+) B(?![\w/]))");
    return pattern;
}

}  // namespace

void FieldMessages::add(std::string_view section, const core::hardware::ParameterSpec& spec) {
    add(qs(section), qs(spec.key), qs(spec.label), spec.unit == "B");
}

void FieldMessages::add(const QString& section, const QString& key, const QString& label,
                        bool bytes) {
    fields_.push_back({section, key, label, bytes});
}

template <class Found>
void FieldMessages::forEachKey(const QString& message, Found found) const {
    auto it = keyPattern().globalMatch(message);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const QString section = m.captured(1);
        const QString key = m.captured(2);
        // A bare lower-case key is an ordinary word ("devices", "microbatch"): only its
        // "<section>.key" form names the field.
        if (section.isEmpty() && !isCamelCase(key)) continue;
        for (const Field& field : fields_) {
            if (field.key != key) continue;
            if (!section.isEmpty() && !field.section.isEmpty() && field.section != section)
                continue;
            found(field, m);
            break;
        }
    }
}

QString FieldMessages::humanize(const QString& message) const {
    QString out;
    qsizetype copied = 0;
    forEachKey(message, [&](const Field& field, const QRegularExpressionMatch& m) {
        out += message.mid(copied, m.capturedStart(0) - copied);
        out += field.label + m.captured(3);
        if (m.capturedLength(5) > 0)
            out +=
                m.captured(4) + (field.bytes ? bytesText(m.captured(5).toDouble()) : m.captured(5));
        copied = m.capturedEnd(0);
    });
    out += message.mid(copied);
    out.replace(byteRangePattern(), QStringLiteral("[\\1 B, \\2 B]"));
    QString result;
    copied = 0;
    auto it = bytesPattern().globalMatch(out);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        result +=
            out.mid(copied, m.capturedStart(0) - copied) + bytesText(m.captured(1).toDouble());
        copied = m.capturedEnd(0);
    }
    return result + out.mid(copied);
}

QStringList FieldMessages::keysNamedIn(const QString& message) const {
    QStringList keys;
    forEachKey(message, [&](const Field& field, const QRegularExpressionMatch&) {
        if (!keys.contains(field.key)) keys << field.key;
    });
    return keys;
}

QString FieldMessages::bytesText(double bytes) {
    const QString shown = QString::fromStdString(core::formatBytes(bytes));
    static const QStringList kUnits{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    const QStringList parts = shown.split(' ');
    bool parsed = false;
    const double mantissa = parts.value(0).toDouble(&parsed);
    const auto power = kUnits.indexOf(parts.value(1));
    if (!std::isfinite(bytes) || std::fabs(bytes) >= 9e15 ||
        (parsed && power >= 0 && mantissa * std::pow(1024.0, double(power)) == bytes))
        return shown;
    return shown + " (" + QLocale(QLocale::English).toString(qlonglong(std::llround(bytes))) +
           " B)";
}

}  // namespace tandem::ui
