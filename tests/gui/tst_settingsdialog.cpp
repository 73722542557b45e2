// The settings dialog driven as a user drives it: every edit is announced at once with the
// whole new settings; strategies, delays, lanes and consent change what the engine would get;
// "Test connection" reports a TTFT from the real local provider and says "Cannot reach" for a
// closed port; keys typed go to the secret store and never into the settings file. Also the
// app's key store in its fallback mode: an owner-only file, as on machines without a keychain.
// Prices and the money budget: tst_settingsprices.
// Over 600 lines: 29 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "support/localproviderfixture.h"
#include "support/settingsdialogsuite.h"
#include "app/keychainsecretstore.h"
#include "prefetch/connectiontest.h"
#include "workspace/settings/prefetchparameters.h"
#include "workspace/settings/settingsfile.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <memory>
#include <utility>

using Gui::AppSettings;
using Gui::SecretStore;
using Gui::SettingsDialog;
using Gui::SettingsFile;
using namespace std::chrono_literals;

class tst_SettingsDialog : public QObject, private TestSupport::SettingsDialogSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    void switchingAStrategyOffEmitsIt();
    void opensOnThePageAndAtTheSizeItWasLeft();
    void aModelListErrorGoesWhenTheAddressChanges();
    void etiquetteSwitchIsOnAndTogglesWithTheKeyboard();
    void onePresetSetsEveryStrategy();
    void wheelScrollsThePageNotTheValuesUnderThePointer();
    void changingParametersEmitsThemInTheirUnits();
    void prefetchLaneFollowsTheForegroundLane();
    void restoreDefaultsResetsPrefetchOnly();
    void consentSwitchFlipsEffectivePrefetch();
    void localEngineNeedsNoKeyNorConsent();
    void localEngineModelIsChosenFromItsList();
    void providerFieldsApplyAfterAPauseInTyping();
    void badBaseUrlIsShownAndNotApplied();
    void insecureHttpIsWarnedAndAllowedPerProvider();
    void testConnectionReportsTtft();
    void testConnectionToAClosedPortCannotReach();
    void testConnectionCanBeCancelled();
    void keysGoToTheStoreNotTheSettings();
    void moreKeysAreStoredOnePerLineAndShownWithCommas();
    void storedKeysAreShownMasked();
    void switchingProviderSavesTheKeyTypedForThePreviousOne();
    void logDetailShowsAndEmitsTheLevel();
    void textSizeFromTheKeyboard();
    void colorSchemeFromTheKeyboard();
    void everyControlHasAnAccessibleName();
    void tabVisitsTheProviderFormInReadingOrder();
    void unencryptedKeyStorageIsAWarning();
    void fallbackFileIsOwnerOnlyAndReadsBack();
    void autoModeAnswersWithoutAKeychainDaemon();

private:
    // The dialog on `settings` (its keys in `secrets`, the suite's own when null), with Test
    // connection on the suite's network and the local engine at the suite's local provider.
    void openDialog(const AppSettings &settings, SecretStore *secrets = nullptr);
    bool m_withNetwork = false; // the next openDialog() gives the dialog a network for model lists

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
    QTemporaryDir m_dir;
};

void tst_SettingsDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_SettingsDialog::cleanup()
{
    closeDialog();
}

void tst_SettingsDialog::openDialog(const AppSettings &settings, SecretStore *secrets)
{
    SettingsDialog::Services services;
    services.secrets = secrets;
    services.makeConnectionTest = [this](QObject *parent) { return new Prefetch::ConnectionTest(&m_network, parent); };
    if (std::exchange(m_withNetwork, false))
        services.network = &m_network;
    services.resolveProfile = [this](Llm::ProviderProfile p) {
        if (p.isLocalDemo)
            p.baseUrl = m_local.server().apiUrl();
        return p;
    };
    makeDialog(settings, services);
}

void tst_SettingsDialog::opensOnThePageAndAtTheSizeItWasLeft()
{
    openDialog({});
    QVERIFY(activate(m_dialog.get()));
    auto *pages = find<QTabWidget>("pages");
    QCOMPARE(pages->currentIndex(), int(SettingsDialog::Page::Providers)); // the first time
    // Big enough for what its pages ask, not clipped.
    QVERIFY2(m_dialog->width() >= m_dialog->sizeHint().width() && m_dialog->height() >= m_dialog->sizeHint().height(),
             qPrintable(QStringLiteral("%1x%2 for a hint of %3x%4")
                            .arg(m_dialog->width())
                            .arg(m_dialog->height())
                            .arg(m_dialog->sizeHint().width())
                            .arg(m_dialog->sizeHint().height())));
    // The user goes to Network, makes it larger, and closes it with Esc.
    QTabBar *bar = pages->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(int(SettingsDialog::Page::Network)).center());
    QCOMPARE(pages->currentIndex(), int(SettingsDialog::Page::Network));
    const QSize larger = m_dialog->size() + QSize(40, 30);
    m_dialog->resize(larger);
    QTest::keyClick(m_dialog.get(), Qt::Key_Escape);
    QVERIFY(!m_dialog->isVisible());

    // Opened again (a new dialog, as the app makes one each time): where it was left.
    m_changed.reset();
    SettingsDialog::Services services;
    services.secrets = m_secrets.get();
    m_dialog = std::make_unique<SettingsDialog>(AppSettings{}, services);
    QCOMPARE(find<QTabWidget>("pages")->currentIndex(), int(SettingsDialog::Page::Network));
    QCOMPARE(m_dialog->size(), larger);
}

void tst_SettingsDialog::aModelListErrorGoesWhenTheAddressChanges()
{
    // An Ollama at an address where nothing listens: the list fails, and says why.
    AppSettings s;
    s.providerId = QStringLiteral("ollama");
    quint16 closedPort = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        closedPort = probe.serverPort();
    }
    m_withNetwork = true;
    openDialog(s);
    QVERIFY(activate(m_dialog.get()));
    auto *url = find<QLineEdit>("baseUrl");
    url->selectAll();
    QTest::keyClicks(url, QStringLiteral("http://127.0.0.1:%1/v1").arg(closedPort));
    QTest::keyClick(url, Qt::Key_Return);
    QTest::mouseClick(find<QPushButton>("loadModels"), Qt::LeftButton);
    auto *status = find<QLabel>("modelListStatus");
    QTRY_VERIFY_WITH_TIMEOUT(status->isVisible() && status->text().startsWith(u"No model list"), 10000);
    // The user corrects the address: the old error is about another server, and goes.
    url->setFocus();
    QTest::keyClick(url, Qt::Key_End);
    QTest::keyClick(url, Qt::Key_Backspace);
    QVERIFY(!status->isVisible());
}

