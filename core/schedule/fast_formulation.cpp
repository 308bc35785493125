#include "core/schedule/fast_formulation.h"

#include <algorithm>
#include <set>

namespace tandem::core::schedule {

namespace {
constexpr double kSlack = 1e-9;  // scaled time; keeps fixings valid under rounding
}

FastFormulation::FastFormulation(const ScheduleInstance& instance, const BoundSet& bounds,
                                 const BlockSchedule& incumbent)
    : instance_(instance),
      bounds_(bounds),
      incumbent_(incumbent),
      n_(instance.size()),
      unit_(incumbent.makespan) {
    build();
}

void FastFormulation::build() {
    head_.resize(n_);
    tail_.resize(n_);
    for (int i = 0; i < n_; ++i) {
        head_[i] = bounds_.head[i] / unit_;
        tail_[i] = bounds_.tail[i] / unit_;
    }
    makespan_ = model_.addColumn(std::min(bounds_.best() / unit_, 1.0), 1.0, 1.0, false);
    start_.resize(n_);
    y_.assign(n_, -1);
    for (int i = 0; i < n_; ++i) {
        const double latest = std::max(head_[i], 1.0 - tail_[i] - fastest(i) + kSlack);
        start_[i] = model_.addColumn(head_[i], latest, 0.0, false);
        if (instance_.task(i).canParallel) y_[i] = model_.addColumn(0.0, 1.0, 0.0, true);
    }
    // Duration p_i = d1 + (da − d1)·y_i appears in precedence and makespan rows.
    const auto withDuration = [&](MilpBuilder::Terms terms, int i, double sign) {
        if (y_[i] >= 0) terms.emplace_back(y_[i], sign * (da(i) - d1(i)));
        return terms;
    };
    for (int j = 0; j < n_; ++j) {
        for (int i : instance_.predecessors(j))
            model_.addRow(withDuration({{start_[j], 1.0}, {start_[i], -1.0}}, i, -1.0), d1(i),
                          MilpBuilder::kInfinity);
        if (instance_.successors(j).empty())
            model_.addRow(withDuration({{makespan_, 1.0}, {start_[j], -1.0}}, j, -1.0), d1(j),
                          MilpBuilder::kInfinity);
    }
    addPairs();
    addCuts();
}

void FastFormulation::addPairs() {
    // Which core kinds can run out of units: only if more one-core users than units can
    // ever overlap.
    FlowNetwork tc, vc;
    for (int i = 0; i < n_; ++i) {
        if (instance_.usesTensorCore(i)) tc.users.push_back(i);
        if (instance_.usesVectorCore(i)) vc.users.push_back(i);
    }
    tcBinds_ = instance_.width(tc.users) > instance_.numTensorCores();
    vcBinds_ = instance_.width(vc.users) > instance_.numVectorCores();
    tc.unary = instance_.numTensorCores() == 1;
    vc.unary = instance_.numVectorCores() == 1;

    x_.assign(static_cast<std::size_t>(n_) * n_, -1);
    for (int i = 0; i < n_; ++i) {
        for (int j = i + 1; j < n_; ++j) {
            if (instance_.comparable(i, j)) continue;
            const bool links = instance_.isCollective(i) && instance_.isCollective(j);
            const bool computes = instance_.isCompute(i) && instance_.isCompute(j);
            const bool sharesTc =
                tcBinds_ && instance_.usesTensorCore(i) && instance_.usesTensorCore(j);
            const bool sharesVc =
                vcBinds_ && instance_.usesVectorCore(i) && instance_.usesVectorCore(j);
            const bool anyParallel = y_[i] >= 0 || y_[j] >= 0;
            if (!links && !(computes && (anyParallel || sharesTc || sharesVc))) continue;
            for (auto [a, b] : {std::pair{i, j}, std::pair{j, i}}) {
                // a before b fits under the incumbent only if this chain fits.
                const bool fits = head_[a] + fastest(a) + fastest(b) + tail_[b] <= 1.0 + kSlack;
                x_[static_cast<std::size_t>(a) * n_ + b] =
                    model_.addColumn(0.0, fits ? 1.0 : 0.0, 0.0, true);
            }
            const int xij = pair(i, j), xji = pair(j, i);
            const bool mustOrder = links || (sharesTc && tc.unary) || (sharesVc && vc.unary);
            model_.addRow({{xij, 1.0}, {xji, 1.0}}, mustOrder ? 1.0 : 0.0, 1.0);
            if (computes) {
                // A parallel task runs alone among compute tasks.
                if (y_[i] >= 0) model_.addRow({{xij, 1.0}, {xji, 1.0}, {y_[i], -1.0}}, 0.0, 1.0);
                if (y_[j] >= 0) model_.addRow({{xij, 1.0}, {xji, 1.0}, {y_[j], -1.0}}, 0.0, 1.0);
            }
            // s_b ≥ s_a + p_a − M(1 − x_ab), M = latest end of a − earliest start of b.
            for (auto [a, b] : {std::pair{i, j}, std::pair{j, i}}) {
                const double bigM = std::max(0.0, 1.0 - tail_[a] - head_[b]) + kSlack;
                MilpBuilder::Terms terms{{start_[b], 1.0}, {start_[a], -1.0}, {pair(a, b), -bigM}};
                if (y_[a] >= 0) terms.emplace_back(y_[a], -(da(a) - d1(a)));
                model_.addRow(terms, d1(a) - bigM, MilpBuilder::kInfinity);
            }
        }
    }
    if (tcBinds_ && !tc.unary) {
        addFlow(tc, instance_.numTensorCores());
        networks_.push_back(std::move(tc));
    }
    if (vcBinds_ && !vc.unary) {
        addFlow(vc, instance_.numVectorCores());
        networks_.push_back(std::move(vc));
    }
}

void FastFormulation::addFlow(FlowNetwork& network, int capacity) {
    // Each one-core user receives one unit from the source or from a user that ends before it
    // starts and passes it on at most once; at most `capacity` units leave the source. Any
    // schedule respecting the ordered pairs then never has more than `capacity` users at once.
    const int m = static_cast<int>(network.users.size());
    network.source.resize(m);
    network.arc.assign(m, std::vector<int>(m, -1));
    MilpBuilder::Terms fromSource;
    for (int b = 0; b < m; ++b) {
        network.source[b] = model_.addColumn(0.0, 1.0, 0.0, false);
        fromSource.emplace_back(network.source[b], 1.0);
    }
    model_.addRow(fromSource, 0.0, capacity);
    for (int a = 0; a < m; ++a) {
        for (int b = 0; b < m; ++b) {
            const int i = network.users[a], j = network.users[b];
            if (a == b || instance_.precedes(j, i)) continue;
            const int order = instance_.precedes(i, j) ? -1 : pair(i, j);
            const double upper = order >= 0 ? model_.upper(order) : 1.0;
            network.arc[a][b] = model_.addColumn(0.0, upper, 0.0, false);
            if (order >= 0) model_.addRow({{network.arc[a][b], 1.0}, {order, -1.0}}, -1.0, 0.0);
        }
    }
    for (int b = 0; b < m; ++b) {
        const int j = network.users[b];
        MilpBuilder::Terms in{{network.source[b], 1.0}}, out;
        for (int a = 0; a < m; ++a) {
            if (network.arc[a][b] >= 0) in.emplace_back(network.arc[a][b], 1.0);
            if (network.arc[b][a] >= 0) out.emplace_back(network.arc[b][a], 1.0);
        }
        if (y_[j] >= 0) {
            in.emplace_back(y_[j], 1.0);
            out.emplace_back(y_[j], 1.0);
        }
        model_.addRow(in, 1.0, 1.0);
        model_.addRow(out, 0.0, 1.0);
    }
}

void FastFormulation::addCuts() {
    bool anyParallel = false;
    for (int i = 0; i < n_; ++i) anyParallel = anyParallel || y_[i] >= 0;
    if (!anyParallel) return;
    // Work: parallel time plus one-core work spread over the usable units; parallel periods
    // exclude all one-core work, so TC and VC shares combine with any weight λ.
    const double tcs = instance_.effectiveTensorCores(), vcs = instance_.effectiveVectorCores();
    for (const double lambda : LowerBounds::kLambdas) {
        MilpBuilder::Terms terms{{makespan_, 1.0}};
        double constant = 0;
        for (int i = 0; i < n_; ++i) {
            if (!instance_.isCompute(i)) continue;
            const double share = lambda * (instance_.usesTensorCore(i) ? d1(i) / tcs : 0.0) +
                                 (1 - lambda) * (instance_.usesVectorCore(i) ? d1(i) / vcs : 0.0);
            constant += share;
            if (y_[i] >= 0) terms.emplace_back(y_[i], -(da(i) - share));
        }
        model_.addRow(terms, constant, MilpBuilder::kInfinity);
    }
    // Chains: for each task the longest path through it (fastest latencies). Its compute tasks
    // never overlap each other nor any parallel task off the chain.
    std::vector<int> bestPred(n_, -1), bestSucc(n_, -1);
    for (int j = 0; j < n_; ++j)
        for (int p : instance_.predecessors(j))
            if (bestPred[j] < 0 ||
                head_[p] + fastest(p) > head_[bestPred[j]] + fastest(bestPred[j]))
                bestPred[j] = p;
    for (int i = n_ - 1; i >= 0; --i)
        for (int s : instance_.successors(i))
            if (bestSucc[i] < 0 ||
                fastest(s) + tail_[s] > fastest(bestSucc[i]) + tail_[bestSucc[i]])
                bestSucc[i] = s;
    std::set<std::vector<int>> chains;
    for (int i = 0; i < n_; ++i) {
        std::vector<int> chain;
        for (int k = i; k >= 0; k = bestPred[k]) chain.push_back(k);
        for (int k = bestSucc[i]; k >= 0; k = bestSucc[k]) chain.push_back(k);
        std::sort(chain.begin(), chain.end());
        chains.insert(chain);
    }
    for (const std::vector<int>& chain : chains) {
        std::vector<char> on(n_, 0);
        for (int k : chain) on[k] = instance_.isCompute(k) ? 1 : 0;
        MilpBuilder::Terms terms{{makespan_, 1.0}};
        double constant = 0;
        bool offChainParallel = false;
        for (int i = 0; i < n_; ++i) {
            if (!instance_.isCompute(i)) continue;
            if (on[i]) {
                constant += d1(i);
                if (y_[i] >= 0) terms.emplace_back(y_[i], -(da(i) - d1(i)));
            } else if (y_[i] >= 0) {
                terms.emplace_back(y_[i], -da(i));
                offChainParallel = true;
            }
        }
        if (offChainParallel) model_.addRow(terms, constant, MilpBuilder::kInfinity);
    }
}

std::vector<double> FastFormulation::warmStart() const {
    std::vector<double> values(model_.columns(), 0.0);
    values[makespan_] = 1.0;
    for (int i = 0; i < n_; ++i) {
        values[start_[i]] = std::clamp(incumbent_.start[i] / unit_, model_.lower(start_[i]),
                                       model_.upper(start_[i]));
        if (y_[i] >= 0) values[y_[i]] = incumbent_.parallel[i] ? 1.0 : 0.0;
        for (int j = 0; j < n_; ++j)
            if (j != i && pair(i, j) >= 0 && incumbent_.end(instance_, i) <= incumbent_.start[j])
                values[pair(i, j)] = 1.0;
    }
    // Flows: hand each core of a kind from one task to the next task on it (lanes by greedy
    // interval colouring of the incumbent, which is exact because it never over-uses a kind).
    for (const FlowNetwork& network : networks_) {
        const int m = static_cast<int>(network.users.size());
        std::vector<int> byStart;
        for (int a = 0; a < m; ++a)
            if (!incumbent_.parallel[network.users[a]]) byStart.push_back(a);
        std::sort(byStart.begin(), byStart.end(), [&](int a, int b) {
            const double sa = incumbent_.start[network.users[a]];
            const double sb = incumbent_.start[network.users[b]];
            return sa != sb ? sa < sb : a < b;
        });
        std::vector<int> laneLast;  // position in users of the last task on each lane
        for (int b : byStart) {
            const double s = incumbent_.start[network.users[b]];
            int lane = -1;
            for (int l = 0; l < static_cast<int>(laneLast.size()) && lane < 0; ++l)
                if (incumbent_.end(instance_, network.users[laneLast[l]]) <= s) lane = l;
            if (lane < 0) {
                values[network.source[b]] = 1.0;
                laneLast.push_back(b);
            } else {
                values[network.arc[laneLast[lane]][b]] = 1.0;
                laneLast[lane] = b;
            }
        }
    }
    return values;
}

MilpAnswer FastFormulation::solve(MilpSettings settings) const {
    settings.warmStart = warmStart();
    settings.warmStartObjective = 1.0;
    MilpAnswer answer;
    answer.secondsPerUnit = unit_;
    answer.run = CbcRunner::solve(model_, settings);
    answer.solves = 1;
    answer.nodes = answer.run.nodes;
    answer.milpSeconds = answer.run.seconds;
    if (answer.run.solution.empty() || answer.run.outcome == MilpRun::Outcome::Failed)
        return answer;
    const std::vector<double>& v = answer.run.solution;
    answer.hasSolution = true;
    answer.parallel.assign(n_, 0);
    answer.startSeconds.assign(n_, 0.0);
    for (int i = 0; i < n_; ++i) {
        answer.parallel[i] = y_[i] >= 0 && v[y_[i]] > 0.5 ? 1 : 0;
        answer.startSeconds[i] = v[start_[i]] * unit_;
        for (int j = 0; j < n_; ++j)
            if (j != i && pair(i, j) >= 0 && v[pair(i, j)] > 0.5) answer.before.emplace_back(i, j);
    }
    return answer;
}

}  // namespace tandem::core::schedule
