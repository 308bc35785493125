#pragma once
// The set-up's "Also search for" list (issue 14): the zoo's models as checkable rows, plus any
// model file a project names. A search ranks the set-up's model together with the checked ones
// by the geometric mean of each model's throughput over its reference-chip throughput, as
// `tandem-cli search --model a,b` does. The set-up's own model is shown disabled (it is always
// searched). Space toggles the current row; the list only says what is checked — loading the
// models is SetupPanel's.
#include <QStringList>
#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace tandem::ui {

class ExtraModelsList : public QWidget {
    Q_OBJECT
public:
    explicit ExtraModelsList(QWidget* parent = nullptr);

    // Zoo names or model file paths, in list order; never the set-up's model.
    QStringList checked() const;
    // Checks exactly these (a name that is not listed is added as a row first); no signal.
    void setChecked(const QStringList& references);
    // Unchecks one (a model that failed to load); no signal.
    void uncheck(const QString& reference);
    // The set-up's model: its row (if any) is disabled and unchecked.
    void setMainModel(const QString& reference);
    QListWidget* list() const { return list_; }

signals:
    // The user checked or unchecked `reference`.
    void toggled(const QString& reference, bool checked);

private:
    QListWidgetItem* itemOf(const QString& reference) const;
    QListWidgetItem* addRow(const QString& label, const QString& reference, const QString& tip);

    QListWidget* list_ = nullptr;
    QString main_;
    bool quiet_ = false;
};

}  // namespace tandem::ui