void tst_SettingsDialog::switchingAStrategyOffEmitsIt()
{
    openDialog({});
    m_dialog->show();
    auto *hover = find<QGroupBox>("prefetch/hover/enabled");
    QVERIFY(hover && hover->isCheckable() && hover->isChecked());
    auto *delay = find<QSpinBox>("prefetch/hover/delayMs");
    QVERIFY(delay->isEnabled());

    hover->setChecked(false);
    QCOMPARE(m_changed->count(), 1);
    QVERIFY(!lastEmitted().prefetch.hover.enabled);
    QVERIFY(!lastEmitted().effectivePrefetch(QStringLiteral("local")).hover.enabled);
    QVERIFY(lastEmitted().prefetch.debounce.enabled);
    QVERIFY(!delay->isEnabled()); // its parameters grey out with it
    QCOMPARE(m_dialog->settings(), lastEmitted());

    // Keyboard: the model classifier's check box toggles with Space.
    auto *classifier = find<QCheckBox>("prefetch/debounce/modelClassifier");
    classifier->setFocus();
    QTest::keyClick(classifier, Qt::Key_Space);
    QCOMPARE(m_changed->count(), 2);
    QVERIFY(lastEmitted().prefetch.debounce.modelClassifier);
}

void tst_SettingsDialog::etiquetteSwitchIsOnAndTogglesWithTheKeyboard()
{
    openDialog({});
    m_dialog->showPage(SettingsDialog::Page::Prefetch);
    m_dialog->show();
    QApplication::setActiveWindow(m_dialog.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dialog.get()));
    auto *pause = find<QCheckBox>("prefetch/etiquette/pauseOnBatteryAndMetered");
    QVERIFY(pause);
    QVERIFY(!pause->isVisible()); // under Advanced settings, folded
    QTest::mouseClick(find<QToolButton>("advancedToggle"), Qt::LeftButton);
    QTRY_VERIFY(pause->isVisible());
    QVERIFY(pause->isChecked()); // on by default
    QCOMPARE(pause->text(), QStringLiteral("Pause prefetch on battery sa&ver and metered connections"));
    auto *box = qobject_cast<QGroupBox *>(pause->parentWidget());
    QVERIFY(box);
    QCOMPARE(box->title(), QStringLiteral("Battery and network"));

    // Its mnemonic reaches it from anywhere on the page and switches it off; Space toggles it.
    QTest::keyClick(m_dialog.get(), Qt::Key_V, Qt::AltModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!pause->isChecked(), 2000);
    QVERIFY(pause->hasFocus());
    QCOMPARE(m_changed->count(), 1);
    QVERIFY(!lastEmitted().prefetch.pauseOnBatteryAndMetered);
    QTest::keyClick(pause, Qt::Key_Space);
    QVERIFY(lastEmitted().prefetch.pauseOnBatteryAndMetered);
    QTest::keyClick(pause, Qt::Key_Space);
    QCOMPARE(m_changed->count(), 3);
    QVERIFY(!lastEmitted().prefetch.pauseOnBatteryAndMetered);
    QVERIFY(!lastEmitted().effectivePrefetch(lastEmitted().providerId).pauseOnBatteryAndMetered);

    // Off is kept when the dialog opens again, and Restore defaults turns it back on.
    openDialog(lastEmitted());
    pause = find<QCheckBox>("prefetch/etiquette/pauseOnBatteryAndMetered");
    QVERIFY(!pause->isChecked());
    QTest::mouseClick(find<QPushButton>("restoreDefaults"), Qt::LeftButton);
    QVERIFY(pause->isChecked());
    QVERIFY(lastEmitted().prefetch.pauseOnBatteryAndMetered);
}

void tst_SettingsDialog::textSizeFromTheKeyboard()
{
    openDialog(AppSettings());
    m_dialog->showPage(SettingsDialog::Page::General);
    m_dialog->show();
    QApplication::setActiveWindow(m_dialog.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dialog.get()));
    auto *size = find<QSpinBox>("textSize");
    QVERIFY(size);
    QCOMPARE(size->value(), 100);
    // Alt+X, its label's mnemonic, then Up twice: 10 % a step.
    QTest::keyClick(m_dialog.get(), Qt::Key_X, Qt::AltModifier);
    QTRY_VERIFY(size->hasFocus());
    QTest::keyClick(size, Qt::Key_Up);
    QTest::keyClick(size, Qt::Key_Up);
    QCOMPARE(lastEmitted().textSizePercent, 120);
    // Typed past the range: held at its end.
    size->selectAll();
    QTest::keyClicks(size, QStringLiteral("500"));
    QTest::keyClick(size, Qt::Key_Return);
    QVERIFY(lastEmitted().textSizePercent <= AppSettings::MaxTextSizePercent);
}

void tst_SettingsDialog::colorSchemeFromTheKeyboard()
{
    AppSettings dark;
    dark.colorScheme = Gui::ColorScheme::Dark;
    openDialog(dark);
    m_dialog->showPage(SettingsDialog::Page::General);
    m_dialog->show();
    QApplication::setActiveWindow(m_dialog.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dialog.get()));
    auto *scheme = find<QComboBox>("colorScheme");
    QVERIFY(scheme);
    QCOMPARE(scheme->count(), 3);
    QCOMPARE(scheme->currentData().toInt(), int(Gui::ColorScheme::Dark));
    // Alt+H, its label's mnemonic, then Home: the first entry follows the desktop.
    QTest::keyClick(m_dialog.get(), Qt::Key_H, Qt::AltModifier);
    QTRY_VERIFY(scheme->hasFocus());
    QTest::keyClick(scheme, Qt::Key_Home);
    QCOMPARE(lastEmitted().colorScheme, Gui::ColorScheme::System);
    QTest::keyClick(scheme, Qt::Key_Down);
    QCOMPARE(lastEmitted().colorScheme, Gui::ColorScheme::Light);
}

