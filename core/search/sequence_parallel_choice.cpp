#include "core/search/sequence_parallel_choice.h"

#include <utility>

namespace tandem::core::search {

EvaluatedPoint fasterOfSequenceParallel(EvaluatedPoint without, EvaluatedPoint with) {
    if (without.status == PointStatus::Cancelled) return without;
    if (with.status == PointStatus::Cancelled) return with;
    const bool withWins =
        with.feasible() && (!without.feasible() || with.planShape.timePerBatchSeconds <
                                                       without.planShape.timePerBatchSeconds);
    EvaluatedPoint out = withWins ? std::move(with) : std::move(without);
    addEvaluationCosts(out, withWins ? without : with);
    return out;
}

}  // namespace tandem::core::search
