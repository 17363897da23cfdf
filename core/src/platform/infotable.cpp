// The rows of the info table: every platform and device parameter of OpenCL 1.0-3.0 and of the common
// KHR, EXT and vendor extensions, in the order clinfo prints them.
#include "clscope/infotable.h"

#include <CL/cl_ext.h>

#include <cstddef>

namespace clscope {
namespace {

using K = ValueKind;
using G = InfoGroup;
using D = Display;

// Parameters whose macros the 2023.02.06 Khronos headers lack. Values from the vendors' extension
// specifications (and clinfo's ext.h, which carries the same numbers).
constexpr cl_uint kPlatformCommandBufferCapabilitiesKhr = 0x0908; // cl_khr_command_buffer_multi_device
constexpr cl_uint kPlatformUnloadableKhr = 0x0921;                // cl_khr_icd 2.0
constexpr cl_uint kPlatformMaxKeysAmd = 0x403C;                   // cl_amd_object_metadata
constexpr cl_uint kDeviceTerminateCapabilityKhr1x = 0x200F;       // cl_khr_terminate_context, 1.x value
constexpr cl_uint kDeviceKernelClockCapabilitiesKhr = 0x1076;     // cl_khr_kernel_clock
constexpr cl_uint kDeviceCommandBufferSupportedQueuePropertiesKhr = 0x129A; // cl_khr_command_buffer 0.9.5
constexpr cl_uint kDeviceCommandBufferNumSyncDevicesKhr = 0x12AB; // cl_khr_command_buffer_multi_device
constexpr cl_uint kDeviceCommandBufferSyncDevicesKhr = 0x12AC;    // cl_khr_command_buffer_multi_device
constexpr cl_uint kDeviceAttributeAsyncEngineCountNv = 0x4007;    // cl_nv_device_attribute_query
constexpr cl_uint kDevicePciBusIdNv = 0x4008;                     // cl_nv_device_attribute_query
constexpr cl_uint kDevicePciSlotIdNv = 0x4009;                    // cl_nv_device_attribute_query
constexpr cl_uint kDevicePciDomainIdNv = 0x400A;                  // cl_nv_device_attribute_query
constexpr cl_uint kDeviceMaxRealTimeComputeQueuesAmd = 0x404D; // cl_amd_device_attribute_query (undocumented)
constexpr cl_uint kDeviceMaxRealTimeComputeUnitsAmd = 0x404E;  // cl_amd_device_attribute_query (undocumented)
constexpr cl_uint kDeviceNumP2pDevicesAmd = 0x4088;            // cl_amd_copy_buffer_p2p
constexpr cl_uint kDeviceP2pDevicesAmd = 0x4089;               // cl_amd_copy_buffer_p2p
constexpr cl_uint kDeviceCoreTemperatureAltera = 0x40F3;       // cl_altera_device_temperature
constexpr cl_uint kDeviceSingleFpAtomicCapabilitiesExt = 0x4231; // cl_ext_float_atomics
constexpr cl_uint kDeviceDoubleFpAtomicCapabilitiesExt = 0x4232; // cl_ext_float_atomics
constexpr cl_uint kDeviceHalfFpAtomicCapabilitiesExt = 0x4233;   // cl_ext_float_atomics

// Flag bits missing from the same headers.
constexpr std::uint64_t kTerminateCapabilityContextKhr = 1u << 0;           // cl_khr_terminate_context
constexpr std::uint64_t kCommandBufferCapabilityMultipleQueueKhr = 1u << 4; // multi_device
constexpr std::uint64_t kCommandBufferPlatformUniversalSyncKhr = 1u << 0;
constexpr std::uint64_t kCommandBufferPlatformRemapQueuesKhr = 1u << 1;
constexpr std::uint64_t kCommandBufferPlatformAutomaticRemapKhr = 1u << 2;
constexpr std::uint64_t kKernelClockScopeDeviceKhr = 1u << 0;
constexpr std::uint64_t kKernelClockScopeWorkGroupKhr = 1u << 1;
constexpr std::uint64_t kKernelClockScopeSubGroupKhr = 1u << 2;
constexpr std::uint64_t kGlobalFpAtomicLoadStoreExt = 1u << 0;
constexpr std::uint64_t kGlobalFpAtomicAddExt = 1u << 1;
constexpr std::uint64_t kGlobalFpAtomicMinMaxExt = 1u << 2;
constexpr std::uint64_t kLocalFpAtomicLoadStoreExt = 1u << 16;
constexpr std::uint64_t kLocalFpAtomicAddExt = 1u << 17;
constexpr std::uint64_t kLocalFpAtomicMinMaxExt = 1u << 18;
constexpr std::uint64_t kSchedulingComputeUnitLimitArm = 1u << 7; // cl_arm_scheduling_controls 0.5

// Row shorthands: no extension gate, no flag names.
constexpr std::string_view kCore{};
constexpr std::span<const FlagName> kNoFlags{};

constexpr std::uint8_t kSizeT = sizeof(size_t);
constexpr std::uint8_t kPartitionProperty = sizeof(cl_device_partition_property);
constexpr std::uint8_t kPartitionPropertyExt = sizeof(cl_device_partition_property_ext);
constexpr std::uint8_t kDeviceId = sizeof(cl_device_id);
constexpr std::uint8_t kUint = sizeof(cl_uint);

// Name tables for bitfields and enums.

constexpr FlagName kDeviceTypeFlags[] = {
    {CL_DEVICE_TYPE_DEFAULT, "CL_DEVICE_TYPE_DEFAULT", "Default"},
    {CL_DEVICE_TYPE_CPU, "CL_DEVICE_TYPE_CPU", "CPU"},
    {CL_DEVICE_TYPE_GPU, "CL_DEVICE_TYPE_GPU", "GPU"},
    {CL_DEVICE_TYPE_ACCELERATOR, "CL_DEVICE_TYPE_ACCELERATOR", "Accelerator"},
    {CL_DEVICE_TYPE_CUSTOM, "CL_DEVICE_TYPE_CUSTOM", "Custom"},
};

constexpr FlagName kFpConfigFlags[] = {
    {CL_FP_DENORM, "CL_FP_DENORM", "Denormals"},
    {CL_FP_INF_NAN, "CL_FP_INF_NAN", "INF and NaN"},
    {CL_FP_ROUND_TO_NEAREST, "CL_FP_ROUND_TO_NEAREST", "Round to nearest"},
    {CL_FP_ROUND_TO_ZERO, "CL_FP_ROUND_TO_ZERO", "Round to zero"},
    {CL_FP_ROUND_TO_INF, "CL_FP_ROUND_TO_INF", "Round to infinity"},
    {CL_FP_FMA, "CL_FP_FMA", "FMA"},
    {CL_FP_SOFT_FLOAT, "CL_FP_SOFT_FLOAT", "Soft float"},
    {CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, "CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT",
     "Correctly rounded divide/sqrt"},
};

constexpr FlagName kCacheTypeNames[] = {
    {CL_NONE, "CL_NONE", "None"},
    {CL_READ_ONLY_CACHE, "CL_READ_ONLY_CACHE", "Read-only cache"},
    {CL_READ_WRITE_CACHE, "CL_READ_WRITE_CACHE", "Read/write cache"},
};

constexpr FlagName kLocalMemTypeNames[] = {
    {CL_NONE, "CL_NONE", "None"},
    {CL_LOCAL, "CL_LOCAL", "Local"},
    {CL_GLOBAL, "CL_GLOBAL", "Global"},
};

constexpr FlagName kExecCapabilityFlags[] = {
    {CL_EXEC_KERNEL, "CL_EXEC_KERNEL", "Kernel"},
    {CL_EXEC_NATIVE_KERNEL, "CL_EXEC_NATIVE_KERNEL", "Native kernel"},
};

constexpr FlagName kQueuePropertyFlags[] = {
    {CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE", "Out-of-order"},
    {CL_QUEUE_PROFILING_ENABLE, "CL_QUEUE_PROFILING_ENABLE", "Profiling"},
    {CL_QUEUE_ON_DEVICE, "CL_QUEUE_ON_DEVICE", "On device"},
    {CL_QUEUE_ON_DEVICE_DEFAULT, "CL_QUEUE_ON_DEVICE_DEFAULT", "On-device default"},
    {CL_QUEUE_NO_SYNC_OPERATIONS_INTEL, "CL_QUEUE_NO_SYNC_OPERATIONS_INTEL", "No sync operations (Intel)"},
    {CL_QUEUE_THREAD_LOCAL_EXEC_ENABLE_INTEL, "CL_QUEUE_THREAD_LOCAL_EXEC_ENABLE_INTEL",
     "Thread-local exec (Intel)"},
};

constexpr FlagName kPartitionPropertyNames[] = {
    {0, "CL_NONE", "None"}, // a device that cannot be partitioned answers {0}
    {CL_DEVICE_PARTITION_EQUALLY, "CL_DEVICE_PARTITION_EQUALLY", "Equally"},
    {CL_DEVICE_PARTITION_BY_COUNTS, "CL_DEVICE_PARTITION_BY_COUNTS", "By counts"},
    {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, "CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN", "By affinity domain"},
    {CL_DEVICE_PARTITION_BY_NAMES_INTEL, "CL_DEVICE_PARTITION_BY_NAMES_INTEL", "By names (Intel)"},
};

constexpr FlagName kAffinityDomainFlags[] = {
    {CL_DEVICE_AFFINITY_DOMAIN_NUMA, "CL_DEVICE_AFFINITY_DOMAIN_NUMA", "NUMA"},
    {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, "CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE", "L4 cache"},
    {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, "CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE", "L3 cache"},
    {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, "CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE", "L2 cache"},
    {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, "CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE", "L1 cache"},
    {CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, "CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE",
     "Next partitionable"},
};

constexpr FlagName kPartitionTypeExtNames[] = {
    {0, "CL_NONE", "None"},
    {CL_DEVICE_PARTITION_EQUALLY_EXT, "CL_DEVICE_PARTITION_EQUALLY_EXT", "Equally"},
    {CL_DEVICE_PARTITION_BY_COUNTS_EXT, "CL_DEVICE_PARTITION_BY_COUNTS_EXT", "By counts"},
    {CL_DEVICE_PARTITION_BY_NAMES_EXT, "CL_DEVICE_PARTITION_BY_NAMES_EXT", "By names"},
    {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT, "CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT",
     "By affinity domain"},
};

constexpr FlagName kAffinityDomainExtNames[] = {
    {CL_AFFINITY_DOMAIN_L1_CACHE_EXT, "CL_AFFINITY_DOMAIN_L1_CACHE_EXT", "L1 cache"},
    {CL_AFFINITY_DOMAIN_L2_CACHE_EXT, "CL_AFFINITY_DOMAIN_L2_CACHE_EXT", "L2 cache"},
    {CL_AFFINITY_DOMAIN_L3_CACHE_EXT, "CL_AFFINITY_DOMAIN_L3_CACHE_EXT", "L3 cache"},
    {CL_AFFINITY_DOMAIN_L4_CACHE_EXT, "CL_AFFINITY_DOMAIN_L4_CACHE_EXT", "L4 cache"},
    {CL_AFFINITY_DOMAIN_NUMA_EXT, "CL_AFFINITY_DOMAIN_NUMA_EXT", "NUMA"},
    {CL_AFFINITY_DOMAIN_NEXT_FISSIONABLE_EXT, "CL_AFFINITY_DOMAIN_NEXT_FISSIONABLE_EXT", "Next fissionable"},
};

constexpr FlagName kSvmCapabilityFlags[] = {
    {CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER", "Coarse-grain buffer"},
    {CL_DEVICE_SVM_FINE_GRAIN_BUFFER, "CL_DEVICE_SVM_FINE_GRAIN_BUFFER", "Fine-grain buffer"},
    {CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, "CL_DEVICE_SVM_FINE_GRAIN_SYSTEM", "Fine-grain system"},
    {CL_DEVICE_SVM_ATOMICS, "CL_DEVICE_SVM_ATOMICS", "Atomics"},
};

constexpr FlagName kSvmCapabilityArmFlags[] = {
    {CL_DEVICE_SVM_COARSE_GRAIN_BUFFER_ARM, "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER_ARM", "Coarse-grain buffer"},
    {CL_DEVICE_SVM_FINE_GRAIN_BUFFER_ARM, "CL_DEVICE_SVM_FINE_GRAIN_BUFFER_ARM", "Fine-grain buffer"},
    {CL_DEVICE_SVM_FINE_GRAIN_SYSTEM_ARM, "CL_DEVICE_SVM_FINE_GRAIN_SYSTEM_ARM", "Fine-grain system"},
    {CL_DEVICE_SVM_ATOMICS_ARM, "CL_DEVICE_SVM_ATOMICS_ARM", "Atomics"},
};

constexpr FlagName kAtomicCapabilityFlags[] = {
    {CL_DEVICE_ATOMIC_ORDER_RELAXED, "CL_DEVICE_ATOMIC_ORDER_RELAXED", "Relaxed"},
    {CL_DEVICE_ATOMIC_ORDER_ACQ_REL, "CL_DEVICE_ATOMIC_ORDER_ACQ_REL", "Acquire/release"},
    {CL_DEVICE_ATOMIC_ORDER_SEQ_CST, "CL_DEVICE_ATOMIC_ORDER_SEQ_CST", "Sequentially consistent"},
    {CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM, "CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM", "Work-item scope"},
    {CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP, "CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP", "Work-group scope"},
    {CL_DEVICE_ATOMIC_SCOPE_DEVICE, "CL_DEVICE_ATOMIC_SCOPE_DEVICE", "Device scope"},
    {CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES, "CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES", "All-devices scope"},
};

constexpr FlagName kFpAtomicCapabilityFlags[] = {
    {kGlobalFpAtomicLoadStoreExt, "CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT", "Global load/store"},
    {kGlobalFpAtomicAddExt, "CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT", "Global add"},
    {kGlobalFpAtomicMinMaxExt, "CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT", "Global min/max"},
    {kLocalFpAtomicLoadStoreExt, "CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT", "Local load/store"},
    {kLocalFpAtomicAddExt, "CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT", "Local add"},
    {kLocalFpAtomicMinMaxExt, "CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT", "Local min/max"},
};

constexpr FlagName kDeviceEnqueueCapabilityFlags[] = {
    {CL_DEVICE_QUEUE_SUPPORTED, "CL_DEVICE_QUEUE_SUPPORTED", "Supported"},
    {CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT, "CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT", "Replaceable default"},
};

constexpr FlagName kCommandBufferCapabilityFlags[] = {
    {CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR, "CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR",
     "Kernel printf"},
    {CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR,
     "CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR", "Device-side enqueue"},
    {CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR, "CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR",
     "Simultaneous use"},
    {CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR, "CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR",
     "Out-of-order"},
    {kCommandBufferCapabilityMultipleQueueKhr, "CL_COMMAND_BUFFER_CAPABILITY_MULTIPLE_QUEUE_KHR",
     "Multiple queues"},
};

constexpr FlagName kPlatformCommandBufferCapabilityFlags[] = {
    {kCommandBufferPlatformUniversalSyncKhr, "CL_COMMAND_BUFFER_PLATFORM_UNIVERSAL_SYNC_KHR",
     "Universal sync"},
    {kCommandBufferPlatformRemapQueuesKhr, "CL_COMMAND_BUFFER_PLATFORM_REMAP_QUEUES_KHR", "Remap queues"},
    {kCommandBufferPlatformAutomaticRemapKhr, "CL_COMMAND_BUFFER_PLATFORM_AUTOMATIC_REMAP_KHR",
     "Automatic remap"},
};

constexpr FlagName kMutableDispatchFlags[] = {
    {CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR, "CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR", "Global offset"},
    {CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, "CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR", "Global size"},
    {CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR, "CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR", "Local size"},
    {CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, "CL_MUTABLE_DISPATCH_ARGUMENTS_KHR", "Arguments"},
    {CL_MUTABLE_DISPATCH_EXEC_INFO_KHR, "CL_MUTABLE_DISPATCH_EXEC_INFO_KHR", "Exec info"},
};

constexpr FlagName kTerminateCapabilityFlags[] = {
    {kTerminateCapabilityContextKhr, "CL_DEVICE_TERMINATE_CAPABILITY_CONTEXT_KHR", "Context"},
};

constexpr FlagName kControlledTerminationArmFlags[] = {
    {CL_DEVICE_CONTROLLED_TERMINATION_SUCCESS_ARM, "CL_DEVICE_CONTROLLED_TERMINATION_SUCCESS_ARM", "Success"},
    {CL_DEVICE_CONTROLLED_TERMINATION_FAILURE_ARM, "CL_DEVICE_CONTROLLED_TERMINATION_FAILURE_ARM", "Failure"},
    {CL_DEVICE_CONTROLLED_TERMINATION_QUERY_ARM, "CL_DEVICE_CONTROLLED_TERMINATION_QUERY_ARM", "Query"},
};

constexpr FlagName kSchedulingControlsArmFlags[] = {
    {CL_DEVICE_SCHEDULING_KERNEL_BATCHING_ARM, "CL_DEVICE_SCHEDULING_KERNEL_BATCHING_ARM", "Kernel batching"},
    {CL_DEVICE_SCHEDULING_WORKGROUP_BATCH_SIZE_ARM, "CL_DEVICE_SCHEDULING_WORKGROUP_BATCH_SIZE_ARM",
     "Work-group batch size"},
    {CL_DEVICE_SCHEDULING_WORKGROUP_BATCH_SIZE_MODIFIER_ARM,
     "CL_DEVICE_SCHEDULING_WORKGROUP_BATCH_SIZE_MODIFIER_ARM", "Work-group batch size modifier"},
    {CL_DEVICE_SCHEDULING_DEFERRED_FLUSH_ARM, "CL_DEVICE_SCHEDULING_DEFERRED_FLUSH_ARM", "Deferred flush"},
    {CL_DEVICE_SCHEDULING_REGISTER_ALLOCATION_ARM, "CL_DEVICE_SCHEDULING_REGISTER_ALLOCATION_ARM",
     "Register allocation"},
    {CL_DEVICE_SCHEDULING_WARP_THROTTLING_ARM, "CL_DEVICE_SCHEDULING_WARP_THROTTLING_ARM", "Warp throttling"},
    {CL_DEVICE_SCHEDULING_COMPUTE_UNIT_BATCH_QUEUE_SIZE_ARM,
     "CL_DEVICE_SCHEDULING_COMPUTE_UNIT_BATCH_QUEUE_SIZE_ARM", "Compute-unit batch queue size"},
    {kSchedulingComputeUnitLimitArm, "CL_DEVICE_SCHEDULING_COMPUTE_UNIT_LIMIT_ARM", "Compute-unit limit"},
};

constexpr FlagName kUsmCapabilityFlags[] = {
    {CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL, "CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL", "Access"},
    {CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL, "CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL",
     "Atomic access"},
    {CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL, "CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL",
     "Concurrent access"},
    {CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL,
     "CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL", "Concurrent atomic access"},
};

constexpr FlagName kIntelFeatureFlags[] = {
    {CL_DEVICE_FEATURE_FLAG_DP4A_INTEL, "CL_DEVICE_FEATURE_FLAG_DP4A_INTEL", "DP4A"},
    {CL_DEVICE_FEATURE_FLAG_DPAS_INTEL, "CL_DEVICE_FEATURE_FLAG_DPAS_INTEL", "DPAS"},
};

constexpr FlagName kIntegerDotProductFlags[] = {
    {CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR,
     "CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR", "4x8-bit packed"},
    {CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR, "CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR",
     "4x8-bit"},
};

constexpr FlagName kKernelClockFlags[] = {
    {kKernelClockScopeDeviceKhr, "CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR", "Device"},
    {kKernelClockScopeWorkGroupKhr, "CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR", "Work-group"},
    {kKernelClockScopeSubGroupKhr, "CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR", "Sub-group"},
};

constexpr FlagName kExternalMemoryHandleNames[] = {
    {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, "CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR", "Opaque FD"},
    {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KHR, "CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KHR",
     "Opaque Win32"},
    {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KMT_KHR, "CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KMT_KHR",
     "Opaque Win32 KMT"},
    {CL_EXTERNAL_MEMORY_HANDLE_D3D11_TEXTURE_KHR, "CL_EXTERNAL_MEMORY_HANDLE_D3D11_TEXTURE_KHR",
     "D3D11 texture"},
    {CL_EXTERNAL_MEMORY_HANDLE_D3D11_TEXTURE_KMT_KHR, "CL_EXTERNAL_MEMORY_HANDLE_D3D11_TEXTURE_KMT_KHR",
     "D3D11 texture KMT"},
    {CL_EXTERNAL_MEMORY_HANDLE_D3D12_HEAP_KHR, "CL_EXTERNAL_MEMORY_HANDLE_D3D12_HEAP_KHR", "D3D12 heap"},
    {CL_EXTERNAL_MEMORY_HANDLE_D3D12_RESOURCE_KHR, "CL_EXTERNAL_MEMORY_HANDLE_D3D12_RESOURCE_KHR",
     "D3D12 resource"},
    {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR, "CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR", "DMA-BUF"},
};

constexpr FlagName kSemaphoreTypeNames[] = {
    {CL_SEMAPHORE_TYPE_BINARY_KHR, "CL_SEMAPHORE_TYPE_BINARY_KHR", "Binary"},
};

constexpr FlagName kSemaphoreHandleNames[] = {
    {CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, "CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR", "Opaque FD"},
    {CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KHR, "CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KHR", "Opaque Win32"},
    {CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KMT_KHR, "CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KMT_KHR",
     "Opaque Win32 KMT"},
    {CL_SEMAPHORE_HANDLE_SYNC_FD_KHR, "CL_SEMAPHORE_HANDLE_SYNC_FD_KHR", "Sync FD"},
    {CL_SEMAPHORE_HANDLE_D3D12_FENCE_KHR, "CL_SEMAPHORE_HANDLE_D3D12_FENCE_KHR", "D3D12 fence"},
};

// Rows whose minVersion is above 100 and that also name an extension are queried when either the
// version or the extension allows (deviceinfo.cpp, shouldQuery); rows with minVersion 100 and an
// extension need the extension. This is how clinfo gates them too (e.g. *_WITH_VERSION: OpenCL 3.0
// or cl_khr_extended_versioning).
constexpr InfoParam kPlatformParams[] = {
    {CL_PLATFORM_NAME, "CL_PLATFORM_NAME", "Name", K::String, G::Platform},
    {CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR", "Vendor", K::String, G::Platform},
    {CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION", "Version", K::String, G::Platform},
    {CL_PLATFORM_PROFILE, "CL_PLATFORM_PROFILE", "Profile", K::String, G::Platform},
    {CL_PLATFORM_EXTENSIONS, "CL_PLATFORM_EXTENSIONS", "Extensions", K::String, G::Platform, D::ExtList},
    {CL_PLATFORM_EXTENSIONS_WITH_VERSION, "CL_PLATFORM_EXTENSIONS_WITH_VERSION", "Extensions with version",
     K::NameVersionList, G::Platform, D::Plain, 300, "cl_khr_extended_versioning"},
    {CL_PLATFORM_NUMERIC_VERSION, "CL_PLATFORM_NUMERIC_VERSION", "Numeric version", K::Version, G::Platform,
     D::Plain, 300, "cl_khr_extended_versioning"},
    {CL_PLATFORM_ICD_SUFFIX_KHR, "CL_PLATFORM_ICD_SUFFIX_KHR", "Extension function suffix", K::String,
     G::Platform, D::Plain, 100, "cl_khr_icd"},
    {kPlatformUnloadableKhr, "CL_PLATFORM_UNLOADABLE_KHR", "Unloadable", K::Bool, G::Platform, D::Plain, 100,
     "cl_khr_icd"},
    {kPlatformMaxKeysAmd, "CL_PLATFORM_MAX_KEYS_AMD", "Max metadata object keys (AMD)", K::Integer,
     G::Platform, D::Plain, 100, "cl_amd_object_metadata"},
    {CL_PLATFORM_HOST_TIMER_RESOLUTION, "CL_PLATFORM_HOST_TIMER_RESOLUTION", "Host timer resolution",
     K::Integer, G::Platform, D::Nanosecs, 210},
    {CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR,
     "CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR", "External memory handle types", K::EnumArray,
     G::Platform, D::Plain, 100, "cl_khr_external_memory", kExternalMemoryHandleNames, kUint},
    {CL_PLATFORM_SEMAPHORE_TYPES_KHR, "CL_PLATFORM_SEMAPHORE_TYPES_KHR", "Semaphore types", K::EnumArray,
     G::Platform, D::Plain, 100, "cl_khr_semaphore", kSemaphoreTypeNames, kUint},
    {CL_PLATFORM_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR, "CL_PLATFORM_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR",
     "Semaphore import handle types", K::EnumArray, G::Platform, D::Plain, 100, "cl_khr_external_semaphore",
     kSemaphoreHandleNames, kUint},
    {CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, "CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR",
     "Semaphore export handle types", K::EnumArray, G::Platform, D::Plain, 100, "cl_khr_external_semaphore",
     kSemaphoreHandleNames, kUint},
    {kPlatformCommandBufferCapabilitiesKhr, "CL_PLATFORM_COMMAND_BUFFER_CAPABILITIES_KHR",
     "Command buffer capabilities", K::Bitfield, G::Platform, D::Plain, 100,
     "cl_khr_command_buffer_multi_device", kPlatformCommandBufferCapabilityFlags},
};

constexpr InfoParam kDeviceParams[] = {
    // Identity and versions.
    {CL_DEVICE_NAME, "CL_DEVICE_NAME", "Name", K::String, G::General},
    {CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR", "Vendor", K::String, G::General},
    {CL_DEVICE_VENDOR_ID, "CL_DEVICE_VENDOR_ID", "Vendor ID", K::Integer, G::General, D::Hex},
    {CL_DEVICE_VERSION, "CL_DEVICE_VERSION", "Version", K::String, G::General},
    {CL_DEVICE_UUID_KHR, "CL_DEVICE_UUID_KHR", "Device UUID", K::Bytes, G::Vendor, D::Plain, 100,
     "cl_khr_device_uuid", kNoFlags, 1},
    {CL_DRIVER_UUID_KHR, "CL_DRIVER_UUID_KHR", "Driver UUID", K::Bytes, G::Vendor, D::Plain, 100,
     "cl_khr_device_uuid", kNoFlags, 1},
    {CL_DEVICE_LUID_VALID_KHR, "CL_DEVICE_LUID_VALID_KHR", "LUID valid", K::Bool, G::Vendor, D::Plain, 100,
     "cl_khr_device_uuid"},
    {CL_DEVICE_LUID_KHR, "CL_DEVICE_LUID_KHR", "Device LUID", K::Bytes, G::Vendor, D::Plain, 100,
     "cl_khr_device_uuid", kNoFlags, 1},
    {CL_DEVICE_NODE_MASK_KHR, "CL_DEVICE_NODE_MASK_KHR", "Node mask", K::Integer, G::Vendor, D::Hex, 100,
     "cl_khr_device_uuid"},
    {CL_DEVICE_NUMERIC_VERSION, "CL_DEVICE_NUMERIC_VERSION", "Numeric version", K::Version, G::General,
     D::Plain, 300, "cl_khr_extended_versioning"},
    {CL_DRIVER_VERSION, "CL_DRIVER_VERSION", "Driver version", K::String, G::General},
    {CL_DEVICE_OPENCL_C_VERSION, "CL_DEVICE_OPENCL_C_VERSION", "OpenCL C version", K::String, G::General,
     D::Plain, 110},
    {CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, "CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR",
     "OpenCL C numeric version", K::Version, G::General, D::Plain, 100, "cl_khr_extended_versioning"},
    {CL_DEVICE_OPENCL_C_ALL_VERSIONS, "CL_DEVICE_OPENCL_C_ALL_VERSIONS", "OpenCL C versions",
     K::NameVersionList, G::Features30, D::Plain, 300},
    {CL_DEVICE_OPENCL_C_FEATURES, "CL_DEVICE_OPENCL_C_FEATURES", "OpenCL C features", K::NameVersionList,
     G::Features30, D::Plain, 300},
    {CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT, "CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT",
     "C++ for OpenCL version", K::Version, G::General, D::Plain, 100, "cl_ext_cxx_for_opencl"},
    {CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, "CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED",
     "Latest conformance test passed", K::String, G::Features30, D::Plain, 300},
    {CL_DEVICE_TYPE, "CL_DEVICE_TYPE", "Type", K::Bitfield, G::General, D::Plain, 100, kCore,
     kDeviceTypeFlags},

    // Board and bus location.
    {CL_DEVICE_BOARD_NAME_AMD, "CL_DEVICE_BOARD_NAME_AMD", "Board name (AMD)", K::String, G::Vendor, D::Plain,
     100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_PCIE_ID_AMD, "CL_DEVICE_PCIE_ID_AMD", "PCIe ID (AMD)", K::Integer, G::Vendor, D::Hex, 100,
     "cl_amd_device_attribute_query"},
    {CL_DEVICE_TOPOLOGY_AMD, "CL_DEVICE_TOPOLOGY_AMD", "Topology (AMD)", K::AmdTopology, G::Vendor, D::Plain,
     100, "cl_amd_device_attribute_query"},
    {kDevicePciBusIdNv, "CL_DEVICE_PCI_BUS_ID_NV", "PCI bus (NV)", K::Integer, G::Vendor, D::Hex, 100,
     "cl_nv_device_attribute_query"},
    {kDevicePciSlotIdNv, "CL_DEVICE_PCI_SLOT_ID_NV", "PCI slot (NV)", K::Integer, G::Vendor, D::Hex, 100,
     "cl_nv_device_attribute_query"},
    {kDevicePciDomainIdNv, "CL_DEVICE_PCI_DOMAIN_ID_NV", "PCI domain (NV)", K::Integer, G::Vendor, D::Hex,
     100, "cl_nv_device_attribute_query"},
    {CL_DEVICE_PCI_BUS_INFO_KHR, "CL_DEVICE_PCI_BUS_INFO_KHR", "PCI bus info", K::PciBusInfo, G::Vendor,
     D::Plain, 100, "cl_khr_pci_bus_info"},

    {CL_DEVICE_PROFILE, "CL_DEVICE_PROFILE", "Profile", K::String, G::General},
    {CL_DEVICE_AVAILABLE, "CL_DEVICE_AVAILABLE", "Available", K::Bool, G::General},
    {CL_DEVICE_COMPILER_AVAILABLE, "CL_DEVICE_COMPILER_AVAILABLE", "Compiler available", K::Bool, G::General},
    {CL_DEVICE_LINKER_AVAILABLE, "CL_DEVICE_LINKER_AVAILABLE", "Linker available", K::Bool, G::General,
     D::Plain, 120},
    {CL_DEVICE_PLATFORM, "CL_DEVICE_PLATFORM", "Platform handle", K::Integer, G::General, D::Hex},
    {CL_DEVICE_PARENT_DEVICE, "CL_DEVICE_PARENT_DEVICE", "Parent device handle", K::Integer, G::General,
     D::Hex, 120},
    {CL_DEVICE_REFERENCE_COUNT, "CL_DEVICE_REFERENCE_COUNT", "Reference count", K::Integer, G::General,
     D::Plain, 120},

    // Compute units and clock.
    {CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS", "Max compute units", K::Integer, G::Compute},
    {CL_DEVICE_COMPUTE_UNITS_BITFIELD_ARM, "CL_DEVICE_COMPUTE_UNITS_BITFIELD_ARM", "Available core IDs (ARM)",
     K::Integer, G::Vendor, D::Hex, 100, "cl_arm_core_id"},
    {CL_DEVICE_JOB_SLOTS_ARM, "CL_DEVICE_JOB_SLOTS_ARM", "Available job slots (ARM)", K::Integer, G::Vendor,
     D::Hex, 100, "cl_arm_job_slot_selection"},
    {CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD, "CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD",
     "SIMDs per compute unit (AMD)", K::Integer, G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_SIMD_WIDTH_AMD, "CL_DEVICE_SIMD_WIDTH_AMD", "SIMD width (AMD)", K::Integer, G::Vendor,
     D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD, "CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD",
     "SIMD instruction width (AMD)", K::Integer, G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_MAX_CLOCK_FREQUENCY, "CL_DEVICE_MAX_CLOCK_FREQUENCY", "Max clock frequency", K::Integer,
     G::Compute, D::MHz},
    {CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, "CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV",
     "Compute capability major (NV)", K::Integer, G::Vendor, D::Plain, 100, "cl_nv_device_attribute_query"},
    {CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, "CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV",
     "Compute capability minor (NV)", K::Integer, G::Vendor, D::Plain, 100, "cl_nv_device_attribute_query"},
    {CL_DEVICE_GFXIP_MAJOR_AMD, "CL_DEVICE_GFXIP_MAJOR_AMD", "Graphics IP major (AMD)", K::Integer, G::Vendor,
     D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_GFXIP_MINOR_AMD, "CL_DEVICE_GFXIP_MINOR_AMD", "Graphics IP minor (AMD)", K::Integer, G::Vendor,
     D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_IP_VERSION_INTEL, "CL_DEVICE_IP_VERSION_INTEL", "Device IP version (Intel)", K::Version,
     G::Vendor, D::Plain, 100, "cl_intel_device_attribute_query"},
    {CL_DEVICE_ID_INTEL, "CL_DEVICE_ID_INTEL", "Device ID (Intel)", K::Integer, G::Vendor, D::Hex, 100,
     "cl_intel_device_attribute_query"},
    {CL_DEVICE_NUM_SLICES_INTEL, "CL_DEVICE_NUM_SLICES_INTEL", "Slices (Intel)", K::Integer, G::Vendor,
     D::Plain, 100, "cl_intel_device_attribute_query"},
    {CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL, "CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL",
     "Sub-slices per slice (Intel)", K::Integer, G::Vendor, D::Plain, 100, "cl_intel_device_attribute_query"},
    {CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL, "CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL",
     "EUs per sub-slice (Intel)", K::Integer, G::Vendor, D::Plain, 100, "cl_intel_device_attribute_query"},
    {CL_DEVICE_NUM_THREADS_PER_EU_INTEL, "CL_DEVICE_NUM_THREADS_PER_EU_INTEL", "Threads per EU (Intel)",
     K::Integer, G::Vendor, D::Plain, 100, "cl_intel_device_attribute_query"},
    {CL_DEVICE_FEATURE_CAPABILITIES_INTEL, "CL_DEVICE_FEATURE_CAPABILITIES_INTEL",
     "Feature capabilities (Intel)", K::Bitfield, G::Vendor, D::Plain, 100, "cl_intel_device_attribute_query",
     kIntelFeatureFlags},
    {kDeviceCoreTemperatureAltera, "CL_DEVICE_CORE_TEMPERATURE_ALTERA", "Core temperature (Altera, °C)",
     K::SignedInteger, G::Vendor, D::Plain, 100, "cl_altera_device_temperature"},

    // Partitioning.
    {CL_DEVICE_PARTITION_MAX_SUB_DEVICES, "CL_DEVICE_PARTITION_MAX_SUB_DEVICES", "Max sub-devices",
     K::Integer, G::Compute, D::Plain, 120},
    {CL_DEVICE_PARTITION_PROPERTIES, "CL_DEVICE_PARTITION_PROPERTIES", "Partition types", K::EnumArray,
     G::Compute, D::Plain, 120, kCore, kPartitionPropertyNames, kPartitionProperty},
    {CL_DEVICE_PARTITION_AFFINITY_DOMAIN, "CL_DEVICE_PARTITION_AFFINITY_DOMAIN", "Partition affinity domains",
     K::Bitfield, G::Compute, D::Plain, 120, kCore, kAffinityDomainFlags},
    {CL_DEVICE_PARTITION_TYPE, "CL_DEVICE_PARTITION_TYPE", "Partitioned as", K::EnumArray, G::Compute,
     D::Plain, 120, kCore, kPartitionPropertyNames, kPartitionProperty},
    {CL_DEVICE_PARTITION_TYPES_EXT, "CL_DEVICE_PARTITION_TYPES_EXT", "Partition types (fission)",
     K::EnumArray, G::Compute, D::Plain, 100, "cl_ext_device_fission", kPartitionTypeExtNames,
     kPartitionPropertyExt},
    {CL_DEVICE_AFFINITY_DOMAINS_EXT, "CL_DEVICE_AFFINITY_DOMAINS_EXT", "Affinity domains (fission)",
     K::EnumArray, G::Compute, D::Plain, 100, "cl_ext_device_fission", kAffinityDomainExtNames,
     kPartitionPropertyExt},

    // Work sizes and sub-groups.
    {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS", "Max work item dimensions",
     K::Integer, G::Compute},
    {CL_DEVICE_MAX_WORK_ITEM_SIZES, "CL_DEVICE_MAX_WORK_ITEM_SIZES", "Max work item sizes", K::IntegerArray,
     G::Compute, D::Dims, 100, kCore, kNoFlags, kSizeT},
    {CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE", "Max work group size", K::Integer,
     G::Compute},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_AMD, "CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_AMD",
     "Preferred work group size (AMD)", K::Integer, G::Vendor, D::Plain, 100,
     "cl_amd_device_attribute_query"},
    {CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD, "CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD", "Max work group size (AMD)",
     K::Integer, G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, "CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE",
     "Preferred work group size multiple", K::Integer, G::Compute, D::Plain, 300},
    {CL_DEVICE_WARP_SIZE_NV, "CL_DEVICE_WARP_SIZE_NV", "Warp size (NV)", K::Integer, G::Vendor, D::Plain, 100,
     "cl_nv_device_attribute_query"},
    {CL_DEVICE_WAVEFRONT_WIDTH_AMD, "CL_DEVICE_WAVEFRONT_WIDTH_AMD", "Wavefront width (AMD)", K::Integer,
     G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_MAX_NUM_SUB_GROUPS, "CL_DEVICE_MAX_NUM_SUB_GROUPS", "Max sub-groups per work group",
     K::Integer, G::Compute, D::Plain, 210},
    {CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR, "CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR",
     "Max named sub-group barriers", K::Integer, G::Compute, D::Plain, 100, "cl_khr_subgroup_named_barrier"},
    {CL_DEVICE_SUB_GROUP_SIZES_INTEL, "CL_DEVICE_SUB_GROUP_SIZES_INTEL", "Sub-group sizes (Intel)",
     K::IntegerArray, G::Vendor, D::Plain, 100, "cl_intel_required_subgroup_size", kNoFlags, kSizeT},

    // Vector widths, preferred then native, as clinfo pairs them.
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, "CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR",
     "Preferred vector width char", K::Integer, G::Compute},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, "CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR", "Native vector width char",
     K::Integer, G::Compute, D::Plain, 110},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, "CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT",
     "Preferred vector width short", K::Integer, G::Compute},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, "CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT", "Native vector width short",
     K::Integer, G::Compute, D::Plain, 110},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, "CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT",
     "Preferred vector width int", K::Integer, G::Compute},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, "CL_DEVICE_NATIVE_VECTOR_WIDTH_INT", "Native vector width int",
     K::Integer, G::Compute, D::Plain, 110},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, "CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG",
     "Preferred vector width long", K::Integer, G::Compute},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, "CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG", "Native vector width long",
     K::Integer, G::Compute, D::Plain, 110},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, "CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF",
     "Preferred vector width half", K::Integer, G::Compute, D::Plain, 110},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, "CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF", "Native vector width half",
     K::Integer, G::Compute, D::Plain, 110},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, "CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT",
     "Preferred vector width float", K::Integer, G::Compute},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, "CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT", "Native vector width float",
     K::Integer, G::Compute, D::Plain, 110},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, "CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE",
     "Preferred vector width double", K::Integer, G::Compute},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, "CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE",
     "Native vector width double", K::Integer, G::Compute, D::Plain, 110},

    // Floating point. DOUBLE_FP_CONFIG is core from 1.2; older devices report it only with cl_khr_fp64.
    {CL_DEVICE_HALF_FP_CONFIG, "CL_DEVICE_HALF_FP_CONFIG", "Half precision FP", K::Bitfield, G::Compute,
     D::Plain, 100, "cl_khr_fp16", kFpConfigFlags},
    {CL_DEVICE_SINGLE_FP_CONFIG, "CL_DEVICE_SINGLE_FP_CONFIG", "Single precision FP", K::Bitfield, G::Compute,
     D::Plain, 100, kCore, kFpConfigFlags},
    {CL_DEVICE_DOUBLE_FP_CONFIG, "CL_DEVICE_DOUBLE_FP_CONFIG", "Double precision FP", K::Bitfield, G::Compute,
     D::Plain, 120, kCore, kFpConfigFlags},

    {CL_DEVICE_ADDRESS_BITS, "CL_DEVICE_ADDRESS_BITS", "Address bits", K::Integer, G::General, D::Bits},
    {CL_DEVICE_ENDIAN_LITTLE, "CL_DEVICE_ENDIAN_LITTLE", "Little endian", K::Bool, G::General},

    // External memory and semaphores.
    {CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR, "CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR",
     "External memory handle types", K::EnumArray, G::Vendor, D::Plain, 100, "cl_khr_external_memory",
     kExternalMemoryHandleNames, kUint},
    {CL_DEVICE_SEMAPHORE_TYPES_KHR, "CL_DEVICE_SEMAPHORE_TYPES_KHR", "Semaphore types", K::EnumArray,
     G::Vendor, D::Plain, 100, "cl_khr_semaphore", kSemaphoreTypeNames, kUint},
    {CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR, "CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR",
     "Semaphore import handle types", K::EnumArray, G::Vendor, D::Plain, 100, "cl_khr_external_semaphore",
     kSemaphoreHandleNames, kUint},
    {CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, "CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR",
     "Semaphore export handle types", K::EnumArray, G::Vendor, D::Plain, 100, "cl_khr_external_semaphore",
     kSemaphoreHandleNames, kUint},

    // Global memory.
    {CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE", "Global memory size", K::Integer, G::Memory,
     D::Bytes},
    // Two size_t values in KiB: total free memory and the largest free block.
    {CL_DEVICE_GLOBAL_FREE_MEMORY_AMD, "CL_DEVICE_GLOBAL_FREE_MEMORY_AMD", "Global free memory (AMD, KiB)",
     K::IntegerArray, G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query", kNoFlags, kSizeT},
    {CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD, "CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD", "Global memory channels (AMD)",
     K::Integer, G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_GLOBAL_MEM_CHANNEL_BANKS_AMD, "CL_DEVICE_GLOBAL_MEM_CHANNEL_BANKS_AMD",
     "Global memory banks per channel (AMD)", K::Integer, G::Vendor, D::Plain, 100,
     "cl_amd_device_attribute_query"},
    {CL_DEVICE_GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD, "CL_DEVICE_GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD",
     "Global memory bank width (AMD)", K::Integer, G::Vendor, D::Bytes, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_ERROR_CORRECTION_SUPPORT, "CL_DEVICE_ERROR_CORRECTION_SUPPORT", "Error correction", K::Bool,
     G::Memory},
    {CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE", "Max memory allocation", K::Integer,
     G::Memory, D::Bytes},
    {CL_DEVICE_HOST_UNIFIED_MEMORY, "CL_DEVICE_HOST_UNIFIED_MEMORY", "Unified memory with host", K::Bool,
     G::Memory, D::Plain, 110},
    {CL_DEVICE_INTEGRATED_MEMORY_NV, "CL_DEVICE_INTEGRATED_MEMORY_NV", "Integrated memory (NV)", K::Bool,
     G::Vendor, D::Plain, 100, "cl_nv_device_attribute_query"},

    // Shared virtual memory.
    {CL_DEVICE_SVM_CAPABILITIES, "CL_DEVICE_SVM_CAPABILITIES", "SVM capabilities", K::Bitfield, G::Memory,
     D::Plain, 200, "cl_amd_svm", kSvmCapabilityFlags},
    {CL_DEVICE_SVM_CAPABILITIES_ARM, "CL_DEVICE_SVM_CAPABILITIES_ARM", "SVM capabilities (ARM)", K::Bitfield,
     G::Vendor, D::Plain, 100, "cl_arm_shared_virtual_memory", kSvmCapabilityArmFlags},
    {CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, "CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL", "Host USM (Intel)",
     K::Bitfield, G::Vendor, D::Plain, 100, "cl_intel_unified_shared_memory", kUsmCapabilityFlags},
    {CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL, "CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL", "Device USM (Intel)",
     K::Bitfield, G::Vendor, D::Plain, 100, "cl_intel_unified_shared_memory", kUsmCapabilityFlags},
    {CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
     "CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL", "Single-device shared USM (Intel)", K::Bitfield,
     G::Vendor, D::Plain, 100, "cl_intel_unified_shared_memory", kUsmCapabilityFlags},
    {CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
     "CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL", "Cross-device shared USM (Intel)", K::Bitfield,
     G::Vendor, D::Plain, 100, "cl_intel_unified_shared_memory", kUsmCapabilityFlags},
    {CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL, "CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL",
     "Shared system USM (Intel)", K::Bitfield, G::Vendor, D::Plain, 100, "cl_intel_unified_shared_memory",
     kUsmCapabilityFlags},

    // Alignment.
    {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, "CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE",
     "Min alignment for any data type", K::Integer, G::Memory, D::Bytes},
    {CL_DEVICE_MEM_BASE_ADDR_ALIGN, "CL_DEVICE_MEM_BASE_ADDR_ALIGN", "Base address alignment", K::Integer,
     G::Memory, D::Bits},
    {CL_DEVICE_PAGE_SIZE_QCOM, "CL_DEVICE_PAGE_SIZE_QCOM", "Page size (QCOM)", K::Integer, G::Vendor,
     D::Bytes, 100, "cl_qcom_ext_host_ptr"},
    {CL_DEVICE_EXT_MEM_PADDING_IN_BYTES_QCOM, "CL_DEVICE_EXT_MEM_PADDING_IN_BYTES_QCOM",
     "External memory padding (QCOM)", K::Integer, G::Vendor, D::Bytes, 100, "cl_qcom_ext_host_ptr"},

    // Atomics.
    {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, "CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT",
     "Preferred SVM atomic alignment", K::Integer, G::Memory, D::Bytes, 200},
    {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, "CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT",
     "Preferred global atomic alignment", K::Integer, G::Memory, D::Bytes, 200},
    {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, "CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT",
     "Preferred local atomic alignment", K::Integer, G::Memory, D::Bytes, 200},
    {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, "CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES",
     "Atomic memory capabilities", K::Bitfield, G::Features30, D::Plain, 300, kCore, kAtomicCapabilityFlags},
    {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, "CL_DEVICE_ATOMIC_FENCE_CAPABILITIES", "Atomic fence capabilities",
     K::Bitfield, G::Features30, D::Plain, 300, kCore, kAtomicCapabilityFlags},
    {kDeviceHalfFpAtomicCapabilitiesExt, "CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT", "Half FP atomics",
     K::Bitfield, G::Memory, D::Plain, 100, "cl_ext_float_atomics", kFpAtomicCapabilityFlags},
    {kDeviceSingleFpAtomicCapabilitiesExt, "CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT", "Single FP atomics",
     K::Bitfield, G::Memory, D::Plain, 100, "cl_ext_float_atomics", kFpAtomicCapabilityFlags},
    {kDeviceDoubleFpAtomicCapabilitiesExt, "CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT", "Double FP atomics",
     K::Bitfield, G::Memory, D::Plain, 100, "cl_ext_float_atomics", kFpAtomicCapabilityFlags},

    // Program-scope global variables.
    {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE", "Max global variable size",
     K::Integer, G::Memory, D::Bytes, 200},
    {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, "CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE",
     "Preferred total size of global variables", K::Integer, G::Memory, D::Bytes, 200},

    // Global memory cache.
    {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, "CL_DEVICE_GLOBAL_MEM_CACHE_TYPE", "Global memory cache type", K::Enum,
     G::Memory, D::Plain, 100, kCore, kCacheTypeNames},
    {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE", "Global memory cache size",
     K::Integer, G::Memory, D::Bytes},
    {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE",
     "Global memory cache line size", K::Integer, G::Memory, D::Bytes},

    // Images and samplers.
    {CL_DEVICE_IMAGE_SUPPORT, "CL_DEVICE_IMAGE_SUPPORT", "Image support", K::Bool, G::Images},
    {CL_DEVICE_MAX_SAMPLERS, "CL_DEVICE_MAX_SAMPLERS", "Max samplers per kernel", K::Integer, G::Images},
    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE", "Max 1D image from buffer (pixels)",
     K::Integer, G::Images, D::Plain, 120},
    {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE", "Max image array size", K::Integer,
     G::Images, D::Plain, 120},
    {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT",
     "Image from buffer base alignment (pixels)", K::Integer, G::Images, D::Plain, 200,
     "cl_khr_image2d_from_buffer"},
    {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, "CL_DEVICE_IMAGE_PITCH_ALIGNMENT",
     "Image from buffer pitch alignment (pixels)", K::Integer, G::Images, D::Plain, 200,
     "cl_khr_image2d_from_buffer"},
    {CL_DEVICE_IMAGE2D_MAX_HEIGHT, "CL_DEVICE_IMAGE2D_MAX_HEIGHT", "Max 2D image height", K::Integer,
     G::Images},
    {CL_DEVICE_IMAGE2D_MAX_WIDTH, "CL_DEVICE_IMAGE2D_MAX_WIDTH", "Max 2D image width", K::Integer, G::Images},
    {CL_DEVICE_PLANAR_YUV_MAX_HEIGHT_INTEL, "CL_DEVICE_PLANAR_YUV_MAX_HEIGHT_INTEL",
     "Max planar YUV image height (Intel)", K::Integer, G::Vendor, D::Plain, 100, "cl_intel_planar_yuv"},
    {CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL, "CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL",
     "Max planar YUV image width (Intel)", K::Integer, G::Vendor, D::Plain, 100, "cl_intel_planar_yuv"},
    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, "CL_DEVICE_IMAGE3D_MAX_HEIGHT", "Max 3D image height", K::Integer,
     G::Images},
    {CL_DEVICE_IMAGE3D_MAX_WIDTH, "CL_DEVICE_IMAGE3D_MAX_WIDTH", "Max 3D image width", K::Integer, G::Images},
    {CL_DEVICE_IMAGE3D_MAX_DEPTH, "CL_DEVICE_IMAGE3D_MAX_DEPTH", "Max 3D image depth", K::Integer, G::Images},
    {CL_DEVICE_MAX_READ_IMAGE_ARGS, "CL_DEVICE_MAX_READ_IMAGE_ARGS", "Max read image args", K::Integer,
     G::Images},
    {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, "CL_DEVICE_MAX_WRITE_IMAGE_ARGS", "Max write image args", K::Integer,
     G::Images},
    {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, "CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS", "Max read/write image args",
     K::Integer, G::Images, D::Plain, 200},

    // Pipes.
    {CL_DEVICE_PIPE_SUPPORT, "CL_DEVICE_PIPE_SUPPORT", "Pipe support", K::Bool, G::Features30, D::Plain, 300},
    {CL_DEVICE_MAX_PIPE_ARGS, "CL_DEVICE_MAX_PIPE_ARGS", "Max pipe args", K::Integer, G::Memory, D::Plain,
     200},
    {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, "CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS",
     "Max active pipe reservations", K::Integer, G::Memory, D::Plain, 200},
    {CL_DEVICE_PIPE_MAX_PACKET_SIZE, "CL_DEVICE_PIPE_MAX_PACKET_SIZE", "Max pipe packet size", K::Integer,
     G::Memory, D::Bytes, 200},

    // Local memory.
    {CL_DEVICE_LOCAL_MEM_TYPE, "CL_DEVICE_LOCAL_MEM_TYPE", "Local memory type", K::Enum, G::Memory, D::Plain,
     100, kCore, kLocalMemTypeNames},
    {CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE", "Local memory size", K::Integer, G::Memory,
     D::Bytes},
    {CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD, "CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD",
     "Local memory per compute unit (AMD)", K::Integer, G::Vendor, D::Bytes, 100,
     "cl_amd_device_attribute_query"},
    {CL_DEVICE_LOCAL_MEM_BANKS_AMD, "CL_DEVICE_LOCAL_MEM_BANKS_AMD", "Local memory banks (AMD)", K::Integer,
     G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_REGISTERS_PER_BLOCK_NV, "CL_DEVICE_REGISTERS_PER_BLOCK_NV", "Registers per block (NV)",
     K::Integer, G::Vendor, D::Plain, 100, "cl_nv_device_attribute_query"},

    // Constant memory and kernel arguments.
    {CL_DEVICE_MAX_CONSTANT_ARGS, "CL_DEVICE_MAX_CONSTANT_ARGS", "Max constant args", K::Integer, G::Memory},
    {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE", "Max constant buffer size",
     K::Integer, G::Memory, D::Bytes},
    {CL_DEVICE_PREFERRED_CONSTANT_BUFFER_SIZE_AMD, "CL_DEVICE_PREFERRED_CONSTANT_BUFFER_SIZE_AMD",
     "Preferred constant buffer size (AMD)", K::Integer, G::Vendor, D::Bytes, 100,
     "cl_amd_device_attribute_query"},
    {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, "CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT",
     "Generic address space support", K::Bool, G::Features30, D::Plain, 300},
    {CL_DEVICE_MAX_PARAMETER_SIZE, "CL_DEVICE_MAX_PARAMETER_SIZE", "Max size of kernel arguments", K::Integer,
     G::Memory, D::Bytes},
    // cl_ext_atomic_counters_64 exists too, but devices with counters list _32 (alone or with
    // _64).
    {CL_DEVICE_MAX_ATOMIC_COUNTERS_EXT, "CL_DEVICE_MAX_ATOMIC_COUNTERS_EXT", "Max atomic counters",
     K::Integer, G::Memory, D::Plain, 100, "cl_ext_atomic_counters_32"},

    // Command queues. QUEUE_PROPERTIES (1.x) and QUEUE_ON_HOST_PROPERTIES (2.0+) are one
    // value, 0x102A,
    // under its two names; clinfo prints the old name for 1.x devices and the new one from 2.0 on.
    {CL_DEVICE_QUEUE_PROPERTIES, "CL_DEVICE_QUEUE_PROPERTIES", "Queue properties", K::Bitfield, G::Compute,
     D::Plain, 100, kCore, kQueuePropertyFlags},
    {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, "CL_DEVICE_QUEUE_ON_HOST_PROPERTIES", "Queue properties (host)",
     K::Bitfield, G::Compute, D::Plain, 200, kCore, kQueuePropertyFlags},
    {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, "CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES",
     "Device enqueue capabilities", K::Bitfield, G::Features30, D::Plain, 300, kCore,
     kDeviceEnqueueCapabilityFlags},
    {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, "CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES",
     "Queue properties (device)", K::Bitfield, G::Compute, D::Plain, 200, kCore, kQueuePropertyFlags},
    {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, "CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE",
     "Preferred device queue size", K::Integer, G::Compute, D::Bytes, 200},
    {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, "CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE", "Max device queue size",
     K::Integer, G::Compute, D::Bytes, 200},
    {CL_DEVICE_MAX_ON_DEVICE_QUEUES, "CL_DEVICE_MAX_ON_DEVICE_QUEUES", "Max device queues", K::Integer,
     G::Compute, D::Plain, 200},
    {CL_DEVICE_MAX_ON_DEVICE_EVENTS, "CL_DEVICE_MAX_ON_DEVICE_EVENTS", "Max device events", K::Integer,
     G::Compute, D::Plain, 200},
    // An array of cl_queue_family_properties_intel (properties, capabilities, count,
    // name[64]); no
    // value kind decodes that struct, so it is kept as raw bytes.
    {CL_DEVICE_QUEUE_FAMILY_PROPERTIES_INTEL, "CL_DEVICE_QUEUE_FAMILY_PROPERTIES_INTEL",
     "Queue families (Intel)", K::Bytes, G::Vendor, D::Plain, 100, "cl_intel_command_queue_families",
     kNoFlags, 1},

    // Command buffers.
    {CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, "CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR",
     "Command buffer capabilities", K::Bitfield, G::Compute, D::Plain, 100, "cl_khr_command_buffer",
     kCommandBufferCapabilityFlags},
    {kDeviceCommandBufferSupportedQueuePropertiesKhr,
     "CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR", "Command buffer supported queue properties",
     K::Bitfield, G::Compute, D::Plain, 100, "cl_khr_command_buffer", kQueuePropertyFlags},
    {CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR,
     "CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR", "Command buffer required queue properties",
     K::Bitfield, G::Compute, D::Plain, 100, "cl_khr_command_buffer", kQueuePropertyFlags},
    {kDeviceCommandBufferNumSyncDevicesKhr, "CL_DEVICE_COMMAND_BUFFER_NUM_SYNC_DEVICES_KHR",
     "Command buffer sync devices", K::Integer, G::Compute, D::Plain, 100,
     "cl_khr_command_buffer_multi_device"},
    {kDeviceCommandBufferSyncDevicesKhr, "CL_DEVICE_COMMAND_BUFFER_SYNC_DEVICES_KHR",
     "Command buffer sync device handles", K::IntegerArray, G::Compute, D::Plain, 100,
     "cl_khr_command_buffer_multi_device", kNoFlags, kDeviceId},
    {CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR, "CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR",
     "Mutable dispatch capabilities", K::Bitfield, G::Compute, D::Plain, 100,
     "cl_khr_command_buffer_mutable_dispatch", kMutableDispatchFlags},

    // Context termination.
    {kDeviceTerminateCapabilityKhr1x, "CL_DEVICE_TERMINATE_CAPABILITY_KHR_1x",
     "Terminate capability (1.x value)", K::Bitfield, G::Compute, D::Plain, 100, "cl_khr_terminate_context",
     kTerminateCapabilityFlags},
    {CL_DEVICE_TERMINATE_CAPABILITY_KHR, "CL_DEVICE_TERMINATE_CAPABILITY_KHR", "Terminate capability",
     K::Bitfield, G::Compute, D::Plain, 100, "cl_khr_terminate_context", kTerminateCapabilityFlags},
    {CL_DEVICE_CONTROLLED_TERMINATION_CAPABILITIES_ARM, "CL_DEVICE_CONTROLLED_TERMINATION_CAPABILITIES_ARM",
     "Controlled termination (ARM)", K::Bitfield, G::Vendor, D::Plain, 100,
     "cl_arm_controlled_kernel_termination", kControlledTerminationArmFlags},

    // Interop and peer devices.
    {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, "CL_DEVICE_PREFERRED_INTEROP_USER_SYNC",
     "Prefers user sync for interop", K::Bool, G::Compute, D::Plain, 120},
    {CL_DEVICE_NUM_SIMULTANEOUS_INTEROPS_INTEL, "CL_DEVICE_NUM_SIMULTANEOUS_INTEROPS_INTEL",
     "Simultaneous interops (Intel)", K::Integer, G::Vendor, D::Plain, 100, "cl_intel_simultaneous_sharing"},
    {CL_DEVICE_SIMULTANEOUS_INTEROPS_INTEL, "CL_DEVICE_SIMULTANEOUS_INTEROPS_INTEL",
     "Simultaneous interop sets (Intel)", K::IntegerArray, G::Vendor, D::Plain, 100,
     "cl_intel_simultaneous_sharing", kNoFlags, kUint},
    {kDeviceNumP2pDevicesAmd, "CL_DEVICE_NUM_P2P_DEVICES_AMD", "P2P devices (AMD)", K::Integer, G::Vendor,
     D::Plain, 100, "cl_amd_copy_buffer_p2p"},
    {kDeviceP2pDevicesAmd, "CL_DEVICE_P2P_DEVICES_AMD", "P2P device handles (AMD)", K::IntegerArray,
     G::Vendor, D::Plain, 100, "cl_amd_copy_buffer_p2p", kNoFlags, kDeviceId},

    // Profiling.
    {CL_DEVICE_PROFILING_TIMER_RESOLUTION, "CL_DEVICE_PROFILING_TIMER_RESOLUTION",
     "Profiling timer resolution", K::Integer, G::Compute, D::Nanosecs},
    {CL_DEVICE_PROFILING_TIMER_OFFSET_AMD, "CL_DEVICE_PROFILING_TIMER_OFFSET_AMD",
     "Profiling timer offset since epoch (AMD, ns)", K::Integer, G::Vendor, D::Plain, 100,
     "cl_amd_device_attribute_query"},

    // Execution.
    {CL_DEVICE_EXECUTION_CAPABILITIES, "CL_DEVICE_EXECUTION_CAPABILITIES", "Execution capabilities",
     K::Bitfield, G::Compute, D::Plain, 100, kCore, kExecCapabilityFlags},
    {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, "CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT",
     "Non-uniform work groups", K::Bool, G::Features30, D::Plain, 300},
    {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, "CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT",
     "Work group collective functions", K::Bool, G::Features30, D::Plain, 300},
    {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, "CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS",
     "Sub-group independent forward progress", K::Bool, G::Compute, D::Plain, 210},
    {CL_DEVICE_THREAD_TRACE_SUPPORTED_AMD, "CL_DEVICE_THREAD_TRACE_SUPPORTED_AMD", "Thread trace (AMD)",
     K::Bool, G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query"},
    {CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV, "CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV", "Kernel execution timeout (NV)",
     K::Bool, G::Vendor, D::Plain, 100, "cl_nv_device_attribute_query"},
    {CL_DEVICE_GPU_OVERLAP_NV, "CL_DEVICE_GPU_OVERLAP_NV", "Concurrent copy and kernel (NV)", K::Bool,
     G::Vendor, D::Plain, 100, "cl_nv_device_attribute_query"},
    {kDeviceAttributeAsyncEngineCountNv, "CL_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT_NV",
     "Async copy engines (NV)", K::Integer, G::Vendor, D::Plain, 100, "cl_nv_device_attribute_query"},
    {CL_DEVICE_AVAILABLE_ASYNC_QUEUES_AMD, "CL_DEVICE_AVAILABLE_ASYNC_QUEUES_AMD", "Async queues (AMD)",
     K::Integer, G::Vendor, D::Plain, 100, "cl_amd_device_attribute_query"},
    {kDeviceMaxRealTimeComputeQueuesAmd, "CL_DEVICE_MAX_REAL_TIME_COMPUTE_QUEUES_AMD",
     "Max real-time compute queues (AMD)", K::Integer, G::Vendor, D::Plain, 100,
     "cl_amd_device_attribute_query"},
    {kDeviceMaxRealTimeComputeUnitsAmd, "CL_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_AMD",
     "Max real-time compute units (AMD)", K::Integer, G::Vendor, D::Plain, 100,
     "cl_amd_device_attribute_query"},
    {CL_DEVICE_SCHEDULING_CONTROLS_CAPABILITIES_ARM, "CL_DEVICE_SCHEDULING_CONTROLS_CAPABILITIES_ARM",
     "Scheduling controls (ARM)", K::Bitfield, G::Vendor, D::Plain, 100, "cl_arm_scheduling_controls",
     kSchedulingControlsArmFlags},
    {CL_DEVICE_SUPPORTED_REGISTER_ALLOCATIONS_ARM, "CL_DEVICE_SUPPORTED_REGISTER_ALLOCATIONS_ARM",
     "Supported register allocations (ARM)", K::IntegerArray, G::Vendor, D::Plain, 100,
     "cl_arm_scheduling_controls", kNoFlags, kUint},
    {CL_DEVICE_MAX_WARP_COUNT_ARM, "CL_DEVICE_MAX_WARP_COUNT_ARM", "Max warps per compute unit (ARM)",
     K::Integer, G::Vendor, D::Plain, 100, "cl_arm_scheduling_controls"},

    // Intermediate languages, printf and built-in kernels.
    {CL_DEVICE_IL_VERSION, "CL_DEVICE_IL_VERSION", "IL version", K::String, G::Extensions, D::Plain, 210,
     "cl_khr_il_program"},
    {CL_DEVICE_ILS_WITH_VERSION, "CL_DEVICE_ILS_WITH_VERSION", "ILs with version", K::NameVersionList,
     G::Extensions, D::Plain, 300, "cl_khr_extended_versioning"},
    {CL_DEVICE_SPIR_VERSIONS, "CL_DEVICE_SPIR_VERSIONS", "SPIR versions", K::String, G::Extensions, D::Plain,
     100, "cl_khr_spir"},
    {CL_DEVICE_PRINTF_BUFFER_SIZE, "CL_DEVICE_PRINTF_BUFFER_SIZE", "printf() buffer size", K::Integer,
     G::Memory, D::Bytes, 120},
    {CL_DEVICE_BUILT_IN_KERNELS, "CL_DEVICE_BUILT_IN_KERNELS", "Built-in kernels", K::String, G::Extensions,
     D::Plain, 120},
    {CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, "CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION",
     "Built-in kernels with version", K::NameVersionList, G::Extensions, D::Plain, 300,
     "cl_khr_extended_versioning"},
    {CL_DEVICE_ME_VERSION_INTEL, "CL_DEVICE_ME_VERSION_INTEL", "Motion estimation version (Intel)",
     K::Integer, G::Vendor, D::Plain, 100, "cl_intel_advanced_motion_estimation"},
    {CL_DEVICE_AVC_ME_VERSION_INTEL, "CL_DEVICE_AVC_ME_VERSION_INTEL",
     "AVC motion estimation version (Intel)", K::Integer, G::Vendor, D::Plain, 100,
     "cl_intel_device_side_avc_motion_estimation"},
    {CL_DEVICE_AVC_ME_SUPPORTS_TEXTURE_SAMPLER_USE_INTEL,
     "CL_DEVICE_AVC_ME_SUPPORTS_TEXTURE_SAMPLER_USE_INTEL", "AVC ME texture sampler use (Intel)", K::Bool,
     G::Vendor, D::Plain, 100, "cl_intel_device_side_avc_motion_estimation"},
    {CL_DEVICE_AVC_ME_SUPPORTS_PREEMPTION_INTEL, "CL_DEVICE_AVC_ME_SUPPORTS_PREEMPTION_INTEL",
     "AVC ME preemption (Intel)", K::Bool, G::Vendor, D::Plain, 100,
     "cl_intel_device_side_avc_motion_estimation"},

    // Queries clinfo does not make.
    {CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, "CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR",
     "Integer dot product capabilities", K::Bitfield, G::Vendor, D::Plain, 100, "cl_khr_integer_dot_product",
     kIntegerDotProductFlags},
    // cl_device_integer_dot_product_acceleration_properties_khr: six cl_bool fields (signed,
    // unsigned,
    // mixed signedness, then the same three for accumulating saturating), read as a cl_uint array.
    {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
     "CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR",
     "Integer dot product acceleration (8-bit)", K::IntegerArray, G::Vendor, D::Plain, 100,
     "cl_khr_integer_dot_product", kNoFlags, kUint},
    {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR,
     "CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR",
     "Integer dot product acceleration (4x8-bit packed)", K::IntegerArray, G::Vendor, D::Plain, 100,
     "cl_khr_integer_dot_product", kNoFlags, kUint},
    {kDeviceKernelClockCapabilitiesKhr, "CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR", "Kernel clock scopes",
     K::Bitfield, G::Vendor, D::Plain, 100, "cl_khr_kernel_clock", kKernelClockFlags},

    // Extensions last, where clinfo prints them.
    {CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS", "Extensions", K::String, G::Extensions, D::ExtList},
    {CL_DEVICE_EXTENSIONS_WITH_VERSION, "CL_DEVICE_EXTENSIONS_WITH_VERSION", "Extensions with version",
     K::NameVersionList, G::Extensions, D::Plain, 300, "cl_khr_extended_versioning"},
};

} // namespace

std::string_view groupName(InfoGroup group)
{
    switch (group) {
    case InfoGroup::Platform:
        return "Platform";
    case InfoGroup::General:
        return "General";
    case InfoGroup::Compute:
        return "Compute";
    case InfoGroup::Memory:
        return "Memory";
    case InfoGroup::Images:
        return "Images";
    case InfoGroup::Extensions:
        return "Extensions";
    case InfoGroup::Features30:
        return "OpenCL 3.0 features";
    case InfoGroup::Vendor:
        return "Vendor-specific";
    }
    return {};
}

std::span<const InfoParam> platformParams()
{
    return kPlatformParams;
}

std::span<const InfoParam> deviceParams()
{
    return kDeviceParams;
}

const InfoParam *findParam(std::string_view name)
{
    for (const InfoParam &param : kPlatformParams) {
        if (param.name == name)
            return &param;
    }
    for (const InfoParam &param : kDeviceParams) {
        if (param.name == name)
            return &param;
    }
    return nullptr;
}

} // namespace clscope