void tst_SettingsDialog::logDetailShowsAndEmitsTheLevel()
{
    AppSettings quiet;
    quiet.logDetail = Gui::LogDetail::WarningsOnly;
    openDialog(quiet);
    m_dialog->showPage(SettingsDialog::Page::General);
    auto *detail = find<QComboBox>("logDetail");
    QVERIFY(detail);
    QCOMPARE(detail->count(), 3);
    QCOMPARE(detail->currentData().toInt(), int(Gui::LogDetail::WarningsOnly));

    detail->setCurrentIndex(detail->findData(int(Gui::LogDetail::Detailed)));
    QCOMPARE(m_changed->count(), 1);
    QCOMPARE(lastEmitted().logDetail, Gui::LogDetail::Detailed);
    detail->setCurrentIndex(detail->findData(int(Gui::LogDetail::Normal)));
    QCOMPARE(m_changed->count(), 2);
    QCOMPARE(lastEmitted().logDetail, Gui::LogDetail::Normal);

    // Set from outside (the dialog shown again with saved settings): shown, not emitted back.
    m_dialog->setSettings(quiet);
    QCOMPARE(detail->currentData().toInt(), int(Gui::LogDetail::WarningsOnly));
    QCOMPARE(m_changed->count(), 2);
}

namespace {

// One notch of a mouse wheel turned towards the user, over `w`'s middle.
void wheelDown(QWidget *w)
{
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &event);
}

} // namespace

// Issue 41, item 6: one switch on top of the Prefetch page, the ~40 parameters under Advanced.
void tst_SettingsDialog::onePresetSetsEveryStrategy()
{
    openDialog({});
    m_dialog->showPage(SettingsDialog::Page::Prefetch);
    m_dialog->show();
    QApplication::setActiveWindow(m_dialog.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dialog.get()));
    auto *off = find<QRadioButton>("presetOff");
    auto *balanced = find<QRadioButton>("presetBalanced");
    auto *eager = find<QRadioButton>("presetEager");
    auto *custom = find<QRadioButton>("presetCustom");
    auto *hover = find<QGroupBox>("prefetch/hover/enabled");
    QVERIFY(balanced->isChecked()); // the defaults
    QVERIFY(!custom->isVisible());
    QVERIFY(!hover->isVisible()); // the details are folded away

    // Off with the pointer: nothing is sent early, whichever strategy.
    // On its circle: a radio button takes the clicks on its circle and its text, not the row.
    const auto onItsCircle = [](const QRadioButton *radio) { return QPoint(8, radio->height() / 2); };
    QTest::mouseClick(off, Qt::LeftButton, {}, onItsCircle(off));
    QVERIFY(off->isChecked());
    const Prefetch::Settings none = lastEmitted().prefetch;
    for (bool on : {none.warmup.enabled, none.hover.enabled, none.debounce.enabled, none.debounce.suggestFollowUps,
                    none.workflow.enabled, none.trajectory.enabled, none.selection.enabled, none.keyboard.enabled,
                    none.reading.enabled, none.habits.enabled})
        QVERIFY(!on);
    QVERIFY(none.cache.enabled); // the response cache sends nothing early: it stays
    QTest::mouseClick(find<QToolButton>("advancedToggle"), Qt::LeftButton);
    QTRY_VERIFY(hover->isVisible());
    QVERIFY(!hover->isChecked());

    // Eager with the keyboard: sooner, more guesses, a larger budget.
    eager->setFocus();
    QTRY_VERIFY(eager->hasFocus());
    QTest::keyClick(eager, Qt::Key_Space);
    QVERIFY(eager->isChecked());
    QVERIFY(lastEmitted().prefetch.hover.enabled);
    QCOMPARE(lastEmitted().prefetch.hover.delay, 80ms);
    QCOMPARE(lastEmitted().prefetch.speculation.maxAnswers, 3);
    QCOMPARE(lastEmitted().prefetch.hourlyTokenBudget, Prefetch::Settings().hourlyTokenBudget * 5 / 2);
    QVERIFY(hover->isChecked());
    QCOMPARE(find<QSpinBox>("prefetch/hover/delayMs")->value(), 80);

    // A parameter set by hand: none of the three any more, and the page says so.
    auto *delay = find<QSpinBox>("prefetch/hover/delayMs");
    delay->setFocus();
    QTRY_VERIFY(delay->hasFocus());
    QTest::keyClick(delay, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(delay, QStringLiteral("200"));
    QTRY_COMPARE(lastEmitted().prefetch.hover.delay, 200ms);
    QVERIFY(custom->isVisible());
    QVERIFY(custom->isChecked());
    QVERIFY(!eager->isChecked() && !balanced->isChecked() && !off->isChecked());

    // Balanced again: the defaults, every one of them; kept when the dialog opens again.
    QTest::mouseClick(balanced, Qt::LeftButton, {}, onItsCircle(balanced));
    QVERIFY(Gui::PrefetchParameters::same(lastEmitted().prefetch, Prefetch::Settings()));
    QVERIFY(!custom->isVisible());
    openDialog(lastEmitted());
    QVERIFY(find<QRadioButton>("presetBalanced")->isChecked());
}

void tst_SettingsDialog::wheelScrollsThePageNotTheValuesUnderThePointer()
{
    openDialog({});
    m_dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_dialog.get()));
    auto *pages = find<QTabWidget>("pages");
    pages->setCurrentIndex(1); // Prefetch: a long page, once its advanced settings are shown
    QTest::mouseClick(find<QToolButton>("advancedToggle"), Qt::LeftButton);
    auto *pause = find<QSpinBox>("prefetch/debounce/sentenceEndDelayMs");
    QVERIFY(pause);
    QScrollArea *page = nullptr;
    for (QWidget *p = pause->parentWidget(); p && !page; p = p->parentWidget())
        page = qobject_cast<QScrollArea *>(p);
    QVERIFY(page);
    QScrollBar *bar = page->verticalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0);
    bar->setValue(bar->maximum() / 2);
    const int before = pause->value();
    const int scrolled = bar->value();

    // Scrolling over the spin box without having clicked it: the page moves, the value stays.
    QVERIFY(!pause->hasFocus());
    wheelDown(pause);
    QCOMPARE(pause->value(), before);
    QVERIFY(bar->value() > scrolled);
    QVERIFY(!pause->hasFocus()); // the wheel does not give it the focus either
    QCOMPARE(m_changed->count(), 0);

    // Clicked into first, it takes the wheel as before.
    bar->setValue(scrolled);
    QTest::mouseClick(pause, Qt::LeftButton, {}, QPoint(4, pause->height() / 2));
    QTRY_VERIFY(pause->hasFocus());
    QVERIFY(before > pause->minimum()); // so that a step down is visible
    wheelDown(pause);
    QCOMPARE(pause->value(), qMax(pause->minimum(), before - pause->singleStep()));
    QCOMPARE(m_changed->count(), 1);
}

