// Oclgrind's invalid accesses by buffer: addresses mapped back to the checked run's buffers (past the end,
// before the start, inside, far away, other address spaces), the merge per site with the lowest work-item
// and its count, the JSON and text forms, and the child's buffers file read as hostile input.
#include "clscope/check.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace clscope;

namespace {

// Two buffers of 1024 floats where Oclgrind 21.10 puts a run's first buffers: numbers 2 and 3 in the top
// 16 bits.
const std::vector<CheckedBuffer> kBuffers{
    {"a", 0x2000000000000, 4096, 1024, "float"},
    {"c", 0x3000000000000, 4096, 1024, "float"},
};

CheckDiagnostic report(const std::string &message, std::size_t workItem = 1023, int line = 3)
{
    CheckDiagnostic d;
    d.kind = message.starts_with("Invalid write") ? CheckKind::InvalidWrite : CheckKind::InvalidRead;
    d.kernel = "k";
    d.diagnostic.file = "k.cl";
    d.diagnostic.line = line;
    d.diagnostic.column = 12;
    d.diagnostic.severity = Severity::Error;
    d.diagnostic.message = message;
    CheckSite site;
    site.entity = "Global(" + std::to_string(workItem) + ",0,0) Local(0,0,0) Group(0,0,0)";
    site.global = WorkItemId{workItem, 0, 0};
    site.file = "k.cl";
    site.line = line;
    d.sites.push_back(site);
    return d;
}

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestCheckBuffers : public QObject
{
    Q_OBJECT

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("oclgrind");
        QTest::addColumn<QString>("message"); // "" when the report keeps Oclgrind's words
        QTest::addColumn<QString>("buffer");
        QTest::addColumn<qint64>("index");
        QTest::newRow("one past the end")
            << "Invalid write of size 4 at global memory address 0x3000000001000"
            << "write 4 bytes one past the end of c (1024 x float) at index 1024, by work-item 1023"
            << "c" << qint64(1024);
        QTest::newRow("elements past the end")
            << "Invalid read of size 4 at global memory address 0x2000000001008"
            << "read 4 bytes 3 elements past the end of a (1024 x float) at index 1026, by work-item 1023"
            << "a" << qint64(1026);
        QTest::newRow("before the start")
            << "Invalid write of size 4 at global memory address 0x2fffffffffffc"
            << "write 4 bytes before the start of c (1024 x float) at index -1, by work-item 1023"
            << "c" << qint64(-1);
        QTest::newRow("two before the start, part of an element")
            << "Invalid read of size 1 at global memory address 0x1fffffffffffa"
            << "read 1 byte before the start of a (1024 x float) at index -2, by work-item 1023"
            << "a" << qint64(-2);
        QTest::newRow("inside") << "Invalid write of size 16 at constant memory address 0x2000000000010"
                                << "write 16 bytes in a (1024 x float) at index 4, by work-item 1023"
                                << "a" << qint64(4);
        QTest::newRow("local memory") << "Invalid read of size 4 at local memory address 0x3000000001000"
                                      << ""
                                      << "" << qint64(0);
        QTest::newRow("far from any buffer")
            << "Invalid read of size 4 at global memory address 0x5800000000000"
            << ""
            << "" << qint64(0);
        QTest::newRow("no address") << "Invalid write to read-only buffer"
                                    << ""
                                    << "" << qint64(0);
    }

    void names()
    {
        QFETCH(QString, oclgrind);
        QFETCH(QString, message);
        QFETCH(QString, buffer);
        QFETCH(qint64, index);
        std::vector<CheckDiagnostic> diagnostics{report(oclgrind.toStdString())};
        nameBuffers(diagnostics, kBuffers);
        const CheckDiagnostic &d = diagnostics.front();
        if (message.isEmpty()) {
            QVERIFY(!d.access);
            QCOMPARE(q(d.diagnostic.message), oclgrind);
            return;
        }
        QVERIFY(d.access);
        QCOMPARE(q(d.diagnostic.message), message);
        QCOMPARE(q(d.access->buffer), buffer);
        QCOMPARE(qint64(d.access->index), index);
        QCOMPARE(q(d.access->oclgrindMessage), oclgrind);
    }

    void noBuffersKeepOclgrindsWords()
    {
        std::vector<CheckDiagnostic> diagnostics{
            report("Invalid write of size 4 at global memory address 0x3000000001000")};
        const auto before = diagnostics;
        nameBuffers(diagnostics, {});
        QCOMPARE(diagnostics, before);
    }

