#include "ui/editors/parameter_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <cmath>

#include "ui/editors/field_frame.h"
#include "ui/editors/quantity_spin_box.h"

namespace tandem::ui {

namespace {

using core::hardware::ParameterKind;
using core::hardware::ParameterSpec;

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// How a quantity is shown: SI units per displayed unit, the suffix and the decimals. Chosen per
// spec from its unit and default so a field reads like "32.00 GiB" rather than 34359738368.
struct Display {
    double scale = 1;
    QString suffix;
    int decimals = 0;
};

Display displayFor(const ParameterSpec& spec) {
    constexpr double kMiB = 1024.0 * 1024.0;
    constexpr double kGiB = 1024.0 * kMiB;
    const std::string_view unit = spec.unit;
    if (unit == "B" && spec.defaultValue >= kGiB) return {kGiB, " GiB", 2};
    if (unit == "B" && spec.defaultValue >= kMiB) return {kMiB, " MiB", 2};
    if (unit == "B/s") return {1e9, " GB/s", 3};
    if (unit == "Hz") return {1e9, " GHz", 3};
    if (unit == "s") return {1e-6, " µs", 3};
    // A real quantity keeps its fractional digits (a 0.85 efficiency, 0.07 W/mm²): a spin box
    // rounds what it holds to its decimals, and QuantitySpinBox drops the trailing zeros.
    const int decimals = spec.kind == ParameterKind::Real ? 6 : 0;
    return {1, unit.empty() ? QString() : " " + text(unit), decimals};
}

const char* kErrorStyle = "QLabel#fieldError, QLabel#formError { color: #b00020; }";

}  // namespace

ParameterEditor::ParameterEditor(std::string_view section, std::vector<ParameterSpec> specs,
                                 QWidget* parent)
    : QWidget(parent), section_(section) {
    setStyleSheet(kErrorStyle);
    fields_.resize(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
        fields_[i].spec = std::move(specs[i]);
        values_.push_back(fields_[i].spec.defaultValue);
        messages_.add(section_, fields_[i].spec);
    }

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // One group box per spec.group, in the order groups first appear.
    std::vector<std::pair<std::string_view, QFormLayout*>> groups;
    const auto newForm = [](QWidget* owner) {
        auto* form = new QFormLayout(owner);
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        return form;
    };
    QFormLayout* advancedForm = nullptr;
    std::vector<QLabel*> labels;
    for (std::size_t i = 0; i < fields_.size(); ++i) {
        Field& field = fields_[i];
        QFormLayout* form = nullptr;
        if (field.spec.advanced) {
            if (!advancedBody_) {
                advancedToggle_ = new QToolButton(this);
                advancedToggle_->setText(tr("Advanced"));
                advancedToggle_->setCheckable(true);
                advancedToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
                advancedToggle_->setArrowType(Qt::RightArrow);
                advancedToggle_->setAutoRaise(true);
                advancedToggle_->setToolTip(tr("Show or hide parameters that rarely change"));
                advancedBody_ = new QWidget(this);
                advancedForm = newForm(advancedBody_);
                advancedBody_->hide();
                connect(advancedToggle_, &QToolButton::toggled, this,
                        &ParameterEditor::setAdvancedVisible);
            }
            form = advancedForm;
        } else {
            for (const auto& [name, f] : groups)
                if (name == field.spec.group) form = f;
            if (!form) {
                auto* box = new QGroupBox(text(field.spec.group), this);
                form = newForm(box);
                groups.emplace_back(field.spec.group, form);
                layout->addWidget(box);
            }
        }
        QWidget* owner = form->parentWidget();
        QWidget* widget = makeField(field, owner);
        auto* label = new QLabel(text(field.spec.label) + ":", owner);
        label->setBuddy(widget);
        label->setToolTip(field.tooltip);
        labels.push_back(label);
        field.frame = new FieldFrame(widget, owner);
        form->addRow(label, field.frame);
        field.error = new QLabel(owner);
        field.error->setObjectName("fieldError");
        field.error->setWordWrap(true);
        field.error->setTextInteractionFlags(Qt::TextSelectableByMouse);
        field.error->hide();
        form->addRow(field.error);
        showValue(int(i), values_[i]);
    }
    // One label width for every group, so the fields line up down the whole form.
    int labelWidth = 0;
    for (QLabel* label : labels) labelWidth = std::max(labelWidth, label->sizeHint().width());
    for (QLabel* label : labels) label->setMinimumWidth(labelWidth);
    if (advancedBody_) {
        layout->addWidget(advancedToggle_);
        layout->addWidget(advancedBody_);
    }
    formError_ = new QLabel(this);
    formError_->setObjectName("formError");
    formError_->setWordWrap(true);
    formError_->hide();
    layout->addWidget(formError_);
}

QWidget* ParameterEditor::makeField(Field& field, QWidget* parent) {
    const ParameterSpec& spec = field.spec;
    const Display display = displayFor(spec);
    field.scale = display.scale;
    const QString defaultText =
        spec.unit == "B" ? FieldMessages::bytesText(spec.defaultValue)
        : spec.unit.empty() || spec.kind == ParameterKind::Choice
            ? text(spec.formatValue(spec.defaultValue))
            : text(spec.formatValue(spec.defaultValue)) + " " + text(spec.unit);
    field.tooltip =
        "<p>" + text(spec.description).toHtmlEscaped() + "</p><p>" +
        tr("Allowed: %1").arg(messages_.humanize(text(spec.describeRange())).toHtmlEscaped()) +
        "<br>" + tr("Default: %1").arg(defaultText.toHtmlEscaped()) + "<br>" +
        tr("Key: %1.%2").arg(text(section_), text(spec.key)) + "</p>";
    const int index = int(&field - fields_.data());
    if (spec.kind == ParameterKind::Choice) {
        auto* combo = new QComboBox(parent);
        for (std::string_view name : spec.choices) combo->addItem(text(name));
        connect(combo, &QComboBox::currentIndexChanged, this, [this, index] { userEdited(index); });
        field.widget = combo;
    } else if (spec.kind == ParameterKind::Integer && display.scale == 1) {
        auto* box = new QSpinBox(parent);
        // One step beyond each end of the allowed range, so a wrong value can be entered and
        // explained rather than refused without a word.
        const double lower = std::min(spec.minValue, 0.0) - 1;
        const double upper = std::min(double(INT_MAX), std::max(spec.maxValue * 4, 16.0));
        box->setRange(int(lower), int(upper));
        box->setSuffix(display.suffix);
        box->setKeyboardTracking(false);
        box->setAccelerated(true);
        connect(box, &QSpinBox::valueChanged, this, [this, index] { userEdited(index); });
        field.widget = box;
    } else {
        auto* box = new QuantitySpinBox(parent);
        box->setDecimals(display.decimals);
        const double lower = spec.minValue > 0 ? 0.0 : -1.0;
        box->setRange(lower, std::max(spec.maxValue / display.scale * 4, 16.0));
        box->setSuffix(display.suffix);
        // Fractions step by hundredths, not by a whole (which leaves their range at once).
        if (spec.kind == ParameterKind::Real && display.scale == 1 && spec.maxValue <= 1)
            box->setSingleStep(0.01);
        box->setKeyboardTracking(false);
        box->setAccelerated(true);
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, index] { userEdited(index); });
        field.widget = box;
    }
    field.widget->setObjectName(text(spec.key));
    field.widget->setToolTip(field.tooltip);
    field.widget->setMinimumWidth(90);
    return field.widget;
}