void tst_SettingsDialog::changingParametersEmitsThemInTheirUnits()
{
    openDialog({});
    find<QSpinBox>("prefetch/hover/delayMs")->setValue(300);
    QCOMPARE(lastEmitted().prefetch.hover.delay, 300ms);
    auto *ttl = find<QSpinBox>("prefetch/hover/ttlMs");
    QCOMPARE(ttl->value(), 30); // shown in seconds
    ttl->setValue(90);
    QCOMPARE(lastEmitted().prefetch.hover.ttl, 90s);
    auto *interval = find<QSpinBox>("prefetch/warmup/intervalMs");
    QCOMPARE(interval->value(), 10); // minutes
    interval->setValue(15);
    QCOMPARE(lastEmitted().prefetch.warmup.interval, 15min);
    auto *floor = find<QDoubleSpinBox>("prefetch/alarms/hitRateFloor");
    QCOMPARE(floor->value(), 35.0); // percent
    floor->setValue(50);
    QCOMPARE(lastEmitted().prefetch.hitRateFloor, 0.5);
    find<QDoubleSpinBox>("prefetch/debounce/minConfidence")->setValue(0.8);
    QCOMPARE(lastEmitted().prefetch.debounce.minConfidence, 0.8);
    find<QSpinBox>("prefetch/bufferTokens")->setValue(500);
    QCOMPARE(lastEmitted().prefetch.bufferTokens, 500);
    auto *budget = find<QSpinBox>("prefetch/hourlyTokenBudget");
    budget->setValue(0);
    QCOMPARE(budget->text(), QStringLiteral("Unlimited"));
    QCOMPARE(lastEmitted().prefetch.hourlyTokenBudget, 0);
    // Typed, as a user does.
    auto *debounceDelay = find<QSpinBox>("prefetch/debounce/delayMs");
    debounceDelay->selectAll();
    QTest::keyClicks(debounceDelay, QStringLiteral("420"));
    QCOMPARE(lastEmitted().prefetch.debounce.delay, 420ms);
    // Nothing can be set outside the range the settings file accepts.
    auto *hoverDelay = find<QSpinBox>("prefetch/hover/delayMs");
    hoverDelay->setValue(1'000'000);
    QCOMPARE(lastEmitted().prefetch.hover.delay, 10s);
}

void tst_SettingsDialog::prefetchLaneFollowsTheForegroundLane()
{
    openDialog({});
    auto *foreground = find<QSpinBox>("prefetch/foregroundInFlight");
    auto *prefetch = find<QSpinBox>("prefetch/prefetchInFlight");
    QCOMPARE(prefetch->value(), 2);
    foreground->setValue(1);
    QCOMPARE(prefetch->maximum(), 1);
    QCOMPARE(prefetch->value(), 1);
    QCOMPARE(lastEmitted().prefetch.foregroundInFlight, 1);
    QCOMPARE(lastEmitted().prefetch.prefetchInFlight, 1);

    auto *ceiling = find<QDoubleSpinBox>("prefetch/alarms/extraCostCeiling");
    ceiling->setValue(20);
    QCOMPARE(lastEmitted().prefetch.extraCostCeiling, 0.2);
    QCOMPARE(lastEmitted().prefetch.extraCostResume, 0.2);
}

void tst_SettingsDialog::restoreDefaultsResetsPrefetchOnly()
{
    AppSettings s;
    s.providerId = QStringLiteral("deepseek");
    s.setPrefetchConsent(QStringLiteral("deepseek"), true);
    s.prefetch.hover.delay = 900ms;
    s.prefetch.workflow.enabled = false;
    openDialog(s);
    QSignalSpy forget(m_dialog.get(), &SettingsDialog::forgetLearntRequested);
    QCOMPARE(find<QSpinBox>("prefetch/hover/delayMs")->value(), 900);
    QTest::mouseClick(find<QPushButton>("restoreDefaults"), Qt::LeftButton);
    QVERIFY(Gui::PrefetchParameters::same(lastEmitted().prefetch, Prefetch::Settings()));
    QVERIFY(lastEmitted().hasPrefetchConsent(QStringLiteral("deepseek")));
    QCOMPARE(find<QSpinBox>("prefetch/hover/delayMs")->value(), 150);
    QVERIFY(find<QGroupBox>("prefetch/workflow/enabled")->isChecked());
    QCOMPARE(forget.count(), 0); // the settings, not what was learnt

    // What the early guesses learnt is forgotten on its own button, once.
    auto *forgetButton = find<QPushButton>("forgetLearnt");
    QVERIFY(forgetButton->isEnabled());
    QTest::mouseClick(forgetButton, Qt::LeftButton);
    QCOMPARE(forget.count(), 1);
    QVERIFY(!forgetButton->isEnabled());
    QTest::mouseClick(forgetButton, Qt::LeftButton);
    QCOMPARE(forget.count(), 1);
}

void tst_SettingsDialog::consentSwitchFlipsEffectivePrefetch()
{
    AppSettings s;
    s.providerId = QStringLiteral("deepseek");
    openDialog(s);
    auto *consent = find<QCheckBox>("prefetchConsent");
    QVERIFY(!consent->isHidden()); // on the Prefetch page, which is not the current one
    QVERIFY(!consent->isChecked());
    QVERIFY(consent->text().contains(QLatin1String("DeepSeek")));
    QVERIFY(find<QLabel>("consentNote")->text().contains(QLatin1String("stay off")));
    QVERIFY(find<QLabel>("prefetchNotice")->text().contains(QLatin1String("before you press anything")));
    QVERIFY(!m_dialog->settings().effectivePrefetch(QStringLiteral("deepseek")).hover.enabled);

    consent->setChecked(true);
    QCOMPARE(m_changed->count(), 1);
    QVERIFY(lastEmitted().hasPrefetchConsent(QStringLiteral("deepseek")));
    const Prefetch::Settings on = lastEmitted().effectivePrefetch(QStringLiteral("deepseek"));
    QVERIFY(on.hover.enabled && on.debounce.enabled);

    consent->setChecked(false);
    const Prefetch::Settings off = lastEmitted().effectivePrefetch(QStringLiteral("deepseek"));
    QVERIFY(!off.hover.enabled && !off.debounce.enabled && off.warmup.enabled);

    // Consent is per provider: another cloud provider has none.
    consent->setChecked(true);
    auto *provider = find<QComboBox>("provider");
    provider->setCurrentIndex(provider->findData(QStringLiteral("openai")));
    QCOMPARE(lastEmitted().providerId, QStringLiteral("openai"));
    QVERIFY(!consent->isChecked());
    QVERIFY(consent->text().contains(QLatin1String("OpenAI")));
    QVERIFY(!lastEmitted().effectivePrefetch(QStringLiteral("openai")).hover.enabled);
    QVERIFY(lastEmitted().effectivePrefetch(QStringLiteral("deepseek")).hover.enabled);
}

