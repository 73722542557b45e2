// The provider's model list: GET <base>/models in OpenAI's and Anthropic's forms from the local
// provider over loopback, the refusals that send nothing, and the settings dialog's model picker
// that loads it on a click, searches it by any part of a name and says beside the field what
// went wrong (an unreachable server, an answer that is not a list) while the typed model stays.
#include "support/badserver.h"
#include "support/localproviderfixture.h"
#include "gui/settings/modelpicker.h"
#include "llm/modellist.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTest>

using Llm::Error;
using Llm::ModelListFetch;

namespace {

const QStringList LocalModels{QStringLiteral("headstart-local"), QStringLiteral("headstart-local-reasoner"),
                              QStringLiteral("headstart-local-small")};

} // namespace

class tst_ModelList : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void parse_data();
    void parse();
    void openAiListFromTheLocalProvider();
    void anthropicListWithItsHeaders();
    void wrongKeyIsABadKey();
    void retiredModelsAreNotOffered();
    void refusedBeforeSending();
    void unreachableServer();
    void pickerLoadsAndSearches();
    void pickerSaysWhatWentWrong();

private:
    TestSupport::LocalProviderFixture m_local{u"instant"};
    TestSupport::LocalProviderFixture m_keyed{u"instant", [](LocalProvider::ServerConfig &c) {
                                                  c.apiKey = QStringLiteral("sk-list-test-0123456789");
                                              }};
    QNetworkAccessManager m_network;
};

void tst_ModelList::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
    QVERIFY2(m_keyed.start(), qPrintable(m_keyed.errorString()));
}

void tst_ModelList::parse_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QStringList>("models");
    QTest::addRow("openai") << QByteArray(
        R"({"object":"list","data":[{"id":"gpt-b","object":"model"},{"id":"gpt-a"}]})")
                            << true << QStringList{"gpt-a", "gpt-b"};
    QTest::addRow("anthropic") << QByteArray(R"({"data":[{"type":"model","id":"claude-x","display_name":"X"}],)"
                                             R"("has_more":false,"first_id":"claude-x","last_id":"claude-x"})")
                               << true << QStringList{"claude-x"};
    QTest::addRow("duplicates") << QByteArray(R"({"data":[{"id":"m"},{"id":"m"},{"id":" "}]})") << true
                                << QStringList{"m"};
    QTest::addRow("empty list") << QByteArray(R"({"data":[]})") << true << QStringList{};
    QTest::addRow("html") << QByteArray("<html><body>Welcome</body></html>") << false << QStringList{};
    QTest::addRow("no data") << QByteArray(R"({"models":["a"]})") << false << QStringList{};
    QTest::addRow("no ids") << QByteArray(R"({"data":[{"name":"a"}]})") << false << QStringList{};
    QTest::addRow("cut off") << QByteArray(R"({"data":[{"id":"a"},{"id":)") << false << QStringList{};
}

void tst_ModelList::parse()
{
    QFETCH(QByteArray, body);
    QFETCH(bool, ok);
    QFETCH(QStringList, models);
    const auto parsed = Llm::parseModelList(body);
    QCOMPARE(parsed.has_value(), ok);
    if (ok)
        QCOMPARE(*parsed, models);
    else
        QVERIFY(!parsed.error().isEmpty());
}

void tst_ModelList::openAiListFromTheLocalProvider()
{
    ModelListFetch fetch(&m_network, m_local.profile());
    QSignalSpy done(&fetch, &ModelListFetch::finished);
    QSignalSpy failed(&fetch, &ModelListFetch::failed);
    fetch.start();
    QVERIFY(done.wait(10000));
    QVERIFY(failed.isEmpty());
    QCOMPARE(done.first().first().toStringList(), LocalModels);
}

