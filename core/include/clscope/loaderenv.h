// The OpenCL loader's view of the machine, prepared before the first OpenCL call: every driver tried in a
// child first (icdprobe.h), so one that crashes or hangs is skipped instead of taking the process down;
// and Oclgrind registered when Debian's oclgrind package installed its ICD library but no .icd file.
#pragma once

#include "clscope/icdprobe.h"

#include <string>
#include <vector>

namespace clscope {

// What prepareLoader found and changed.
struct LoaderSetup
{
    std::vector<IcdProbe> probes; // every driver the loader would load, in order; NotRun when not tried
    std::string vendorsFolder;    // where OCL_ICD_VENDORS points now, when prepareLoader changed it
    // Why the drivers were not tried although the probe was on (no probe executable, no temporary
    // folder), or why the loader could not be pointed at the good ones; "" when all went to plan.
    std::string note;

    // The probes whose drivers this process does not load (IcdProbe::skipped).
    std::vector<const IcdProbe *> skipped() const;
};

// Call at the start of main, before any thread starts and before any OpenCL call (it sets environment
// variables, and the loader reads them once). Lists the drivers the loader would load (loaderIcds), adds
// Oclgrind when it is installed but not registered and the user set none of OCL_ICD_VENDORS,
// OPENCL_VENDOR_PATH and OCL_ICD_FILENAMES, and probes each in a child (`probeExecutable --probe-icd`;
// CLSCOPE_ICD_PROBE=PATH names another, =0 turns the probe off; by default clscope-cli next to this
// process's executable) within CLSCOPE_ICD_PROBE_TIMEOUT seconds (10). When a driver is skipped, or
// Oclgrind is added, OCL_ICD_VENDORS is pointed at a private folder holding the good .icd files only and
// OCL_ICD_FILENAMES keeps only the good libraries; otherwise nothing changes. Runs once per process: later
// calls return the first result. Never throws.
const LoaderSetup &prepareLoader(const std::string &probeExecutable = {});

// What prepareLoader did in this process, or null when it has not run (tests, the probe child).
const LoaderSetup *loaderSetup();

// prepareLoader() with the default probe executable; returns the folder OCL_ICD_VENDORS now names, or
// empty when nothing changed.
std::string registerInstalledPlatforms();

// This process's executable (/proc/self/exe), or empty.
std::string selfExecutable();

// The environment variables this process set for itself where the user had none (prepareLoader's
// OCL_ICD_VENDORS, the GUI's OCLGRIND_LOG): a program it starts to capture gets them removed, so that it
// sees OpenCL as the user's machine has it. Call noteOwnVariable before any thread starts.
void noteOwnVariable(const std::string &name);
std::vector<std::string> ownVariables();

} // namespace clscope
