// EstimateJob: the Summary and Operators estimate off the GUI thread. Oracle: core's
// estimateModel run directly on the same graph and chip; only the latest request answers.
#include <QSignalSpy>
#include <QtTest>

#include "core/estimate/operator_estimator.h"
#include "tests/ui/jobs/jobs_test_support.h"
#include "ui/jobs/estimate_job.h"

using namespace jobs_test;

class TestEstimateJob : public QObject {
    Q_OBJECT
private slots:
    void latestRequestAnswersWithCoresNumbers() {
        const auto hw = tpuv4();
        auto bert = zoo("bert-large")->build({});
        auto gpt2 = zoo("gpt2-xl")->build({});
        QVERIFY(bert && gpt2);
        auto first = std::make_shared<const model::ModelGraph>(std::move(*bert));
        auto second = std::make_shared<const model::ModelGraph>(std::move(*gpt2));
        tandem::ui::EstimateJob job;
        QSignalSpy finished(&job, &tandem::ui::EstimateJob::finished);
        job.request(first, hw);
        const quint64 latest = job.request(second, hw);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        job.waitForDone();
        QTest::qWait(50);
        QCOMPARE(finished.size(), 1);  // the superseded request never answers
        QCOMPARE(finished[0][0].value<quint64>(), latest);
        const auto estimate =
            finished[0][2].value<std::shared_ptr<const estimate::ModelEstimate>>();
        const auto estimator = estimate::OperatorEstimator::create(hw.accelerator, hw.cluster);
        QVERIFY(estimator);
        const auto oracle = estimate::estimateModel(*second, *estimator);
        QCOMPARE(estimate->layers.size(), oracle.layers.size());
        QCOMPARE(estimate->totals.forwardFlops, oracle.totals.forwardFlops);
        QCOMPARE(estimate->totals.parameters, oracle.totals.parameters);
        for (std::size_t l = 0; l < oracle.layers.size(); ++l) {
            QCOMPARE(estimate->layers[l].name, oracle.layers[l].name);
            QCOMPARE(estimate->layers[l].operators.size(), oracle.layers[l].operators.size());
        }
    }

    void aBrokenChipIsAMessage() {
        auto hw = tpuv4();
        hw.accelerator.clockHz = 0;
        auto graph = zoo("bert-large")->build({});
        QVERIFY(graph);
        tandem::ui::EstimateJob job;
        QSignalSpy failed(&job, &tandem::ui::EstimateJob::failed);
        job.request(std::make_shared<const model::ModelGraph>(std::move(*graph)), hw);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 60000);
        QVERIFY(!failed[0][1].toString().isEmpty());
    }
};

QTEST_MAIN(TestEstimateJob)
#include "test_estimate_job.moc"