void tst_SettingsDialog::localEngineNeedsNoKeyNorConsent()
{
    openDialog({});
    QVERIFY(find<QLabel>("providerNote")->text().contains(QLatin1String("not a language model")));
    QVERIFY(find<QLabel>("providerNote")->text().contains(QLatin1String("offline")));
    QVERIFY(!find<QLineEdit>("apiKey")->isEnabled());
    QVERIFY(!find<QLineEdit>("prefetchKey")->isEnabled());
    QVERIFY(!find<QLineEdit>("baseUrl")->isEnabled());
    QCOMPARE(find<QLineEdit>("baseUrl")->text(), m_local.server().apiUrl().toString());
    QVERIFY(find<QCheckBox>("prefetchConsent")->isHidden());
    QVERIFY(find<QLabel>("consentNote")->text().contains(QLatin1String("no consent")));
}

void tst_SettingsDialog::localEngineModelIsChosenFromItsList()
{
    m_withNetwork = true; // the Load list button
    openDialog({});
    m_dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_dialog.get()));
    auto *combo = find<QComboBox>("model");
    QVERIFY(combo->isEnabled());
    QVERIFY(!find<QLineEdit>("fastModel")->isEnabled()); // its fast model is its own
    QCOMPARE(combo->lineEdit()->placeholderText(), QStringLiteral("headstart-local"));
    QTest::mouseClick(find<QPushButton>("loadModels"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(combo->count(), 3, 10000); // the engine lists its three models
    const int reasoner = combo->findText(QStringLiteral("headstart-local-reasoner"));
    QVERIFY(reasoner >= 0);
    // Chosen with the keyboard, as from any provider's list.
    combo->setFocus();
    while (combo->currentIndex() != reasoner)
        QTest::keyClick(combo, combo->currentIndex() < reasoner ? Qt::Key_Down : Qt::Key_Up);
    QTRY_VERIFY_WITH_TIMEOUT(!m_changed->isEmpty()
                                 && lastEmitted().profile(QStringLiteral("local")).model
                                        == QStringLiteral("headstart-local-reasoner"),
                             5000);
    // A reasoning model: the instant acknowledgement can be asked of the fast model beside it.
    const Llm::ProviderProfile local = lastEmitted().profile(QStringLiteral("local"));
    QVERIFY(local.thinksFirst());
    QVERIFY(local.hasDistinctFastModel());
}

void tst_SettingsDialog::providerFieldsApplyAfterAPauseInTyping()
{
    AppSettings s;
    s.providerId = QStringLiteral("openai");
    openDialog(s);
    m_dialog->show();
    auto *model = find<QComboBox>("model")->lineEdit(); // the model field is an editable combo (its list)
    QCOMPARE(model->placeholderText(), QStringLiteral("gpt-6.1-terra"));
    QTest::keyClicks(model, QStringLiteral("gpt-4.1-mini"));
    QCOMPARE(m_changed->count(), 0); // not per keystroke
    QTRY_COMPARE_WITH_TIMEOUT(m_changed->count(), 1, 5000);
    QCOMPARE(lastEmitted().profile(QStringLiteral("openai")).model, QStringLiteral("gpt-4.1-mini"));

    auto *headers = find<QPlainTextEdit>("extraHeaders");
    headers->setPlainText(QStringLiteral("X-Team: writers"));
    auto *concurrency = find<QSpinBox>("concurrencyLimit");
    concurrency->setValue(3); // spin boxes apply at once
    QCOMPARE(lastEmitted().profile(QStringLiteral("openai")).concurrencyLimit, 3);
    m_dialog->commitPendingEdits();
    QCOMPARE(lastEmitted().profile(QStringLiteral("openai")).extraHeaders, (Gui::HeaderList{{"X-Team", "writers"}}));

    // Emptying a field goes back to the default.
    model->clear();
    QTest::keyClick(model, Qt::Key_Return); // editingFinished applies at once
    QCOMPARE(lastEmitted().profile(QStringLiteral("openai")).model, QStringLiteral("gpt-6.1-terra"));
}

void tst_SettingsDialog::badBaseUrlIsShownAndNotApplied()
{
    AppSettings s;
    s.providerId = QStringLiteral("ollama");
    openDialog(s);
    m_dialog->show();
    auto *url = find<QLineEdit>("baseUrl");
    url->setText(QStringLiteral("gpu-box:11434"));
    QTest::keyClick(url, Qt::Key_Return); // applies at once, as leaving the field does
    QVERIFY(find<QLabel>("baseUrlError")->isVisibleTo(m_dialog.get()));
    QCOMPARE(m_dialog->settings().profile(QStringLiteral("ollama")).baseUrl, Llm::builtinProfile(u"ollama").baseUrl);

    url->setText(QStringLiteral("http://gpu-box.example.net:11434/v1"));
    QTest::keyClick(url, Qt::Key_Return);
    QVERIFY(!find<QLabel>("baseUrlError")->isVisibleTo(m_dialog.get()));
    QCOMPARE(lastEmitted().profile(QStringLiteral("ollama")).baseUrl,
             QUrl(QStringLiteral("http://gpu-box.example.net:11434/v1")));
    // A server elsewhere receives the text: now it needs consent, and the page asks for it.
    QVERIFY(lastEmitted().profile(QStringLiteral("ollama")).isCloud);
    QVERIFY(!find<QCheckBox>("prefetchConsent")->isHidden());
}

void tst_SettingsDialog::testConnectionReportsTtft()
{
    openDialog({});
    m_dialog->show();
    auto *button = find<QPushButton>("testConnection");
    auto *result = find<QLabel>("testResult");
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(result->text().startsWith(QLatin1String("Testing")));
    QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QLatin1String("Connected")), 10000);
    QVERIFY2(result->text().contains(QLatin1String("First token after")), qPrintable(result->text()));
    QVERIFY(result->text().endsWith(QLatin1String(" ms.")));
    QCOMPARE(button->text(), QStringLiteral("&Test connection"));
    QCOMPARE(m_changed->count(), 0); // a test changes no settings
}

