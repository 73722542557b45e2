// The conversation list grouped by day (issue 41, "the look"): a heading above the first
// conversation of each stretch of time, drawn in that conversation's row, so that the keys and
// the pointer still move from conversation to conversation. The list as the chat shows it, on a
// store whose conversations were last changed today, yesterday, last week and two months ago.
#include "gui/chat/conversationdays.h"
#include "gui/chat/conversationlist.h"
#include "workspace/conversations/conversationstore.h"

#include <QListWidget>
#include <QLocale>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Gui;

class tst_ConversationList : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void conversationsAreGroupedByDay();
};

void tst_ConversationList::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_ConversationList::conversationsAreGroupedByDay()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("conversations.sqlite"));
    ConversationStore store(path);
    // When each was last changed, newest first; noon keeps them clear of midnight.
    const QDate today = QDate::currentDate();
    const QDateTime now = QDateTime::currentDateTime();
    const QList<std::pair<QString, QDateTime>> made{
        {QStringLiteral("This morning"), now},
        {QStringLiteral("Earlier today"), std::max(now.addSecs(-1), QDateTime(today, QTime(0, 0, 1)))},
        {QStringLiteral("Yesterday's"), QDateTime(today.addDays(-1), QTime(12, 0))},
        {QStringLiteral("Last week's"), QDateTime(today.addDays(-4), QTime(12, 0))},
        {QStringLiteral("Two months ago"), QDateTime(today.addDays(-60), QTime(12, 0))},
    };
    QList<qint64> ids;
    for (const auto &[title, when] : made) {
        const auto id = store.create(title);
        QVERIFY(id);
        QVERIFY(store.appendMessage(*id, Llm::Role::User, title));
        ids.append(*id);
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("days"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        for (qsizetype i = 0; i < ids.size(); ++i) {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"));
            q.addBindValue(made.at(i).second.toMSecsSinceEpoch());
            q.addBindValue(ids.at(i));
            QVERIFY(q.exec());
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("days"));

    ConversationListPanel panel(&store);
    panel.resize(320, 480);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.reload(0);
    QListWidget *list = panel.list();
    // One row per conversation: headings are no rows of their own.
    QCOMPARE(list->count(), 5);
    for (int row = 0; row < 5; ++row)
        QCOMPARE(list->item(row)->text(), made.at(row).first);

    auto *days = qobject_cast<ConversationDays *>(list->itemDelegate());
    QVERIFY(days);
    const auto headingOf = [&](int row) { return days->headingAbove(list->model()->index(row, 0)); };
    QCOMPARE(headingOf(0), QStringLiteral("Today"));
    QCOMPARE(headingOf(1), QString()); // the same day: no heading again
    QCOMPARE(headingOf(2), QStringLiteral("Yesterday"));
    QCOMPARE(headingOf(3), QStringLiteral("Previous 7 Days"));
    const QDate old = today.addDays(-60);
    QCOMPARE(headingOf(4), QLocale().monthName(old.month()) + u' ' + QString::number(old.year()));
    // A row with a heading is taller by it.
    QVERIFY(list->visualItemRect(list->item(0)).height() > list->visualItemRect(list->item(1)).height());
    QVERIFY(list->visualItemRect(list->item(2)).height() > list->visualItemRect(list->item(1)).height());

    // The keys go from conversation to conversation.
    QSignalSpy selected(&panel, &ConversationListPanel::conversationSelected);
    list->setFocus();
    list->setCurrentRow(0);
    QTest::keyClick(list, Qt::Key_Down);
    QCOMPARE(list->currentRow(), 1);
    QTest::keyClick(list, Qt::Key_Down);
    QCOMPARE(list->currentRow(), 2);
    QCOMPARE(selected.last().first().toLongLong(), ids.at(2));

    // A click on last week's conversation, under its heading, opens it.
    const QRect weekRow = list->visualItemRect(list->item(3));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, QPoint(weekRow.left() + 20, weekRow.bottom() - 3));
    QCOMPARE(list->currentRow(), 3);
    QCOMPARE(selected.last().first().toLongLong(), ids.at(3));
}

QTEST_MAIN(tst_ConversationList)
#include "tst_conversationlist.moc"
