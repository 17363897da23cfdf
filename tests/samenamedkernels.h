// A capture of one kernel (pyopencl's demo.py: `sum`, launch 0) edited into the case of issue 30's Kernels
// tab, through Debian's sqlite3: `identical` more programs of the same sources and options (pyopencl creates
// one per call, as transpose.py does), each with a `sum` kernel object and one launch (numbered on from the
// capture's launches: the first is addedLaunch(file's launches, 0)), the first of them with its contents
// kept; one program of other sources (a space added) and one of the same sources built with other options,
// each with a `sum` and one launch. The recorder's totals are dropped: the summary then sums the commands,
// the added ones too.
#pragma once

#include <QProcess>
#include <QString>

namespace samenamedkernels {

// The program ids of the added programs: identical ones from 101, then the other sources, then the other
// options.
inline qint64 otherSources(int identical)
{
    return 101 + identical;
}
inline qint64 otherOptions(int identical)
{
    return 102 + identical;
}

// The launch of added program i (0..identical+1) of a capture of `launches` launches (0..launches-1).
inline qint64 addedLaunch(qint64 launches, int i)
{
    return launches + i;
}

// The edit's SQL; `sum`'s program in the demo's capture is the one the new programs copy.
inline QString editSql(int identical)
{
    QString sql =
        QStringLiteral("DELETE FROM meta WHERE key = 'command_totals'; "
                       "CREATE TEMP TABLE p AS SELECT program AS id FROM kernels WHERE name = 'sum' LIMIT 1; "
                       "CREATE TEMP TABLE c AS SELECT * FROM commands WHERE launch = 0; "
                       "CREATE TEMP TABLE n AS SELECT COUNT(launch) AS launches FROM commands; ");
    const auto addProgram = [&](qint64 id, int i, const char *data, const char *options) {
        sql +=
            QStringLiteral(
                "INSERT INTO programs(id, process, handle, context, kind) SELECT %1, process, %1, context, "
                "kind FROM programs WHERE id = (SELECT id FROM p); "
                "INSERT INTO program_sources SELECT %1, idx, device, %3 FROM program_sources WHERE program "
                "= (SELECT id FROM p); "
                "INSERT INTO builds(program, op, options, result) SELECT %1, op, %4, result FROM builds "
                "WHERE program = (SELECT id FROM p); "
                "INSERT INTO kernels(id, process, handle, program, name, num_args) VALUES (%1, 1, %1, %1, "
                "'sum', 4); "
                "UPDATE c SET id = 900000 + %2, launch = (SELECT launches FROM n) + %2, kernel = %1, "
                "seq = 900000 + %2; "
                "INSERT INTO commands SELECT * FROM c; ")
                .arg(id)
                .arg(i)
                .arg(QLatin1String(data), QLatin1String(options));
    };
    for (int i = 0; i < identical; ++i)
        addProgram(101 + i, i, "data", "options");
    addProgram(otherSources(identical), identical, "CAST(data || ' ' AS BLOB)", "options");
    addProgram(otherOptions(identical), identical + 1, "data", "options || ' -DOTHER'");
    sql += QStringLiteral("INSERT INTO contents(launch, idx, phase, mem, state, data) SELECT launches, 0, "
                          "'before', 0, 'captured', X'00' FROM n;");
    return sql;
}

// Applies editSql to file; the error sqlite3 gave, "" when none.
inline QString edit(const QString &file, int identical)
{
    QProcess p;
    p.start(QStringLiteral("sqlite3"), {QStringLiteral("-bail"), file, editSql(identical)});
    p.waitForFinished(30000);
    const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
    return p.exitCode() == 0 && err.isEmpty() ? QString()
                                              : err + QStringLiteral(" (exit %1)").arg(p.exitCode());
}

} // namespace samenamedkernels
