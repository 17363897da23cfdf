// The opaque objects of the kernel that runs, as a variable of the kernel holds them: Oclgrind passes an
// image as the address of its description (oclgrind::Image) and a sampler as the address of an
// llvm::ConstantInt that holds its bits (a sampler argument's, made by oclgrind::Kernel, and a sampler
// initialised in the source, __translate_sampler_initializer's operand). Only addresses collected when the
// kernel begins are described: a value that matches none is never followed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace oclgrind {
class Kernel;
} // namespace oclgrind

namespace clscope::debugplugin {

// Collects the kernel's image arguments and every sampler it can hold, when it begins.
void setKernelObjects(const oclgrind::Kernel *kernel);

// "image2d 40 x 30, CL_RGBA CL_UNSIGNED_INT8 (pixels not shown)"; "an image (its description is not known
// here)" for an address that is none of the kernel's images.
std::string imageText(std::uint64_t address);

// "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR", as the source would write it;
// nothing for an address that is none of the kernel's samplers.
std::optional<std::string> samplerText(std::uint64_t address);

} // namespace clscope::debugplugin