void tst_ModelList::anthropicListWithItsHeaders()
{
    // The keyed server checks x-api-key, as Anthropic does; anthropic-version selects its form.
    Llm::ProviderProfile profile = m_keyed.profile();
    profile.format = Llm::ApiFormat::AnthropicMessages;
    QVERIFY(!profile.apiKey.isEmpty());
    ModelListFetch fetch(&m_network, profile);
    QSignalSpy done(&fetch, &ModelListFetch::finished);
    fetch.start();
    QVERIFY(done.wait(10000));
    QCOMPARE(done.first().first().toStringList(), LocalModels);
}

void tst_ModelList::wrongKeyIsABadKey()
{
    Llm::ProviderProfile profile = m_keyed.profile();
    profile.apiKey = QStringLiteral("sk-wrong-0123456789abcdef");
    ModelListFetch fetch(&m_network, profile);
    QSignalSpy failed(&fetch, &ModelListFetch::failed);
    fetch.start();
    QVERIFY(failed.wait(10000));
    const auto error = failed.first().first().value<Error>();
    QCOMPARE(error.code(), Error::Code::BadKey);
    QVERIFY(!error.message().contains(profile.apiKey));
}

void tst_ModelList::retiredModelsAreNotOffered()
{
    // DeepSeek's list as an account may still get it: the names retired on 2026-07-24 beside
    // the ones it serves (docs/providers.md, "Models and what each accepts").
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    server.respondWith(TestSupport::BadServer::response(
        "200 OK", {{"Content-Type", "application/json"}},
        R"({"object":"list","data":[{"id":"deepseek-chat"},{"id":"deepseek-flash"},{"id":"deepseek-reasoner"},)"
        R"({"id":"deepseek-v4-pro"}]})"));
    Llm::ProviderProfile profile = Llm::builtinProfile(u"deepseek");
    profile.baseUrl = server.baseUrl();
    profile.apiKey = QStringLiteral("sk-list-test-0123456789");
    ModelListFetch fetch(&m_network, profile);
    QSignalSpy done(&fetch, &ModelListFetch::finished);
    fetch.start();
    QVERIFY(done.wait(10000));
    QCOMPARE(done.first().first().toStringList(),
             (QStringList{QStringLiteral("deepseek-flash"), QStringLiteral("deepseek-v4-pro")}));
}

void tst_ModelList::refusedBeforeSending()
{
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    Llm::ProviderProfile profile = Llm::builtinProfile(u"openai");
    profile.baseUrl = server.baseUrl();
    QVERIFY(profile.needsApiKey() && profile.apiKey.isEmpty());
    ModelListFetch fetch(&m_network, profile);
    QSignalSpy failed(&fetch, &ModelListFetch::failed);
    fetch.start();
    QVERIFY(failed.isEmpty()); // reported from the event loop, like every failure
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.first().first().value<Error>().code(), Error::Code::MissingKey);

    Llm::ProviderProfile insecure = Llm::builtinProfile(u"custom");
    insecure.baseUrl = QUrl(QStringLiteral("http://192.0.2.1/v1")); // never contacted
    ModelListFetch plain(&m_network, insecure);
    QSignalSpy refused(&plain, &ModelListFetch::failed);
    plain.start();
    QVERIFY(refused.wait(5000));
    QCOMPARE(refused.first().first().value<Error>().code(), Error::Code::InsecureHttp);
    QCOMPARE(server.connectionCount(), 0);
}

void tst_ModelList::unreachableServer()
{
    // A port nobody listens on: bind one, take its number, close it.
    quint16 port = 0;
    {
        TestSupport::BadServer gone;
        QVERIFY(gone.listen());
        port = gone.port();
    }
    Llm::ProviderProfile profile = m_local.profile();
    profile.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port));
    ModelListFetch fetch(&m_network, profile);
    QSignalSpy failed(&fetch, &ModelListFetch::failed);
    fetch.start();
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.first().first().value<Error>().code(), Error::Code::NetworkUnreachable);
}

