// Names of image channel orders and types, memory flags and memory object types, as the CL_* macros spell
// them.
#include "clscope/deviceinfo.h"

#include <CL/cl_ext.h>

namespace clscope {
namespace {

// Image formats of extensions that the 2023.02.06 headers do not define.
constexpr cl_channel_type kUnsignedIntRaw10Ext = 0x10E3; // cl_ext_image_raw10_raw12
constexpr cl_channel_type kUnsignedIntRaw12Ext = 0x10E4; // cl_ext_image_raw10_raw12
constexpr cl_channel_type kUnormInt2_101010Ext = 0x10E5; // cl_ext_image_unorm_int_2_101010

} // namespace

std::string_view channelOrderName(cl_channel_order order)
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
    case CL_Rx:
        return "CL_Rx";
    case CL_RGx:
        return "CL_RGx";
    case CL_RGBx:
        return "CL_RGBx";
    case CL_DEPTH:
        return "CL_DEPTH";
    case CL_DEPTH_STENCIL:
        return "CL_DEPTH_STENCIL";
    case CL_sRGB:
        return "CL_sRGB";
    case CL_sRGBx:
        return "CL_sRGBx";
    case CL_sRGBA:
        return "CL_sRGBA";
    case CL_sBGRA:
        return "CL_sBGRA";
    case CL_ABGR:
        return "CL_ABGR";
    case CL_NV21_IMG:
        return "CL_NV21_IMG";
    case CL_YV12_IMG:
        return "CL_YV12_IMG";
    case CL_YUYV_INTEL:
        return "CL_YUYV_INTEL";
    case CL_UYVY_INTEL:
        return "CL_UYVY_INTEL";
    case CL_YVYU_INTEL:
        return "CL_YVYU_INTEL";
    case CL_VYUY_INTEL:
        return "CL_VYUY_INTEL";
    case CL_NV12_INTEL:
        return "CL_NV12_INTEL";
    default:
        return {};
    }
}

std::string_view channelTypeName(cl_channel_type type)
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
    case CL_UNORM_SHORT_565:
        return "CL_UNORM_SHORT_565";
    case CL_UNORM_SHORT_555:
        return "CL_UNORM_SHORT_555";
    case CL_UNORM_INT_101010:
        return "CL_UNORM_INT_101010";
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
    case CL_UNORM_INT24:
        return "CL_UNORM_INT24";
    case CL_UNORM_INT_101010_2:
        return "CL_UNORM_INT_101010_2";
    case kUnsignedIntRaw10Ext:
        return "CL_UNSIGNED_INT_RAW10_EXT";
    case kUnsignedIntRaw12Ext:
        return "CL_UNSIGNED_INT_RAW12_EXT";
    case kUnormInt2_101010Ext:
        return "CL_UNORM_INT_2_101010_EXT";
    default:
        return {};
    }
}

std::string_view memFlagName(cl_mem_flags flags)
{
    switch (flags) {
    case CL_MEM_READ_WRITE:
        return "CL_MEM_READ_WRITE";
    case CL_MEM_WRITE_ONLY:
        return "CL_MEM_WRITE_ONLY";
    case CL_MEM_READ_ONLY:
        return "CL_MEM_READ_ONLY";
    case CL_MEM_USE_HOST_PTR:
        return "CL_MEM_USE_HOST_PTR";
    case CL_MEM_ALLOC_HOST_PTR:
        return "CL_MEM_ALLOC_HOST_PTR";
    case CL_MEM_COPY_HOST_PTR:
        return "CL_MEM_COPY_HOST_PTR";
    case CL_MEM_HOST_WRITE_ONLY:
        return "CL_MEM_HOST_WRITE_ONLY";
    case CL_MEM_HOST_READ_ONLY:
        return "CL_MEM_HOST_READ_ONLY";
    case CL_MEM_HOST_NO_ACCESS:
        return "CL_MEM_HOST_NO_ACCESS";
    case CL_MEM_KERNEL_READ_AND_WRITE:
        return "CL_MEM_KERNEL_READ_AND_WRITE";
    default:
        return {};
    }
}

std::string_view imageTypeName(cl_mem_object_type type)
{
    switch (type) {
    case CL_MEM_OBJECT_BUFFER:
        return "CL_MEM_OBJECT_BUFFER";
    case CL_MEM_OBJECT_IMAGE2D:
        return "CL_MEM_OBJECT_IMAGE2D";
    case CL_MEM_OBJECT_IMAGE3D:
        return "CL_MEM_OBJECT_IMAGE3D";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        return "CL_MEM_OBJECT_IMAGE2D_ARRAY";
    case CL_MEM_OBJECT_IMAGE1D:
        return "CL_MEM_OBJECT_IMAGE1D";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        return "CL_MEM_OBJECT_IMAGE1D_ARRAY";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        return "CL_MEM_OBJECT_IMAGE1D_BUFFER";
    case CL_MEM_OBJECT_PIPE:
        return "CL_MEM_OBJECT_PIPE";
    default:
        return {};
    }
}

} // namespace clscope
