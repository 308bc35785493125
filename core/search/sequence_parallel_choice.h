#pragma once
// Sequence parallelism left to a search (SequenceParallel::Auto): each point is evaluated
// without and with it, and the faster plan is the point's, as placeModel() chooses it for one
// point (placement/model_placement.h): the plan without it on ties and when neither fits.
// The point's phases and schedule summary count both evaluations.
#include "core/search/evaluated_point.h"

namespace tandem::core::search {

// `without` and `with`: the same point evaluated with sequence parallelism off and on.
// A cancelled evaluation cancels the point.
EvaluatedPoint fasterOfSequenceParallel(EvaluatedPoint without, EvaluatedPoint with);

}  // namespace tandem::core::search
