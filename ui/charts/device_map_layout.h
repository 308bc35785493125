#pragma once
// Where the device map draws each device (Qt-free geometry, so it is kept apart from the
// QCustomPlot drawing code): a grid of cells, one per device, replicas as column blocks of the
// widest stage's devices plus a gap column, stages as rows; when there are many replicas they
// wrap into bands (separated by a gap row) chosen so the map is about 1.5 times as wide as it
// is tall without a half-empty last band; idle devices fill rows below, in id order.
#include <vector>

#include "core/placement/plan.h"

namespace tandem::ui {

struct DeviceMapLayout {
    int cols = 0, rows = 0;
    int block = 1;    // columns per replica block, gap included
    int perLine = 1;  // replicas per band
    int lines = 0;
    int stages = 0;
    std::vector<int> grid;      // device id per cell (row-major), −1 for none
    std::vector<int> cellOf;    // per device: row * cols + col
    std::vector<int> rowStage;  // stage shown in each row, −1 gap row, −2 idle row

    static DeviceMapLayout build(const core::placement::Plan& plan);
};

}  // namespace tandem::ui
