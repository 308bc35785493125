#include "core/schedule/cbc_runner.h"

#include <CbcModel.hpp>
#include <CbcStrategy.hpp>
#include <CoinError.hpp>
#include <CoinMessageHandler.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>

#include "core/schedule/cbc_stop_handler.h"
#include "core/schedule/clp_stop_handler.h"

namespace tandem::core::schedule {

namespace {

bool stopRequested(const MilpSettings& settings) {
    return (settings.control && settings.control->cancelled()) ||
           std::chrono::steady_clock::now() >= settings.deadline;
}

}  // namespace

MilpRun CbcRunner::solve(const MilpBuilder& builder, const MilpSettings& settings) {
    // Coin reports some internal failures by throwing CoinError; nothing may escape the core API.
    try {
        return run(builder, settings);
    } catch (const CoinError& error) {
        MilpRun failed;
        failed.note = "CBC failed: " + error.message();
        return failed;
    } catch (const std::exception& error) {
        MilpRun failed;
        failed.note = std::string("CBC failed: ") + error.what();
        return failed;
    }
}

MilpRun CbcRunner::run(const MilpBuilder& builder, const MilpSettings& settings) {
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    MilpRun run;
    const auto finish = [&](MilpRun::Outcome outcome) {
        run.outcome = outcome;
        if (settings.control && settings.control->cancelled())
            run.outcome = MilpRun::Outcome::Cancelled;
        run.seconds = std::chrono::duration<double>(Clock::now() - started).count();
        return run;
    };
    const double remaining = std::chrono::duration<double>(settings.deadline - started).count();
    if (remaining <= 0 || stopRequested(settings)) {
        run.bound = -MilpBuilder::kInfinity;
        return finish(MilpRun::Outcome::Stopped);
    }

    OsiClpSolverInterface solver;
    builder.loadInto(solver);
    solver.messageHandler()->setLogLevel(0);
    solver.getModelPtr()->messageHandler()->setLogLevel(0);
    std::atomic<bool> lpInterrupted{false};
    const ClpStopHandler clpHandler(settings.control, settings.deadline, &lpInterrupted);
    solver.getModelPtr()->passInEventHandler(&clpHandler);

    CbcModel model(solver);
    model.setLogLevel(0);
    model.messageHandler()->setLogLevel(0);
    CbcStrategyDefault strategy(1);
    model.setStrategy(strategy);
    const CbcStopHandler cbcHandler(settings.control, settings.deadline);
    model.passInEventHandler(&cbcHandler);
    model.setUseElapsedTime(true);
    model.setMaximumSeconds(std::max(remaining, 1e-3));
    model.setAllowableFractionGap(settings.relativeGap);
    model.setAllowableGap(1e-10);
    // Improvements smaller than this are not worth a node; the objective is scaled to ~1.
    model.setCutoffIncrement(1e-9);
    if (settings.threads > 1) model.setNumberThreads(settings.threads);
    if (settings.nodeLimit > 0)
        model.setMaximumNodes(static_cast<int>(
            std::min<long long>(settings.nodeLimit, std::numeric_limits<int>::max())));
    if (!settings.warmStart.empty()) {
        model.setBestSolution(settings.warmStart.data(),
                              static_cast<int>(settings.warmStart.size()),
                              settings.warmStartObjective, true);
        run.warmStartAccepted = model.bestSolution() != nullptr;
        if (!run.warmStartAccepted) run.note = "CBC rejected the warm start";
    }

    model.branchAndBound();

    run.nodes = model.getNodeCount();
    if (model.bestSolution() != nullptr) {
        run.solution.assign(model.bestSolution(), model.bestSolution() + builder.columns());
        run.objective = model.getObjValue();
    }
    // An LP cut short may have made CBC discard a node: its bound is then no proof.
    run.bound = lpInterrupted ? -MilpBuilder::kInfinity : model.getBestPossibleObjValue();
    if (model.isAbandoned()) {
        run.note += run.note.empty() ? "" : "; ";
        run.note += "CBC abandoned the search (numerical difficulties)";
        return finish(MilpRun::Outcome::Failed);
    }
    // A stop handler may have ended an LP early, after which CBC's "finished" is not a proof.
    if (stopRequested(settings)) return finish(MilpRun::Outcome::Stopped);
    if (model.status() == 0 && (model.isProvenOptimal() || model.isProvenInfeasible()))
        return finish(MilpRun::Outcome::Solved);
    if (model.isNodeLimitReached()) return finish(MilpRun::Outcome::NodeLimit);
    return finish(MilpRun::Outcome::Stopped);
}

}  // namespace tandem::core::schedule
