// The zh_CN catalogue is complete and current: lupdate run on today's sources finds no string
// without a finished translation, and every translation keeps the source's placeholders. So is
// English's own, of plural forms only ("1 document", "2 documents"), and the app's build of it
// reads right at one and at several.
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

namespace {

struct Message {
    QString context;
    QString source;
    QString translation;
    bool finished = false;
};

QList<Message> readTs(const QString &path)
{
    QList<Message> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&file);
    QString context;
    Message current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1String("message")) {
            current = Message{context, {}, {}, false};
        } else if (xml.name() == QLatin1String("source")) {
            current.source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            const QString type = xml.attributes().value(QLatin1String("type")).toString();
            // Plural messages hold their forms in <numerusform> children.
            current.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            current.finished = type.isEmpty();
            if (type != QLatin1String("obsolete") && type != QLatin1String("vanished"))
                out.append(current);
        }
    }
    if (xml.hasError())
        out.clear(); // a catalogue that does not parse is reported as empty, and fails below
    return out;
}

QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("%L?\\d|%n"));
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found << it.next().captured().remove(QLatin1Char('L'));
    found.sort();
    found.removeDuplicates();
    return found;
}

} // namespace

class tst_Translations : public QObject
{
    Q_OBJECT

private slots:
    void catalogueIsCompleteAndCurrent_data();
    void catalogueIsCompleteAndCurrent();
    void englishSaysOneAndSeveralApart();
};

void tst_Translations::catalogueIsCompleteAndCurrent_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QStringList>("options");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN") << QStringList();
    QTest::newRow("en, plural forms") << QStringLiteral("en") << QStringList{QStringLiteral("-pluralonly")};
}

void tst_Translations::catalogueIsCompleteAndCurrent()
{
    QFETCH(QString, language);
    QFETCH(QStringList, options);
    const QString committed = QStringLiteral(HEADSTART_SOURCE_DIR "/translations/headstart_%1.ts").arg(language);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fresh = dir.filePath(QStringLiteral("fresh.ts"));
    QVERIFY(QFile::copy(committed, fresh));
    QFile::setPermissions(fresh, QFile::ReadOwner | QFile::WriteOwner);

    QStringList sources;
    for (const char *module : {"base", "llm", "prefetch", "system", "knowledge", "workspace", "gui", "app"}) {
        QDirIterator it(QStringLiteral(HEADSTART_SOURCE_DIR "/") + QLatin1String(module),
                        {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            sources << it.next();
    }
    QProcess lupdate;
    lupdate.start(QStringLiteral(HEADSTART_LUPDATE),
                  sources
                      + QStringList{QStringLiteral("-I"), QStringLiteral(HEADSTART_SOURCE_DIR),
                                    QStringLiteral("-no-obsolete"), QStringLiteral("-silent")}
                      + options + QStringList{QStringLiteral("-ts"), fresh});
    QVERIFY(lupdate.waitForFinished(60000));
    QCOMPARE(lupdate.exitCode(), 0);

    const QList<Message> messages = readTs(fresh);
    QVERIFY(messages.size() > (options.isEmpty() ? 30 : 3));
    QStringList problems;
    for (const Message &m : messages) {
        const QString where = m.context + QLatin1String(": \"") + m.source + QLatin1Char('"');
        if (!m.finished || m.translation.isEmpty())
            problems << QStringLiteral("untranslated ") + where;
        else if (placeholders(m.source) != placeholders(m.translation))
            problems << QStringLiteral("placeholders differ in ") + where;
    }
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("\n") + problems.join(QLatin1Char('\n'))
                                            + QStringLiteral("\nRun: cmake --build build --target headstart_lupdate, "
                                                             "then translate translations/headstart_")
                                            + language + QStringLiteral(".ts")));
}

void tst_Translations::englishSaysOneAndSeveralApart()
{
    // The catalogue as the app is built with it (app/CMakeLists.txt).
    QTranslator english;
    QVERIFY(english.load(QStringLiteral(HEADSTART_BIN_DIR "/app/headstart_en.qm")));
    QCoreApplication::installTranslator(&english);
    const auto recover = [](int n) {
        return QCoreApplication::translate(
            "Gui::DocumentTabs", "Headstart did not close properly last time. Recover %n unsaved document(s)?", nullptr,
            n);
    };
    QCOMPARE(recover(1), QStringLiteral("Headstart did not close properly last time. Recover 1 unsaved document?"));
    QCOMPARE(recover(3), QStringLiteral("Headstart did not close properly last time. Recover 3 unsaved documents?"));
    const auto copied = [](int n) {
        return QCoreApplication::translate("Gui::MainWindow", "Answer copied to the clipboard (%n character(s))",
                                           nullptr, n);
    };
    QCOMPARE(copied(1), QStringLiteral("Answer copied to the clipboard (1 character)"));
    QCOMPARE(copied(250), QStringLiteral("Answer copied to the clipboard (250 characters)"));
    QCoreApplication::removeTranslator(&english);
}

QTEST_GUILESS_MAIN(tst_Translations)
#include "tst_translations.moc"
