// Anthropic's per-profile options. Extended thinking: kept across a save and a load, a bad
// stored value reported and dropped, and switched on and sized in the settings dialog with the
// keyboard. The hour-long prompt cache: kept across a save and a load, its cache writes priced at
// 2 × input unless the user set that price, a bad stored value reported, and switched with the
// keyboard in the dialog, for Anthropic profiles only.
#include "gui/settings/settingsdialog.h"
#include "workspace/settings/secretstore.h"
#include "workspace/settings/settingsfile.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Gui::AppSettings;
using Gui::SettingsDialog;
using Gui::SettingsFile;

class tst_SettingsThinking : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void budgetSurvivesSaveAndLoad();
    void badStoredBudgetIsReported();
    void dialogSwitchesItOnAndSizesIt();
    void hourLongCacheSurvivesSaveAndLoad();
    void dialogSwitchesTheHourLongCache();

private:
    QTemporaryDir m_dir;
};

void tst_SettingsThinking::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale::c());
    QVERIFY(m_dir.isValid());
}

void tst_SettingsThinking::budgetSurvivesSaveAndLoad()
{
    const QString file = m_dir.filePath(QStringLiteral("round.conf"));
    AppSettings s;
    s.setThinkingBudget(QStringLiteral("anthropic"), 8192);
    s.setThinkingBudget(QStringLiteral("deepseek"), 8192); // not Anthropic's format: ignored
    s.setThinkingBudget(QStringLiteral("anthropic"), 10);  // below Anthropic's floor: ignored
    QCOMPARE(s.profile(QStringLiteral("anthropic")).encodeOptions.thinkingBudgetTokens, 8192);
    QCOMPARE(s.profile(QStringLiteral("deepseek")).encodeOptions.thinkingBudgetTokens, 0);
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, s);
    }
    QSettings settings(file, QSettings::IniFormat);
    const SettingsFile::LoadResult loaded = SettingsFile::load(settings);
    QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u'\n')));
    QCOMPARE(loaded.settings.profile(QStringLiteral("anthropic")).encodeOptions.thinkingBudgetTokens, 8192);

    // Off again is the default: nothing is left in the file.
    AppSettings off = loaded.settings;
    off.setThinkingBudget(QStringLiteral("anthropic"), 0);
    QVERIFY(off.providers.value(QStringLiteral("anthropic")).isEmpty());
}

void tst_SettingsThinking::badStoredBudgetIsReported()
{
    const QString file = m_dir.filePath(QStringLiteral("bad.conf"));
    {
        QSettings settings(file, QSettings::IniFormat);
        settings.setValue(QStringLiteral("providers/anthropic/thinkingBudgetTokens"), 500);
        settings.setValue(QStringLiteral("providers/openai/thinkingBudgetTokens"), 4096);
    }
    QSettings settings(file, QSettings::IniFormat);
    const SettingsFile::LoadResult loaded = SettingsFile::load(settings);
    QCOMPARE(loaded.problems.size(), 2);
    QVERIFY2(loaded.problems.join(u'\n').contains(u"thinking budget of Anthropic"),
             qPrintable(loaded.problems.join(u'\n')));
    QVERIFY(loaded.problems.join(u'\n').contains(u"OpenAI has no extended thinking"));
    QCOMPARE(loaded.settings.profile(QStringLiteral("anthropic")).encodeOptions.thinkingBudgetTokens, 0);
}

