// A kernel against the device's measured peaks (roofline.h).
#include "clscope/roofline.h"

#include "clscope/clquery.h"
#include "clscope/fileio.h"
#include "clscope/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace clscope {
namespace fs = std::filesystem;
namespace {

double positiveFigure(const BenchDocument &document, const char *key, bool required)
{
    const BenchFigure *figure = document.findFigure(key);
    if (figure && std::isfinite(figure->value) && figure->value > 0)
        return figure->value;
    if (required)
        throw Error(std::string("the device's peaks have no ") + key +
                    " (run `clscope-cli bench bandwidth` and " + "`bench compute` on it)");
    return 0;
}

// A file name from a device's name and driver: letters, digits, '.', '-' and '_' kept, the rest '_'.
std::string fileNameOf(const std::string &device, const std::string &driver)
{
    std::string name = device + "-" + driver;
    for (char &c : name) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          c == '.' || c == '-' || c == '_';
        if (!keep)
            c = '_';
    }
    if (name.size() > 200)
        name.resize(200);
    return name + ".json";
}

// 3 significant digits with a unit prefix: "8.39 M", "512", "4.09 G".
std::string si(double value)
{
    static const char *prefixes[] = {"", " k", " M", " G", " T", " P"};
    int p = 0;
    while (std::fabs(value) >= 1000 && p < 5) {
        value /= 1000;
        ++p;
    }
    std::ostringstream out;
    out.precision(3);
    out << value << prefixes[p];
    return out.str();
}

} // namespace

DevicePeaks peaksFromBench(const BenchDocument &document)
{
    DevicePeaks peaks;
    peaks.device = document.device;
    peaks.driver = document.driverVersion;
    peaks.measured = document.created;
    peaks.bandwidthGBps = positiveFigure(document, "global_bandwidth_gbps", true);
    peaks.singleGflops = positiveFigure(document, "compute_sp_gflops", true);
    peaks.doubleGflops = positiveFigure(document, "compute_dp_gflops", false);
    return peaks;
}

std::string peaksFile(const std::string &device, const std::string &driver)
{
    fs::path dir;
    if (const char *own = std::getenv("CLSCOPE_PEAKS_DIR"); own && *own)
        dir = own;
    else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        dir = fs::path(xdg) / "clscope" / "peaks";
    else if (const char *home = std::getenv("HOME"); home && *home)
        dir = fs::path(home) / ".cache" / "clscope" / "peaks";
    else
        dir = fs::temp_directory_path() / "clscope-peaks";
    return (dir / fileNameOf(device, driver)).string();
}

DevicePeaks devicePeaks(cl_device_id device, bool remeasure, std::string *fromFile, bool *measuredNow,
                        BenchEffort effort)
{
    const BenchDocument described = describeBenchDevice(device);
    const std::string file = peaksFile(described.device, described.driverVersion);
    if (fromFile)
        *fromFile = file;
    if (measuredNow)
        *measuredNow = false;
    if (!remeasure && regularFileProblem(file).empty()) {
        try {
            const BenchDocument kept = loadBenchFile(file);
            if (kept.device == described.device && kept.driverVersion == described.driverVersion)
                return peaksFromBench(kept);
        } catch (const Error &) {
            // A damaged or foreign file is measured again and replaced.
        }
    }
    BenchDocument measured = described;
    DeviceBenchOptions options;
    options.effort = effort;
    for (const char *kind : {"bandwidth", "compute"})
        measured.results.push_back(runBenchKind(kind, device, options));
    const DevicePeaks peaks = peaksFromBench(measured);
    if (measuredNow)
        *measuredNow = true;
    std::error_code ec;
    fs::create_directories(fs::path(file).parent_path(), ec);
    try {
        // Kept only in a regular file or a new one: at a FIFO the write would wait for a reader forever,
        // and a device or a folder is nothing to keep figures in.
        if (fs::exists(file, ec) && !fs::is_regular_file(file, ec))
            throw Error(file + " is not a regular file");
        saveBenchFile(file, measured);
    } catch (const Error &) {
        // Not kept: measured again next time; the figures stand.
        if (fromFile)
            fromFile->clear();
    }
    return peaks;
}

std::optional<DevicePeaks> keptPeaks(const std::string &device, std::string *fromFile)
{
    std::optional<DevicePeaks> newest;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(fs::path(peaksFile(device, "")).parent_path(), ec)) {
        if (!regularFileProblem(entry.path()).empty())
            continue;
        try {
            const BenchDocument kept = loadBenchFile(entry.path().string());
            if (kept.device != device)
                continue;
            const DevicePeaks peaks = peaksFromBench(kept);
            if (!newest || peaks.measured > newest->measured) {
                newest = peaks;
                if (fromFile)
                    *fromFile = entry.path().string();
            }
        } catch (const Error &) {
            // Not a peaks document of this device.
        }
    }
    return newest;
}

