#pragma once
// Display text for the quantities a design point is made of (throughput, area, the chip's
// fields, a plan's shape), shared by the design-space tooltips and the comparison view so the
// same point reads the same everywhere. Inputs are core's SI values; every string carries its
// unit (ARCHITECTURE.md §3.3: conversion happens only at display time, via core/common/units.h).
#include <QString>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/hardware/accelerator_config.h"
#include "core/hardware/training_config.h"
#include "core/placement/plan.h"

namespace tandem::ui {

// core::formatThroughput, the one throughput formatter: "2.59 ksamples/s", "142 samples/s".
QString throughputText(double samplesPerSecond);
// A multi-model objective, the geometric mean of throughput ÷ reference-chip throughput:
// "×1.42" (factorText).
QString objectiveText(double objective);
// Each model's throughput: "gpt3-175b 42.5 samples/s · bert-large 3.1 ksamples/s".
QString modelThroughputsText(const std::vector<std::pair<QString, double>>& models);
// "278.83 mm²".
QString areaText(double squareMillimetres);
// "×1.42" (three significant digits).
QString factorText(double factor);
// "8 × 128×128".
QString tensorCoresText(const core::hardware::AcceleratorConfig& chip);
// "2 × 128 lanes".
QString vectorCoresText(const core::hardware::AcceleratorConfig& chip);
// "8 TC × 128×128 · 2 VC × 128 lanes · GLB 128 MiB · HBM 32 GiB".
QString chipText(const core::hardware::AcceleratorConfig& chip);
// "1 stage", "17 stages": a count with its noun in the number it takes.
QString countText(std::int64_t n, const QString& singular, const QString& plural);
// "t = 8 · d = 16 · 8 stages", then " · V = 2", " · ZeRO 1" and " · sequence parallel" when the
// plan uses them.
QString planShapeText(std::int64_t t, std::int64_t d, std::int64_t stages,
                      std::int64_t interleave = 1, std::int64_t zero = 0,
                      bool sequenceParallel = false);
QString planShapeText(const core::placement::Plan& plan);
// What the plan chose beyond its shape: "V = 2 · ZeRO 1 · sequence parallel · full recomputation
// on 3 of 4 stages" (interleaving, ZeRO and sequence parallelism only when used; recomputation
// always, "no recomputation" when no stage reruns anything).
QString planChoicesText(const core::placement::Plan& plan);
// A searched accelerator field's value with its unit, by registry key: "64 MiB", "1.05 GHz",
// "1.2 TB/s", "8".
QString searchedValueText(std::string_view key, double value);
// "off", "on", "auto".
QString recomputeText(core::hardware::Recompute recompute);

}  // namespace tandem::ui
