// Assistants (issue 14) below the widgets: the list (built-ins, changes kept as overrides and
// restored, the user's added, renamed and removed), its round trip through the settings file and
// every bad value there reset with a problem; the templates (General's bytes are today's, an
// assistant's instructions are in the static prefix, literal braces and all, and a chat about a
// document with them has a prefix of its own); the conversation store's schema 5 (a schema 4
// file keeps its conversations, the choice survives a reopen); and the export's optional field.
#include "support/expectederror.h"
#include "workspace/conversations/conversationexport.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/settings/appsettings.h"
#include "workspace/settings/assistants.h"
#include "workspace/settings/assistantsettings.h"
#include "workspace/settings/settingsfile.h"

#include "llm/jsonwriter.h"
#include "prefetch/prompts/actionprompts.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSettings>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using Gui::AppSettings;
using Gui::Assistant;
using Gui::AssistantOverride;
using Gui::AssistantSettings;
using Gui::ConversationStore;
using Gui::SettingsFile;
using Prefetch::CompiledPrompt;
using Prefetch::RenderedRequest;

namespace {

// Text as it appears inside a JSON string on the wire.
QByteArray escaped(const QString &text)
{
    QByteArray out;
    Llm::JsonWriter::appendEscaped(out, text.toUtf8());
    return out.mid(1, out.size() - 2);
}

Llm::ProviderProfile profileFor(Llm::ApiFormat format)
{
    Llm::ProviderProfile p;
    p.id = QStringLiteral("test");
    p.displayName = QStringLiteral("Test provider");
    p.format = format;
    p.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9/v1"));
    p.model = QStringLiteral("test-model");
    return p;
}

const QString Instructions = QStringLiteral("Act as a {careful} editor; keep }} and {{ as they are.");

} // namespace

class tst_Assistants : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void builtinsAreThereAndGeneralAddsNothing();
    void builtinChangesAreOverridesAndRestore();
    void customAssistantsAreAddedRenamedAndRemoved();
    void unknownIdIsGeneral();
    void settingsRoundTrip();
    void badValue_data();
    void badValue();
    void lastAssistantIsRemembered();

    void generalGivesTodaysBytes_data();
    void generalGivesTodaysBytes();
    void instructionsAreInTheStaticPrefix_data();
    void instructionsAreInTheStaticPrefix();
    void documentChatWithInstructionsHasItsOwnPrefix();
    void parametersFollowTheMessages();

    void schemaFourFileKeepsItsConversations();
    void choiceSurvivesReopen();
    void exportCarriesTheAssistant();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    SettingsFile::LoadResult loadIni(const QByteArray &ini);

    QTemporaryDir m_dir;
};

void tst_Assistants::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale::c());
    QVERIFY(m_dir.isValid());
}

SettingsFile::LoadResult tst_Assistants::loadIni(const QByteArray &ini)
{
    // A file of its own each time: QSettings caches what it read of a path within the process.
    static int n = 0;
    const QString file = path(QStringLiteral("bad-%1.conf").arg(++n));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(ini) != ini.size())
        qFatal("cannot write %s", qPrintable(file));
    f.close();
    QSettings settings(file, QSettings::IniFormat);
    return SettingsFile::load(settings);
}

void tst_Assistants::builtinsAreThereAndGeneralAddsNothing()
{
    const QList<Assistant> all = AssistantSettings().list();
    QStringList ids;
    for (const Assistant &a : all) {
        ids << a.id;
        QVERIFY(a.builtin);
        QVERIFY(!a.name.isEmpty());
        QVERIFY(AssistantSettings::isBuiltinId(a.id));
    }
    QCOMPARE(ids, (QStringList{"general", "editor", "translator", "reviewer", "concise"}));
    const Assistant general = all.first();
    QVERIFY(general.systemPrompt.isEmpty());
    QVERIFY(!general.temperature && !general.maxTokens);
    const Prefetch::GenerationParams p = general.params();
    QCOMPARE(p.maxTokens, Prefetch::GenerationParams().maxTokens);
    QVERIFY(!p.temperature);
    // Every other one says something, and Concise is short.
    for (qsizetype i = 1; i < all.size(); ++i)
        QVERIFY2(all.at(i).systemPrompt.size() > 40, qPrintable(all.at(i).id));
    QCOMPARE(all.at(4).params().maxTokens, 300);
}

