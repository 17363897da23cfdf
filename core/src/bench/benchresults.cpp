// Benchmark documents as JSON (what `bench --json` prints and `--save` writes), read back for a baseline,
// and compared with one figure by figure: the feature clpeak users ask for (clpeak issue #200).
#include "clscope/devicebench.h"
#include "clscope/fileio.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace clscope {
namespace {
using Json = nlohmann::ordered_json;

constexpr const char *kFormat = "clscope-bench/1";

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

Json traitJson(const BenchTraitValue &value)
{
    return std::visit(
        [](const auto &v) -> Json {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return nullptr;
            else
                return v;
        },
        value);
}

BenchTraitValue traitValue(const Json &j)
{
    if (j.is_boolean())
        return j.get<bool>();
    if (j.is_number_integer())
        return j.get<std::int64_t>();
    if (j.is_number())
        return j.get<double>();
    if (j.is_string())
        return j.get<std::string>();
    return {};
}

// JSON has no NaN or infinity: such a figure is written as null and read back as 0.
Json number(double value)
{
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

std::string text(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}
} // namespace

BenchDirection benchDirection(std::string_view key)
{
    for (const char *rate : {"_gbps", "_gflops", "_giops", "_per_s"}) {
        if (endsWith(key, rate))
            return BenchDirection::HigherIsBetter;
    }
    for (const char *time : {"_ns", "_us", "_ms", "_s"}) {
        if (endsWith(key, time))
            return BenchDirection::LowerIsBetter;
    }
    return BenchDirection::Neutral;
}

std::string_view verdictName(BenchVerdict verdict)
{
    switch (verdict) {
    case BenchVerdict::Better:
        return "better";
    case BenchVerdict::Worse:
        return "worse";
    case BenchVerdict::Same:
        return "same";
    case BenchVerdict::Unknown:
        break;
    }
    return "unknown";
}

std::vector<BenchComparison> compareBench(const BenchDocument &current, const BenchDocument &baseline,
                                          double tolerance)
{
    std::vector<BenchComparison> out;
    for (const BenchResult &r : current.results) {
        for (const BenchFigure &f : r.report.figures) {
            const BenchFigure *base = baseline.findFigure(f.key);
            if (!base)
                continue;
            BenchComparison c{f.key, f.unit, f.value, base->value, 0, BenchVerdict::Unknown};
            if (base->value != 0 && std::isfinite(base->value) && std::isfinite(f.value)) {
                c.ratio = f.value / base->value;
                const BenchDirection direction = benchDirection(f.key);
                if (std::abs(c.ratio - 1.0) <= tolerance)
                    c.verdict = BenchVerdict::Same;
                else if (direction == BenchDirection::HigherIsBetter)
                    c.verdict = c.ratio > 1.0 ? BenchVerdict::Better : BenchVerdict::Worse;
                else if (direction == BenchDirection::LowerIsBetter)
                    c.verdict = c.ratio < 1.0 ? BenchVerdict::Better : BenchVerdict::Worse;
            }
            out.push_back(std::move(c));
        }
    }
    return out;
}

std::string benchToJson(const BenchDocument &document, const std::vector<BenchComparison> *comparison,
                        const std::string &baselineName)
{
    // Figures flat at the top, as DESIGN.md's contract has them; what each means beside them.
    Json doc;
    doc["format"] = kFormat;
    doc["device"] = document.device;
    doc["platform"] = document.platform;
    doc["device_version"] = document.deviceVersion;
    doc["driver_version"] = document.driverVersion;
    doc["created"] = document.created;
    Json kinds = Json::array(), units = Json::object(), iterations = Json::object(), rounds = Json::object(),
         definitions = Json::object(), figureKinds = Json::object(), series = Json::object(),
         traits = Json::object(), traitDefinitions = Json::object(), traitKinds = Json::object(),
         notes = Json::array(), seconds = Json::object();
    for (const BenchResult &r : document.results) {
        kinds.push_back(r.report.kind);
        seconds[r.report.kind] = number(r.seconds);
        for (const BenchFigure &f : r.report.figures) {
            doc[f.key] = number(f.value);
            units[f.key] = f.unit;
            iterations[f.key] = f.iterations;
            rounds[f.key] = f.rounds;
            definitions[f.key] = f.definition;
            figureKinds[f.key] = r.report.kind;
        }
        for (const BenchSeries &s : r.series) {
            Json values = Json::array();
            for (const double v : s.values)
                values.push_back(number(v));
            series[s.key] = {{"kind", r.report.kind}, {"unit", s.unit},   {"axis", s.axis},
                             {"labels", s.labels},    {"values", values}, {"definition", s.definition}};
        }
        for (const BenchTrait &t : r.traits) {
            traits[t.key] = traitJson(t.value);
            traitDefinitions[t.key] = t.definition;
            traitKinds[t.key] = r.report.kind;
        }
        for (const std::string &n : r.notes)
            notes.push_back(r.report.kind + ": " + n);
    }
    doc["kinds"] = kinds;
    doc["units"] = units;
    doc["iterations"] = iterations;
    doc["rounds"] = rounds; // each figure is the best of `rounds` runs (or the mean of the fastest round)
    doc["definitions"] = definitions;
    doc["figure_kinds"] = figureKinds;
    doc["series"] = series;
    doc["traits"] = traits;
    doc["trait_definitions"] = traitDefinitions;
    doc["trait_kinds"] = traitKinds;
    doc["notes"] = notes;
    doc["seconds"] = seconds;
    if (comparison) {
        Json ratios = Json::object(), verdicts = Json::object(), values = Json::object();
        for (const BenchComparison &c : *comparison) {
            ratios[c.key] = c.baseline != 0 ? number(c.ratio) : Json(nullptr);
            verdicts[c.key] = verdictName(c.verdict);
            values[c.key] = number(c.baseline);
        }
        doc["baseline"] = {
            {"file", baselineName}, {"values", values}, {"ratios", ratios}, {"verdicts", verdicts}};
    }
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

BenchDocument benchFromJson(std::string_view json)
{
    Json doc;
    try {
        doc = Json::parse(json);
    } catch (const nlohmann::json::exception &e) {
        throw BenchFileError(std::string("not a benchmark document: ") + e.what());
    }
    if (!doc.is_object() || !doc.contains("device") || !doc["device"].is_string())
        throw BenchFileError("not a benchmark document: no \"device\"");
    BenchDocument out;
    out.device = text(doc, "device");
    out.platform = text(doc, "platform");
    out.deviceVersion = text(doc, "device_version");
    out.driverVersion = text(doc, "driver_version");
    out.created = text(doc, "created");

    const auto object = [&doc](const char *key) {
        const auto it = doc.find(key);
        return it != doc.end() && it->is_object() ? *it : Json::object();
    };
    const Json units = object("units"), iterations = object("iterations"), rounds = object("rounds"),
               definitions = object("definitions"), figureKinds = object("figure_kinds"),
               series = object("series"), traits = object("traits"),
               traitDefinitions = object("trait_definitions"), traitKinds = object("trait_kinds"),
               seconds = object("seconds");
    std::map<std::string, std::size_t> kindIndex;
    const auto resultFor = [&](const std::string &kind) -> BenchResult & {
        const auto it = kindIndex.find(kind);
        if (it != kindIndex.end())
            return out.results[it->second];
        kindIndex[kind] = out.results.size();
        BenchResult &r = out.results.emplace_back();
        r.report.kind = kind;
        r.report.device = out.device;
        if (seconds.contains(kind) && seconds[kind].is_number())
            r.seconds = seconds[kind].get<double>();
        return r;
    };
    if (doc.contains("kinds") && doc["kinds"].is_array()) {
        for (const Json &k : doc["kinds"]) {
            if (k.is_string())
                resultFor(k.get<std::string>());
        }
    }
    // A figure is a top-level number whose key carries a unit; older documents (bench pool --json) have no
    // figure_kinds, their figures go to the first kind.
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        if (!(it->is_number() || it->is_null()) || benchDirection(it.key()) == BenchDirection::Neutral)
            continue;
        const std::string &key = it.key();
        std::string kind = text(figureKinds, key.c_str());
        if (kind.empty())
            kind = out.results.empty() ? std::string("unknown") : out.results.front().report.kind;
        BenchFigure f;
        f.key = key;
        f.value = it->is_number() ? it->get<double>() : 0.0;
        f.unit = text(units, key.c_str());
        if (iterations.contains(key) && iterations[key].is_number_unsigned())
            f.iterations = iterations[key].get<std::uint64_t>();
        if (rounds.contains(key) && rounds[key].is_number_integer())
            f.rounds = rounds[key].get<int>();
        f.definition = text(definitions, key.c_str());
        resultFor(kind).report.figures.push_back(std::move(f));
    }
    for (auto it = series.begin(); it != series.end(); ++it) {
        if (!it->is_object())
            continue;
        BenchSeries s;
        s.key = it.key();
        s.unit = text(*it, "unit");
        s.axis = text(*it, "axis");
        s.definition = text(*it, "definition");
        if (it->contains("labels") && (*it)["labels"].is_array()) {
            for (const Json &l : (*it)["labels"])
                s.labels.push_back(l.is_string() ? l.get<std::string>() : l.dump());
        }
        if (it->contains("values") && (*it)["values"].is_array()) {
            for (const Json &v : (*it)["values"])
                s.values.push_back(v.is_number() ? v.get<double>() : 0.0);
        }
        s.values.resize(s.labels.size());
        std::string kind = text(*it, "kind");
        resultFor(kind.empty() ? std::string("unknown") : kind).series.push_back(std::move(s));
    }
    for (auto it = traits.begin(); it != traits.end(); ++it) {
        std::string kind = text(traitKinds, it.key().c_str());
        if (kind.empty())
            kind = "traits";
        resultFor(kind).traits.push_back(
            {it.key(), traitValue(*it), text(traitDefinitions, it.key().c_str())});
    }
    if (doc.contains("notes") && doc["notes"].is_array()) {
        for (const Json &n : doc["notes"]) {
            if (!n.is_string())
                continue;
            const std::string note = n.get<std::string>();
            const std::size_t colon = note.find(": ");
            const auto it =
                colon == std::string::npos ? kindIndex.end() : kindIndex.find(note.substr(0, colon));
            if (it != kindIndex.end())
                out.results[it->second].notes.push_back(note.substr(colon + 2));
        }
    }
    return out;
}

void saveBenchFile(const std::string &path, const BenchDocument &document)
{
    try {
        writeWholeFile(path, benchToJson(document) + '\n');
    } catch (const FileError &e) {
        throw BenchFileError(e.what());
    }
}

BenchDocument loadBenchFile(const std::string &path)
{
    std::string bytes;
    try {
        bytes = readRegularFile(path, kMaxDocumentBytes);
    } catch (const FileError &e) {
        throw BenchFileError(e.what());
    }
    try {
        return benchFromJson(bytes);
    } catch (const BenchFileError &e) {
        throw BenchFileError(path + ": " + e.what());
    }
}

} // namespace clscope
