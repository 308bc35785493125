#pragma once
// One evaluated point as one line of text, for the records a search passes between processes
// and keeps on disk (ARCHITECTURE.md §4.6): the lines of a checkpoint file and the messages of an
// MPI search. Every field of EvaluatedPoint is kept, bit for bit (doubles in hexadecimal
// floating point), except what the grid gives back from the index — the SearchPoint itself —
// and the plans, which a search does not keep per point. Fields are separated by tabs; the
// message escapes backslash, tab, newline and carriage return, so a record never holds a newline:
//   index status throughput objective fixed_throughput t d stages time_per_batch
//   model_throughputs(comma-separated, "-" when none) schedules(6 numbers) seconds(4)
//   choices(V,ZeRO,SP,devices in use,joules per iteration,watts) message
// (a record written before energy was modelled has three choices and reads with zero energy).
#include <string>
#include <string_view>

#include "core/common/expected.h"
#include "core/search/evaluated_point.h"
#include "core/search/search_grid.h"

namespace tandem::core::search {

std::string encodePointRecord(const EvaluatedPoint& point);
// The point the record describes, its SearchPoint taken from `grid`. Errors say which field is
// wrong: an index outside the grid, an unknown status, a number that does not parse, a
// missing or extra field.
Expected<EvaluatedPoint> decodePointRecord(std::string_view record, const SearchGrid& grid);

}  // namespace tandem::core::search