void tst_Assistants::builtinChangesAreOverridesAndRestore()
{
    AssistantSettings s;
    Assistant editor = s.find(QStringLiteral("editor"));
    const Assistant shipped = editor;
    editor.name = QStringLiteral("  My editor  ");
    editor.temperature = std::nullopt; // the built-in has one: "off" must be kept as a change
    editor.maxTokens = 5;              // below the range: no length
    s.update(editor);
    const AssistantOverride expected{QStringLiteral("My editor"), std::nullopt, std::optional<double>(), std::nullopt};
    QCOMPARE(s.overrides.value(QStringLiteral("editor")), expected);
    QCOMPARE(s.find(QStringLiteral("editor")).name, QStringLiteral("My editor"));
    QVERIFY(!s.find(QStringLiteral("editor")).temperature);
    QCOMPARE(s.find(QStringLiteral("editor")).systemPrompt, shipped.systemPrompt);
    QVERIFY(s.isModified(QStringLiteral("editor")));

    // Set back to the shipped values by hand: no override is left.
    s.update(shipped);
    QVERIFY(s.overrides.isEmpty());

    editor.systemPrompt = QStringLiteral("Only this.");
    s.update(editor);
    QVERIFY(s.isModified(QStringLiteral("editor")));
    s.restore(QStringLiteral("editor"));
    QCOMPARE(s.find(QStringLiteral("editor")), shipped);
    QVERIFY(!s.remove(QStringLiteral("editor"))); // built-ins stay
    QCOMPARE(s.list().size(), 5);
}

void tst_Assistants::customAssistantsAreAddedRenamedAndRemoved()
{
    AssistantSettings s;
    const QString a = s.add(QStringLiteral("Lawyer"));
    const QString b = s.add({});
    QVERIFY(AssistantSettings::isCustomId(a));
    QVERIFY(AssistantSettings::isCustomId(b));
    QVERIFY(a != b);
    QCOMPARE(s.list().size(), 7);
    QCOMPARE(s.find(b).name, QStringLiteral("New assistant"));

    Assistant lawyer = s.find(a);
    lawyer.name = QStringLiteral("Contract lawyer");
    lawyer.systemPrompt = QStringLiteral("Read contracts closely.");
    lawyer.temperature = 0.7;
    lawyer.maxTokens = 500;
    s.update(lawyer);
    QCOMPARE(s.find(a).id, a); // the id stays through a rename
    QCOMPARE(s.find(a).name, QStringLiteral("Contract lawyer"));
    QCOMPARE(s.find(a).params().maxTokens, 500);
    QCOMPARE(s.find(a).params().temperature, std::optional<double>(0.7));
    lawyer.name = QStringLiteral("   ");
    lawyer.temperature = 2.5; // out of range: none
    s.update(lawyer);
    QCOMPARE(s.find(a).name, QStringLiteral("Contract lawyer")); // an empty name keeps the old one
    QVERIFY(!s.find(a).temperature);

    QVERIFY(s.remove(a));
    QVERIFY(!s.contains(a));
    QCOMPARE(s.list().size(), 6);

    AssistantSettings full;
    for (qsizetype i = 0; i < AssistantSettings::MaxCustom; ++i)
        QVERIFY(!full.add(QString::number(i)).isEmpty());
    QVERIFY(full.add(QStringLiteral("one more")).isEmpty());
}

void tst_Assistants::unknownIdIsGeneral()
{
    AssistantSettings s;
    QCOMPARE(s.find(QStringLiteral("custom-gone")).id, AssistantSettings::GeneralId);
    QCOMPARE(s.find(QString()).id, AssistantSettings::GeneralId);
    QVERIFY(!s.contains(QStringLiteral("custom-gone")));
}

