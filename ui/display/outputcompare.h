// Whether two runs of one launch computed the same buffers (the same kernel on two devices): integers and
// raw bytes must be equal, floating-point components may differ by a relative tolerance plus a few units in
// the last place (devices round, fuse and order operations differently), and the largest differences are
// kept to be shown.
#pragma once

#include "clscope/kernelargs.h"
#include "clscope/runner.h"

#include <QString>

#include <cstddef>
#include <vector>

namespace clscope::ui {

struct Tolerance
{
    double relative = 1e-5; // of the larger magnitude of the two components
    int ulps = 4;           // units in the last place of the buffer's type, on top
};

struct BufferAgreement
{
    QString name;
    bool agrees = true;
    bool exact = true;         // compared for equality (integers, raw bytes, structs), not within tolerance
    std::size_t compared = 0;  // components compared
    std::size_t differing = 0; // components past the tolerance (or unequal)
    std::size_t firstDiffering = 0; // index of the first of them
    double maxAbs = 0;              // largest |a - b| among finite components
    double maxRel = 0;              // largest |a - b| / max(|a|, |b|) among finite, non-zero components
    QString problem; // the buffers cannot be compared: "missing", "1024 vs 512 elements of float"
};

// `other` against `reference` (the same argument of two runs).
BufferAgreement compareBuffers(const BufferData &reference, const BufferData &other,
                               Tolerance tolerance = {});

// Every buffer the reference run read back, against the other run's buffer of that name (one missing
// there does not agree).
std::vector<BufferAgreement> compareRuns(const RunResult &reference, const RunResult &other,
                                         Tolerance tolerance = {});

// "equal", "within tolerance (max abs 3e-07, rel 2.1e-06)", "2 of 1024 differ, first at 17 (max abs 0.25,
// rel 0.01)", "missing".
QString agreementText(const BufferAgreement &agreement);

} // namespace clscope::ui
