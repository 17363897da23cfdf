// OpenCL C keyword sets for QScintilla's C++ lexer, and the completion list built from them.
#include "opencllexer.h"

#include <Qsci/qsciapis.h>

#include <QColor>
#include <QFont>
#include <QFontDatabase>

namespace clscope::ui {

namespace {
// Keywords, qualifiers and attributes (set 1: shown as keywords).
const char kKeywords[] =
    "auto break case const continue default do else enum extern for goto if inline register restrict "
    "return sizeof static struct switch typedef union volatile while __kernel kernel __global global "
    "__local local __constant constant __private private __generic generic __read_only read_only "
    "__write_only write_only __read_write read_write __attribute__ reqd_work_group_size "
    "work_group_size_hint vec_type_hint aligned packed endian nosvm uniform pipe ";

// Built-in functions (set 2: shown in their own colour).
const char kBuiltins[] =
    "abs abs_diff acos acosh acospi add_sat all any as_char as_double as_float as_int as_long as_short "
    "as_uchar as_uint as_ulong as_ushort asin asinh asinpi async_work_group_copy "
    "async_work_group_strided_copy atan atan2 atan2pi atanh atanpi atom_add atom_and atom_cmpxchg "
    "atom_dec atom_inc atom_max atom_min atom_or atom_sub atom_xchg atom_xor atomic_add atomic_and "
    "atomic_cmpxchg atomic_compare_exchange_strong atomic_compare_exchange_weak atomic_dec "
    "atomic_exchange atomic_fetch_add atomic_fetch_and atomic_fetch_max atomic_fetch_min atomic_fetch_or "
    "atomic_fetch_sub atomic_fetch_xor atomic_flag_clear atomic_flag_test_and_set atomic_inc atomic_init "
    "atomic_load atomic_max atomic_min atomic_or atomic_store atomic_sub atomic_work_item_fence "
    "atomic_xchg atomic_xor barrier bitselect cbrt ceil clamp clz convert_char convert_double "
    "convert_float convert_int convert_long convert_short convert_uchar convert_uint convert_ulong "
    "convert_ushort copysign cos cosh cospi cross ctz degrees distance dot enqueue_kernel erf erfc exp "
    "exp10 exp2 expm1 fabs fast_distance fast_length fast_normalize fdim floor fma fmax fmin fmod fract "
    "frexp get_default_queue get_enqueued_local_size get_enqueued_num_sub_groups get_fence get_global_id "
    "get_global_linear_id get_global_offset get_global_size get_group_id get_image_array_size "
    "get_image_channel_data_type get_image_channel_order get_image_depth get_image_dim get_image_height "
    "get_image_width get_local_id get_local_linear_id get_local_size get_max_sub_group_size "
    "get_num_groups get_num_sub_groups get_sub_group_id get_sub_group_local_id get_sub_group_size "
    "get_work_dim hadd half_cos half_divide half_exp half_exp10 half_exp2 half_log half_log10 half_log2 "
    "half_powr half_recip half_rsqrt half_sin half_sqrt half_tan hypot ilogb isequal isfinite isgreater "
    "isgreaterequal isinf isless islessequal isnan isnormal isnotequal isordered isunordered ldexp length "
    "lgamma lgamma_r log log10 log1p log2 logb mad mad24 mad_hi mad_sat max maxmag mem_fence min minmag "
    "modf mul24 mul_hi nan native_cos native_divide native_exp native_exp10 native_exp2 native_log "
    "native_log10 native_log2 native_powr native_recip native_rsqrt native_sin native_sqrt native_tan "
    "ndrange_1D ndrange_2D ndrange_3D nextafter normalize popcount pow pown powr prefetch printf radians "
    "read_imagef read_imageh read_imagei read_imageui read_mem_fence remainder remquo rhadd rint rootn "
    "rotate round rsqrt select shuffle shuffle2 sign signbit sin sincos sinh sinpi smoothstep sqrt step "
    "sub_group_all sub_group_any sub_group_barrier sub_group_broadcast sub_group_reduce_add "
    "sub_group_reduce_max sub_group_reduce_min sub_sat tan tanh tanpi tgamma to_global to_local "
    "to_private trunc upsample vload16 vload2 vload3 vload4 vload8 vload_half vload_half2 vload_half4 "
    "vloada_half vstore16 vstore2 vstore3 vstore4 vstore8 vstore_half vstore_half2 vstore_half4 "
    "vstorea_half wait_group_events work_group_all work_group_any work_group_barrier work_group_broadcast "
    "work_group_reduce_add work_group_reduce_max work_group_reduce_min work_group_scan_exclusive_add "
    "work_group_scan_inclusive_add write_imagef write_imageh write_imagei write_imageui write_mem_fence ";

// Types, vector types and built-in constants (set 4: global classes and typedefs).
const char kTypes[] =
    "bool char uchar short ushort int uint long ulong float double half void size_t ptrdiff_t intptr_t "
    "uintptr_t image1d_t image1d_array_t image1d_buffer_t image2d_t image2d_array_t image2d_depth_t "
    "image2d_array_depth_t image3d_t sampler_t event_t queue_t clk_event_t reserve_id_t ndrange_t "
    "cl_mem_fence_flags memory_order memory_scope atomic_int atomic_uint atomic_long atomic_ulong "
    "atomic_float atomic_double atomic_intptr_t atomic_uintptr_t atomic_size_t atomic_ptrdiff_t "
    "atomic_flag unsigned signed char2 char3 char4 char8 char16 uchar2 uchar3 uchar4 uchar8 uchar16 "
    "short2 short3 short4 short8 short16 ushort2 ushort3 ushort4 ushort8 ushort16 int2 int3 int4 int8 "
    "int16 uint2 uint3 uint4 uint8 uint16 long2 long3 long4 long8 long16 ulong2 ulong3 ulong4 ulong8 "
    "ulong16 float2 float3 float4 float8 float16 double2 double3 double4 double8 double16 half2 half3 "
    "half4 half8 half16 CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE CLK_IMAGE_MEM_FENCE "
    "CLK_NORMALIZED_COORDS_TRUE CLK_NORMALIZED_COORDS_FALSE CLK_ADDRESS_NONE CLK_ADDRESS_CLAMP "
    "CLK_ADDRESS_CLAMP_TO_EDGE CLK_ADDRESS_REPEAT CLK_ADDRESS_MIRRORED_REPEAT CLK_FILTER_NEAREST "
    "CLK_FILTER_LINEAR MAXFLOAT HUGE_VALF INFINITY NAN FLT_MAX FLT_MIN FLT_EPSILON DBL_MAX DBL_MIN "
    "DBL_EPSILON M_PI M_PI_F M_E M_E_F CHAR_BIT INT_MAX INT_MIN UINT_MAX LONG_MAX LONG_MIN ULONG_MAX "
    "memory_order_relaxed memory_order_acquire memory_order_release memory_order_acq_rel "
    "memory_order_seq_cst memory_scope_work_item memory_scope_work_group memory_scope_device "
    "memory_scope_all_svm_devices true false NULL ";
} // namespace

OpenCLLexer::OpenCLLexer(QObject *parent)
    : QsciLexerCPP(parent)
    , m_apis(new QsciAPIs(this))
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setDefaultFont(mono);
    setFont(mono);
    setFoldComments(true);
    setFoldCompact(false);
    setColor(QColor(0x00, 0x00, 0xaa), Keyword);
    setColor(QColor(0x80, 0x00, 0x80), KeywordSet2);
    setColor(QColor(0x00, 0x70, 0x70), GlobalClass);
    setColor(QColor(0x80, 0x50, 0x00), PreProcessor);
    setColor(QColor(0x60, 0x80, 0x60), Comment);
    setColor(QColor(0x60, 0x80, 0x60), CommentLine);
    setColor(QColor(0xa0, 0x20, 0x20), DoubleQuotedString);
    setColor(QColor(0x20, 0x60, 0xa0), Number);
    for (const QString &word : completionWords())
        m_apis->add(word);
    m_apis->prepare();
}

OpenCLLexer::~OpenCLLexer()
{
    delete m_apis;
}

const char *OpenCLLexer::keywords(int set) const
{
    switch (set) {
    case 1:
        return kKeywords;
    case 2:
        return kBuiltins;
    case 4:
        return kTypes;
    default:
        return QsciLexerCPP::keywords(set);
    }
}

QString OpenCLLexer::description(int style) const
{
    if (style == KeywordSet2)
        return tr("Built-in function");
    if (style == GlobalClass)
        return tr("Type or built-in constant");
    return QsciLexerCPP::description(style);
}

QStringList OpenCLLexer::completionWords()
{
    QStringList words;
    for (const char *set : {kBuiltins, kTypes, kKeywords})
        words += QString::fromLatin1(set).split(u' ', Qt::SkipEmptyParts);
    words.removeDuplicates();
    words.sort();
    return words;
}

} // namespace clscope::ui
