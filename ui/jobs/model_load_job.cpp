#include "ui/jobs/model_load_job.h"

#include <QFileInfo>

#include "core/importers/model_loader.h"
#include "core/model/model_graph.h"
#include "ui/jobs/background_priority.h"

namespace tandem::ui {

ModelLoadJob::ModelLoadJob(JobRunner::Answers answers, QObject* parent)
    : QObject(parent),
      // Latest only: two threads, so that a superseded import may still be running to its next
      // stage while the newest one starts.
      runner_(new JobRunner(answers, answers == JobRunner::Answers::LatestOnly ? 2 : 1, this)) {
    qRegisterMetaType<std::vector<ModelLoad>>();
    connect(runner_, &JobRunner::busyChanged, this, &ModelLoadJob::busyChanged);
    connect(runner_, &JobRunner::progress, this, &ModelLoadJob::progress);
}

ModelLoadJob::~ModelLoadJob() = default;  // the runner, a child, cancels and waits

ModelOverview ModelLoadJob::overview(const core::model::ModelSource& model,
                                     std::int64_t bytesPerElement) {
    ModelOverview overview;
    core::model::BuildOptions options;
    options.bytesPerElement = bytesPerElement;
    auto graph = model.build(options);
    if (!graph) {
        overview.buildError = QString::fromStdString(graph.message());
        return overview;
    }
    overview.parameters = graph->parameterCount();
    overview.layers = graph->layers().size();
    overview.flopsPerSample = graph->forwardFlops() + graph->backwardFlops();
    overview.sequenceLength = graph->options().sequenceLength;
    return overview;
}

std::vector<ModelLoad> ModelLoadJob::loadNow(const QStringList& references,
                                             std::int64_t bytesPerElement,
                                             const core::RunControl* control) {
    std::vector<ModelLoad> answer;
    for (int i = 0; i < references.size(); ++i) {
        if (control && control->cancelled()) break;
        const QString& reference = references[i];
        if (control)
            control->report(i, double(references.size()),
                            "Loading " + QFileInfo(reference).fileName().toStdString());
        ModelLoad load;
        load.reference = reference;
        auto model = core::importers::loadModel(reference.toStdString());
        if (!model) {
            load.error = QString::fromStdString(model.message());
        } else {
            if (control && control->cancelled()) break;
            load.model = *model;
            if (bytesPerElement > 0) load.overview = overview(*load.model, bytesPerElement);
        }
        answer.push_back(std::move(load));
    }
    return answer;
}

quint64 ModelLoadJob::load(const QStringList& references, std::int64_t bytesPerElement) {
    return runner_->start(
        [references, bytesPerElement](core::RunControl& control) {
            lowerCurrentThreadPriority();  // an import never takes a turn from the event loop
            return loadNow(references, bytesPerElement, &control);
        },
        [this](quint64 id, std::vector<ModelLoad> models) { emit loaded(id, models); });
}

void ModelLoadJob::cancel() {
    runner_->cancel();
}

void ModelLoadJob::cancel(quint64 id) {
    runner_->cancel(id);
}

bool ModelLoadJob::loading() const {
    return runner_->hasCurrentRun();
}

bool ModelLoadJob::busy() const {
    return runner_->busy();
}

quint64 ModelLoadJob::latestId() const {
    return runner_->latestId();
}

qint64 ModelLoadJob::droppedAnswers() const {
    return runner_->droppedAnswers();
}

void ModelLoadJob::waitForDone() {
    runner_->waitForDone();
}

}  // namespace tandem::ui
