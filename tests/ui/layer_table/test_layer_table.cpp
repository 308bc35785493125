// LayerTableModel over a real placeModel() answer (OPT-350M on the TPUv4-like chip, 1,024
// devices): QAbstractItemModelTester on the model and on a sorting proxy, one row per layer of
// the graph at the plan's t, times equal to the ModelSchedule's makespans, stages that partition
// the layers exactly as the plan's stages do, schedule statuses counted from the schedules,
// sorting by the raw values, and the no-plan and empty cases.
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>
#include <map>

#include "core/common/units.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "tests/ui/test_output_dir.h"
#include "ui/models/layer_table_model.h"

using namespace tandem;
using tandem::ui::LayerTableModel;
using Placement = std::shared_ptr<const core::placement::ModelPlacement>;

namespace {
Placement place(const char* model) {
    core::placement::ModelPlacementRequest r;
    auto m = core::model::zooModel(model);
    auto h = core::hardware::PresetLibrary::resolveHardware("tpuv4-like");
    if (!m || !h) qFatal("cannot load the model or preset");
    r.model = *m;
    r.hardware = *h;
    auto p = core::placement::placeModel(r);
    if (!p) qFatal("%s", p.message().c_str());
    return std::make_shared<const core::placement::ModelPlacement>(std::move(p).value());
}

const core::placement::WidthInput& widthOf(const core::placement::ModelPlacement& p,
                                           std::int64_t t) {
    for (const auto& w : p.widths)
        if (w.graph->options().tensorParallel == t) return w;
    qFatal("width %lld missing", static_cast<long long>(t));
}
}  // namespace

class TestLayerTable : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { placement_ = place("opt-350m"); }
    void rowsMatchTheSchedule();
    void stagesPartitionLikeThePlan();
    void passesModelTesterAndSorts();
    void withoutPlanOrPlacement();
    void nonOptimalScheduleShowsItsGap();

private:
    Placement placement_;
};

void TestLayerTable::rowsMatchTheSchedule() {
    LayerTableModel model;
    model.setPlacement(placement_);
    QVERIFY(placement_->result.plan);
    const auto& plan = *placement_->result.plan;
    const auto& w = widthOf(*placement_, plan.tensorParallel);
    QCOMPARE(model.tensorParallel(), plan.tensorParallel);
    QCOMPARE(std::size_t(model.rowCount()), w.graph->layers().size());
    QVERIFY(model.rowCount() > 3);
    int optimalRows = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const auto i = std::size_t(row);
        const auto at = [&](int column, int role = Qt::DisplayRole) {
            return model.data(model.index(row, column), role);
        };
        QCOMPARE(at(LayerTableModel::Name).toString(),
                 QString::fromStdString(w.graph->layers()[i].name));
        QCOMPARE(at(LayerTableModel::Kind).toString(),
                 QString::fromStdString(w.graph->layers()[i].graph->kind()));
        QCOMPARE(at(LayerTableModel::Forward, Qt::UserRole).toDouble(),
                 w.schedules->forwardSeconds(i));
        QCOMPARE(at(LayerTableModel::Backward, Qt::UserRole).toDouble(),
                 w.schedules->backwardSeconds(i));
        QCOMPARE(at(LayerTableModel::Forward).toString(),
                 QString::fromStdString(core::formatSeconds(w.schedules->forwardSeconds(i))));
        QVERIFY(at(LayerTableModel::Parameters).toString().endsWith('B'));
        QCOMPARE(at(LayerTableModel::Activations, Qt::UserRole).toDouble(),
                 placement_->problem.width(plan.tensorParallel)->layers[i].activationBytes);
        const auto& u = w.schedules->layer(i);
        const bool optimal = u.forward->status == core::schedule::ScheduleStatus::Optimal &&
                             u.backward->status == core::schedule::ScheduleStatus::Optimal;
        QCOMPARE(at(LayerTableModel::Schedule).toString() == "optimal", optimal);
        QVERIFY(!at(LayerTableModel::Schedule, Qt::ToolTipRole).toString().isEmpty());
        optimalRows += optimal;
    }
    qInfo("%d layers at t = %lld, %d scheduled optimally", model.rowCount(),
          static_cast<long long>(plan.tensorParallel), optimalRows);
    for (int c = 0; c < LayerTableModel::ColumnCount; ++c)
        QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());
}