void tst_SettingsDialog::testConnectionToAClosedPortCannotReach()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    } // closed again: nothing listens there now
    AppSettings s;
    s.providerId = QStringLiteral("custom");
    s.setBaseUrl(QStringLiteral("custom"), QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port)));
    s.setModel(QStringLiteral("custom"), QStringLiteral("any"));
    openDialog(s);
    m_dialog->show();
    QTest::mouseClick(find<QPushButton>("testConnection"), Qt::LeftButton);
    auto *result = find<QLabel>("testResult");
    QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QLatin1String("Cannot reach")), 15000);
    QVERIFY(result->text().contains(QLatin1String("Custom")));
}

void tst_SettingsDialog::testConnectionCanBeCancelled()
{
    openDialog({});
    m_dialog->show();
    auto *button = find<QPushButton>("testConnection");
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(button->text(), QStringLiteral("Cancel &test"));
    QTest::mouseClick(button, Qt::LeftButton); // before any byte could come back
    QCOMPARE(find<QLabel>("testResult")->text(), QStringLiteral("Test cancelled."));
    QCOMPARE(button->text(), QStringLiteral("&Test connection"));
}

void tst_SettingsDialog::keysGoToTheStoreNotTheSettings()
{
    AppSettings s;
    s.providerId = QStringLiteral("deepseek");
    openDialog(s);
    m_dialog->show();
    QSignalSpy keysChanged(m_dialog.get(), &SettingsDialog::keysChanged);
    QSignalSpy written(m_secrets.get(), &SecretStore::secretWritten);
    auto *apiKey = find<QLineEdit>("apiKey");
    auto *prefetchKey = find<QLineEdit>("prefetchKey");
    QTRY_COMPARE_WITH_TIMEOUT(apiKey->placeholderText(), QStringLiteral("Not set"), 5000); // loaded
    QCOMPARE(apiKey->echoMode(), QLineEdit::Password);

    const QString main = QStringLiteral("sk-test-main-0123456789");
    const QString prefetch = QStringLiteral("sk-test-prefetch-9876543210");
    apiKey->setFocus();
    QTest::keyClicks(apiKey, main);
    QTest::keyClicks(prefetchKey, prefetch);
    // Saved after a pause in typing, or at once when the dialog closes.
    m_dialog->close();
    QTRY_COMPARE_WITH_TIMEOUT(m_secrets->entries().value(QStringLiteral("provider/deepseek/api-key")), main, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_secrets->entries().value(QStringLiteral("provider/deepseek/prefetch-key")), prefetch,
                              5000);
    QTRY_COMPARE_WITH_TIMEOUT(keysChanged.count(), 2, 5000);
    QCOMPARE(written.count(), 2);
    QCOMPARE(written.constFirst().constFirst().toString(), QStringLiteral("deepseek"));
    QCOMPARE(keysChanged.constFirst().constFirst().toString(), QStringLiteral("deepseek"));
    QCOMPARE(find<QLabel>("keyStatus")->text(), QStringLiteral("Key saved."));

    // Whatever the dialog announced, saved as the app saves it, holds no key.
    AppSettings announced = m_dialog->settings();
    announced.setPrefetchConsent(QStringLiteral("deepseek"), true);
    const QString file = m_dir.filePath(QStringLiteral("keys.conf"));
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, announced);
    }
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(bytes.contains("deepseek"));
    QVERIFY(!bytes.contains("sk-test"));

    // Clearing a field removes the key.
    m_dialog->show();
    apiKey->clear();
    QTest::keyClick(apiKey, Qt::Key_A);
    QTest::keyClick(apiKey, Qt::Key_Backspace);
    QTest::keyClick(apiKey, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!m_secrets->entries().contains(QStringLiteral("provider/deepseek/api-key")), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(find<QLabel>("keyStatus")->text(), QStringLiteral("Key removed."), 5000);
}

void tst_SettingsDialog::moreKeysAreStoredOnePerLineAndShownWithCommas()
{
    AppSettings s;
    s.providerId = QStringLiteral("deepseek");
    openDialog(s);
    m_dialog->show();
    QApplication::setActiveWindow(m_dialog.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dialog.get()));
    auto *more = find<QLineEdit>("moreApiKeys");
    QTRY_COMPARE_WITH_TIMEOUT(more->placeholderText(), QStringLiteral("None: only the API key"), 5000); // loaded
    QCOMPARE(more->echoMode(), QLineEdit::Password);
    // Alt+O, the label's mnemonic, puts the cursor there; keys pasted with any separators.
    QTest::keyClick(m_dialog.get(), Qt::Key_O, Qt::AltModifier);
    QTRY_VERIFY_WITH_TIMEOUT(more->hasFocus(), 2000);
    QTest::keyClicks(more, QStringLiteral("sk-more-b-0123, sk-more-c-4567  sk-more-b-0123"));
    QTest::keyClick(more, Qt::Key_Return);
    const QString entry = QStringLiteral("provider/deepseek/more-api-keys");
    QTRY_COMPARE_WITH_TIMEOUT(m_secrets->entries().value(entry), QStringLiteral("sk-more-b-0123\nsk-more-c-4567"),
                              5000);
    QTRY_COMPARE_WITH_TIMEOUT(find<QLabel>("keyStatus")->text(), QStringLiteral("Key saved."), 5000);

    // Shown again as a list, masked until Show keys.
    openDialog(s);
    more = find<QLineEdit>("moreApiKeys");
    QTRY_COMPARE_WITH_TIMEOUT(more->text(), QStringLiteral("sk-more-b-0123, sk-more-c-4567"), 5000);
    QCOMPARE(more->echoMode(), QLineEdit::Password);
    find<QCheckBox>("showKeys")->setChecked(true);
    QCOMPARE(more->echoMode(), QLineEdit::Normal);

    // Emptied, the entry goes.
    m_dialog->show();
    more->setFocus();
    more->selectAll();
    QTest::keyClick(more, Qt::Key_Delete);
    QTest::keyClick(more, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!m_secrets->entries().contains(entry), 5000);
}

