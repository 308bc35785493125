// ModelLoadJob and ProjectFileJob: models and project files off the GUI thread. Oracles: core's
// loader and ProjectFile run directly on the same input; what is superseded or cancelled never
// answers; every save answers, in order, and a save outlives its job. Nothing is timed.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "core/hardware/preset_library.h"
#include "core/importers/model_loader.h"
#include "core/io/project_file.h"
#include "core/model/model_graph.h"
#include "ui/jobs/model_load_job.h"
#include "ui/jobs/project_file_job.h"

using tandem::ui::JobRunner;
using tandem::ui::ModelLoad;
using tandem::ui::ModelLoadJob;
using tandem::ui::ProjectFileJob;
namespace io = tandem::core::io;

namespace {
std::vector<ModelLoad> answerOf(const QSignalSpy& spy, int index) {
    return spy[index][1].value<std::vector<ModelLoad>>();
}

// A project that validates: `model` on the TPUv4-like chip.
io::ProjectFile projectOn(const char* model) {
    io::ProjectFile project;
    project.model = model;
    auto hardware = tandem::core::hardware::PresetLibrary::resolveHardware("tpuv4-like");
    if (!hardware) qFatal("%s", hardware.message().c_str());
    project.hardware = *hardware;
    project.search.base = project.hardware;
    return project;
}

// Lets every queued answer arrive after the job is idle.
void drain(ModelLoadJob& job) {
    job.waitForDone();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
}
}  // namespace

class TestModelLoadJob : public QObject {
    Q_OBJECT
private slots:
    void loadsWithTheOverviewOfOneBuild() {
        ModelLoadJob job;
        QSignalSpy loaded(&job, &ModelLoadJob::loaded);
        const quint64 id = job.load({"bert-large", "opt-350m"}, 2);
        QVERIFY(job.loading());
        QVERIFY(loaded.wait(60000));
        QCOMPARE(loaded[0][0].value<quint64>(), id);
        const auto answer = answerOf(loaded, 0);
        QCOMPARE(answer.size(), std::size_t(2));
        QCOMPARE(answer[0].reference, QString("bert-large"));
        QCOMPARE(answer[1].reference, QString("opt-350m"));
        // Oracle: the loader and one build, run here.
        auto oracle = tandem::core::importers::loadModel("bert-large");
        QVERIFY(oracle);
        tandem::core::model::BuildOptions options;
        options.bytesPerElement = 2;
        auto graph = (*oracle)->build(options);
        QVERIFY(graph);
        QVERIFY(answer[0].model);
        QCOMPARE(answer[0].model->name(), (*oracle)->name());
        QCOMPARE(answer[0].overview.parameters, graph->parameterCount());
        QCOMPARE(answer[0].overview.layers, graph->layers().size());
        QCOMPARE(answer[0].overview.flopsPerSample, graph->forwardFlops() + graph->backwardFlops());
        QCOMPARE(answer[0].overview.sequenceLength, graph->options().sequenceLength);
        QVERIFY(answer[0].overview.buildError.isEmpty());
        QVERIFY(answer[1].model);
        drain(job);
        QVERIFY(!job.busy());
    }

    void aFailureIsAnAnswerNamingTheFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.onnx");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromHex("080712046f6e6e783affff"));
        file.close();
        ModelLoadJob job;
        QSignalSpy loaded(&job, &ModelLoadJob::loaded);
        job.load({path}, 2);
        QVERIFY(loaded.wait(60000));
        const auto answer = answerOf(loaded, 0);
        QCOMPARE(answer.size(), std::size_t(1));
        QVERIFY(!answer[0].model);
        QVERIFY2(answer[0].error.contains("broken.onnx"), qPrintable(answer[0].error));
        // loadNow is the same work on this thread.
        const auto now = ModelLoadJob::loadNow({path}, 2);
        QCOMPARE(now.size(), std::size_t(1));
        QCOMPARE(now[0].error, answer[0].error);
    }

    void aNewerLoadSupersedesAnOlderOne() {
        ModelLoadJob job;
        QSignalSpy loaded(&job, &ModelLoadJob::loaded);
        job.load({"gpt3-175b"}, 2);
        job.load({"gpt2-xl"}, 2);
        const quint64 latest = job.load({"bert-large"}, 2);
        QVERIFY(loaded.wait(60000));
        drain(job);
        QCOMPARE(loaded.size(), 1);  // the superseded loads never answer
        QCOMPARE(loaded[0][0].value<quint64>(), latest);
        QCOMPARE(answerOf(loaded, 0).front().reference, QString("bert-large"));
    }

    void cancelDropsTheAnswer() {
        ModelLoadJob job;
        QSignalSpy loaded(&job, &ModelLoadJob::loaded);
        QSignalSpy busy(&job, &ModelLoadJob::busyChanged);
        job.load({"gpt3-175b"}, 2);
        job.cancel();
        QVERIFY(!job.loading());
        drain(job);
        QCOMPARE(loaded.size(), 0);
        QVERIFY(!job.busy());
        QVERIFY(!busy.isEmpty());
        QCOMPARE(busy.last()[0].toBool(), false);
    }

    void everyLoadAnswersInOrderWhenAskedTo() {
        ModelLoadJob job(JobRunner::Answers::Every);
        QSignalSpy loaded(&job, &ModelLoadJob::loaded);
        const quint64 first = job.load({"opt-350m"}, 0);
        const quint64 second = job.load({"gpt2-xl"}, 0);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, 60000);
        QCOMPARE(loaded[0][0].value<quint64>(), first);
        QCOMPARE(loaded[1][0].value<quint64>(), second);
        // Element size ≤ 0: loaded, not built.
        QVERIFY(answerOf(loaded, 0).front().model);
        QCOMPARE(answerOf(loaded, 0).front().overview.layers, std::size_t(0));
    }

    void destroyingARunningLoadWaitsForIt() {
        QSignalSpy* loaded = nullptr;
        {
            ModelLoadJob job;
            loaded = new QSignalSpy(&job, &ModelLoadJob::loaded);
            job.load({"gpt3-175b"}, 2);
        }  // cancels and waits: nothing runs past here
        QCoreApplication::processEvents();
        QCOMPARE(loaded->size(), 0);
        delete loaded;
    }

    void projectFilesSaveAndLoadInOrder() {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.tandem");
        io::ProjectFile project = projectOn("bert-large");
        ProjectFileJob job;
        QSignalSpy saved(&job, &ProjectFileJob::saved);
        QSignalSpy loaded(&job, &ProjectFileJob::loaded);
        QSignalSpy failed(&job, &ProjectFileJob::failed);
        const quint64 save = job.save(project, path);
        const quint64 load = job.load(path);  // after the save: reads what it wrote
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 60000);
        QCOMPARE(saved.size(), 1);
        QCOMPARE(saved[0][0].value<quint64>(), save);
        QCOMPARE(loaded[0][0].value<quint64>(), load);
        const auto read = loaded[0][2].value<std::shared_ptr<const io::ProjectFile>>();
        QVERIFY(read);
        auto oracle = io::ProjectFile::load(path.toStdString());
        QVERIFY(oracle);
        QVERIFY(*read == *oracle);
        QCOMPARE(read->model, std::string("bert-large"));
        QCOMPARE(failed.size(), 0);
    }

    void finishDeliversTheAnswersAtOnce() {
        QTemporaryDir dir;
        io::ProjectFile project = projectOn("bert-large");
        ProjectFileJob job;
        QSignalSpy saved(&job, &ProjectFileJob::saved);
        QSignalSpy failed(&job, &ProjectFileJob::failed);
        job.save(project, dir.filePath("a.tandem"));
        const quint64 bad = job.save(project, dir.filePath("no/such/folder/b.tandem"));
        job.finish();  // no event loop turn: the answers are out when it returns
        QCOMPARE(saved.size(), 1);
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed[0][0].value<quint64>(), bad);
        QVERIFY(!failed[0][2].toString().isEmpty());
        QVERIFY(!job.busy());
    }

    void aSaveOutlivesItsJob() {
        QTemporaryDir dir;
        const QString path = dir.filePath("kept.tandem");
        io::ProjectFile project = projectOn("gpt2-xl");
        {
            ProjectFileJob job;
            job.save(project, path);
        }
        auto read = io::ProjectFile::load(path.toStdString());
        QVERIFY2(read, read ? "" : read.message().c_str());
        QCOMPARE(read->model, std::string("gpt2-xl"));
    }

    void anAbandonedLoadNeverAnswers() {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.tandem");
        io::ProjectFile project = projectOn("bert-large");
        QVERIFY(project.save(path.toStdString()));
        ProjectFileJob job;
        QSignalSpy loaded(&job, &ProjectFileJob::loaded);
        job.abandon(job.load(path));
        const quint64 kept = job.load(path);
        job.finish();
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(loaded[0][0].value<quint64>(), kept);
    }
};

QTEST_MAIN(TestModelLoadJob)
#include "test_model_load_job.moc"
