#include "core/placement/measured_runs.h"

#include <nlohmann/json.hpp>

#include "core/common/embedded_resources.h"
#include "core/common/json_document.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/model/transformer_source.h"

namespace tandem::core::placement {

namespace {

Expected<std::int64_t> positive(const nlohmann::json& object, const char* key,
                                const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1)
        return Error{where + key + " must be an integer >= 1"};
    return it->get<std::int64_t>();
}

}  // namespace

Expected<MeasuredRunSet> measuredRunSet(const std::string& name) {
    const std::string path = "validation/" + name + ".json";
    for (const EmbeddedFile& file : embeddedResources()) {
        if (file.path != path) continue;
        auto root = parseJsonDocument(file.content, path, "a tandem-validation JSON object");
        if (!root) return root.error();
        MeasuredRunSet set;
        set.name = name;
        set.source = root->value("source", "");
        set.hardware = root->value("hardware", "");
        auto vocab = positive(*root, "vocab", path + ": ");
        auto sequence = positive(*root, "sequence", path + ": ");
        if (!vocab) return vocab.error();
        if (!sequence) return sequence.error();
        set.vocab = *vocab;
        set.sequence = *sequence;
        for (const auto& r : root->value("runs", nlohmann::json::array())) {
            MeasuredRun run;
            run.name = r.value("name", "");
            const std::string where = path + ": run '" + run.name + "': ";
            std::int64_t* fields[] = {&run.heads,    &run.hidden, &run.layers,     &run.tensor,
                                      &run.pipeline, &run.gpus,   &run.globalBatch};
            const char* keys[] = {"heads",    "hidden", "layers",      "tensor",
                                  "pipeline", "gpus",   "global_batch"};
            for (std::size_t i = 0; i < std::size(keys); ++i) {
                auto value = positive(r, keys[i], where);
                if (!value) return value.error();
                *fields[i] = *value;
            }
            run.measuredTflopsPerGpu = r.value("measured_tflops_per_gpu", 0.0);
            set.runs.push_back(std::move(run));
        }
        return set;
    }
    return Error{"no bundled set of measured runs named '" + name + "'"};
}

double megatronIterationFlops(const MeasuredRun& run, std::int64_t vocab, std::int64_t sequence) {
    const double B = double(run.globalBatch), s = double(sequence), l = double(run.layers),
                 h = double(run.hidden), V = double(vocab);
    return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
}

Expected<std::vector<RunPrediction>> predictRuns(const MeasuredRunSet& set, RunControl* control) {
    auto hardware = hardware::PresetLibrary::preset(set.hardware);
    if (!hardware) return hardware.error();
    // A GPT as Megatron-LM trains it: the zoo's Megatron GPT-2 with the run's dimensions.
    auto base = model::zooModel("megatron-gpt2-2.5b");
    if (!base) return base.error();
    const auto* transformer = dynamic_cast<const model::TransformerSource*>(&(*base)->underlying());
    if (!transformer) return Error{"megatron-gpt2-2.5b is not a transformer"};
    std::vector<RunPrediction> out;
    for (const MeasuredRun& run : set.runs) {
        model::TransformerSpec spec = transformer->spec();
        spec.name = run.name;
        spec.layers = run.layers;
        spec.hidden = run.hidden;
        spec.heads = run.heads;
        spec.ffn = 4 * run.hidden;
        spec.vocab = set.vocab;
        spec.maxSequence = set.sequence;
        spec.tensorParallelWidths = {run.tensor};
        spec.baseline = {};
        auto source = model::TransformerSource::create(spec);
        if (!source) return Error{run.name + ": " + source.message()};
        ModelPlacementRequest request;
        request.model = *source;
        request.hardware = *hardware;
        request.hardware.cluster.devices = run.gpus;
        request.training.globalBatch = run.globalBatch;
        request.training.sequenceLength = set.sequence;
        request.training.recompute = hardware::Recompute::On;
        request.training.optimizer = hardware::Optimizer::Adam;
        const StrategySpec strategy{run.pipeline, run.tensor,
                                    run.gpus / (run.pipeline * run.tensor)};
        RunPrediction best;
        best.run = run;
        best.reason = "no microbatch size fits in HBM";
        const std::int64_t perReplica = run.globalBatch / std::max<std::int64_t>(1, strategy.data);
        for (std::int64_t mbs = 1; mbs <= perReplica; mbs *= 2) {
            request.training.microbatch = mbs;
            auto evaluated = evaluateStrategy(request, strategy, control);
            if (!evaluated) return Error{run.name + ": " + evaluated.message()};
            const auto& r = evaluated->result;
            if (!r.fits || !r.plan) continue;
            if (!best.fits || r.plan->timePerBatchSeconds < best.timePerBatchSeconds) {
                best.fits = true;
                best.microbatch = mbs;
                best.timePerBatchSeconds = r.plan->timePerBatchSeconds;
            }
        }
        if (best.fits) {
            best.predictedTflopsPerGpu = megatronIterationFlops(run, set.vocab, set.sequence) /
                                         (best.timePerBatchSeconds * double(run.gpus)) / 1e12;
            best.error = best.predictedTflopsPerGpu / run.measuredTflopsPerGpu - 1.0;
        }
        out.push_back(std::move(best));
    }
    return out;
}

}  // namespace tandem::core::placement
