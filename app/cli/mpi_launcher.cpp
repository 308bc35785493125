#include <cstdlib>
#include <string>

#include "app/cli/mpi_job.h"

namespace tandem::cli {

int launcherRankCount() {
    auto number = [](const char* name) {
        const char* value = std::getenv(name);
        if (value == nullptr || *value == '\0') return 0L;
        char* end = nullptr;
        const long n = std::strtol(value, &end, 10);
        return *end == '\0' && n > 0 && n < (1L << 30) ? n : 0L;
    };
    // Open MPI's mpirun; MPICH's launchers (PMI); Slurm's srun with PMIx or PMI-2, which names
    // the rank in the PMIx/PMI variables and the task count in SLURM_NTASKS.
    if (const long n = number("OMPI_COMM_WORLD_SIZE")) return int(n);
    if (const long n = number("PMI_SIZE")) return int(n);
    if (std::getenv("PMIX_RANK") != nullptr || std::getenv("PMI_RANK") != nullptr)
        if (const long n = number("SLURM_NTASKS")) return int(n);
    return 0;
}

}  // namespace tandem::cli