void tst_Assistants::settingsRoundTrip()
{
    AppSettings s;
    Assistant translator = s.assistants.find(QStringLiteral("translator"));
    translator.systemPrompt = QStringLiteral("Translate into German, with commas, \"quotes\" and\nlines.");
    translator.maxTokens = 2000;
    s.assistants.update(translator);
    Assistant concise = s.assistants.find(QStringLiteral("concise"));
    concise.maxTokens = std::nullopt; // the built-in's 300 switched to the default
    s.assistants.update(concise);
    const QString id = s.assistants.add(QStringLiteral("审稿人"));
    Assistant mine = s.assistants.find(id);
    mine.systemPrompt = QStringLiteral("请用中文回答。{not a placeholder}");
    mine.temperature = 0;
    s.assistants.update(mine);
    s.assistants.add(QStringLiteral("Second"));

    const QString file = path(QStringLiteral("roundtrip.conf"));
    QFile::remove(file);
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, s);
        QCOMPARE(settings.status(), QSettings::NoError);
    }
    QSettings settings(file, QSettings::IniFormat);
    const SettingsFile::LoadResult loaded = SettingsFile::load(settings);
    QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u'\n')));
    QCOMPARE(loaded.settings.assistants, s.assistants);
    QVERIFY(loaded.settings == s);
    QVERIFY(!loaded.settings.assistants.find(QStringLiteral("concise")).maxTokens);
    QCOMPARE(loaded.settings.assistants.find(id).temperature, std::optional<double>(0));

    // Removing the user's assistants and the change leaves nothing of them in the file.
    AppSettings plain = loaded.settings;
    plain.assistants = {};
    SettingsFile::save(settings, plain);
    settings.sync();
    for (const QString &key : settings.allKeys())
        QVERIFY2(!key.startsWith(QLatin1String("assistants")), qPrintable(key));
}

void tst_Assistants::badValue_data()
{
    QTest::addColumn<QByteArray>("ini");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<int>("customCount");

    QTest::addRow("unknown built-in") << QByteArray("[assistants]\nbuiltin\\poet\\name=Poet\n")
                                      << "built-in assistant “poet” that does not exist" << 0;
    QTest::addRow("temperature not a number") << QByteArray("[assistants]\nbuiltin\\editor\\temperature=warm\n")
                                              << "temperature of the assistant “editor”" << 0;
    QTest::addRow("temperature too high")
        << QByteArray("[assistants]\nbuiltin\\editor\\temperature=3.5\n") << "(3.5) was not a number from 0 to 2" << 0;
    QTest::addRow("length not whole") << QByteArray("[assistants]\nbuiltin\\concise\\maxTokens=12.5\n")
                                      << "answer length of the assistant “concise”" << 0;
    QTest::addRow("length too small") << QByteArray("[assistants]\nbuiltin\\concise\\maxTokens=3\n")
                                      << "from 16 to 128000" << 0;
    QTest::addRow("empty name") << QByteArray("[assistants]\nbuiltin\\general\\name=\n") << "using its default name"
                                << 0;
    QTest::addRow("custom without id") << QByteArray(
        "[assistants]\ncustom\\size=2\ncustom\\1\\name=No id\ncustom\\2\\id=custom-ok\ncustom\\2\\name=Fine\n")
                                       << "without a valid id, repeated, or beyond the first 100 were dropped (1)" << 1;
    QTest::addRow("custom repeated id") << QByteArray(
        "[assistants]\ncustom\\size=2\ncustom\\1\\id=custom-a\ncustom\\1\\name=A\n"
        "custom\\2\\id=custom-a\ncustom\\2\\name=B\n")
                                        << "were dropped (1)" << 1;
    QTest::addRow("custom with a built-in's id")
        << QByteArray("[assistants]\ncustom\\size=1\ncustom\\1\\id=general\ncustom\\1\\name=G\n") << "were dropped (1)"
        << 0;
    QTest::addRow("custom bad length") << QByteArray(
        "[assistants]\ncustom\\size=1\ncustom\\1\\id=custom-x\ncustom\\1\\name=X\ncustom\\1\\maxTokens=lots\n")
                                       << "answer length of the assistant 1" << 1;
}

void tst_Assistants::badValue()
{
    QFETCH(QByteArray, ini);
    QFETCH(QString, problem);
    QFETCH(int, customCount);
    const SettingsFile::LoadResult loaded = loadIni(ini);
    QCOMPARE(loaded.problems.size(), 1);
    QVERIFY2(loaded.problems.first().contains(problem), qPrintable(loaded.problems.first()));
    QCOMPARE(loaded.settings.assistants.custom.size(), customCount);
    // The bad value is the default again: the built-ins are as shipped.
    QVERIFY(loaded.settings.assistants.overrides.isEmpty());
    for (const Assistant &a : loaded.settings.assistants.custom) {
        QVERIFY(!a.name.isEmpty());
        QVERIFY(!a.maxTokens);
    }
}

void tst_Assistants::lastAssistantIsRemembered()
{
    QSettings settings(path(QStringLiteral("last.conf")), QSettings::IniFormat);
    QCOMPARE(Gui::lastAssistant(settings), AssistantSettings::GeneralId);
    Gui::setLastAssistant(settings, QStringLiteral("translator"));
    QCOMPARE(Gui::lastAssistant(settings), QStringLiteral("translator"));
    settings.setValue(QStringLiteral("chat/lastAssistant"), QStringLiteral("../../etc"));
    QCOMPARE(Gui::lastAssistant(settings), AssistantSettings::GeneralId);
    Gui::setLastAssistant(settings, AssistantSettings::GeneralId);
    QVERIFY(!settings.contains(QStringLiteral("chat/lastAssistant")));
}

