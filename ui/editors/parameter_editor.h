#pragma once
// A form generated from registry ParameterSpecs (the parameter registry, ARCHITECTURE.md §3.7):
// one spin box or combo box per spec, grouped by spec.group, advanced specs in a collapsible
// "Advanced" section, the label and unit from the spec and a tooltip made of its description
// and allowed range. Large quantities are shown in readable units (bytes as MiB or GiB,
// bandwidths as GB/s, clocks as GHz, latencies as µs); that is display only: the editor keeps
// the exact SI value and a value set from code reads back unchanged until the user edits it.
// Spin boxes accept values beyond the spec's range on purpose: every edit is checked with
// ParameterSpec::check, and an invalid value is not applied but marked (red frame, the reason
// below the field and in the tooltip), so the user sees why instead of being silently clamped.
// Messages name fields by their labels and sizes in bytes as formatted sizes (FieldMessages).
// A rule between fields (setFormError) is shown under the form and marks every field it names.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/hardware/parameter_spec.h"
#include "ui/editors/field_messages.h"

class QLabel;
class QToolButton;

namespace tandem::ui {

class FieldFrame;

class ParameterEditor : public QWidget {
    Q_OBJECT
public:
    // `section` ("accelerator", "cluster", "training") prefixes the error messages.
    ParameterEditor(std::string_view section, std::vector<core::hardware::ParameterSpec> specs,
                    QWidget* parent = nullptr);

    // The applied SI values in spec order: each passed its spec's check.
    const std::vector<double>& values() const { return values_; }
    // Shows `values` (one per spec); an invalid one is marked and the previous value kept.
    void setValues(std::span<const double> values);

    // -1 when no spec has that key.
    int indexOf(std::string_view key) const;
    double value(std::string_view key) const;
    // As if the user entered `value` (SI) in the field: checked, applied or marked.
    bool setValue(std::string_view key, double value);

    // True when no field holds an invalid entry.
    bool isValid() const;
    // The reason shown under the field, empty when the field is valid.
    QString errorText(std::string_view key) const;
    // The editing widget of a field (QSpinBox, QDoubleSpinBox or QComboBox), for focus and tests.
    QWidget* fieldWidget(std::string_view key) const;

    // Shows `text` in place of the lowest value the spec allows, e.g. "model default" for a
    // sequence length of 0 (which means "the model's own"); the field then takes nothing below
    // that value. Integer fields only; false for an unknown key or another kind of field.
    bool setSpecialValueText(std::string_view key, const QString& text);

    // A rule between fields (e.g. devicesPerNode ≤ devices), as core words it, shown under the
    // form in the form's words; the fields it names ("cluster.devicesPerNode") are marked like
    // an invalid entry until the rule holds. Empty clears.
    void setFormError(const QString& message);
    // The shown text: labels, not keys.
    QString formError() const;
    // Keys of the fields drawn as invalid (red frame): an invalid entry or named by the rule.
    QStringList markedFields() const;

    // Expands or collapses the "Advanced" section.
    void setAdvancedVisible(bool visible);

signals:
    // After a valid edit changed an applied value.
    void valuesChanged();
    // A field's message or the rule's message changed (appeared, went or reads otherwise):
    // isValid(), errorText() or formError() may give another answer.
    void validityChanged();

private:
    struct Field {
        core::hardware::ParameterSpec spec;
        double scale = 1;  // SI units per displayed unit
        QWidget* widget = nullptr;
        FieldFrame* frame = nullptr;  // draws the red frame of an invalid entry
        QLabel* error = nullptr;
        QString tooltip;
        QString message;
        bool ruleMarked = false;  // named by the form's rule between fields
    };

    QWidget* makeField(Field& field, QWidget* parent);
    void showValue(int index, double value);
    void userEdited(int index);
    bool apply(int index, double value);
    void mark(int index, const QString& message);
    void showMark(int index);

    std::string section_;
    std::vector<Field> fields_;
    std::vector<double> values_;
    FieldMessages messages_;
    QLabel* formError_ = nullptr;
    QToolButton* advancedToggle_ = nullptr;
    QWidget* advancedBody_ = nullptr;
    bool showing_ = false;  // setValues in progress: widget signals are not user edits
};

}  // namespace tandem::ui