void tst_SettingsDialog::storedKeysAreShownMasked()
{
    m_secrets->write(QStringLiteral("anthropic"), SecretStore::Secret::ApiKey, QStringLiteral("sk-ant-stored"), nullptr,
                     {});
    AppSettings s;
    s.providerId = QStringLiteral("anthropic");
    openDialog(s);
    auto *apiKey = find<QLineEdit>("apiKey");
    QTRY_COMPARE_WITH_TIMEOUT(apiKey->text(), QStringLiteral("sk-ant-stored"), 5000);
    QCOMPARE(apiKey->echoMode(), QLineEdit::Password);
    QCOMPARE(find<QLineEdit>("prefetchKey")->text(), QString());
    find<QCheckBox>("showKeys")->setChecked(true);
    QCOMPARE(apiKey->echoMode(), QLineEdit::Normal);
    find<QCheckBox>("showKeys")->setChecked(false);
    QCOMPARE(apiKey->echoMode(), QLineEdit::Password);
    QCOMPARE(m_secrets->writeCount(), 1); // showing keys writes nothing
}

void tst_SettingsDialog::switchingProviderSavesTheKeyTypedForThePreviousOne()
{
    AppSettings s;
    s.providerId = QStringLiteral("qwen");
    openDialog(s);
    m_dialog->show();
    auto *apiKey = find<QLineEdit>("apiKey");
    QTRY_COMPARE_WITH_TIMEOUT(apiKey->placeholderText(), QStringLiteral("Not set"), 5000);
    QTest::keyClicks(apiKey, QStringLiteral("sk-qwen"));
    auto *provider = find<QComboBox>("provider");
    provider->setCurrentIndex(provider->findData(QStringLiteral("openai")));
    QTRY_COMPARE_WITH_TIMEOUT(m_secrets->entries().value(QStringLiteral("provider/qwen/api-key")),
                              QStringLiteral("sk-qwen"), 5000);
    QVERIFY(!m_secrets->entries().contains(QStringLiteral("provider/openai/api-key")));
    QTRY_COMPARE_WITH_TIMEOUT(apiKey->placeholderText(), QStringLiteral("Not set"), 5000);
    QCOMPARE(apiKey->text(), QString());
}

void tst_SettingsDialog::insecureHttpIsWarnedAndAllowedPerProvider()
{
    AppSettings s;
    s.providerId = QStringLiteral("ollama");
    openDialog(s);
    m_dialog->show();
    auto *warning = find<QLabel>("insecureHttpWarning");
    auto *allow = find<QCheckBox>("allowInsecureHttp");
    // http://localhost is this machine: nothing to warn about, nothing to allow.
    QVERIFY(!warning->isVisibleTo(m_dialog.get()));
    QVERIFY(!allow->isVisibleTo(m_dialog.get()));

    auto *url = find<QLineEdit>("baseUrl");
    url->selectAll();
    QTest::keyClicks(url, QStringLiteral("http://gpu-box.example.net:11434/v1"));
    QTest::keyClick(url, Qt::Key_Return);
    QVERIFY(warning->isVisibleTo(m_dialog.get()));
    QVERIFY2(warning->text().contains(QLatin1String("gpu-box.example.net")), qPrintable(warning->text()));
    QVERIFY(warning->text().contains(QLatin1String("unencrypted")));
    QVERIFY(allow->isVisibleTo(m_dialog.get()));
    QVERIFY(!allow->isChecked());
    QVERIFY(!lastEmitted().profile(QStringLiteral("ollama")).allowInsecureHttp);

    // On its box, as a person clicks it (a wide dialog puts the middle of the row past its text,
    // where a check box takes no click).
    QTest::mouseClick(allow, Qt::LeftButton, {}, QPoint(allow->height() / 2, allow->height() / 2));
    QVERIFY(allow->isChecked());
    QVERIFY(lastEmitted().profile(QStringLiteral("ollama")).allowInsecureHttp);
    QVERIFY(warning->isVisibleTo(m_dialog.get())); // still said while allowed
    // Per provider: another one is not allowed.
    QVERIFY(!lastEmitted().profile(QStringLiteral("openai")).allowInsecureHttp);

    // Saved and read back, the choice and the warning come back with it.
    const QString file = m_dir.filePath(QStringLiteral("insecure.ini"));
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, lastEmitted());
        QCOMPARE(settings.status(), QSettings::NoError);
    }
    QSettings settings(file, QSettings::IniFormat);
    const SettingsFile::LoadResult loaded = SettingsFile::load(settings);
    QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(QLatin1Char(' '))));
    QVERIFY(loaded.settings.profile(QStringLiteral("ollama")).allowInsecureHttp);
    openDialog(loaded.settings);
    m_dialog->show();
    allow = find<QCheckBox>("allowInsecureHttp");
    QVERIFY(allow->isVisibleTo(m_dialog.get()));
    QVERIFY(allow->isChecked());
    QVERIFY(find<QLabel>("insecureHttpWarning")->isVisibleTo(m_dialog.get()));

    // Taken back: unchecked, saved, it is gone from the file.
    QTest::mouseClick(allow, Qt::LeftButton, {}, allow->rect().center());
    QVERIFY(!lastEmitted().profile(QStringLiteral("ollama")).allowInsecureHttp);
    {
        QSettings again(file, QSettings::IniFormat);
        SettingsFile::save(again, lastEmitted());
    }
    QSettings again(file, QSettings::IniFormat);
    QVERIFY(!SettingsFile::load(again).settings.profile(QStringLiteral("ollama")).allowInsecureHttp);
}

void tst_SettingsDialog::everyControlHasAnAccessibleName()
{
    openDialog({});
    const auto widgets = m_dialog->findChildren<QWidget *>();
    int controls = 0;
    for (QWidget *w : widgets) {
        const bool input = qobject_cast<QLineEdit *>(w) || qobject_cast<QAbstractSpinBox *>(w)
                           || qobject_cast<QComboBox *>(w) || qobject_cast<QPlainTextEdit *>(w);
        if (!input || qobject_cast<QComboBox *>(w->parentWidget())
            || qobject_cast<QAbstractSpinBox *>(w->parentWidget()))
            continue; // the line edit inside a combo or spin box speaks through its owner
        ++controls;
        QVERIFY2(!w->accessibleName().isEmpty(), qPrintable(w->objectName()));
        QVERIFY2(w->focusPolicy() & Qt::TabFocus, qPrintable(w->objectName()));
    }
    QVERIFY(controls >= 25);
    // Labels with mnemonics lead to their control.
    for (QLabel *label : m_dialog->findChildren<QLabel *>()) {
        if (label->text().contains(QLatin1Char('&')))
            QVERIFY2(label->buddy(), qPrintable(label->text()));
    }
}