void TestLayerTable::stagesPartitionLikeThePlan() {
    LayerTableModel model;
    model.setPlacement(placement_);
    const auto& plan = *placement_->result.plan;
    std::map<int, std::size_t> layersPerStage;
    for (int row = 0; row < model.rowCount(); ++row) {
        const int stage =
            model.data(model.index(row, LayerTableModel::Stage), Qt::UserRole).toInt();
        QVERIFY(stage >= 0 && std::size_t(stage) < plan.stages.size());
        QCOMPARE(model.data(model.index(row, LayerTableModel::Stage)).toString(),
                 QString::number(stage));
        ++layersPerStage[stage];
    }
    QCOMPARE(layersPerStage.size(), plan.stages.size());
    for (std::size_t s = 0; s < plan.stages.size(); ++s)
        QCOMPARE(layersPerStage[int(s)], plan.stages[s].layers.size());
}

void TestLayerTable::passesModelTesterAndSorts() {
    LayerTableModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(Qt::UserRole);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPlacement(placement_);
    QTableView view;
    view.setModel(&proxy);
    view.setSortingEnabled(true);
    view.sortByColumn(LayerTableModel::Backward, Qt::DescendingOrder);
    double previous = 1e300, maximum = 0;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        const double v =
            proxy.data(proxy.index(row, LayerTableModel::Backward), Qt::UserRole).toDouble();
        QVERIFY(v <= previous);
        previous = v;
    }
    const auto& w = widthOf(*placement_, placement_->result.plan->tensorParallel);
    for (std::size_t i = 0; i < w.graph->layers().size(); ++i)
        maximum = std::max(maximum, w.schedules->backwardSeconds(i));
    QCOMPARE(proxy.data(proxy.index(0, LayerTableModel::Backward), Qt::UserRole).toDouble(),
             maximum);
    view.sortByColumn(LayerTableModel::Name, Qt::AscendingOrder);  // model order, not a-z
    for (int row = 0; row < proxy.rowCount(); ++row)
        QCOMPARE(proxy.data(proxy.index(row, LayerTableModel::Name)).toString(),
                 QString::fromStdString(w.graph->layers()[std::size_t(row)].name));
    view.resize(1000, 420);
    view.horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.grab().save(tandem::test::outputPath("layer_table.png")));
    model.setPlacement(place("gpt2-xl"));  // a reset with a different row count
    QVERIFY(proxy.rowCount() > 0);
}

void TestLayerTable::withoutPlanOrPlacement() {
    LayerTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPlacement(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.data(model.index(0, 0)).isValid());
    auto copy = std::make_shared<core::placement::ModelPlacement>(*placement_);
    copy->result.plan.reset();
    copy->result.infeasibleReason = "nothing fits";
    model.setPlacement(copy);
    QVERIFY(!model.hasPlan());
    QCOMPARE(model.tensorParallel(), copy->widths.front().graph->options().tensorParallel);
    QCOMPARE(std::size_t(model.rowCount()), copy->widths.front().graph->layers().size());
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.data(model.index(row, LayerTableModel::Stage)).toString(),
                 QString::fromUtf8("—"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

// A schedule that stopped at a gap: every layer sharing it reads "gap 5.23 % (feasible)".
void TestLayerTable::nonOptimalScheduleShowsItsGap() {
    auto copy = std::make_shared<core::placement::ModelPlacement>(*placement_);
    const auto t = copy->result.plan->tensorParallel;
    core::placement::WidthInput* width = nullptr;
    for (auto& w : copy->widths)
        if (w.graph->options().tensorParallel == t) width = &w;
    QVERIFY(width);
    auto schedules = std::make_shared<core::schedule::ModelSchedule>(*width->schedules);
    auto stopped = std::make_shared<core::schedule::LayerSchedule>(*schedules->unique[0].backward);
    stopped->status = core::schedule::ScheduleStatus::Feasible;
    stopped->gap = 0.0523;
    schedules->unique[0].backward = stopped;
    width->schedules = schedules;
    LayerTableModel model;
    model.setPlacement(copy);
    int gapRows = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const bool shared = schedules->uniqueIndexOfLayer[std::size_t(row)] == 0;
        const auto index = model.index(row, LayerTableModel::Schedule);
        QCOMPARE(model.data(index, Qt::UserRole).toDouble(), shared ? 0.0523 : 0.0);
        if (shared) {
            QCOMPARE(model.data(index).toString(), QString("gap 5.23 % (feasible)"));
            QVERIFY(model.data(index, Qt::ForegroundRole).isValid());
            ++gapRows;
        }
    }
    QCOMPARE(gapRows, int(std::count(schedules->uniqueIndexOfLayer.begin(),
                                     schedules->uniqueIndexOfLayer.end(), 0)));
}

QTEST_MAIN(TestLayerTable)
#include "test_layer_table.moc"