void tst_ModelList::pickerLoadsAndSearches()
{
    Gui::ModelPicker picker;
    picker.setNetwork(&m_network);
    const Llm::ProviderProfile profile = m_local.profile();
    connect(&picker, &Gui::ModelPicker::listRequested, &picker, [&picker, profile] { picker.loadList(profile); });
    QSignalSpy picked(&picker, &Gui::ModelPicker::modelPicked);
    picker.show();
    QApplication::setActiveWindow(&picker);
    QVERIFY(QTest::qWaitForWindowActive(&picker));

    QLineEdit *edit = picker.lineEdit();
    edit->setFocus();
    QTest::keyClicks(edit, QStringLiteral("typed-model"));
    QVERIFY(picker.loadButton()->isVisible());
    QTest::mouseClick(picker.loadButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(picker.comboBox()->count(), LocalModels.size(), 10000);
    QCOMPARE(edit->text(), QStringLiteral("typed-model")); // the list did not replace it
    QVERIFY(picker.statusLabel()->isVisible());
    QVERIFY2(picker.statusLabel()->text().contains(u"listed by the provider: 3."),
             qPrintable(picker.statusLabel()->text()));

    // Any part of a name finds it.
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, QStringLiteral("SMALL"));
    QCompleter *completer = picker.comboBox()->completer();
    QTRY_VERIFY_WITH_TIMEOUT(completer->popup()->isVisible(), 5000);
    QCOMPARE(completer->completionCount(), 1);
    QCOMPARE(completer->currentCompletion(), QStringLiteral("headstart-local-small"));
    QTest::keyClick(completer->popup(), Qt::Key_Down);
    QTest::keyClick(completer->popup(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(picked.size(), 1, 5000);
    QCOMPARE(picked.first().first().toString(), QStringLiteral("headstart-local-small"));
    QCOMPARE(edit->text(), QStringLiteral("headstart-local-small"));

    // Another provider: its list is not this one's; the text stays.
    picker.clearList();
    QCOMPARE(picker.comboBox()->count(), 0);
    QCOMPARE(edit->text(), QStringLiteral("headstart-local-small"));
}

void tst_ModelList::pickerSaysWhatWentWrong()
{
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    server.setResponder([](QTcpSocket *socket, const TestSupport::BadServer::Request &) {
        socket->write(TestSupport::BadServer::response("200 OK", {{"Content-Type", "application/json"}},
                                                       R"({"models":"none here"})"));
        socket->disconnectFromHost();
    });
    Llm::ProviderProfile profile = Llm::builtinProfile(u"custom");
    profile.baseUrl = server.baseUrl();

    Gui::ModelPicker picker;
    picker.setNetwork(&m_network);
    connect(&picker, &Gui::ModelPicker::listRequested, &picker, [&picker, &profile] { picker.loadList(profile); });
    picker.show();
    picker.lineEdit()->setText(QStringLiteral("my-model"));
    QTest::mouseClick(picker.loadButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(picker.statusLabel()->text().startsWith(u"No model list"), 10000);
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests().first().target, QByteArray("/v1/models"));
    QCOMPARE(picker.comboBox()->count(), 0);
    QCOMPARE(picker.lineEdit()->text(), QStringLiteral("my-model"));
    QVERIFY(picker.statusLabel()->text().contains(u"can still be typed"));

    // Nothing listening: said the same way, no dialog.
    quint16 port = server.port();
    QVERIFY(port != 0);
    Llm::ProviderProfile gone = profile;
    {
        TestSupport::BadServer closed;
        QVERIFY(closed.listen());
        gone.baseUrl = closed.baseUrl();
    }
    profile = gone;
    QTest::mouseClick(picker.loadButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(picker.statusLabel()->text().startsWith(u"No model list")
                                 && !picker.statusLabel()->text().contains(u"Loading"),
                             10000);
    QVERIFY(QApplication::activeModalWidget() == nullptr);
    QCOMPARE(picker.lineEdit()->text(), QStringLiteral("my-model"));
}

QTEST_MAIN(tst_ModelList)
#include "tst_modellist.moc"
