// The validator accepts what the scheduler produces and rejects every kind of broken schedule:
// each case mutates a valid schedule in one way and expects the matching message.
#include <QtTest>

#include "qtest_printers.h"

#include <functional>

#include "schedule_test_support.h"

using namespace tandem;
using namespace tandem::core::schedule;
using core::model::OpClass;

namespace {

ScheduleTask task(OpClass c, double one, double all, std::vector<int> preds, std::string name) {
    ScheduleTask t;
    t.name = std::move(name);
    t.opClass = c;
    t.oneCoreSeconds = one;
    t.allCoresSeconds = all;
    t.predecessors = std::move(preds);
    return t;
}

// Two TC GEMMs side by side on one core each, VC ops, a Fused op, an all-reduce, a Nop and a
// GEMM that runs intra-operator parallel.
ScheduleProblem baseProblem() {
    ScheduleProblem p;
    p.numTensorCores = 2;
    p.numVectorCores = 1;
    p.tasks = {task(OpClass::TensorCore, 4, 3.9, {}, "gemm_a"),
               task(OpClass::TensorCore, 4, 3.9, {}, "gemm_b"),
               task(OpClass::VectorCore, 2, 2, {0}, "softmax"),
               task(OpClass::Fused, 3, 3, {1}, "gemm_gelu"),
               task(OpClass::Collective, 5, 5, {}, "all_reduce"),
               task(OpClass::Nop, 0, 0, {2, 3}, "view"),
               task(OpClass::TensorCore, 10, 1, {5}, "big_gemm"),
               task(OpClass::VectorCore, 1, 1, {6}, "norm"),
               task(OpClass::VectorCore, 1, 1, {}, "bias")};
    return p;
}

enum Task { kA, kB, kSoftmax, kFused, kAllReduce, kView, kBig, kNorm, kBias };

}  // namespace

class TestScheduleValidator : public QObject {
    Q_OBJECT

    ScheduleProblem problem_ = baseProblem();
    LayerSchedule valid_;

private slots:
    void initTestCase() {
        std::string error;
        const auto s = testing::solveChecked(problem_, {}, error);
        QVERIFY2(s, error.c_str());
        valid_ = *s;
        // The cases below rely on this shape of the optimum.
        QCOMPARE_ENUM(valid_.tasks[kA].mode, TaskMode::OneCore);
        QCOMPARE_ENUM(valid_.tasks[kB].mode, TaskMode::OneCore);
        QCOMPARE(valid_.tasks[kA].startSeconds, valid_.tasks[kB].startSeconds);
        QCOMPARE_ENUM(valid_.tasks[kBig].mode, TaskMode::IntraOpParallel);
        QVERIFY(ScheduleValidator().validate(problem_, valid_));
    }

    void rejectsBrokenSchedules_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("expected");
        QTest::newRow("starts before predecessor ends")
            << 0 << "before its predecessor tasks[0] \"gemm_a\" ends";
        QTest::newRow("duration does not match mode")
            << 1 << "duration 4.5 s, but mode one-core takes 4 s";
        QTest::newRow("parallel mode, one-core duration")
            << 2 << "but mode intra-op-parallel takes 3.9 s";
        QTest::newRow("no mode for a GEMM")
            << 3 << "mode none is not allowed for class tensor_core";
        QTest::newRow("lane that does not exist")
            << 4 << "lane range TC2 x1 is not one existing lane";
        QTest::newRow("two tasks on one lane") << 5 << "runs tasks[0] \"gemm_a\" [";
        QTest::newRow("parallel task overlaps") << 6 << "runs intra-operator parallel but overlaps";
        QTest::newRow("fused without its VC") << 7 << "holds lanes [ TC";
        QTest::newRow("collective on a core") << 8 << "needs [ LINKx1 ]";
        QTest::newRow("parallel on part of the chip") << 9 << "needs [ TC0x2 VC0x1 ]";
        QTest::newRow("Nop holding a lane") << 10 << "mode none of class nop needs [ ]";
        QTest::newRow("wrong makespan") << 11 << "but the last task ends at";
        QTest::newRow("bound above makespan") << 12 << "lower bound";
        QTest::newRow("optimal with a gap") << 13 << "status optimal with gap";
        QTest::newRow("missing task") << 14 << "8 scheduled tasks for a problem of 9";
        QTest::newRow("other chip") << 15 << "made for 4 TC / 1 VC";
        QTest::newRow("negative start") << 16 << "must be finite, start >= 0";
        QTest::newRow("collective in parallel mode")
            << 17 << "mode intra-op-parallel is not allowed for class collective";
    }

    void rejectsBrokenSchedules() {
        QFETCH(int, which);
        QFETCH(QString, expected);
        LayerSchedule s = valid_;
        auto& t = s.tasks;
        switch (which) {
            case 0:
                t[kSoftmax].startSeconds = t[kA].endSeconds() - 0.5;
                break;
            case 1:
                t[kA].durationSeconds = 4.5;
                break;
            case 2:
                t[kA].mode = TaskMode::IntraOpParallel;
                break;
            case 3:
                t[kA].mode = TaskMode::None;
                break;
            case 4:
                t[kA].lanes = {{LaneKind::TensorCore, 2, 1}};
                break;
            case 5:
                t[kB].lanes = t[kA].lanes;
                break;
            case 6:
                t[kBias].startSeconds = t[kBig].startSeconds;
                break;
            case 7:
                t[kFused].lanes.pop_back();
                break;
            case 8:
                t[kAllReduce].lanes = {{LaneKind::TensorCore, 0, 1}};
                break;
            case 9:
                t[kBig].lanes[1].count = 0;
                break;
            case 10:
                t[kView].lanes = {{LaneKind::VectorCore, 0, 1}};
                break;
            case 11:
                s.makespanSeconds += 1;
                break;
            case 12:
                s.lowerBoundSeconds = s.makespanSeconds * 1.01;
                break;
            case 13:
                s.lowerBoundSeconds = s.makespanSeconds * 0.9;
                s.gap = 0.1;
                break;
            case 14:
                t.pop_back();
                break;
            case 15:
                s.numTensorCores = 4;
                break;
            case 16:
                t[kAllReduce].startSeconds = -1;
                break;
            case 17:
                t[kAllReduce].mode = TaskMode::IntraOpParallel;
                break;
        }
        const core::Status status = ScheduleValidator().validate(problem_, s);
        QVERIFY2(!status, "the broken schedule was accepted");
        QVERIFY2(QString::fromStdString(status.message()).contains(expected),
                 qPrintable(QString::fromStdString(status.message())));
    }

    void acceptsConsistentNonOptimalStatuses() {
        // A later start with a matching bound and gap is a valid (if poor) Feasible schedule.
        LayerSchedule s = valid_;
        for (ScheduledTask& t : s.tasks) t.startSeconds += 1;
        s.makespanSeconds += 1;
        s.status = ScheduleStatus::Feasible;
        s.gap = (s.makespanSeconds - s.lowerBoundSeconds) / s.makespanSeconds;
        QVERIFY(ScheduleValidator().validate(problem_, s));
        s.gap = 0;
        QVERIFY(!ScheduleValidator().validate(problem_, s));
    }
};

QTEST_GUILESS_MAIN(TestScheduleValidator)
#include "test_schedule_validator.moc"
