#include "ui/glossary_text.h"

#include <QObject>
#include <QStringList>

namespace tandem::ui {

const std::vector<GlossaryEntry>& glossaryEntries() {
    const auto tr = [](const char* s) { return QObject::tr(s); };
    static const std::vector<GlossaryEntry> entries = {
        {"term-1f1b", tr("1F1B (one forward, one backward)"),
         tr("The pipeline schedule of PipeDream-Flush and Megatron-LM (Narayanan et al. 2021): "
            "after a warm-up of a few forwards, each stage alternates one forward and one "
            "backward pass, so stage k holds at most S − k microbatches' activations instead of "
            "all m. Its bubble is the same as GPipe's; its memory is much smaller. Tandem's "
            "default schedule.")},
        {"term-bubble", tr("Bubble"),
         tr("The time pipeline stages sit idle while the pipeline fills and drains. With S equal "
            "stages and m microbatches it is the fraction (S − 1)/(m + S − 1) of the iteration, "
            "for GPipe and 1F1B alike; interleaving V chunks per device divides it by V. More "
            "microbatches per batch shrink it. With unequal stages (the LM head makes the last "
            "one heavier) the slowest stage idles only while the others fill and drain at their "
            "own loads: (ΣL − Lmax)/(m·Lmax + ΣL − Lmax) of the pipeline, ΣL the stages' loads "
            "summed and Lmax the slowest's (DAPPLE's 1F1B time, Fan et al. 2021).")},
        {"term-data-parallel", tr("Data parallelism (d)"),
         tr("d copies (replicas) of the whole pipeline each train on 1/d of the global batch; "
            "after the backward pass their gradients are averaged with an all-reduce over the "
            "network, which is what limits d.")},
        {"term-gpipe", tr("GPipe"),
         tr("The pipeline schedule of Huang et al. (2019): every stage runs the forward passes of "
            "all m microbatches, then all backward passes. Simple, with the same bubble as 1F1B, "
            "but each stage keeps all m microbatches' activations until their backward pass.")},
        {"term-hbm", tr("HBM (high-bandwidth memory)"),
         tr("The stacked DRAM beside an accelerator die: its capacity bounds the weights, "
            "gradients, optimizer state and activations a device can hold; its bandwidth bounds "
            "every operator that streams more bytes than it computes on.")},
        {"term-interleaving", tr("Interleaving (V)"),
         tr("Each device holds V non-adjacent chunks of layers instead of one block (Narayanan "
            "et al. 2021), so the pipeline has V × p virtual stages: the bubble shrinks by V, "
            "at the price of V times more point-to-point transfers.")},
        {"term-mfu", tr("MFU (model FLOPs utilisation)"),
         tr("The model's training FLOPs per iteration — forward and backward, recomputation not "
            "counted — divided by the time per iteration × the devices × each device's peak "
            "FLOP/s (Chowdhery et al. 2022). 100 % is every tensor core busy on useful work all "
            "the time; large runs reach 40–60 %.")},
        {"term-microbatch", tr("Microbatch"),
         tr("The slice of the global batch that moves through the pipeline as one unit. The "
            "global batch B = microbatch size × m microbatches × d replicas; larger microbatches "
            "use the cores better but need more activation memory.")},
        {"term-pareto", tr("Pareto front"),
         tr("The points no other point beats on both axes at once: here, no smaller chip scores "
            "as high. Every chip worth building lies on it; which one depends on how much area "
            "is worth how much throughput.")},
        {"term-pipeline-parallel", tr("Pipeline parallelism (p)"),
         tr("The layers are cut into p consecutive stages, each on its own devices; microbatches "
            "flow through the stages like cars through an assembly line (see bubble, 1F1B, "
            "GPipe).")},
        {"term-recomputation", tr("Recomputation"),
         tr("Activation checkpointing: keep only each layer's input and compute its forward pass "
            "again during the backward pass, trading about one extra forward (a third more "
            "FLOPs) for much less activation memory. Selective recomputation recomputes only "
            "attention's softmax and dropout, which hold most of the memory but few FLOPs "
            "(Korthikanti et al. 2022).")},
        {"term-roofline", tr("Roofline and arithmetic intensity"),
         tr("An operator's arithmetic intensity is its FLOPs per byte moved to or from HBM. The "
            "roofline (Williams, Waterman and Patterson 2009) bounds the FLOP/s it can attain by "
            "min(peak, bandwidth × intensity): left of the ridge point, intensity = peak ÷ "
            "bandwidth, memory limits it; right of it, the arithmetic units do. Larger matrices "
            "and microbatches move operators to the right.")},
        {"term-sequence-parallel", tr("Sequence parallelism"),
         tr("In tensor-parallel layers, the layer norms and dropouts — which tensor parallelism "
            "leaves replicated — are split along the sequence over the t devices too, and each "
            "all-reduce becomes a reduce-scatter plus an all-gather (Korthikanti et al. 2022): "
            "the same bytes on the links, t times less of that activation memory.")},
        {"term-systolic-array", tr("Systolic array (tensor core)"),
         tr("A grid of rows × columns multiply-accumulate units through which matrix operands "
            "flow in step; one tensor core of Tandem's chips. It does rows × columns MACs per "
            "cycle when the matrices are large enough to fill it.")},
        {"term-tensor-parallel", tr("Tensor parallelism (t)"),
         tr("Each layer's weight matrices are split over t devices (Shoeybi et al. 2019), which "
            "compute their parts together and combine them with all-reduces inside every layer: "
            "fast links are needed, so t rarely leaves a node. t × p × d devices train together.")},
        {"term-per-watt", tr("Throughput per watt"),
         tr("Samples trained per joule: the global batch over the energy of one iteration on "
            "every device in use (arithmetic, memory, links and static power). Tandem shows it in "
            "samples per kJ; ranking by it favours chips that waste less energy over the fastest "
            "ones.")},
        {"term-zero", tr("ZeRO"),
         tr("The Zero Redundancy Optimizer (Rajbhandari et al. 2020): instead of every data-"
            "parallel replica keeping a full copy, the replicas share out the optimizer state "
            "(stage 1), also the gradients (stage 2) and also the weights (stage 3), saving "
            "memory for extra communication.")},
    };
    return entries;
}

QString glossaryLink(const QString& anchor, const QString& label) {
    for (const GlossaryEntry& e : glossaryEntries())
        if (e.anchor == anchor)
            return QStringLiteral("<a href=\"#%1\">%2</a>")
                .arg(anchor, (label.isEmpty() ? e.term : label).toHtmlEscaped());
    return label.toHtmlEscaped();
}

QString glossaryHtml() {
    QStringList html;
    html << QStringLiteral("<a name=\"glossary\"></a><h3>%1</h3>").arg(QObject::tr("Glossary"));
    for (const GlossaryEntry& e : glossaryEntries())
        html << QStringLiteral("<p><a name=\"%1\"></a><b>%2</b> — %3</p>")
                    .arg(e.anchor, e.term.toHtmlEscaped(), e.definition);
    return html.join(QString());
}

}  // namespace tandem::ui
