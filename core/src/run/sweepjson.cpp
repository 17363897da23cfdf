// A sweep as JSON (sweep.h): the document of `clscope-cli sweep --json`, and back.
#include "clscope/kernelargs.h"
#include "clscope/sweep.h"

#include <nlohmann/json.hpp>

namespace clscope {

namespace {

using Json = nlohmann::ordered_json;

Json sizesJson(const std::vector<std::size_t> &local)
{
    if (local.empty())
        return nullptr; // the driver chose
    Json out = Json::array();
    for (std::size_t s : local)
        out.push_back(s);
    return out;
}

[[noreturn]] void bad(const std::string &what)
{
    throw RunInputError("not a sweep document: " + what);
}

std::vector<std::size_t> sizesOf(const Json &v, const char *what)
{
    std::vector<std::size_t> out;
    if (v.is_null())
        return out;
    if (!v.is_array() || v.empty() || v.size() > 3)
        bad(std::string(what) + " is not a list of 1 to 3 sizes");
    for (const Json &s : v) {
        if (!s.is_number_unsigned() || s.get<std::uint64_t>() == 0)
            bad(std::string(what) + " holds something that is not a size");
        out.push_back(std::size_t(s.get<std::uint64_t>()));
    }
    return out;
}

double numberOr(const Json &o, const char *key, double otherwise)
{
    const auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<double>() : otherwise;
}

} // namespace

std::string sweepResultToJson(const SweepResult &r)
{
    Json j;
    j["kernel"] = r.kernel;
    j["device"] = r.device;
    j["global"] = sizesJson(r.global);
    j["repeat"] = r.repeat;
    j["warmup"] = r.warmup;
    Json results = Json::array();
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const SweepPoint &p = r.points[i];
        Json o;
        o["local"] = sizesJson(p.local);
        o["ran"] = p.ran;
        if (p.ran) {
            o["launches"] = p.stats.count;
            o["median_ns"] = p.stats.medianNs;
            o["min_ns"] = p.stats.minNs;
            o["mean_ns"] = p.stats.meanNs;
            o["stddev_ns"] = p.stats.stddevNs;
            o["max_ns"] = p.stats.maxNs;
            o["reference"] = r.reference == i;
            o["outputs_equal"] = p.matches;
            o["differing"] = p.differing;
        } else {
            o["error"] = p.error;
        }
        results.push_back(std::move(o));
    }
    j["results"] = std::move(results);
    if (r.best)
        j["best"] = {{"local", sizesJson(r.points[*r.best].local)},
                     {"median_ns", r.points[*r.best].stats.medianNs}};
    else
        j["best"] = nullptr;
    j["cancelled"] = r.cancelled;
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

SweepResult sweepResultFromJson(std::string_view text)
{
    const Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        bad("the text is not a JSON object");
    const auto results = j.find("results");
    if (results == j.end() || !results->is_array())
        bad("no \"results\" list");
    SweepResult r;
    r.kernel = j.value("kernel", std::string());
    r.device = j.value("device", std::string());
    r.global = sizesOf(j.value("global", Json()), "\"global\"");
    r.repeat = int(numberOr(j, "repeat", 0));
    r.warmup = int(numberOr(j, "warmup", 0));
    r.cancelled = j.value("cancelled", false);
    for (const Json &o : *results) {
        if (!o.is_object())
            bad("a result is not an object");
        SweepPoint p;
        p.local = sizesOf(o.value("local", Json()), "a result's \"local\"");
        p.ran = o.value("ran", false);
        if (p.ran) {
            p.stats.name = r.kernel;
            p.stats.count = std::uint64_t(numberOr(o, "launches", 0));
            p.stats.medianNs = numberOr(o, "median_ns", 0);
            p.stats.minNs = std::uint64_t(numberOr(o, "min_ns", 0));
            p.stats.meanNs = numberOr(o, "mean_ns", 0);
            p.stats.stddevNs = numberOr(o, "stddev_ns", 0);
            p.stats.maxNs = std::uint64_t(numberOr(o, "max_ns", 0));
            p.matches = o.value("outputs_equal", true);
            if (const auto d = o.find("differing"); d != o.end() && d->is_array()) {
                for (const Json &name : *d) {
                    if (name.is_string())
                        p.differing.push_back(name.get<std::string>());
                }
            }
            if (o.value("reference", false) && !r.reference)
                r.reference = r.points.size();
        } else {
            p.error = o.value("error", std::string());
        }
        r.points.push_back(std::move(p));
    }
    // The best is the document's: the first point that ran and matches with its size.
    if (const auto best = j.find("best"); best != j.end() && best->is_object()) {
        const std::vector<std::size_t> local = sizesOf(best->value("local", Json()), "\"best\"");
        for (std::size_t i = 0; i < r.points.size() && !r.best; ++i) {
            if (r.points[i].ran && r.points[i].matches && r.points[i].local == local)
                r.best = i;
        }
    }
    return r;
}

} // namespace clscope