// --- templates -------------------------------------------------------------------------------------

void tst_Assistants::generalGivesTodaysBytes_data()
{
    QTest::addColumn<Llm::ApiFormat>("format");
    QTest::addRow("openai") << Llm::ApiFormat::OpenAiChat;
    QTest::addRow("anthropic") << Llm::ApiFormat::AnthropicMessages;
}

void tst_Assistants::generalGivesTodaysBytes()
{
    QFETCH(Llm::ApiFormat, format);
    const Llm::ProviderProfile profile = profileFor(format);
    const QString general = AssistantSettings().find(AssistantSettings::GeneralId).systemPrompt;
    const QList<Llm::ChatMessage> history{{Llm::Role::User, QStringLiteral("Hi")},
                                          {Llm::Role::Assistant, QStringLiteral("Hello.")}};
    // Free chat and library chat: the same template, the same bytes.
    for (const auto &[today, withGeneral] :
         {std::pair{Prefetch::chatTemplate(false), Prefetch::chatTemplate(false, general)},
          std::pair{Prefetch::libraryChatTemplate(), Prefetch::libraryChatTemplate(general)}}) {
        QCOMPARE(withGeneral.segments(), today.segments());
        const auto a = today.compile(profile, {});
        const auto b = withGeneral.compile(profile, {});
        QVERIFY(a && b);
        const RenderedRequest ra = Prefetch::renderChatMessage(*a, history, profile.model, QStringLiteral("And now?"),
                                                               AssistantSettings().find({}).params());
        const RenderedRequest rb = Prefetch::renderChatMessage(*b, history, profile.model, QStringLiteral("And now?"));
        QCOMPARE(rb.body, ra.body);
        QCOMPARE(rb.fingerprint, ra.fingerprint);
    }
    // About a document: the chat still shares the document's compiled prefix with its actions.
    const QString text = QStringLiteral("A document about prefix caches, long enough to matter.");
    const auto document = Prefetch::documentTemplate().compile(profile, Prefetch::documentValues(text));
    QVERIFY(document);
    const auto chat = document->withDynamicPartOf(Prefetch::chatTemplate(true, general));
    QVERIFY2(chat, qPrintable(chat ? QString() : chat.error().detail()));
    QCOMPARE(chat->prefixFingerprint(), document->prefixFingerprint());
}

void tst_Assistants::instructionsAreInTheStaticPrefix_data()
{
    generalGivesTodaysBytes_data();
}

void tst_Assistants::instructionsAreInTheStaticPrefix()
{
    QFETCH(Llm::ApiFormat, format);
    const Llm::ProviderProfile profile = profileFor(format);
    const auto compiled = Prefetch::chatTemplate(false, Instructions).compile(profile, {});
    QVERIFY2(compiled, qPrintable(compiled ? QString() : compiled.error().detail()));
    // The braces are literal text, not placeholders; after the chat's own system prompt.
    const QString system = compiled->staticRequest().system;
    QVERIFY2(system.endsWith(QStringLiteral("\n\n") + Instructions), qPrintable(system));
    QVERIFY(system.startsWith(Prefetch::chatTemplate(false).segments().first().text.source()));
    QVERIFY(compiled->prefix().bytes().contains(escaped(Instructions)));

    // Two messages of the conversation start with the same bytes, the instructions included.
    const RenderedRequest first = Prefetch::renderChatMessage(*compiled, {}, profile.model, QStringLiteral("One?"));
    const RenderedRequest second = Prefetch::renderChatMessage(*compiled,
                                                               {{Llm::Role::User, QStringLiteral("One?")},
                                                                {Llm::Role::Assistant, QStringLiteral("Yes.")}},
                                                               profile.model, QStringLiteral("Two?"));
    QVERIFY(first.body.startsWith(compiled->prefix().bytes()));
    QVERIFY(second.body.startsWith(compiled->prefix().bytes()));
    QVERIFY(!compiled->prefix().bytes().contains("One?"));

    // Library chat too.
    const auto library = Prefetch::libraryChatTemplate(Instructions).compile(profile, {});
    QVERIFY(library);
    QVERIFY(library->prefix().bytes().contains(escaped(Instructions)));
    QVERIFY(
        library->staticRequest().system.startsWith(Prefetch::libraryChatTemplate().segments().first().text.source()));
}