RooflinePoint rooflinePoint(const std::string &kernel, const LineCounts &counts, double seconds,
                            const DevicePeaks &peaks)
{
    if (!(seconds > 0) || !std::isfinite(seconds))
        throw Error("the kernel " + kernel + " has no device time to set its work against");
    RooflinePoint p;
    p.kernel = kernel;
    p.seconds = seconds;
    p.flops = counts.flops();
    p.bytes = counts.deviceMemoryBytes();
    p.doublePrecision = counts.flops64 > counts.flops32 && peaks.doubleGflops > 0;
    p.gflops = double(p.flops) / seconds / 1e9;
    p.gbps = double(p.bytes) / seconds / 1e9;
    p.intensity = p.bytes > 0 ? double(p.flops) / double(p.bytes) : 0;
    p.peakGflops = p.doublePrecision ? peaks.doubleGflops : peaks.singleGflops;
    p.ridge = peaks.bandwidthGBps > 0 ? p.peakGflops / peaks.bandwidthGBps : 0;
    // A kernel that moves no bytes is limited by compute alone; one with no flops by bandwidth alone.
    p.memoryBound = p.bytes > 0 && (p.flops == 0 || p.intensity < p.ridge);
    p.roofGflops = p.memoryBound ? p.intensity * peaks.bandwidthGBps : p.peakGflops;
    p.percentOfRoof = p.memoryBound ? 100.0 * p.gbps / peaks.bandwidthGBps
                                    : (p.peakGflops > 0 ? 100.0 * p.gflops / p.peakGflops : 0);
    return p;
}

std::string formatRoofline(const RooflinePoint &p, const DevicePeaks &peaks)
{
    std::ostringstream out;
    out << p.kernel << ": " << si(double(p.bytes)) << "B and " << si(double(p.flops)) << " flops in "
        << formatNanoseconds(p.seconds * 1e9) << ": " << formatFixed(p.gbps, p.gbps < 10 ? 2 : 1) << " GB/s, "
        << formatFixed(p.gflops, p.gflops < 10 ? 2 : 1) << " GFLOP/s, " << formatFixed(p.intensity, 3)
        << " flops/byte\n  ";
    if (p.memoryBound)
        out << "memory bound (below the ridge at " << formatFixed(p.ridge, 2)
            << " flops/byte): " << formatFixed(p.percentOfRoof, 1) << " % of the "
            << formatFixed(peaks.bandwidthGBps, 1) << " GB/s bandwidth roof";
    else
        out << "compute bound (at or above the ridge at " << formatFixed(p.ridge, 2)
            << " flops/byte): " << formatFixed(p.percentOfRoof, 1) << " % of the "
            << formatFixed(p.peakGflops, 1) << " GFLOP/s " << (p.doublePrecision ? "double" : "single")
            << " precision roof";
    if (p.percentOfRoof > 100)
        out << (p.memoryBound
                    ? " (above the measured roof: the kernel moved data faster than `bench bandwidth` "
                      "measured on this device; on a CPU, a working set that fits in its caches does)"
                    : " (above the measured roof: the kernel computed faster than `bench compute` "
                      "measured on this device)");
    out << '\n';
    return out.str();
}

std::string rooflineToJson(const std::vector<RooflinePoint> &points, const DevicePeaks &peaks, int indent)
{
    nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
    for (const RooflinePoint &p : points) {
        kernels.push_back({{"kernel", p.kernel},
                           {"seconds", p.seconds},
                           {"flops", p.flops},
                           {"bytes", p.bytes},
                           {"gflops", p.gflops},
                           {"gbps", p.gbps},
                           {"intensity", p.intensity},
                           {"precision", p.doublePrecision ? "double" : "single"},
                           {"limit", p.memoryBound ? "memory" : "compute"},
                           {"ridge", p.ridge},
                           {"roof_gflops", p.roofGflops},
                           {"percent_of_roof", p.percentOfRoof}});
    }
    const nlohmann::ordered_json doc{{"peaks",
                                      {{"device", peaks.device},
                                       {"driver", peaks.driver},
                                       {"measured", peaks.measured},
                                       {"bandwidth_gbps", peaks.bandwidthGBps},
                                       {"sp_gflops", peaks.singleGflops},
                                       {"dp_gflops", peaks.doubleGflops}}},
                                     {"kernels", kernels}};
    return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace clscope
