#include "ui/editors/value_list_edit.h"

#include <QStyle>

#include "core/hardware/parameter_overrides.h"
#include "core/search/search_space.h"

namespace tandem::ui {

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// Both spellings of a range: two dots, or the ellipsis character.
const QString kRangeDots = "..";
const QString kEllipsis = QString::fromUtf8("…");

}  // namespace

ValueListEdit::ValueListEdit(core::hardware::ParameterSpec spec, std::string section,
                             bool allowEmpty, QWidget* parent)
    : QLineEdit(parent),
      spec_(std::move(spec)),
      section_(std::move(section)),
      allowEmpty_(allowEmpty) {
    setObjectName(qs(spec_.key));
    messages_.add(section_, spec_);
    setStyleSheet(
        "QLineEdit[invalid=\"true\"] { border: 2px solid #c62828; border-radius: 3px;"
        " background-color: #fdecea; }");
    const bool bytes = spec_.unit == "B";
    setPlaceholderText(allowEmpty_ ? tr("empty: the model's own")
                       : bytes     ? tr("e.g. 32GiB, 64GiB or 2MiB..128MiB")
                                   : tr("e.g. 1, 2, 4 or 1..4096"));
    tooltip_ =
        "<p>" + qs(spec_.description).toHtmlEscaped() + "</p><p>" +
        tr("Values separated by commas; <i>a</i>..<i>b</i> lists the powers of two from "
           "<i>a</i> to <i>b</i>.") +
        (bytes                 ? tr(" Sizes take KiB, MiB, GiB or TiB.")
         : spec_.unit == "Hz"  ? tr(" Clocks take kHz, MHz or GHz.")
         : spec_.unit == "B/s" ? tr(" Rates take kB/s, MB/s, GB/s or TB/s.")
                               : QString()) +
        "<br>" +
        tr("Each value: %1").arg(messages_.humanize(qs(spec_.describeRange())).toHtmlEscaped()) +
        "</p>";
    setToolTip(tooltip_);
    connect(this, &QLineEdit::textEdited, this, &ValueListEdit::edited);
}

QString ValueListEdit::formatValue(std::int64_t value) const {
    if (spec_.unit == "B" && value > 0) {
        const char* suffixes[] = {"TiB", "GiB", "MiB", "KiB"};
        const int shifts[] = {40, 30, 20, 10};
        for (int i = 0; i < 4; ++i)
            if (value % (std::int64_t(1) << shifts[i]) == 0)
                return QString::number(value >> shifts[i]) + suffixes[i];
    }
    // Rates and clocks in decimal prefixes, as their parser reads them ("GB/s", "GHz").
    const bool rate = spec_.unit == "B/s", clock = spec_.unit == "Hz";
    if ((rate || clock) && value > 0) {
        const char* prefixes[] = {"T", "G", "M", "k"};
        const std::int64_t factors[] = {1'000'000'000'000, 1'000'000'000, 1'000'000, 1'000};
        for (int i = rate ? 0 : 1; i < 4; ++i)
            if (value % factors[i] == 0)
                return QString::number(value / factors[i]) + QString(prefixes[i]) +
                       (rate ? "B/s" : "Hz");
        return QString::number(value) + (rate ? "B/s" : "Hz");
    }
    return QString::number(value);
}

QString ValueListEdit::format(const std::vector<std::int64_t>& values) const {
    // A short list reads best written out ("1, 2, 4, 8": "1..8" looks like every integer);
    // a long run of powers of two as a..b, which the tooltip explains.
    constexpr std::size_t kWrittenOut = 6;
    if (values.size() > kWrittenOut &&
        core::search::SearchSpace::powersOfTwo(values.front(), values.back()) == values)
        return formatValue(values.front()) + kRangeDots + formatValue(values.back());
    QStringList parts;
    for (std::int64_t v : values) parts << formatValue(v);
    return parts.join(", ");
}

core::Expected<std::vector<std::int64_t>> ValueListEdit::parse(const QString& input) const {
    const std::string field =
        section_.empty() ? std::string(spec_.key) : section_ + "." + std::string(spec_.key);
    const auto one = [&](const QString& item) -> core::Expected<std::int64_t> {
        const auto value =
            core::hardware::parseParameterValue(spec_, item.trimmed().toStdString(), section_);
        if (!value.ok()) {
            // Without a section the core writes ".key = …"; drop the dangling dot.
            const std::string& message = value.message();
            return core::Error{message.starts_with('.') ? message.substr(1) : message};
        }
        return std::int64_t(*value);
    };
    std::vector<std::int64_t> values;
    QString normalised = input;
    normalised.replace(kEllipsis, kRangeDots);
    for (const QString& item : normalised.split(',', Qt::SkipEmptyParts)) {
        if (item.trimmed().isEmpty()) continue;
        const qsizetype dots = item.indexOf(kRangeDots);
        if (dots < 0) {
            const auto value = one(item);
            if (!value.ok()) return value.error();
            values.push_back(*value);
            continue;
        }
        const auto low = one(item.left(dots));
        if (!low.ok()) return low.error();
        const auto high = one(item.mid(dots + kRangeDots.size()));
        if (!high.ok()) return high.error();
        const auto range = core::search::SearchSpace::powersOfTwo(*low, *high);
        if (range.empty())
            return core::Error{field + ": '" + item.trimmed().toStdString() +
                               "' is not a range: both ends must be powers of two, the first "
                               "no larger than the second"};
        values.insert(values.end(), range.begin(), range.end());
    }
    if (values.empty() && !allowEmpty_)
        return core::Error{field + " is empty: list at least one value, each " +
                           spec_.describeRange()};
    return values;
}

void ValueListEdit::setValues(const std::vector<std::int64_t>& values) {
    values_ = values;
    parses_ = true;
    setText(format(values));
    setProblem({});
}

void ValueListEdit::edited(const QString& input) {
    const auto parsed = parse(input);
    parses_ = parsed.ok();
    if (!parsed.ok()) {
        setProblem(messages_.humanize(QString::fromStdString(parsed.message())));
    } else {
        setProblem({});
        values_ = *parsed;
    }
    emit listEdited();
}

void ValueListEdit::setProblem(const QString& message) {
    problem_ = message;
    const bool invalid = !message.isEmpty();
    setProperty("invalid", invalid);
    style()->unpolish(this);
    style()->polish(this);
    setToolTip(invalid ? tooltip_ + "<p><b>" + message.toHtmlEscaped() + "</b></p>" : tooltip_);
}

}  // namespace tandem::ui
