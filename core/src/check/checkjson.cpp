// The "check" object of `clscope-cli run --check --json`, kept in the core so the GUI can export the same
// document. Diagnostics carry the build diagnostics' keys first (file, line, column, severity, message).
#include "clscope/check.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace clscope {
namespace {

using nlohmann::ordered_json;

ordered_json idJson(const std::optional<WorkItemId> &id)
{
    return id ? ordered_json(*id) : ordered_json(nullptr);
}

ordered_json siteJson(const CheckSite &s)
{
    return ordered_json{
        {"role", s.role},           {"entity", s.entity},       {"global", idJson(s.global)},
        {"local", idJson(s.local)}, {"group", idJson(s.group)}, {"file", s.file},
        {"line", s.line},           {"column", s.column},       {"source_line", s.sourceLine}};
}

} // namespace

std::string checkReportToJson(const CheckReport &report, int indent)
{
    ordered_json diagnostics = ordered_json::array();
    for (const CheckDiagnostic &d : report.diagnostics) {
        // The site the diagnostic is at (the first with a location), else the first.
        auto at = std::find_if(d.sites.begin(), d.sites.end(), [](const CheckSite &s) { return s.line > 0; });
        const CheckSite *first = at != d.sites.end() ? &*at : d.sites.empty() ? nullptr : &d.sites.front();
        ordered_json sites = ordered_json::array();
        for (const CheckSite &s : d.sites)
            sites.push_back(siteJson(s));
        diagnostics.push_back(
            {{"file", d.diagnostic.file},
             {"line", d.diagnostic.line},
             {"column", d.diagnostic.column},
             {"severity", std::string(severityName(d.diagnostic.severity))},
             {"message", d.diagnostic.message},
             {"kind", std::string(checkKindName(d.kind))},
             {"kernel", d.kernel},
             {"entity", first ? first->entity : std::string()},
             {"source_line", first ? first->sourceLine : std::string()},
             {"occurrences", d.occurrences},
             {"details", d.details},
             {"sites", std::move(sites)},
             {"buffer", d.access ? ordered_json(d.access->buffer) : ordered_json()},
             {"index", d.access ? ordered_json(d.access->index) : ordered_json()},
             {"element_type", d.access ? ordered_json(d.access->elementType) : ordered_json()},
             {"element_count", d.access ? ordered_json(d.access->elementCount) : ordered_json()},
             {"oclgrind_message", d.access ? ordered_json(d.access->oclgrindMessage) : ordered_json()}});
    }
    ordered_json doc;
    doc["platform"] = report.platform;
    doc["diagnostics"] = std::move(diagnostics);
    doc["clean"] = report.clean();
    // Source lines are the user's bytes: ones that are not UTF-8 are replaced rather than make dump() throw.
    return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace clscope