void tst_Assistants::documentChatWithInstructionsHasItsOwnPrefix()
{
    const Llm::ProviderProfile profile = profileFor(Llm::ApiFormat::OpenAiChat);
    const QString text = QStringLiteral("A document about prefix caches.");
    const auto document = Prefetch::documentTemplate().compile(profile, Prefetch::documentValues(text));
    QVERIFY(document);
    // The instructions come before the document: the actions' prefix cannot be reused...
    QVERIFY(!document->withDynamicPartOf(Prefetch::chatTemplate(true, Instructions)));
    // ...so the chat compiles its own, with the document after the instructions.
    const auto chat = Prefetch::chatTemplate(true, Instructions).compile(profile, Prefetch::documentValues(text));
    QVERIFY(chat);
    QVERIFY(chat->prefixFingerprint() != document->prefixFingerprint());
    const QByteArray bytes = chat->prefix().bytes().toByteArray();
    QVERIFY(bytes.contains(escaped(text)));
    QVERIFY(bytes.indexOf(escaped(Instructions)) < bytes.indexOf(escaped(text)));
    QVERIFY(chat->staticRequest().system.startsWith(Prefetch::systemPrompt()));
}

void tst_Assistants::parametersFollowTheMessages()
{
    // An assistant's temperature and length are in the tail only: its conversations still share
    // the prefix, whatever each request's parameters.
    const Llm::ProviderProfile profile = profileFor(Llm::ApiFormat::OpenAiChat);
    const auto compiled = Prefetch::chatTemplate(false, Instructions).compile(profile, {});
    QVERIFY(compiled);
    Assistant a;
    a.temperature = 0.7;
    a.maxTokens = 40;
    const RenderedRequest r = Prefetch::renderChatMessage(*compiled, {}, profile.model, QStringLiteral("Hi"),
                                                          a.params());
    QVERIFY(r.body.startsWith(compiled->prefix().bytes()));
    QVERIFY2(r.body.contains("\"max_tokens\":40"), r.body.constData());
    QVERIFY(r.body.contains("\"temperature\":0.7"));
    QCOMPARE(r.request.maxTokens, 40);
    const RenderedRequest plain = Prefetch::renderChatMessage(*compiled, {}, profile.model, QStringLiteral("Hi"));
    QVERIFY(plain.fingerprint != r.fingerprint);
    QCOMPARE(Prefetch::renderChatMessage(*compiled, {}, profile.model, QStringLiteral("Hi"), a.params()).fingerprint,
             r.fingerprint);
}

// --- store and export ------------------------------------------------------------------------------

void tst_Assistants::schemaFourFileKeepsItsConversations()
{
    const QString file = path(QStringLiteral("schema4.sqlite"));
    qint64 id = 0;
    {
        ConversationStore store(file);
        id = *store.create(QStringLiteral("Before assistants"), {}, Gui::ConversationMode::FreeChat);
        QVERIFY(store.appendMessage(id, Llm::Role::User, QStringLiteral("An old question")));
        QVERIFY(store.appendMessage(id, Llm::Role::Assistant, QStringLiteral("An old answer")));
    }
    // Put back to what schema 4 left: no assistant column.
    const QString name = QStringLiteral("direct");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(file);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY2(q.exec(QStringLiteral("ALTER TABLE conversations DROP COLUMN assistant")),
                 qPrintable(q.lastError().text()));
        // And what schema 6 added: an answer's model.
        QVERIFY2(q.exec(QStringLiteral("ALTER TABLE messages DROP COLUMN model")), qPrintable(q.lastError().text()));
        // And schema 7's: the fast opening.
        for (const char *column : {"opening_model", "opening_chars"})
            QVERIFY2(q.exec(QStringLiteral("ALTER TABLE messages DROP COLUMN %1").arg(QLatin1String(column))),
                     qPrintable(q.lastError().text()));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 4")));
    }
    QSqlDatabase::removeDatabase(name);

    ConversationStore store(file);
    QVERIFY(store.isPersistent());
    QVERIFY2(store.recoveryMessage().isEmpty(), qPrintable(store.recoveryMessage()));
    const auto info = store.conversation(id);
    QVERIFY2(info, TestSupport::errorOf(info).constData());
    QCOMPARE(info->title, QStringLiteral("Before assistants"));
    QCOMPARE(info->assistantId, AssistantSettings::GeneralId);
    QCOMPARE(info->messageCount, 2);
    QCOMPARE(store.messages(id)->at(1).content, QStringLiteral("An old answer"));
    QVERIFY(store.setAssistant(id, QStringLiteral("reviewer")));
    QCOMPARE(store.conversation(id)->assistantId, QStringLiteral("reviewer"));
}

