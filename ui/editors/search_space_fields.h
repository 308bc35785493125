#pragma once
// The fields of the search-space editor as messages and value lists see them: each list's spec
// (the registry's, renamed where the search space's key or the form's label differs) and the
// FieldMessages that turn SearchSpace::validate()'s keys into the form's labels.
#include <string_view>

#include "core/hardware/parameter_spec.h"
#include "ui/editors/field_messages.h"

namespace tandem::ui {

// The spec of a searched list: each of core::search::kSearchedFields (the accelerator
// registry's), "hbmCapacityBytes" (labelled "HBM sizes"), "microbatchSizes" (the training
// registry's microbatch under the search space's key) and "tensorParallelWidths" (no registry
// record: its upper bound is the cluster's device count, which SearchSpace::validate() checks).
core::hardware::ParameterSpec searchListSpec(std::string_view key);

// Every list above, the area budget and the minimum area fraction.
FieldMessages searchSpaceMessages();

}  // namespace tandem::ui
