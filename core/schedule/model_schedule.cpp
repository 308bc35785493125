#include "core/schedule/model_schedule.h"

#include <limits>

#include "core/model/vector_op_costs.h"

namespace tandem::core::schedule {

namespace {

// The host issues every operator but a Nop (views and Megatron's identity operators are no
// kernels).
double hostSeconds(const std::vector<model::Operator>& ops, double perOperator) {
    if (perOperator <= 0) return 0;
    double issued = 0;
    for (const model::Operator& op : ops)
        if (op.opClass != model::OpClass::Nop) ++issued;
    return issued * perOperator;
}

// The device time of the kernels that add each parameter-owning operator's weight gradients to
// the accumulated ones (AcceleratorConfig::gradientAccumulationStreams): one memory-bound add
// over its parameters (tied copies included: both receive gradients) per operator, run one at a
// time on all vector cores after the backward pass. The autograd engine issues them itself (one
// call each, not a framework operator's Python dispatch), so they add no host time. Their HBM
// traffic too, for the energy model: the kernels' costs summed (allCoresSeconds, bytes).
estimate::OperatorCost accumulation(const model::LayerGraph& graph,
                                    const estimate::OperatorEstimator& estimator) {
    const auto& acc = estimator.accelerator();
    estimate::OperatorCost total;
    if (acc.gradientAccumulationStreams <= 0 || acc.bytesPerElement <= 0) return total;
    for (const model::Operator& op : graph.forward()) {
        const std::int64_t bytes = op.parameterBytes + op.tiedParameterBytes;
        if (bytes <= 0) continue;
        model::Operator add;
        add.name = op.name + ".accumulate";
        add.kind = "add";
        add.opClass = model::OpClass::VectorCore;
        add.elements = bytes / acc.bytesPerElement;
        add.cyclesPerElement = model::vector_op_costs::kAdd;
        add.streamedTensors = acc.gradientAccumulationStreams;
        const estimate::OperatorCost cost = estimator.estimate(add);
        total.allCoresSeconds += cost.allCoresSeconds;
        total.bytes += cost.bytes;
    }
    return total;
}

}  // namespace

ScheduleProblem makeScheduleProblem(const model::LayerGraph& graph, Direction direction,
                                    const estimate::LayerCostTable& costs, int numTensorCores,
                                    int numVectorCores) {
    const bool forward = direction == Direction::Forward;
    const auto& ops = forward ? graph.forward() : graph.backward();
    const auto& opCosts = forward ? costs.forward : costs.backward;
    ScheduleProblem problem;
    problem.numTensorCores = numTensorCores;
    problem.numVectorCores = numVectorCores;
    problem.tasks.reserve(ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) {
        ScheduleTask task;
        task.name = ops[i].name;
        task.opClass = ops[i].opClass;
        task.oneCoreSeconds = opCosts[i].oneCoreSeconds;
        task.allCoresSeconds = opCosts[i].allCoresSeconds;
        task.flops = opCosts[i].flops;
        task.predecessors = ops[i].inputs;
        problem.tasks.push_back(std::move(task));
    }
    return problem;
}

bool ModelSchedule::allOptimal() const {
    return count(ScheduleStatus::Optimal) == int(2 * unique.size());
}

int ModelSchedule::count(ScheduleStatus status) const {
    int n = 0;
    for (const auto& u : unique)
        n += (u.forward->status == status) + (u.backward->status == status);
    return n;
}

Expected<ModelSchedule> scheduleModel(const model::ModelGraph& graph,
                                      const estimate::OperatorEstimator& estimator,
                                      const LayerScheduler& scheduler, const RunControl* control) {
    const auto& acc = estimator.accelerator();
    constexpr auto kMaxInt = std::int64_t(std::numeric_limits<int>::max());
    if (acc.numTensorCores > kMaxInt || acc.numVectorCores > kMaxInt) {
        return Error{"core counts beyond " + std::to_string(kMaxInt) + " cannot be scheduled"};
    }
    const int tcs = int(acc.numTensorCores);
    const int vcs = int(acc.numVectorCores);
    ModelSchedule result;
    result.uniqueIndexOfLayer = graph.uniqueIndexOfLayer();
    result.hostOverheadSeconds = acc.hostOverheadSeconds;
    const auto& uniques = graph.uniqueGraphs();
    // The layer solver's own reports (blocks within a layer) would interleave with these.
    const RunControl layerControl(RunControl::SilentChildOf{control});
    for (std::size_t u = 0; u < uniques.size(); ++u) {
        const auto costs =
            estimate::LayerCostTable::build(estimator, *uniques[u], graph.options().tpCommOverlap);
        UniqueLayerSchedule entry{uniques[u], nullptr, nullptr};
        entry.forwardHiddenCommSeconds = costs.forwardHiddenCommSeconds;
        entry.backwardHiddenCommSeconds = costs.backwardHiddenCommSeconds;
        entry.forwardHostSeconds = hostSeconds(uniques[u]->forward(), acc.hostOverheadSeconds);
        entry.backwardHostSeconds = hostSeconds(uniques[u]->backward(), acc.hostOverheadSeconds);
        const estimate::OperatorCost added = accumulation(*uniques[u], estimator);
        entry.accumulationSeconds = added.allCoresSeconds;
        const auto all = [](const model::Operator&) { return true; };
        entry.forwardWork = estimate::sumWork(uniques[u]->forward(), costs.forward, all);
        entry.backwardWork = estimate::sumWork(uniques[u]->backward(), costs.backward, all);
        entry.backwardWork.hbmBytes += added.bytes;
        entry.selectiveWork =
            estimate::sumWork(uniques[u]->forward(), costs.forward,
                              [](const model::Operator& op) { return op.selectiveRecompute; });
        for (Direction d : {Direction::Forward, Direction::Backward}) {
            ScheduleProblem problem = makeScheduleProblem(*uniques[u], d, costs, tcs, vcs);
            problem.serial = acc.operatorExecution == hardware::OperatorExecution::Serial;
            auto solved = scheduler.solve(problem, control ? &layerControl : nullptr);
            if (!solved) return solved.error();
            (d == Direction::Forward ? entry.forward : entry.backward) = std::move(solved).value();
        }
        result.unique.push_back(std::move(entry));
        if (control)
            control->report(double(u + 1), double(uniques.size()),
                            "scheduled " + std::to_string(u + 1) + " of " +
                                std::to_string(uniques.size()) + " distinct layers");
    }
    return result;
}

}  // namespace tandem::core::schedule
