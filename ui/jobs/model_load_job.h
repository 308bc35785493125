#pragma once
// Loads models off the GUI thread (ARCHITECTURE.md §4.1): zoo names, Tandem model files,
// Hugging Face config.json and ONNX files (a 100 MB ONNX import takes seconds), each built once
// with the set-up's element size so that the set-up's summary line (parameters, layers, FLOPs
// per sample, sequence length) needs no build on the GUI thread. One run loads a list of
// references in order (the set-up's model and its extra models, for a project) and answers
// with one ModelLoad per reference: the source, or the error naming the file and the problem.
// Runs on a JobRunner: LatestOnly (the model chooser: a newer pick supersedes an older one,
// whose answer is dropped) or Every (the extra models: every ticked model is answered, in
// order). cancel() drops the answers at once; the import itself stops at the next stage
// (between models, before the build). Loads run at background priority (background_priority.h)
// so that an import never takes a turn from the event loop. loadNow() is the same work on the
// caller's thread, for command-line arguments and tests. Destroying the job cancels and waits
// for the running load.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

#include "core/common/run_control.h"
#include "core/model/model_source.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

// What the set-up's summary line says of a model, from one build.
struct ModelOverview {
    double parameters = 0;
    std::size_t layers = 0;
    double flopsPerSample = 0;  // forward + backward
    std::int64_t sequenceLength = 0;
    QString buildError;  // not empty: the model loaded but does not build
};

// One reference's answer: `model` and `overview`, or (model null) `error`.
struct ModelLoad {
    QString reference;
    core::model::ModelSourcePtr model;
    ModelOverview overview;
    QString error;
};

class ModelLoadJob : public QObject {
    Q_OBJECT
public:
    explicit ModelLoadJob(JobRunner::Answers answers = JobRunner::Answers::LatestOnly,
                          QObject* parent = nullptr);
    ~ModelLoadJob() override;  // cancels, then waits for the running load

    // Loads `references` in order, each built with `bytesPerElement` for its overview (≤ 0: not
    // built, the overview left empty); returns the run's id.
    quint64 load(const QStringList& references, std::int64_t bytesPerElement);
    // The same on the calling thread; a cancelled `control` leaves the rest out (answer
    // shorter than `references`).
    static std::vector<ModelLoad> loadNow(const QStringList& references,
                                          std::int64_t bytesPerElement,
                                          const core::RunControl* control = nullptr);
    static ModelOverview overview(const core::model::ModelSource& model,
                                  std::int64_t bytesPerElement);

    void cancel();             // every run; no answer comes for them
    void cancel(quint64 id);   // that run only
    bool loading() const;      // a run whose answer is still wanted
    bool busy() const;         // any run not finished, cancelled ones too
    quint64 latestId() const;  // the id of the last load()
    qint64 droppedAnswers() const;
    void waitForDone();  // blocks until no load runs (tests, benchmarks); answers still queue

signals:
    void loaded(quint64 id, const std::vector<tandem::ui::ModelLoad>& models);
    void busyChanged(bool busy);
    void progress(quint64 id, double done, double total, QString message);

private:
    JobRunner* runner_ = nullptr;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::vector<tandem::ui::ModelLoad>)
