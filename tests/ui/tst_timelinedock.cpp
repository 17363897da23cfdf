// placeholder
#include <QTest>
class TestTimelineDock : public QObject
{
    Q_OBJECT
};
QTEST_MAIN(TestTimelineDock)
#include "tst_timelinedock.moc"
