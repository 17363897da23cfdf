// clscope-cli build --matrix: the program built with every option set on every selected device (the cache
// off, and a define that makes each a new program to the driver's own cache, so that each build is timed as
// the compiler does it), one cell per set and device with its figures. NVIDIA's compiler gets -cl-nv-verbose
// as well, for its registers and spills. Exit 0 when every build
// succeeded, 1 when one failed (the matrix is printed all the same), 2 on bad usage.
#include "cli.h"

#include "clscope/buildmatrix.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace clscope::cli {
namespace {

std::string optional(const std::optional<std::uint64_t> &v)
{
    return v ? std::to_string(*v) : std::string("?");
}

nlohmann::ordered_json cellJson(const MatrixCell &c)
{
    nlohmann::ordered_json j;
    j["options"] = c.options;
    j["device"] = c.device;
    j["success"] = c.success;
    j["build_ms"] = c.buildMs;
    j["warnings"] = c.warnings;
    j["errors"] = c.errors;
    j["first_error"] = c.firstError;
    j["binary_bytes"] = c.binaryBytes;
    auto kernels = nlohmann::ordered_json::array();
    for (const KernelInfo &k : c.kernels) {
        nlohmann::ordered_json o;
        o["name"] = k.name;
        if (!k.workGroups.empty()) {
            const WorkGroupInfo &w = k.workGroups.front();
            o["work_group_size"] = w.workGroupSize;
            o["preferred_multiple"] = w.preferredWorkGroupSizeMultiple;
            o["local_mem_bytes"] = w.localMemSize;
            o["private_mem_bytes"] = w.privateMemSize;
        }
        const auto r = std::find_if(c.resources.begin(), c.resources.end(),
                                    [&](const KernelResources &x) { return x.kernel == k.name; });
        const bool known = r != c.resources.end();
        o["registers"] = known && r->registers ? nlohmann::ordered_json(*r->registers) : nullptr;
        o["spill_stores_bytes"] = known && r->spillStores ? nlohmann::ordered_json(*r->spillStores) : nullptr;
        o["spill_loads_bytes"] = known && r->spillLoads ? nlohmann::ordered_json(*r->spillLoads) : nullptr;
        o["stack_frame_bytes"] = known && r->stackFrame ? nlohmann::ordered_json(*r->stackFrame) : nullptr;
        kernels.push_back(std::move(o));
    }
    j["kernels"] = std::move(kernels);
    j["log"] = c.log;
    return j;
}

void printCell(const MatrixCell &c)
{
    char head[160];
    std::snprintf(head, sizeof head, "  %s: %s in %.1f ms, %d warning%s, binary %zu bytes", c.device.c_str(),
                  c.success ? "built" : "FAILED", c.buildMs, c.warnings, c.warnings == 1 ? "" : "s",
                  c.binaryBytes);
    std::cout << head;
    if (!c.success && !c.firstError.empty())
        std::cout << " (" << c.firstError << ')';
    std::cout << '\n';
    for (const KernelInfo &k : c.kernels) {
        std::cout << "    " << k.name;
        if (!k.workGroups.empty()) {
            const WorkGroupInfo &w = k.workGroups.front();
            std::cout << ": work-group " << w.workGroupSize << ", multiple "
                      << w.preferredWorkGroupSizeMultiple << ", local " << w.localMemSize << " B, private "
                      << w.privateMemSize << " B";
        }
        for (const KernelResources &r : c.resources) {
            if (r.kernel != k.name)
                continue;
            std::cout << ", " << (r.registers ? std::to_string(*r.registers) : std::string("?"))
                      << " registers, spills " << optional(r.spillStores) << " B stored / "
                      << optional(r.spillLoads) << " B loaded, stack " << optional(r.stackFrame) << " B";
        }
        std::cout << '\n';
    }
}

} // namespace

int runBuildMatrix(const MatrixOptions &opts)
{
    const std::vector<std::string> sets = parseOptionSets(opts.sets);
    const std::vector<std::vector<SelectedDevice>> groups = byPlatform(selectDevices(opts.deviceSpec));
    std::vector<MatrixCell> cells;
    const std::uint64_t nonce = matrixNonce();
    for (const std::string &set : sets) {
        for (const auto &group : groups) {
            BuildRequest request;
            for (const auto &d : group)
                request.devices.push_back(d.device);
            request.sourcePath = opts.input.file;
            // A new program to every driver (no answer from its cache): the compiler's own time and report.
            request.options = matrixBuildOptions(opts.baseOptions, set, group.front().platformName, nonce);
            const BuildResult build = buildProgramInput(opts.input, request, BinaryCache());
            for (std::size_t i = 0; i < group.size(); ++i)
                cells.push_back(matrixCell(set, build, i));
        }
    }
    const bool allBuilt =
        std::all_of(cells.begin(), cells.end(), [](const MatrixCell &c) { return c.success; });
    if (opts.json) {
        nlohmann::ordered_json doc;
        doc["file"] = opts.input.file;
        doc["option_sets"] = sets;
        auto devices = nlohmann::ordered_json::array();
        for (const auto &group : groups) {
            for (const auto &d : group)
                devices.push_back(d.deviceName);
        }
        doc["devices"] = std::move(devices);
        auto all = nlohmann::ordered_json::array();
        for (const MatrixCell &c : cells)
            all.push_back(cellJson(c));
        doc["cells"] = std::move(all);
        std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        std::size_t i = 0;
        for (const std::string &set : sets) {
            std::cout << "Options \"" << set << "\""
                      << (opts.baseOptions.empty() ? "" : " after \"" + opts.baseOptions + "\"") << '\n';
            for (; i < cells.size() && cells[i].options == set; ++i)
                printCell(cells[i]);
        }
    }
    return allBuilt ? ExitOk : ExitFailed;
}

} // namespace clscope::cli
