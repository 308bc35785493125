#pragma once
// The set-up's "Also search for" list (issue 14): the zoo's models as checkable rows, plus any
// model file a project names. A search ranks the set-up's model together with the checked ones
// by the geometric mean of each model's throughput over its reference-chip throughput, as
// `tandem-cli search --model a,b` does. The set-up's own model is shown disabled (it is always
// searched). Space toggles the current row. The list loads each checked model once (then
// cached): a row the user checks loads in the background (ModelLoadJob, every answer, in
// order; the row says "loading…" meanwhile), counts as checked at once (checked(), so a
// project saved meanwhile names it) and joins models(), what a search gets, when it has loaded
// (toggled then). One that cannot be loaded is unchecked again and reported (loadFailed).
#include <QStringList>
#include <QWidget>
#include <map>
#include <vector>

#include "core/model/model_source.h"

class QListWidget;
class QListWidgetItem;

namespace tandem::ui {

class ModelLoadJob;
struct ModelLoad;

class ExtraModelsList : public QWidget {
    Q_OBJECT
public:
    explicit ExtraModelsList(QWidget* parent = nullptr);
    ~ExtraModelsList() override;

    // Zoo names or model file paths, in list order; never the set-up's model.
    QStringList checked() const;
    // The loaded models of the checked rows, in list order (a row still loading is left out).
    std::vector<core::model::ModelSourcePtr> models() const;
    // Checks exactly these (a name that is not listed is added as a row first), loading on this
    // thread the ones not loaded yet; one that cannot be loaded is left unchecked and reported
    // (loadFailed, `error`: false). Loads still running are cancelled. No toggled().
    bool setChecked(const QStringList& references, QString* error = nullptr);
    // Models loaded elsewhere (a project read in the background): setChecked needs not read
    // them again.
    void remember(const std::vector<ModelLoad>& loads);
    // Unchecks one; no signal.
    void uncheck(const QString& reference);
    // The set-up's model: its row (if any) is disabled and unchecked.
    void setMainModel(const QString& reference);
    QListWidget* list() const { return list_; }

    bool loading() const { return !loads_.empty(); }
    // Cancels the loads still running; their rows are unchecked. No toggled().
    void cancelLoads();
    ModelLoadJob* loadJob() const { return job_; }

signals:
    // The user unchecked `reference`, or checked it and its model is loaded.
    void toggled(const QString& reference, bool checked);
    // "Also search for: <why>", for a model that could not be loaded.
    void loadFailed(const QString& message);
    void loadingChanged(bool loading);

private:
    QListWidgetItem* itemOf(const QString& reference) const;
    QListWidgetItem* addRow(const QString& label, const QString& reference, const QString& tip);
    void userToggled(QListWidgetItem* item);
    void answered(quint64 id, const std::vector<ModelLoad>& loads);
    void showLoading(const QString& reference, bool loading);
    void forget(const QString& reference);  // its running load, if any

    QListWidget* list_ = nullptr;
    ModelLoadJob* job_ = nullptr;
    std::map<QString, core::model::ModelSourcePtr> cache_;  // loaded models
    std::map<quint64, QString> loads_;                      // loads running, by id
    QString main_;
    bool quiet_ = false;
};

}  // namespace tandem::ui
