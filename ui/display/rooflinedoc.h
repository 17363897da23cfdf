// What the GUI shows of `clscope-cli roofline ... --json` (a .cl launch or every kernel of a capture): the
// device's roofs, each kernel's point and percent of roof, and the line profile of its counted launch as
// the editor's heat gutter and the table of lines by cost. The document comes from a child process and is
// read as hostile input: a missing or ill-typed field is an error naming it, never a guess.
#pragma once

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <vector>

namespace clscope::ui {

inline constexpr int kHeatLevels = 5; // 1 (cold) .. 5 (the hottest line); 0: not executed

// One line of a kernel's source as its counted launch executed it.
struct LineHeat
{
    QString file;
    int line = 0; // 1-based
    QString source;
    std::uint64_t executed = 0;
    std::uint64_t flops = 0;
    std::uint64_t globalBytes = 0; // loaded and stored in global and constant memory
    std::uint64_t localBytes = 0;
    std::uint64_t atomics = 0;
    std::uint64_t barriers = 0;
    std::uint64_t divergentGroups = 0;
    double share = 0;    // of the kernel's executed instructions, 0..1
    int level = 0;       // 1..kHeatLevels by share against the hottest line; 0 when it executed nothing
    bool scaled = false; // counted on a sample of the work-groups and scaled (KernelLines::sampling)
};

struct KernelLines
{
    QString kernel;
    QString mainFile;           // the file of the kernel's source (its lines come first); others are headers
    std::uint64_t executed = 0; // the kernel's instructions, every line and none
    std::uint64_t workItems = 0;
    // What was sampled ("sampled 64 of 16384 work-groups (...), counts scaled by 256 ..."), "" when every
    // work-group ran (or the document is older than sampling).
    QString sampling;
    std::vector<LineHeat> lines;          // in source order
    std::vector<LineHeat> ofMain() const; // the main file's lines only (what the editor's gutter shows)
    std::vector<LineHeat> byCost() const; // every line, the most instructions first, then bytes
};

// `run --lines --json`'s entry of one kernel, or roofline's "line_profile". Throws std::runtime_error.
KernelLines kernelLinesFromJson(const QJsonObject &profile);

// The margin's text of a line: its share of the kernel's instructions ("55.9%", "<0.1%").
QString heatText(const LineHeat &line);
// The line's counts in words, for a tooltip or a status line.
QString heatDetails(const LineHeat &line);

struct RooflinePeaks
{
    QString device;
    double bandwidthGBps = 0;
    double singleGflops = 0;
    double doubleGflops = 0;
    QString from; // where they came from (kept file, measured now, --peaks FILE)
};

struct RooflineKernel
{
    QString kernel;      // the label: a name, "transpose (program 121)" when a name is in several
    QString name;        // the kernel's name in its source
    qint64 program = -1; // a capture's program id (the first with these sources); -1 for a .cl launch
    QString device;
    std::uint64_t launches = 0;
    std::uint64_t totalNs = 0;
    double share = 0; // of the capture's kernel time
    qint64 countedLaunch = -1;
    bool counted = false; // false: error says why
    QString error;
    double seconds = 0;
    std::uint64_t bytes = 0;
    std::uint64_t flops = 0;
    double gbps = 0;
    double gflops = 0;
    double intensity = 0;
    bool memoryBound = true;
    bool doublePrecision = false;
    double percentOfRoof = 0;
    bool hasLines = false;
    KernelLines lines;
};

struct RooflineDocument
{
    QString title;                       // the capture's program, or "kernel on device"
    std::vector<RooflinePeaks> peaks;    // one per device
    std::vector<RooflineKernel> kernels; // as the document lists them (a capture's by device time)
    const RooflinePeaks *peaksOf(const QString &device) const;
};

// Both forms of the document. Throws std::runtime_error naming what is wrong.
RooflineDocument rooflineFromJson(const QJsonObject &doc);

// "memory bound: 74.2 % of the 3282 GB/s roof", "compute bound: 41.0 % of 64617 GFLOP/s".
QString roofText(const RooflineKernel &k, const RooflinePeaks *peaks);

} // namespace clscope::ui
