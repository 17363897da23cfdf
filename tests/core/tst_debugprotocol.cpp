// The debugger protocol's controller side (debug.h): the plugin's lines are another process's output, read
// as hostile input (every field checked, one clear error for anything else), the requests are the documented
// JSON lines, and the options Oclgrind refuses are dropped.
#include "clscope/debug.h"
#include "clscope/error.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace clscope;

class TestDebugProtocol : public QObject
{
    Q_OBJECT

private slots:
    void stopMapsTheMainSource()
    {
        const DebugMessage m = parseDebugMessage(
            R"J({"event":"stopped","reason":"breakpoint","item":{"global":[5,0,0],"local":[1,0,0],"group":[1,0,0]},)J"
            R"J("file":"input.cl","line":16,"function":"reduce","depth":0})J",
            "k.cl");
        QCOMPARE(int(m.kind), int(DebugMessage::Kind::Stopped));
        QCOMPARE(m.stop.file, std::string("k.cl"));
        QCOMPARE(m.stop.line, 16);
        QCOMPARE(m.stop.item.global, (WorkItemId{5, 0, 0}));
        QCOMPARE(m.stop.item.group, (WorkItemId{1, 0, 0}));
        QCOMPARE(m.stop.item.state, std::string("stopped"));
    }

    void variablesNest()
    {
        const DebugMessage m = parseDebugMessage(
            R"J({"reply":"variables","item":{"global":[0,0,0],"local":[0,0,0],"group":[0,0,0],"state":"stopped"},)J"
            R"J("variables":[{"name":"p","type":"Params","value":"{4, 0.5}","children":[{"name":"n","type":"int",)J"
            R"J("value":"4"},{"name":"scale","type":"float","value":"0.5"}]},{"name":"q","type":"int","error":)J"
            R"J("optimised out (rebuild with -cl-opt-disable)"}]})J",
            "k.cl");
        QCOMPARE(m.reply, std::string("variables"));
        QCOMPARE(m.values.size(), std::size_t(2));
        QCOMPARE(m.values[0].children.size(), std::size_t(2));
        QCOMPARE(m.values[0].children[1].value, std::string("0.5"));
        QVERIFY(m.values[1].error.find("optimised out") != std::string::npos);
        const std::string text = formatDebugValue(m.values[0]);
        QVERIFY(text.find("p = {4, 0.5}  (Params)\n  n = 4  (int)\n") == 0);
    }

