#include "ui/editors/search_space_fields.h"

#include "core/hardware/parameter_registry.h"
#include "core/search/search_space.h"

namespace tandem::ui {

core::hardware::ParameterSpec searchListSpec(std::string_view key) {
    if (key == "microbatchSizes") {
        core::hardware::ParameterSpec spec =
            core::hardware::trainingParameters().find("microbatch")->spec;
        spec.key = "microbatchSizes";  // messages name the search space's field
        spec.label = "Microbatch sizes";
        return spec;
    }
    if (key == "tensorParallelWidths") {
        core::hardware::ParameterSpec spec;
        spec.key = "tensorParallelWidths";
        spec.label = "TP widths";
        spec.unit = "devices";
        spec.description =
            "Widths t the placement may split each layer over; empty uses each "
            "model's own list.";
        spec.minValue = 1;
        spec.maxValue = 1e6;
        return spec;
    }
    core::hardware::ParameterSpec spec = core::hardware::acceleratorParameters().find(key)->spec;
    if (key == "hbmCapacityBytes") spec.label = "HBM sizes";
    return spec;
}

FieldMessages searchSpaceMessages() {
    FieldMessages messages;
    for (const core::search::SearchedField& f : core::search::kSearchedFields)
        messages.add("accelerator", searchListSpec(f.key));
    for (std::string_view key : {"hbmCapacityBytes", "microbatchSizes", "tensorParallelWidths"})
        messages.add("", searchListSpec(key));
    messages.add({}, "areaBudgetSquareMillimetres", "Area budget", false);
    messages.add({}, "minAreaFraction", "Minimum area", false);
    return messages;
}

}  // namespace tandem::ui