void ParameterEditor::showValue(int index, double value) {
    Field& field = fields_[std::size_t(index)];
    const bool wasShowing = showing_;
    showing_ = true;
    if (auto* combo = qobject_cast<QComboBox*>(field.widget))
        combo->setCurrentIndex(int(value));
    else if (auto* spin = qobject_cast<QSpinBox*>(field.widget))
        spin->setValue(int(std::clamp(value, double(INT_MIN), double(INT_MAX))));
    else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(field.widget))
        dspin->setValue(value / field.scale);
    showing_ = wasShowing;
}

void ParameterEditor::userEdited(int index) {
    if (showing_) return;
    const Field& field = fields_[std::size_t(index)];
    double value = 0;
    if (auto* combo = qobject_cast<QComboBox*>(field.widget))
        value = combo->currentIndex();
    else if (auto* spin = qobject_cast<QSpinBox*>(field.widget))
        value = spin->value();
    else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(field.widget))
        value = dspin->value() * field.scale;
    // A decimal GiB or MiB figure maps to the nearest whole byte; anything else is exact.
    if (field.spec.kind == ParameterKind::Integer && field.scale != 1) value = std::round(value);
    const double before = values_[std::size_t(index)];
    if (apply(index, value) && before != value) emit valuesChanged();
}

bool ParameterEditor::apply(int index, double value) {
    const Field& field = fields_[std::size_t(index)];
    const core::Status status = field.spec.check(value, section_);
    if (!status.ok()) {
        mark(index, messages_.humanize(QString::fromStdString(status.message())));
        return false;
    }
    values_[std::size_t(index)] = value;
    mark(index, {});
    return true;
}