    void mergesPerSiteWithTheLowestWorkItem()
    {
        // Four work-items past the end of c on one line, one on another line, one in a: three sites.
        std::vector<CheckDiagnostic> diagnostics{
            report("Invalid write of size 4 at global memory address 0x3000000001008", 1022),
            report("Invalid write of size 4 at global memory address 0x300000000100c", 1023),
            report("Invalid write of size 4 at global memory address 0x3000000001000", 1020),
            report("Invalid write of size 4 at global memory address 0x3000000001004", 1021),
            report("Invalid write of size 4 at global memory address 0x3000000001000", 7, 9),
            report("Invalid write of size 4 at global memory address 0x2000000001000", 5),
        };
        nameBuffers(diagnostics, kBuffers);
        const std::vector<CheckDiagnostic> merged = mergeCheckDiagnostics(diagnostics);
        QCOMPARE(merged.size(), std::size_t(3));
        QCOMPARE(merged[0].occurrences, 4);
        QCOMPARE(q(merged[0].diagnostic.message),
                 QStringLiteral("write 4 bytes one past the end of c (1024 x float) at index 1024, by "
                                "work-item 1020, and 3 more work-items"));
        QCOMPARE(merged[1].diagnostic.line, 9);
        QCOMPARE(q(merged[1].diagnostic.message),
                 QStringLiteral("write 4 bytes one past the end of c (1024 x float) at index 1024, by "
                                "work-item 7"));
        QCOMPARE(q(merged[2].diagnostic.message),
                 QStringLiteral("write 4 bytes one past the end of a (1024 x float) at index 1024, by "
                                "work-item 5"));

        // The text: the count is in the message, not repeated; Oclgrind's own words under it.
        const std::string text = formatCheckDiagnostic(merged[0]);
        QVERIFY2(q(text).startsWith(
                     QStringLiteral("k.cl:3:12: error: write 4 bytes one past the end of c (1024 x float) at "
                                    "index 1024, by work-item 1020, and 3 more work-items\n")),
                 text.c_str());
        QVERIFY2(q(text).contains(QStringLiteral(
                     "    Oclgrind: Invalid write of size 4 at global memory address 0x3000000001000\n")),
                 text.c_str());

        // The JSON: the old keys and the buffer's.
        CheckReport r;
        r.diagnostics = merged;
        const QJsonObject d = QJsonDocument::fromJson(QByteArray::fromStdString(checkReportToJson(r)))
                                  .object()
                                  .value(QLatin1String("diagnostics"))
                                  .toArray()
                                  .at(0)
                                  .toObject();
        for (const char *key : {"file", "line", "column", "severity", "message", "kind", "kernel", "entity",
                                "source_line", "occurrences", "details", "sites"})
            QVERIFY2(d.contains(QLatin1String(key)), key);
        QCOMPARE(d.value(QLatin1String("buffer")).toString(), QStringLiteral("c"));
        QCOMPARE(d.value(QLatin1String("index")).toInteger(), 1024);
        QCOMPARE(d.value(QLatin1String("element_type")).toString(), QStringLiteral("float"));
        QCOMPARE(d.value(QLatin1String("element_count")).toInteger(), 1024);
        QCOMPARE(d.value(QLatin1String("entity")).toString(),
                 QStringLiteral("Global(1020,0,0) Local(0,0,0) Group(0,0,0)"));
    }

    void buffersFileRoundTrip()
    {
        QCOMPARE(checkedBuffersFromJson(checkedBuffersToJson(kBuffers)), kBuffers);
    }

    void buffersFileIsHostileInput_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kept");
        QTest::newRow("empty") << "" << 0;
        QTest::newRow("not JSON") << "[{\"name\":" << 0;
        QTest::newRow("an object") << "{\"name\": \"c\"}" << 0;
        QTest::newRow("not objects") << "[1, \"c\", null]" << 0;
        QTest::newRow("a field missing")
            << "[{\"name\": \"c\", \"address\": 1, \"bytes\": 4, \"count\": 1}]" << 0;
        QTest::newRow("negative address")
            << "[{\"name\": \"c\", \"address\": -1, \"bytes\": 4, \"count\": 1, \"type\": \"float\"}]" << 0;
        QTest::newRow("no elements")
            << "[{\"name\": \"c\", \"address\": 1, \"bytes\": 4, \"count\": 0, \"type\": \"float\"}]" << 0;
        QTest::newRow("elements that do not divide it")
            << "[{\"name\": \"c\", \"address\": 1, \"bytes\": 10, \"count\": 4, \"type\": \"float\"}]" << 0;
        QTest::newRow("one good of two")
            << "[{\"name\": \"\", \"address\": 1, \"bytes\": 4, \"count\": 1, \"type\": \"float\"},"
               " {\"name\": \"c\", \"address\": 1, \"bytes\": 4, \"count\": 1, \"type\": \"float\"}]"
            << 1;
    }

    void buffersFileIsHostileInput()
    {
        QFETCH(QString, text);
        QFETCH(int, kept);
        QCOMPARE(int(checkedBuffersFromJson(text.toStdString()).size()), kept);
    }
};

QTEST_GUILESS_MAIN(TestCheckBuffers)
#include "tst_checkbuffers.moc"