void tst_SettingsThinking::dialogSwitchesItOnAndSizesIt()
{
    Gui::MemorySecretStore secrets;
    SettingsDialog::Services services;
    services.secrets = &secrets;
    AppSettings start;
    start.providerId = QStringLiteral("openai");
    SettingsDialog dialog(start, services);
    QSignalSpy changed(&dialog, &SettingsDialog::settingsChanged);
    dialog.show();
    QApplication::setActiveWindow(&dialog);
    QVERIFY(QTest::qWaitForWindowActive(&dialog));

    auto *box = dialog.findChild<QCheckBox *>(QStringLiteral("thinkingEnabled"));
    auto *budget = dialog.findChild<QSpinBox *>(QStringLiteral("thinkingBudget"));
    QVERIFY(box && budget);
    QVERIFY(!box->isVisibleTo(&dialog)); // OpenAI's wire format has no such option

    auto *provider = dialog.findChild<QComboBox *>(QStringLiteral("provider"));
    provider->setCurrentIndex(provider->findData(QStringLiteral("anthropic")));
    QVERIFY(box->isVisibleTo(&dialog));
    QVERIFY(!box->isChecked());
    QVERIFY(!budget->isEnabled());

    // Space on the focused switch turns it on with the suggested budget.
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Space);
    QTRY_VERIFY_WITH_TIMEOUT(box->isChecked(), 2000);
    QVERIFY(budget->isEnabled());
    QVERIFY(!changed.isEmpty());
    auto last = [&changed] { return changed.constLast().constFirst().value<AppSettings>(); };
    QCOMPARE(last().profile(QStringLiteral("anthropic")).encodeOptions.thinkingBudgetTokens, 10'000);

    budget->setFocus();
    QTest::keyClick(budget, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(budget, QStringLiteral("2048"));
    QTest::keyClick(budget, Qt::Key_Tab);
    QCOMPARE(last().profile(QStringLiteral("anthropic")).encodeOptions.thinkingBudgetTokens, 2048);

    // Off again: the profile sends no thinking, and shows it off when it comes back.
    QTest::mouseClick(box, Qt::LeftButton, {}, box->rect().center());
    QCOMPARE(last().profile(QStringLiteral("anthropic")).encodeOptions.thinkingBudgetTokens, 0);
    provider->setCurrentIndex(provider->findData(QStringLiteral("openai")));
    provider->setCurrentIndex(provider->findData(QStringLiteral("anthropic")));
    QVERIFY(!box->isChecked());
}

void tst_SettingsThinking::hourLongCacheSurvivesSaveAndLoad()
{
    using namespace std::chrono_literals;
    const QString file = m_dir.filePath(QStringLiteral("hour.conf"));
    AppSettings s;
    QCOMPARE(s.profile(QStringLiteral("anthropic")).cacheLifetime(), std::chrono::seconds(5min));
    s.setLongCacheLifetime(QStringLiteral("anthropic"), true);
    s.setLongCacheLifetime(QStringLiteral("deepseek"), true); // no such choice there: ignored
    const Llm::ProviderProfile hour = s.profile(QStringLiteral("anthropic"));
    QVERIFY(hour.encodeOptions.longCacheLifetime);
    QCOMPARE(hour.cacheLifetime(), std::chrono::seconds(1h));
    QCOMPARE(hour.prices.cacheWrite, 2 * hour.prices.input);
    QVERIFY(!s.profile(QStringLiteral("deepseek")).encodeOptions.longCacheLifetime);
    QVERIFY(s.providers.value(QStringLiteral("deepseek")).isEmpty());
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, s);
    }
    {
        QSettings settings(file, QSettings::IniFormat);
        const SettingsFile::LoadResult loaded = SettingsFile::load(settings);
        QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u'\n')));
        QVERIFY(loaded.settings.profile(QStringLiteral("anthropic")).encodeOptions.longCacheLifetime);
    }
    // A write price the user set is theirs, whatever the lifetime.
    AppSettings priced = s;
    priced.setPrice(QStringLiteral("anthropic"), Gui::PriceField::CacheWrite, 4.5);
    QCOMPARE(priced.profile(QStringLiteral("anthropic")).prices.cacheWrite, 4.5);
    // Five minutes again is the default: nothing is left, and the write price is the built-in.
    AppSettings off = s;
    off.setLongCacheLifetime(QStringLiteral("anthropic"), false);
    QVERIFY(off.providers.value(QStringLiteral("anthropic")).isEmpty());
    QCOMPARE(off.profile(QStringLiteral("anthropic")).prices.cacheWrite,
             Llm::builtinProfile(u"anthropic").prices.cacheWrite);

    const QString bad = m_dir.filePath(QStringLiteral("badhour.conf"));
    {
        QSettings settings(bad, QSettings::IniFormat);
        settings.setValue(QStringLiteral("providers/anthropic/cacheForAnHour"), QStringLiteral("sometimes"));
        settings.setValue(QStringLiteral("providers/qwen/cacheForAnHour"), true);
    }
    QSettings settings(bad, QSettings::IniFormat);
    const SettingsFile::LoadResult loaded = SettingsFile::load(settings);
    QCOMPARE(loaded.problems.size(), 2);
    const QString problems = loaded.problems.join(u'\n');
    QVERIFY2(problems.contains(u"cache lifetime of Anthropic") && problems.contains(u"sometimes"),
             qPrintable(problems));
    QVERIFY2(problems.contains(u"has no choice of cache lifetime"), qPrintable(problems));
    QVERIFY(!loaded.settings.profile(QStringLiteral("anthropic")).encodeOptions.longCacheLifetime);
}

void tst_SettingsThinking::dialogSwitchesTheHourLongCache()
{
    Gui::MemorySecretStore secrets;
    SettingsDialog::Services services;
    services.secrets = &secrets;
    AppSettings start;
    start.providerId = QStringLiteral("openai");
    SettingsDialog dialog(start, services);
    QSignalSpy changed(&dialog, &SettingsDialog::settingsChanged);
    dialog.show();
    QApplication::setActiveWindow(&dialog);
    QVERIFY(QTest::qWaitForWindowActive(&dialog));

    auto *box = dialog.findChild<QCheckBox *>(QStringLiteral("longCacheLifetime"));
    QVERIFY(box);
    QVERIFY(!box->isVisibleTo(&dialog)); // OpenAI caches on its own terms: no such choice
    auto *provider = dialog.findChild<QComboBox *>(QStringLiteral("provider"));
    provider->setCurrentIndex(provider->findData(QStringLiteral("anthropic")));
    QVERIFY(box->isVisibleTo(&dialog));
    QVERIFY(!box->isChecked());

    box->setFocus();
    QTest::keyClick(box, Qt::Key_Space);
    QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), 2000);
    const Llm::ProviderProfile hour = changed.constLast().constFirst().value<AppSettings>().profile(
        QStringLiteral("anthropic"));
    QVERIFY(hour.encodeOptions.longCacheLifetime);
    QCOMPARE(hour.prices.cacheWrite, 2 * hour.prices.input);

    // It stays with the profile when another one was shown in between.
    provider->setCurrentIndex(provider->findData(QStringLiteral("openai")));
    provider->setCurrentIndex(provider->findData(QStringLiteral("anthropic")));
    QVERIFY(box->isChecked());
    QTest::keyClick(box, Qt::Key_Space);
    QVERIFY(!changed.constLast()
                 .constFirst()
                 .value<AppSettings>()
                 .profile(QStringLiteral("anthropic"))
                 .encodeOptions.longCacheLifetime);
}

QTEST_MAIN(tst_SettingsThinking)
#include "tst_settingsthinking.moc"
