// CSV export of command records (RFC 4180: CRLF line ends, quoting only where needed).
#include "clscope/fileio.h"
#include "clscope/profile.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace clscope {

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

void writeCsv(std::ostream &out, const std::vector<CommandRecord> &records)
{
    for (std::size_t i = 0; i < kCsvColumns.size(); ++i)
        out << (i ? "," : "") << kCsvColumns[i];
    out << "\r\n";
    char gbps[32];
    for (std::size_t i = 0; i < records.size(); ++i) {
        const CommandRecord &r = records[i];
        const StampIssues issues = checkTimestamps(r);
        gbps[0] = '\0';
        if (r.hasBandwidth())
            std::snprintf(gbps, sizeof gbps, "%.3f", r.gbPerSecond());
        out << i << ',' << typeName(r.type) << ',' << csvField(r.name) << ',' << csvField(r.queue) << ','
            << csvField(r.device) << ',' << r.bytes << ',' << r.dims << ',' << ndRangeText(r.global, r.dims)
            << ',' << ndRangeText(r.local, r.dims) << ',' << r.queued << ',' << r.submit << ',' << r.start
            << ',' << r.end << ',';
        if (r.complete)
            out << *r.complete;
        out << ',' << r.hostSubmitNs << ',' << (r.hostSpan ? "true" : "false") << ',' << r.duration() << ','
            << gbps << ',' << csvField(describeIssues(issues)) << ',' << issues.mask << "\r\n";
    }
}

std::string csvText(const std::vector<CommandRecord> &records)
{
    std::ostringstream out;
    writeCsv(out, records);
    return std::move(out).str();
}

void writeCsv(const std::string &path, const std::vector<CommandRecord> &records)
{
    writeWholeFile(path, csvText(records));
}

} // namespace clscope
