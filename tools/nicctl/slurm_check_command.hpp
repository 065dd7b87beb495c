// `nicctl slurm-check`: nicd's verdict to Slurm. slurmd runs it as HealthCheckProgram (through
// /usr/share/nicd/slurm/nicd-slurm-health-check) to drain a node whose compute NIC is fatal and
// resume it once nicd has been healthy for ResumeAfterSec, and as Prolog (--prolog, through
// nicd-slurm-prolog) to refuse a job on such a node at once. Settings: slurm_settings.hpp.
//
// Exit status: 0 the node may run jobs; 1 it may not (drained, left drained, or, as Prolog, the
// job refused: Slurm then drains the node and requeues the job); 2 Slurm could not be asked or
// told (scontrol failed); 3 nicd cannot be asked (Unreachable=ignore; as Prolog this is 0, the job
// runs); 4 the node may run jobs but is degraded (DrainOn=fatal) or not judged yet (as Prolog: 0).
// slurmd logs the output of a health check only when it exits non-zero, and acts on none.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace nicctl {

// Adds the subcommand to `app`; it runs when parsed and ends nicctl with its exit status. `bus`:
// nicctl's --bus, read when the subcommand runs.
void addSlurmCheck(CLI::App& app, const std::string& bus);

} // namespace nicctl
