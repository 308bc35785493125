#include "core/schedule/reference_formulation.h"

#include <algorithm>

#include "core/schedule/schedule_rebuilder.h"

namespace tandem::core::schedule {

ReferenceFormulation::ReferenceFormulation(const ScheduleInstance& instance)
    : instance_(instance), n_(instance.size()) {
    unit_ = 0;
    for (int i = 0; i < n_; ++i)
        unit_ += instance.isCompute(i)
                     ? std::max(instance.task(i).oneCoreSeconds, instance.task(i).allCoresSeconds)
                     : instance.task(i).oneCoreSeconds;
    if (!(unit_ > 0)) unit_ = 1;
}

bool ReferenceFormulation::uses(int i, int kind) const {
    if (kind == kTensor) return instance_.usesTensorCore(i);
    if (kind == kVector) return instance_.usesVectorCore(i);
    return instance_.isCollective(i);
}

int ReferenceFormulation::capacity(int kind) const {
    if (kind == kTensor) return instance_.numTensorCores();
    if (kind == kVector) return instance_.numVectorCores();
    return 1;
}

MilpBuilder ReferenceFormulation::build(const bool (&lazy)[3], Layout& layout) const {
    MilpBuilder m;
    constexpr double inf = MilpBuilder::kInfinity;
    const auto d1 = [&](int i) { return instance_.task(i).oneCoreSeconds / unit_; };
    const auto da = [&](int i) { return instance_.task(i).allCoresSeconds / unit_; };
    layout.makespan = m.addColumn(0.0, 1.0, 1.0, false);
    layout.start.assign(n_, -1);
    layout.y.assign(n_, -1);
    for (int i = 0; i < n_; ++i) {
        layout.start[i] = m.addColumn(0.0, 1.0, 0.0, false);
        if (instance_.isCompute(i)) layout.y[i] = m.addColumn(0.0, 1.0, 0.0, true);
    }
    // End of i = s_i + d1 + (da − d1)·y_i.
    const auto endTerms = [&](int i, double sign, MilpBuilder::Terms terms) {
        terms.emplace_back(layout.start[i], sign);
        if (layout.y[i] >= 0) terms.emplace_back(layout.y[i], sign * (da(i) - d1(i)));
        return terms;
    };
    layout.x.assign(static_cast<std::size_t>(n_) * n_, -1);
    const auto x = [&](int i, int j) { return layout.x[static_cast<std::size_t>(i) * n_ + j]; };
    for (int i = 0; i < n_; ++i)
        for (int j = 0; j < n_; ++j)
            if (i != j) {
                const bool fixedBefore = instance_.precedes(i, j);
                const bool fixedAfter = instance_.precedes(j, i);
                layout.x[static_cast<std::size_t>(i) * n_ + j] =
                    m.addColumn(fixedBefore ? 1.0 : 0.0, fixedAfter ? 0.0 : 1.0, 0.0, true);
            }
    for (int i = 0; i < n_; ++i)  // (3)
        m.addRow(endTerms(i, -1.0, {{layout.makespan, 1.0}}), d1(i), inf);
    for (int i = 0; i < n_; ++i) {
        for (int j = i + 1; j < n_; ++j)
            m.addRow({{x(i, j), 1.0}, {x(j, i), 1.0}}, -inf, 1.0);  // (5)
    }
    for (int i = 0; i < n_; ++i)  // (6)
        for (int j = 0; j < n_; ++j)
            for (int k = 0; k < n_; ++k)
                if (i != j && j != k && i != k)
                    m.addRow({{x(i, j), 1.0}, {x(j, k), 1.0}, {x(i, k), -1.0}}, -inf, 1.0);
    for (int i = 0; i < n_; ++i) {
        for (int j = 0; j < n_; ++j) {
            if (i == j || instance_.precedes(j, i)) continue;
            if (instance_.precedes(i, j)) {  // (9)
                m.addRow(endTerms(i, -1.0, {{layout.start[j], 1.0}}), d1(i), inf);
                continue;
            }
            // (10) with H = 1 in scaled time.
            m.addRow(endTerms(i, -1.0, {{layout.start[j], 1.0}, {x(i, j), -1.0}}), d1(i) - 1.0,
                     inf);
            if (i < j && instance_.isCompute(i) && instance_.isCompute(j)) {  // (11)
                m.addRow({{x(i, j), 1.0}, {x(j, i), 1.0}, {layout.y[i], -1.0}}, 0.0, inf);
                m.addRow({{x(i, j), 1.0}, {x(j, i), 1.0}, {layout.y[j], -1.0}}, 0.0, inf);
            }
        }
    }
    for (int kind = 0; kind < 3; ++kind) {  // (12), (18) for the kinds found over-used
        if (!lazy[kind]) continue;
        const int cores = capacity(kind);
        std::vector<std::vector<int>> z(n_);
        for (int i = 0; i < n_; ++i) {
            if (!uses(i, kind)) continue;
            MilpBuilder::Terms assign;
            for (int c = 0; c < cores; ++c) {
                z[i].push_back(m.addColumn(0.0, 1.0, 0.0, true));
                assign.emplace_back(z[i].back(), 1.0);
            }
            if (layout.y[i] >= 0) assign.emplace_back(layout.y[i], 1.0);
            m.addRow(assign, 1.0, 1.0);
        }
        for (int i = 0; i < n_; ++i)
            for (int j = i + 1; j < n_; ++j)
                if (!z[i].empty() && !z[j].empty() && !instance_.comparable(i, j))
                    for (int c = 0; c < cores; ++c)
                        m.addRow({{x(i, j), 1.0}, {x(j, i), 1.0}, {z[i][c], -1.0}, {z[j][c], -1.0}},
                                 -1.0, inf);
    }
    return m;
}

int ReferenceFormulation::firstRoundRows() const {
    Layout layout;
    const bool none[3] = {false, false, false};
    return build(none, layout).rows();
}

int ReferenceFormulation::firstRoundColumns() const {
    Layout layout;
    const bool none[3] = {false, false, false};
    return build(none, layout).columns();
}

MilpAnswer ReferenceFormulation::solve(const MilpSettings& input) const {
    MilpSettings settings = input;
    settings.warmStart.clear();
    MilpAnswer answer;
    answer.secondsPerUnit = unit_;
    bool lazy[3] = {false, false, false};
    double bound = -MilpBuilder::kInfinity;
    const ScheduleRebuilder rebuilder(instance_);
    for (int round = 0; round < 4; ++round) {
        Layout layout;
        const MilpBuilder model = build(lazy, layout);
        answer.run = CbcRunner::solve(model, settings);
        ++answer.solves;
        answer.nodes += answer.run.nodes;
        answer.milpSeconds += answer.run.seconds;
        // Every round's model relaxes the true problem, so every bound is valid.
        bound = std::max(bound, answer.run.bound);
        answer.run.bound = bound;
        if (answer.run.solution.empty() || answer.run.outcome == MilpRun::Outcome::Failed) {
            answer.hasSolution = false;
            return answer;
        }
        const std::vector<double>& v = answer.run.solution;
        answer.hasSolution = true;
        answer.parallel.assign(n_, 0);
        answer.startSeconds.assign(n_, 0.0);
        answer.before.clear();
        for (int i = 0; i < n_; ++i) {
            answer.parallel[i] = layout.y[i] >= 0 && v[layout.y[i]] > 0.5 ? 1 : 0;
            answer.startSeconds[i] = v[layout.start[i]] * unit_;
            for (int j = 0; j < n_; ++j)
                if (i != j && !instance_.comparable(i, j) &&
                    v[layout.x[static_cast<std::size_t>(i) * n_ + j]] > 0.5)
                    answer.before.emplace_back(i, j);
        }
        if (answer.run.outcome != MilpRun::Outcome::Solved) return answer;
        bool acyclic = false;
        const BlockSchedule schedule = rebuilder.earliest(answer.parallel, answer.before, acyclic);
        const Demand peak = rebuilder.peakUsage(schedule);
        const int used[3] = {peak.tensorCores, peak.vectorCores, peak.link};
        bool violated = !acyclic;
        for (int kind = 0; kind < 3; ++kind) {
            if (!lazy[kind] && used[kind] > capacity(kind)) {
                lazy[kind] = true;
                violated = true;
            }
        }
        if (!violated) return answer;
        // Not a proof yet: the next round adds the core constraints it lacked.
        answer.run.outcome = MilpRun::Outcome::Stopped;
    }
    return answer;
}

}  // namespace tandem::core::schedule
