// The JSON document of `clscope-cli build --json` (DESIGN.md's CLI contract), kept in the core so the
// GUI can export the same document.
#include "clscope/build.h"

#include <nlohmann/json.hpp>

namespace clscope {
namespace {

using nlohmann::ordered_json;

ordered_json workGroupJson(const WorkGroupInfo &w)
{
    return ordered_json{{"device", w.device},
                        {"work_group_size", w.workGroupSize},
                        {"preferred_work_group_size_multiple", w.preferredWorkGroupSizeMultiple},
                        {"local_mem_size", w.localMemSize},
                        {"private_mem_size", w.privateMemSize},
                        {"compile_work_group_size", w.compileWorkGroupSize}};
}

} // namespace

std::string buildResultToJson(const BuildResult &result, int indent)
{
    ordered_json doc;
    doc["status"] = result.success() ? "success" : "failure";
    doc["duration_ms"] = result.durationMs();
    doc["cache"] = std::string(cacheStateName(result.cache()));
    if (!result.cacheNote().empty())
        doc["cache_note"] = result.cacheNote(); // why the cache was off, or could not keep the build
    doc["options"] = result.options();
    doc["source"] = result.sourcePath();
    ordered_json logs = ordered_json::array();
    for (const auto &l : result.logs()) {
        logs.push_back({{"device", l.device},
                        {"log", l.log},
                        {"success", l.success},
                        {"cache", std::string(cacheStateName(l.cache))}});
    }
    doc["logs"] = std::move(logs);
    ordered_json kernels = ordered_json::array();
    for (const auto &k : result.kernels()) {
        ordered_json args = ordered_json::array();
        for (const auto &a : k.args) {
            args.push_back({{"name", a.name},
                            {"address_qualifier", std::string(addressQualifierName(a.address))},
                            {"access_qualifier", std::string(accessQualifierName(a.access))},
                            {"type_name", a.typeName},
                            {"type_qualifiers", typeQualifierNames(a.typeQualifiers)}});
        }
        ordered_json kernel{{"name", k.name},
                            {"arg_info", std::string(argInfoSourceName(k.argInfo))},
                            {"args", std::move(args)}};
        if (!k.error.empty())
            kernel["error"] = k.error; // the driver would not make it (its args are the source's)
        // work_group is the first device's (the contract's one object); work_groups has every device.
        kernel["work_group"] =
            k.workGroups.empty() ? ordered_json::object() : workGroupJson(k.workGroups.front());
        ordered_json all = ordered_json::array();
        for (const auto &w : k.workGroups)
            all.push_back(workGroupJson(w));
        kernel["work_groups"] = std::move(all);
        kernels.push_back(std::move(kernel));
    }
    doc["kernels"] = std::move(kernels);
    ordered_json diags = ordered_json::array();
    for (const auto &d : result.diagnostics()) {
        diags.push_back({{"file", d.file},
                         {"line", d.line},
                         {"column", d.column},
                         {"severity", std::string(severityName(d.severity))},
                         {"message", d.message}});
    }
    doc["diagnostics"] = std::move(diags);
    // Logs are driver text: bytes that are not UTF-8 are replaced rather than make dump() throw.
    return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace clscope
