#pragma once
// A one-line editor for the value list of a searched dimension: "1, 2, 4, 8" or "1..4096" (the
// powers of two from 1 to 4096), sizes with unit suffixes ("2MiB..128MiB", "32GiB, 80GiB").
// Each value is parsed and checked by the core (parseParameterValue, with the registry spec),
// so the accepted text is the CLI's; messages name the list by the spec's label and sizes as
// formatted sizes (FieldMessages). Invalid text is marked red with the reason in the tooltip and
// not applied: values() keeps the last valid list.
#include <QLineEdit>
#include <QString>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/hardware/parameter_spec.h"
#include "ui/editors/field_messages.h"

namespace tandem::ui {

class ValueListEdit : public QLineEdit {
    Q_OBJECT
public:
    // `section` prefixes messages ("accelerator"); an empty list is valid only if `allowEmpty`.
    ValueListEdit(core::hardware::ParameterSpec spec, std::string section, bool allowEmpty,
                  QWidget* parent = nullptr);

    const std::vector<std::int64_t>& values() const { return values_; }
    // Shows `values` in the shortest form ("1..4096" for a run of powers of two); emits nothing.
    void setValues(const std::vector<std::int64_t>& values);

    // Parses `text` the way the edit does; messages in core's words (keys, bytes).
    core::Expected<std::vector<std::int64_t>> parse(const QString& text) const;
    QString format(const std::vector<std::int64_t>& values) const;

    // The edit's own parse error (in the form's words: label, formatted sizes), or a problem the
    // owner found (SearchSpace::validate()), shown as given.
    void setProblem(const QString& message);
    QString problem() const { return problem_; }
    bool parses() const { return parses_; }
    // One value as the list shows it, in the unit's largest exact prefix: "64GiB", "1050MHz",
    // "1200GB/s" (each reads back through the registry's parser).
    QString formatValue(std::int64_t value) const;

signals:
    // After every user edit, valid or not: see parses(), problem() and values().
    void listEdited();

private:
    void edited(const QString& text);

    core::hardware::ParameterSpec spec_;
    std::string section_;
    bool allowEmpty_;
    bool parses_ = true;
    std::vector<std::int64_t> values_;
    QString tooltip_;
    QString problem_;
    FieldMessages messages_;
};

}  // namespace tandem::ui
