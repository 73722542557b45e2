// Anthropic extended thinking as a per-profile setting: kept across a save and a load, a bad
// stored value reported and dropped, and switched on and sized in the settings dialog with the
// keyboard.
#include "ui/secretstore.h"
#include "ui/settingsdialog.h"

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

class tst_SettingsThinking : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void budgetSurvivesSaveAndLoad();
    void badStoredBudgetIsReported();
    void dialogSwitchesItOnAndSizesIt();

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
    s.setThinkingBudget(QStringLiteral("anthropic"), 10); // below Anthropic's floor: ignored
    QCOMPARE(s.profile(QStringLiteral("anthropic")).encodeOptions.thinkingBudgetTokens, 8192);
    QCOMPARE(s.profile(QStringLiteral("deepseek")).encodeOptions.thinkingBudgetTokens, 0);
    {
        QSettings settings(file, QSettings::IniFormat);
        s.save(settings);
    }
    QSettings settings(file, QSettings::IniFormat);
    const AppSettings::LoadResult loaded = AppSettings::load(settings);
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
    const AppSettings::LoadResult loaded = AppSettings::load(settings);
    QCOMPARE(loaded.problems.size(), 2);
    QVERIFY2(loaded.problems.join(u'\n').contains(u"thinking budget of Anthropic"), qPrintable(loaded.problems.join(u'\n')));
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

QTEST_MAIN(tst_SettingsThinking)
#include "tst_settingsthinking.moc"