    void hostileLinesThrow_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("not json") << QStringLiteral("{\"event\":");
        QTest::newRow("array") << QStringLiteral("[1,2]");
        QTest::newRow("other hello") << QStringLiteral(
            R"J({"hello":"clscope-oclgrind","mode":"lines","format":1})J");
        QTest::newRow("format 2") << QStringLiteral(
            R"J({"hello":"clscope-oclgrind","mode":"debug","format":2})J");
        QTest::newRow("unknown event") << QStringLiteral(R"J({"event":"explode"})J");
        QTest::newRow("stop without item")
            << QStringLiteral(R"J({"event":"stopped","reason":"step","line":3})J");
        QTest::newRow("id of two") << QStringLiteral(
            R"J({"event":"stopped","reason":"step","item":{"global":[1,2]}})J");
        QTest::newRow("negative line")
            << QStringLiteral(R"J({"event":"stopped","reason":"step","item":{},"line":-4})J");
        QTest::newRow("string line") << QStringLiteral(
            R"J({"event":"stopped","reason":"step","item":{},"line":"4"})J");
        QTest::newRow("reply without name") << QStringLiteral(R"J({"error":"x"})J");
        QTest::newRow("value without name")
            << QStringLiteral(R"J({"reply":"print","values":[{"value":"1"}]})J");
        QTest::newRow("children not a list")
            << QStringLiteral(R"J({"reply":"print","values":[{"name":"a","children":{}}]})J");
        QTest::newRow("frames not a list") << QStringLiteral(R"J({"reply":"stack","frames":3})J");
    }

    void hostileLinesThrow()
    {
        QFETCH(QString, line);
        try {
            parseDebugMessage(line.toStdString(), "k.cl");
            QFAIL("accepted");
        } catch (const Error &e) {
            QVERIFY(std::string(e.what()).find("malformed") != std::string::npos);
        }
    }

    void deepNestingThrows()
    {
        std::string value = R"J({"name":"x"})J";
        for (int i = 0; i < 40; ++i)
            value = R"J({"name":"x","children":[)J" + value + "]}";
        QVERIFY_THROWS_EXCEPTION(
            Error, parseDebugMessage(R"J({"reply":"print","values":[)J" + value + "]}", "k.cl"));
    }

    void requestsAreJsonLines()
    {
        const std::string b =
            debugBreakRequest({{"k.cl", 16, WorkItemId{5, 0, 0}, "i == 3"}, {"inc.h", 4, {}, ""}}, "k.cl");
        QVERIFY(b.back() == '\n');
        const auto doc = nlohmann::json::parse(b);
        QCOMPARE(doc["cmd"].get<std::string>(), std::string("break"));
        QCOMPARE(doc["breakpoints"][0]["file"].get<std::string>(), std::string("input.cl"));
        QCOMPARE(doc["breakpoints"][0]["item"][0].get<int>(), 5);
        QCOMPARE(doc["breakpoints"][0]["condition"].get<std::string>(), std::string("i == 3"));
        QCOMPARE(doc["breakpoints"][1]["file"].get<std::string>(), std::string("inc.h"));
        QVERIFY(!doc["breakpoints"][1].contains("item"));
        QCOMPARE(nlohmann::json::parse(debugStepRequest("out"))["kind"].get<std::string>(),
                 std::string("out"));
        QCOMPARE(nlohmann::json::parse(debugSelectRequest({6, 1, 0}))["global"][1].get<int>(), 1);
        QCOMPARE(nlohmann::json::parse(debugRunRequest(true, WorkItemId{7, 0, 0}))["start"].get<bool>(),
                 true);
    }

    void workItemIds()
    {
        QCOMPARE(parseWorkItemId("5"), (std::optional<WorkItemId>(WorkItemId{5, 0, 0})));
        QCOMPARE(parseWorkItemId("5,6,7"), (std::optional<WorkItemId>(WorkItemId{5, 6, 7})));
        QVERIFY(!parseWorkItemId(""));
        QVERIFY(!parseWorkItemId("1,,2"));
        QVERIFY(!parseWorkItemId("1,2,3,4"));
        // A breakpoint's own condition: a work-item, a condition, or both.
        using C = BreakpointCondition;
        QCOMPARE(parseBreakpointCondition(""), (std::optional<C>(C{})));
        QCOMPARE(parseBreakpointCondition(" i == 3 "), (std::optional<C>(C{std::nullopt, "i == 3"})));
        QCOMPARE(parseBreakpointCondition("item 6"), (std::optional<C>(C{WorkItemId{6, 0, 0}, ""})));
        QCOMPARE(parseBreakpointCondition("item 7,1 if lid == 7"),
                 (std::optional<C>(C{WorkItemId{7, 1, 0}, "lid == 7"})));
        QVERIFY(!parseBreakpointCondition("item x"));
        QVERIFY(!parseBreakpointCondition("item 5 i == 3")); // "if" joins them
        QVERIFY(!parseBreakpointCondition("item"));
        QVERIFY(!parseWorkItemId("-1"));
        QVERIFY(!parseWorkItemId("1x"));
        QCOMPARE(formatWorkItemId({5, 6, 7}), std::string("(5,6,7)"));
    }

    void debugOptionIsDropped()
    {
        QCOMPARE(withoutDebugOption("-g"), std::string());
        QCOMPARE(withoutDebugOption("-g -cl-opt-disable -DX=1"), std::string("-cl-opt-disable -DX=1"));
        QCOMPARE(withoutDebugOption("-DG=-g  -gline"), std::string("-DG=-g -gline"));
    }
};

QTEST_GUILESS_MAIN(TestDebugProtocol)
#include "tst_debugprotocol.moc"