void tst_Assistants::choiceSurvivesReopen()
{
    const QString file = path(QStringLiteral("choice.sqlite"));
    qint64 a = 0;
    qint64 b = 0;
    {
        ConversationStore store(file);
        a = *store.create(QStringLiteral("A"), {}, Gui::ConversationMode::FreeChat, QStringLiteral("translator"));
        b = *store.create(QStringLiteral("B"));
        QVERIFY(store.setAssistant(b, QStringLiteral("custom-abc")));
        QVERIFY(!store.setAssistant(b + 100, QStringLiteral("editor")));
    }
    ConversationStore store(file);
    QCOMPARE(store.conversation(a)->assistantId, QStringLiteral("translator"));
    QCOMPARE(store.conversation(b)->assistantId, QStringLiteral("custom-abc"));
    const auto list = store.conversations();
    QVERIFY(list);
    QCOMPARE(list->size(), 2);
    for (const Gui::ConversationInfo &c : *list)
        QCOMPARE(c.assistantId, c.id == a ? QStringLiteral("translator") : QStringLiteral("custom-abc"));
}

void tst_Assistants::exportCarriesTheAssistant()
{
    ConversationStore store(path(QStringLiteral("export.sqlite")));
    const qint64 id = *store.create(QStringLiteral("Reviewed"), {}, Gui::ConversationMode::FreeChat,
                                    QStringLiteral("reviewer"));
    QVERIFY(store.appendMessage(id, Llm::Role::User, QStringLiteral("Look at this.")));
    const auto conversation = Gui::ConversationExport::load(store, id);
    QVERIFY(conversation);
    const QByteArray json = Gui::ConversationExport::toJson(*conversation);
    QCOMPARE(QJsonDocument::fromJson(json)
                 .object()
                 .value(QLatin1String("conversation"))
                 .toObject()
                 .value(QLatin1String("assistant"))
                 .toString(),
             QStringLiteral("reviewer"));
    const auto back = Gui::ConversationExport::fromJson(json);
    QVERIFY2(back, TestSupport::errorOf(back).constData());
    QCOMPARE(back->info.assistantId, QStringLiteral("reviewer"));
    const QString importedPath = path(QStringLiteral("reviewed.json"));
    QVERIFY(Gui::ConversationExport::exportToFile(store, id, Gui::ConversationExport::Format::Json, importedPath));
    const auto imported = Gui::ConversationExport::importFromFile(store, importedPath);
    QVERIFY2(imported, TestSupport::errorOf(imported).constData());
    QCOMPARE(store.conversation(*imported)->assistantId, QStringLiteral("reviewer"));

    // Optional: a file without it (or with something that is no id) imports as General.
    QJsonObject root = QJsonDocument::fromJson(json).object();
    QJsonObject c = root.value(QLatin1String("conversation")).toObject();
    c.remove(QLatin1String("assistant"));
    root.insert(QLatin1String("conversation"), c);
    QCOMPARE(Gui::ConversationExport::fromJson(QJsonDocument(root).toJson())->info.assistantId,
             AssistantSettings::GeneralId);
    for (const QJsonValue &bad : {QJsonValue(42), QJsonValue(QStringLiteral("../x")), QJsonValue(QString(200, u'a'))}) {
        c.insert(QLatin1String("assistant"), bad);
        root.insert(QLatin1String("conversation"), c);
        const auto read = Gui::ConversationExport::fromJson(QJsonDocument(root).toJson());
        QVERIFY(read);
        QCOMPARE(read->info.assistantId, AssistantSettings::GeneralId);
    }
    // An id this Headstart does not know is kept (it may exist where the file goes next); the
    // session uses General for it (tst_chatassistants).
    c.insert(QLatin1String("assistant"), QStringLiteral("custom-elsewhere"));
    root.insert(QLatin1String("conversation"), c);
    QCOMPARE(Gui::ConversationExport::fromJson(QJsonDocument(root).toJson())->info.assistantId,
             QStringLiteral("custom-elsewhere"));
}

QTEST_GUILESS_MAIN(tst_Assistants)
#include "tst_assistants.moc"