void ParameterEditor::mark(int index, const QString& message) {
    Field& field = fields_[std::size_t(index)];
    const bool changed = field.message != message;
    field.message = message;
    field.error->setText(message);
    field.error->setVisible(!message.isEmpty());
    showMark(index);
    if (changed) emit validityChanged();
}

void ParameterEditor::showMark(int index) {
    const Field& field = fields_[std::size_t(index)];
    const bool invalid = !field.message.isEmpty() || field.ruleMarked;
    field.frame->setInvalid(invalid);
    QString tooltip = field.tooltip;
    for (const QString& reason : {field.message, field.ruleMarked ? formError() : QString()})
        if (!reason.isEmpty()) tooltip += "<p><b>" + reason.toHtmlEscaped() + "</b></p>";
    field.widget->setToolTip(tooltip);
    // Reveal a problem hidden in the collapsed section.
    if (invalid && field.spec.advanced) setAdvancedVisible(true);
}

void ParameterEditor::setValues(std::span<const double> values) {
    for (std::size_t i = 0; i < fields_.size() && i < values.size(); ++i) {
        showValue(int(i), values[i]);
        apply(int(i), values[i]);
    }
}

int ParameterEditor::indexOf(std::string_view key) const {
    for (std::size_t i = 0; i < fields_.size(); ++i)
        if (fields_[i].spec.key == key) return int(i);
    return -1;
}

double ParameterEditor::value(std::string_view key) const {
    const int index = indexOf(key);
    return index < 0 ? 0.0 : values_[std::size_t(index)];
}

bool ParameterEditor::setValue(std::string_view key, double value) {
    const int index = indexOf(key);
    if (index < 0) return false;
    showValue(index, value);
    const double before = values_[std::size_t(index)];
    if (!apply(index, value)) return false;
    if (before != value) emit valuesChanged();
    return true;
}

bool ParameterEditor::isValid() const {
    for (const Field& field : fields_)
        if (!field.message.isEmpty()) return false;
    return true;
}

QString ParameterEditor::errorText(std::string_view key) const {
    const int index = indexOf(key);
    return index < 0 ? QString() : fields_[std::size_t(index)].message;
}

QWidget* ParameterEditor::fieldWidget(std::string_view key) const {
    const int index = indexOf(key);
    return index < 0 ? nullptr : fields_[std::size_t(index)].widget;
}

bool ParameterEditor::setSpecialValueText(std::string_view key, const QString& text) {
    const int index = indexOf(key);
    if (index < 0) return false;
    const Field& field = fields_[std::size_t(index)];
    auto* spin = qobject_cast<QSpinBox*>(field.widget);
    if (!spin) return false;
    const bool wasShowing = showing_;
    showing_ = true;  // a minimum that moves the shown value is not a user edit
    spin->setMinimum(int(field.spec.minValue));
    spin->setSpecialValueText(text);
    // Wide enough for the text (the spin box's size hint counts it): a narrow form puts the
    // field under its label rather than cutting the text off.
    spin->setMinimumWidth(std::max(90, spin->sizeHint().width()));
    showing_ = wasShowing;
    return true;
}

void ParameterEditor::setFormError(const QString& message) {
    const QString shown = messages_.humanize(message);
    const bool changed = shown != formError_->text();
    formError_->setText(shown);
    formError_->setVisible(!shown.isEmpty());
    const QStringList named = messages_.keysNamedIn(message);
    for (std::size_t i = 0; i < fields_.size(); ++i) {
        const bool ruleMarked = named.contains(text(fields_[i].spec.key));
        if (ruleMarked == fields_[i].ruleMarked && !ruleMarked) continue;
        fields_[i].ruleMarked = ruleMarked;
        showMark(int(i));
    }
    if (changed) emit validityChanged();
}

QStringList ParameterEditor::markedFields() const {
    QStringList keys;
    for (const Field& field : fields_)
        if (field.frame->isInvalid()) keys << text(field.spec.key);
    return keys;
}

QString ParameterEditor::formError() const {
    return formError_->text();
}

void ParameterEditor::setAdvancedVisible(bool visible) {
    if (!advancedBody_) return;
    advancedBody_->setVisible(visible);
    advancedToggle_->setArrowType(visible ? Qt::DownArrow : Qt::RightArrow);
    if (advancedToggle_->isChecked() != visible) advancedToggle_->setChecked(visible);
}

}  // namespace tandem::ui