void tst_SettingsDialog::tabVisitsTheProviderFormInReadingOrder()
{
    AppSettings s;
    s.providerId = QStringLiteral("deepseek");
    openDialog(s);
    m_dialog->show();
    QApplication::setActiveWindow(m_dialog.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dialog.get()));
    find<QComboBox>("provider")->setFocus();
    QStringList visited{QApplication::focusWidget()->objectName()};
    for (int i = 0; i < 17; ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        visited << QApplication::focusWidget()->objectName();
    }
    // Add… follows the list; Rename… and Remove are off for a built-in, so Tab passes them.
    QCOMPARE(visited, (QStringList{"provider", "addEndpoint", "baseUrl", "model", "fastModel", "extraHeaders",
                                   "concurrencyLimit", "apiKey", "prefetchKey", "moreApiKeys", "showKeys",
                                   "testConnection", "timeout/connect", "timeout/firstByte", "timeout/idle",
                                   "price/input", "price/cacheWrite", "price/cacheRead"}));
}

void tst_SettingsDialog::unencryptedKeyStorageIsAWarning()
{
    App::KeychainSecretStore store(App::KeychainSecretStore::Mode::FileOnly,
                                   m_dir.filePath(QStringLiteral("warn/secrets.json")));
    openDialog({}, &store);
    const QString text = find<QLabel>("keyStorage")->text();
    QVERIFY2(text.contains(QLatin1String("Unencrypted file")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("no keychain service is running")));
    QVERIFY(find<QLabel>("keyStorage")->accessibleName().startsWith(QLatin1String("Warning")));
    m_dialog.reset(); // before the store it uses
}

void tst_SettingsDialog::fallbackFileIsOwnerOnlyAndReadsBack()
{
    const QString path = m_dir.filePath(QStringLiteral("config/secrets.json"));
    App::KeychainSecretStore store(App::KeychainSecretStore::Mode::FileOnly, path);
    QVERIFY(!store.isSecure());
    QVERIFY(store.backendDescription().contains(QDir::toNativeSeparators(path)));

    QObject context;
    QSignalSpy stored(&store, &SecretStore::secretWritten);
    std::optional<SecretStore::WriteResult> written;
    store.write(QStringLiteral("deepseek"), SecretStore::Secret::ApiKey, QStringLiteral("sk-file-1"), &context,
                [&](const SecretStore::WriteResult &r) { written = r; });
    QVERIFY(!written); // answered from the event loop, not from inside write()
    QTRY_VERIFY_WITH_TIMEOUT(written.has_value(), 5000);
    QVERIFY(*written);
    QCOMPARE(stored.count(), 1);
    QCOMPARE(QFile::permissions(path) & ~(QFile::ReadUser | QFile::WriteUser), QFile::ReadOwner | QFile::WriteOwner);

    store.write(QStringLiteral("deepseek"), SecretStore::Secret::PrefetchKey, QStringLiteral("sk-file-2"), nullptr, {});
    std::optional<SecretStore::ReadResult> read;
    store.read(QStringLiteral("deepseek"), SecretStore::Secret::ApiKey, &context,
               [&](const SecretStore::ReadResult &r) { read = r; });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 5000);
    QCOMPARE(read->value_or(QString()), QStringLiteral("sk-file-1"));

    // A second store (the next start) finds both keys.
    App::KeychainSecretStore again(App::KeychainSecretStore::Mode::FileOnly, path);
    std::optional<std::pair<Llm::ProviderProfile, QString>> filled;
    again.fillKeys(Llm::builtinProfile(u"deepseek"), &context,
                   [&](const Llm::ProviderProfile &p, const QString &error) { filled.emplace(p, error); });
    QTRY_VERIFY_WITH_TIMEOUT(filled.has_value(), 5000);
    QCOMPARE(filled->second, QString());
    QCOMPARE(filled->first.apiKey, QStringLiteral("sk-file-1"));
    QCOMPARE(filled->first.prefetchApiKey, QStringLiteral("sk-file-2"));

    // Removing leaves no trace of the key; the file stays owner-only after every write.
    std::optional<SecretStore::WriteResult> removed;
    again.remove(QStringLiteral("deepseek"), SecretStore::Secret::ApiKey, &context,
                 [&](const SecretStore::WriteResult &r) { removed = r; });
    QTRY_VERIFY_WITH_TIMEOUT(removed.has_value(), 5000);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(!bytes.contains("sk-file-1"));
    QVERIFY(bytes.contains("sk-file-2"));
    QCOMPARE(QFile::permissions(path) & ~(QFile::ReadUser | QFile::WriteUser), QFile::ReadOwner | QFile::WriteOwner);

    // A callback whose context is gone is dropped, not called.
    read.reset();
    {
        QObject shortLived;
        store.read(QStringLiteral("deepseek"), SecretStore::Secret::PrefetchKey, &shortLived,
                   [&](const SecretStore::ReadResult &r) { read = r; });
    }
    QTest::qWait(0);
    QVERIFY(!read.has_value());
}

void tst_SettingsDialog::autoModeAnswersWithoutAKeychainDaemon()
{
    // CI has no Secret Service: the store must notice and fall back instead of hanging. Where a
    // keychain runs, only a read of an entry that does not exist happens.
    const QString path = m_dir.filePath(QStringLiteral("auto/secrets.json"));
    App::KeychainSecretStore store(App::KeychainSecretStore::Mode::Auto, path);
    QObject context;
    std::optional<SecretStore::ReadResult> read;
    store.read(QStringLiteral("tst-no-such-provider"), SecretStore::Secret::ApiKey, &context,
               [&](const SecretStore::ReadResult &r) { read = r; });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), App::KeychainSecretStore::ProbeTimeoutMs + 5000);
    QVERIFY(!store.isProbing());
    QCOMPARE(read->value_or(QStringLiteral("error")), QString());
    if (!store.isSecure())
        QVERIFY(store.backendDescription().contains(QDir::toNativeSeparators(path)));
    QVERIFY(!QFile::exists(path)); // reading creates nothing
}

QTEST_MAIN(tst_SettingsDialog)
#include "tst_settingsdialog.moc"
