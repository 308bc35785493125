#pragma once
// `tandem-cli merge --json OUT FILES…`: joins the results files of a search's shards (`search
// --shard K/N --json`, one per job of an array) into the results file of the whole search —
// the same file one process would have written, apart from the elapsed time and thread count
// (ARCHITECTURE.md §4.6). The plans and baselines are derived again from all points, which
// needs the models the run names. Refused with exit 2, saying why: a file that is not a shard,
// shards of different searches (which part differs: version, models, model files, space,
// hardware and cluster, training, explorer, cost model), different shard counts, a shard given
// twice or missing, a shard that was interrupted, or a point outside its shard.
#include "app/cli/command.h"

namespace tandem::cli {

Command mergeCommand();

}  // namespace tandem::cli
