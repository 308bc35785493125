#pragma once
// The set-up's model row (ARCHITECTURE.md §1.10): the zoo list and Open… for a model file, the
// loaded model's one-line summary (parameters, layers, FLOPs per sample, sequence length, from
// the build its load did), and, while a model loads in the background, "Loading …" with a busy
// bar and Cancel. It runs the loads (ModelLoadJob, latest wins): load() supersedes the pending
// one, whose answer is dropped; the answer of the pending load comes as answered() (the
// chooser back on the loaded model when the first reference failed); abandon() drops it
// (abandoned()). What is loaded is SetupPanel's to adopt: show() makes a model the loaded one.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <vector>

#include "ui/jobs/model_load_job.h"

class QComboBox;
class QLabel;

namespace tandem::ui {

class ModelChooser : public QWidget {
    Q_OBJECT
public:
    explicit ModelChooser(QWidget* parent = nullptr);
    ~ModelChooser() override;  // cancels and waits for the running load

    // Loads `references` (the model first) in the background; returns the load's id.
    quint64 load(const QStringList& references, std::int64_t bytesPerElement);
    // Drops the pending load's answer (abandoned) and shows the loaded model again.
    void abandon();
    quint64 pendingLoad() const { return pending_; }
    // Makes `loaded` the loaded model: selected in the list (added for a file), summarised.
    void show(const ModelLoad& loaded);
    const ModelLoad& loaded() const { return loaded_; }
    QString summary() const;
    // "extra models" joins the loading line while the "Also search for" list loads.
    void setExtraLoading(bool loading);

    QComboBox* combo() const { return combo_; }
    ModelLoadJob* job() const { return job_; }

signals:
    // The user picked `reference` in the list or with Open… (not the loaded model).
    void chosen(const QString& reference);
    void cancelClicked();
    void answered(quint64 id, const std::vector<tandem::ui::ModelLoad>& loads);
    void abandoned(quint64 id);

private:
    void picked(int index);
    void openFile();
    void receive(quint64 id, const std::vector<ModelLoad>& loads);
    void showLoaded();  // the list back on the loaded model
    void refreshLoading();

    QComboBox* combo_ = nullptr;
    QLabel* summary_ = nullptr;
    QWidget* loadingRow_ = nullptr;
    QLabel* loadingLabel_ = nullptr;
    ModelLoadJob* job_ = nullptr;
    ModelLoad loaded_;
    quint64 pending_ = 0;
    QString pendingWhat_;
    bool extraLoading_ = false;
};

}  // namespace tandem::ui
