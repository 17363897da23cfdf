// The kernel's images and samplers by the addresses its variables hold (debugobjects.h).
#include "debugobjects.h"

#include "Kernel.h"
#include "Memory.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstring>
#include <map>

namespace clscope::debugplugin {
namespace {

// The images of the kernel that runs: Oclgrind's descriptions, by the address a kernel argument carries.
std::map<std::size_t, oclgrind::Image> g_images;
// Its samplers' bits, by the address of the llvm::ConstantInt that holds them.
std::map<std::size_t, std::uint32_t> g_samplers;

// Oclgrind's sampler bits (its common.h, the same as clang's opencl-c-base.h).
constexpr std::uint32_t kNormalized = 0x1, kAddressMask = 0xE, kFilterLinear = 0x20;

// The names core's clnames.cpp also has: the plugin links Oclgrind and LLVM and nothing of ours (it is loaded
// into any program that Oclgrind runs), so it keeps its own short table of the formats Oclgrind supports.
const char *channelOrderName(cl_channel_order order)
{
    switch (order) {
    case CL_R:
        return "CL_R";
    case CL_A:
        return "CL_A";
    case CL_RG:
        return "CL_RG";
    case CL_RA:
        return "CL_RA";
    case CL_RGB:
        return "CL_RGB";
    case CL_RGBA:
        return "CL_RGBA";
    case CL_BGRA:
        return "CL_BGRA";
    case CL_ARGB:
        return "CL_ARGB";
    case CL_INTENSITY:
        return "CL_INTENSITY";
    case CL_LUMINANCE:
        return "CL_LUMINANCE";
    default:
        return "order ?";
    }
}

const char *channelTypeName(cl_channel_type type)
{
    switch (type) {
    case CL_SNORM_INT8:
        return "CL_SNORM_INT8";
    case CL_SNORM_INT16:
        return "CL_SNORM_INT16";
    case CL_UNORM_INT8:
        return "CL_UNORM_INT8";
    case CL_UNORM_INT16:
        return "CL_UNORM_INT16";
    case CL_SIGNED_INT8:
        return "CL_SIGNED_INT8";
    case CL_SIGNED_INT16:
        return "CL_SIGNED_INT16";
    case CL_SIGNED_INT32:
        return "CL_SIGNED_INT32";
    case CL_UNSIGNED_INT8:
        return "CL_UNSIGNED_INT8";
    case CL_UNSIGNED_INT16:
        return "CL_UNSIGNED_INT16";
    case CL_UNSIGNED_INT32:
        return "CL_UNSIGNED_INT32";
    case CL_HALF_FLOAT:
        return "CL_HALF_FLOAT";
    case CL_FLOAT:
        return "CL_FLOAT";
    default:
        return "type ?";
    }
}

const llvm::StructType *pointeeStruct(const llvm::Type *type)
{
    const auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
    if (!pointer || pointer->isOpaque())
        return nullptr;
    const auto *target = llvm::dyn_cast<llvm::StructType>(pointer->getNonOpaquePointerElementType());
    return target && target->hasName() ? target : nullptr;
}

void addSampler(const llvm::Value *value)
{
    if (const auto *bits = llvm::dyn_cast_or_null<llvm::ConstantInt>(value);
        bits && bits->getBitWidth() <= 32)
        g_samplers[reinterpret_cast<std::size_t>(bits)] = std::uint32_t(bits->getZExtValue());
}

} // namespace

void setKernelObjects(const oclgrind::Kernel *kernel)
{
    g_images.clear();
    g_samplers.clear();
    for (auto v = kernel->values_begin(); v != kernel->values_end(); ++v) {
        const auto *argument = llvm::dyn_cast<llvm::Argument>(v->first);
        const llvm::StructType *target = argument ? pointeeStruct(argument->getType()) : nullptr;
        if (!target || !v->second.data || v->second.size != sizeof(void *))
            continue;
        const void *address = nullptr;
        std::memcpy(&address, v->second.data, sizeof address);
        if (!address)
            continue;
        if (target->getName().startswith("opencl.image"))
            g_images.emplace(reinterpret_cast<std::size_t>(address),
                             *static_cast<const oclgrind::Image *>(address));
        else if (target->getName().startswith("opencl.sampler"))
            addSampler(static_cast<const llvm::Value *>(address)); // oclgrind::Kernel made it a ConstantInt
    }
    // Samplers initialised in the source: each use calls __translate_sampler_initializer(i32 BITS), which
    // Oclgrind answers with the address of that operand.
    const llvm::Module *module = kernel->getFunction()->getParent();
    if (const llvm::Function *translate = module->getFunction("__translate_sampler_initializer"))
        for (const llvm::User *user : translate->users())
            if (const auto *call = llvm::dyn_cast<llvm::CallInst>(user); call && call->arg_size() == 1)
                addSampler(call->getArgOperand(0));
}

std::string imageText(std::uint64_t address)
{
    const auto found = g_images.find(std::size_t(address));
    if (found == g_images.end())
        return "an image (its description is not known here)";
    const oclgrind::Image &image = found->second;
    const cl_image_desc &d = image.desc;
    std::string dims = std::to_string(d.image_width);
    std::string kind = "image1d";
    switch (d.image_type) {
    case CL_MEM_OBJECT_IMAGE2D:
        kind = "image2d", dims += " x " + std::to_string(d.image_height);
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        kind = "image3d",
        dims += " x " + std::to_string(d.image_height) + " x " + std::to_string(d.image_depth);
        break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        kind = "image2d_array", dims += " x " + std::to_string(d.image_height) + ", " +
                                        std::to_string(d.image_array_size) + " layers";
        break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        kind = "image1d_array", dims += ", " + std::to_string(d.image_array_size) + " layers";
        break;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        kind = "image1d_buffer";
        break;
    default:
        break;
    }
    return kind + " " + dims + ", " + channelOrderName(image.format.image_channel_order) + " " +
           channelTypeName(image.format.image_channel_data_type) + " (pixels not shown)";
}

std::optional<std::string> samplerText(std::uint64_t address)
{
    const auto found = g_samplers.find(std::size_t(address));
    if (found == g_samplers.end())
        return std::nullopt;
    const std::uint32_t bits = found->second;
    std::string text = bits & kNormalized ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE";
    switch (bits & kAddressMask) {
    case 0x0:
        text += " | CLK_ADDRESS_NONE";
        break;
    case 0x2:
        text += " | CLK_ADDRESS_CLAMP_TO_EDGE";
        break;
    case 0x4:
        text += " | CLK_ADDRESS_CLAMP";
        break;
    case 0x6:
        text += " | CLK_ADDRESS_REPEAT";
        break;
    case 0x8:
        text += " | CLK_ADDRESS_MIRRORED_REPEAT";
        break;
    default:
        text += " | addressing ?";
        break;
    }
    text += bits & kFilterLinear ? " | CLK_FILTER_LINEAR" : " | CLK_FILTER_NEAREST";
    return text;
}

} // namespace clscope::debugplugin
