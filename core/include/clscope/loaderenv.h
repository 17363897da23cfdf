// The OpenCL loader's view of the machine, prepared before the first OpenCL call: Debian's oclgrind
// package installs Oclgrind's ICD library but registers no .icd file, so the loader never lists it.
#pragma once

#include <string>
#include <vector>

namespace clscope {

// When the user set none of OCL_ICD_VENDORS, OPENCL_VENDOR_PATH and OCL_ICD_FILENAMES, and Oclgrind is
// installed but not registered, points OCL_ICD_VENDORS at a private folder holding the system's .icd files
// plus one for Oclgrind, so Oclgrind is a platform like any other (`--device oclgrind`, the device tree).
// Call it at the start of main, before any thread starts (it sets an environment variable). Returns the
// folder, or empty when nothing needed to change or the folder could not be made (then nothing changes).
std::string registerInstalledPlatforms();

// The environment variables this process set for itself where the user had none (registerInstalledPlatforms'
// OCL_ICD_VENDORS, the GUI's OCLGRIND_LOG): a program it starts to capture gets them removed, so that it
// sees OpenCL as the user's machine has it. Call noteOwnVariable before any thread starts.
void noteOwnVariable(const std::string &name);
std::vector<std::string> ownVariables();

} // namespace clscope
