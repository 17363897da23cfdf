// The one comparison of two buffers that should hold the same results: a run on every device against the
// first device's, the results viewer's Compare with another buffer or a reference file, a replayed launch
// against the capture's "after" contents, and a local-size sweep's candidates against the first.
//
// The rule (where the former copies disagreed, this is what the tests and the user guide describe):
// - The two must hold the same elements: the same element type, the same count and the same number of
//   bytes. Otherwise they cannot be compared (`problem`: "1024 × float vs 512 × float") and do not agree;
//   nothing is compared element by element.
// - Buffers of structs (a layout on either side) and raw bytes are compared byte by byte, padding included
//   (the runner zeroes buffers, and a kernel writes the padding the same way every time).
// - Everything else component by component, vectors flattened and the padding of 3-vectors left out
//   (drivers write it as they like).
// - Integers must be equal: a tolerance is for floating point only.
// - Floating point: NaN equals NaN (whatever its bits), an infinity only the same infinity; finite values
//   agree when |a - b| <= absolute + relative * max(|a|, |b|) + ulps * (the type's ulp at max(|a|, |b|)).
//   A zero tolerance is equality (so +0 equals -0).
// - maxAbs and maxRel are the largest over every pair of finite components, integers too (within the
//   tolerance as well, so "equal within tolerance" can say by how much); a NaN or an infinity that differs
//   counts in `differing` but not in them. Bytes and structs have none.
#pragma once

#include "clscope/kernelargs.h"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace clscope {

class RunResult;

struct Tolerance
{
    double absolute = 0; // |a - b|
    double relative = 0; // of the larger magnitude of the two components
    int ulps = 0;        // units in the last place of the buffer's type, at the larger magnitude

    // What the same kernel on two devices still agrees within: devices round, contract and order
    // operations differently (run on every device).
    static constexpr Tolerance acrossDevices() { return {0, 1e-5, 4}; }
    static constexpr Tolerance absoluteOf(double t) { return {t, 0, 0}; }
};

// A buffer's bytes as compared, without a copy (a replay's read-back, a capture's "after").
struct BufferBytes
{
    ElementType type;
    std::size_t count = 0; // elements
    std::span<const unsigned char> bytes;
    bool structs = false; // a buffer of structs: compared by its bytes

    static BufferBytes of(const BufferData &buffer)
    {
        return {buffer.type, buffer.count, buffer.bytes, buffer.layout != nullptr};
    }
};

struct BufferComparison
{
    std::string name;          // the reference's
    std::string problem;       // why the two cannot be compared ("missing", "2 × float vs 3 × float")
    bool exact = true;         // compared for equality (integers, bytes, structs), not within a tolerance
    std::size_t compared = 0;  // components compared (bytes for structs and raw bytes)
    std::size_t differing = 0; // components past the tolerance (or unequal)
    std::size_t firstDiffering = 0;       // the first of them (a component index); 0 when none
    double referenceAt = 0, otherAt = 0;  // the two components there
    double maxAbs = 0;                    // largest |a - b| over finite components
    double maxRel = 0;                    // largest |a - b| / max(|a|, |b|) over finite, non-zero ones
    std::vector<bool> differs;            // per component, when asked for and something differs
    std::size_t componentsPerElement = 1; // the vector's width, or the bytes of a raw element

    bool agrees() const { return problem.empty() && differing == 0; }
    std::size_t firstDifferingElement() const { return firstDiffering / componentsPerElement; }
};

// `other` against `reference`. With `markDiffering`, `differs` flags each differing component (the
// results viewer colours them).
BufferComparison compareBuffers(const BufferBytes &reference, const BufferBytes &other,
                                const Tolerance &tolerance = {}, bool markDiffering = false);
inline BufferComparison compareBuffers(const BufferData &reference, const BufferData &other,
                                       const Tolerance &tolerance = {}, bool markDiffering = false)
{
    BufferComparison c =
        compareBuffers(BufferBytes::of(reference), BufferBytes::of(other), tolerance, markDiffering);
    c.name = reference.name;
    return c;
}

// Every buffer the reference run read back, against the other run's buffer of that name (one missing
// there does not agree: problem "missing"), in the reference's order.
std::vector<BufferComparison> compareRuns(const RunResult &reference, const RunResult &other,
                                          const Tolerance &tolerance = {});

// "equal", "within tolerance (max abs 3e-07, rel 2.1e-06)", "2 of 1024 differ, first at 17 (max abs 0.25,
// rel 0.01)", or the problem ("missing").
std::string comparisonText(const BufferComparison &comparison);

} // namespace clscope
