// The settings dialog's prices and money budget, driven as a user drives them: a provider's
// prices are typed on its page in its currency, start as the built-in ones, stay with the
// provider they were typed for and go back with one button; the hourly budget can be set in
// money beside tokens. Every edit is announced at once with the whole new settings.
#include "support/settingsdialogsuite.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using Gui::AppSettings;
using Gui::SettingsDialog;

class tst_SettingsPrices : public QObject, private TestSupport::SettingsDialogSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    void pricesAreTypedOnTheProvidersPage();
    void pricesBelongToTheProviderShown();
    void moneyBudgetIsInTheProvidersCurrency();
};

void tst_SettingsPrices::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_SettingsPrices::cleanup()
{
    closeDialog();
}

void tst_SettingsPrices::pricesAreTypedOnTheProvidersPage()
{
    AppSettings s;
    s.providerId = QStringLiteral("anthropic");
    makeDialog(s);
    m_dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_dialog.get()));
    const Llm::Prices builtin = Llm::builtinProfile(u"anthropic").prices;
    auto *input = find<QDoubleSpinBox>("price/input");
    auto *write = find<QDoubleSpinBox>("price/cacheWrite");
    auto *read = find<QDoubleSpinBox>("price/cacheRead");
    auto *output = find<QDoubleSpinBox>("price/output");
    auto *reset = find<QPushButton>("resetPrices");
    QVERIFY(input && write && read && output && reset);
    // The built-in prices, in US dollars per million tokens.
    QCOMPARE(input->text(), QStringLiteral("$2.00 / M tokens")); // Claude Sonnet 5.5
    QCOMPARE(write->value(), builtin.cacheWrite);
    QCOMPARE(read->text(), QStringLiteral("$0.10 / M tokens"));
    QCOMPARE(output->value(), builtin.output);
    QVERIFY(output->toolTip().contains(QLatin1String("Built-in: $10.00 per million tokens")));
    QVERIFY(!reset->isEnabled()); // nothing to go back to
    QVERIFY(find<QLabel>("pricesNote")->text().contains(QLatin1String("Anthropic")));

    // Typed, as a user does: the whole settings go out with the new figure, in place at once.
    write->setFocus();
    write->selectAll();
    QTest::keyClicks(write, QStringLiteral("4.5"));
    QCOMPARE(lastEmitted().profile(QStringLiteral("anthropic")).prices.cacheWrite, 4.5);
    QTest::keyClick(write, Qt::Key_Return); // what was typed stays until the field is done with
    QCOMPARE(write->text(), QStringLiteral("$4.50 / M tokens"));
    QVERIFY(reset->isEnabled());
    // Fractions of a cent, as DeepSeek publishes them, survive.
    read->selectAll();
    QTest::keyClicks(read, QStringLiteral("0.003625"));
    QTest::keyClick(read, Qt::Key_Return);
    QCOMPARE(lastEmitted().profile(QStringLiteral("anthropic")).prices.cacheRead, 0.003625);
    QCOMPARE(read->text(), QStringLiteral("$0.003625 / M tokens"));
    // The arrow keys step by a cent.
    output->setFocus();
    QTest::keyClick(output, Qt::Key_Up);
    QCOMPARE(lastEmitted().profile(QStringLiteral("anthropic")).prices.output, builtin.output + 0.01);
    // Nothing below zero: the minus sign is refused.
    input->selectAll();
    QTest::keyClicks(input, QStringLiteral("-2"));
    QTest::keyClick(input, Qt::Key_Return);
    QVERIFY(!input->text().contains(QLatin1Char('-')));
    QVERIFY(m_dialog->settings().profile(QStringLiteral("anthropic")).prices.input >= 0);

    // Back to the built-in prices: nothing about Anthropic is left in the settings.
    QTest::mouseClick(reset, Qt::LeftButton);
    QCOMPARE(lastEmitted().profile(QStringLiteral("anthropic")).prices, builtin);
    QVERIFY(lastEmitted().providers.isEmpty());
    QCOMPARE(write->text(), QStringLiteral("$2.50 / M tokens"));
    QVERIFY(!reset->isEnabled());
}

void tst_SettingsPrices::pricesBelongToTheProviderShown()
{
    AppSettings s;
    s.providerId = QStringLiteral("openai");
    makeDialog(s);
    m_dialog->show();
    auto *output = find<QDoubleSpinBox>("price/output");
    output->selectAll();
    QTest::keyClicks(output, QStringLiteral("1.6")); // a user on gpt-4.1-mini
    QCOMPARE(lastEmitted().profile(QStringLiteral("openai")).prices.output, 1.6);

    auto *provider = find<QComboBox>("provider");
    provider->setCurrentIndex(provider->findData(QStringLiteral("deepseek")));
    QCOMPARE(output->value(), Llm::builtinProfile(u"deepseek").prices.output);
    QCOMPARE(lastEmitted().profile(QStringLiteral("deepseek")).prices, Llm::builtinProfile(u"deepseek").prices);
    // A server on this machine is free by default, and says so.
    provider->setCurrentIndex(provider->findData(QStringLiteral("llamacpp")));
    QCOMPARE(output->text(), QStringLiteral("$0.00 / M tokens"));
    QVERIFY(find<QLabel>("pricesNote")->text().contains(QLatin1String("bills nothing")));
    // The local demo engine is priced like DeepSeek, and its prices can be changed too.
    provider->setCurrentIndex(provider->findData(QStringLiteral("local")));
    QVERIFY(output->isEnabled());
    QCOMPARE(output->value(), Llm::builtinProfile(u"deepseek").prices.output);
    QVERIFY(find<QLabel>("pricesNote")->text().contains(QLatin1String("DeepSeek")));

    provider->setCurrentIndex(provider->findData(QStringLiteral("openai")));
    QCOMPARE(output->value(), 1.6); // kept for the provider it was typed for
    QCOMPARE(m_dialog->settings().profile(QStringLiteral("openai")).prices.output, 1.6);
}

void tst_SettingsPrices::moneyBudgetIsInTheProvidersCurrency()
{
    makeDialog({});
    m_dialog->show();
    auto *money = find<QDoubleSpinBox>("prefetch/hourlyMoneyBudget");
    QVERIFY(money);
    QLabel *label = nullptr;
    for (QLabel *l : m_dialog->findChildren<QLabel *>()) {
        if (l->buddy() == money)
            label = l;
    }
    QVERIFY(label);
    QCOMPARE(label->text(), QStringLiteral("Hourly mone&y budget:"));
    QVERIFY(money->toolTip().contains(QLatin1String("0 means unlimited")));
    QCOMPARE(money->text(), QStringLiteral("$1.00")); // the default
    money->selectAll();
    QTest::keyClicks(money, QStringLiteral("1.5"));
    QCOMPARE(lastEmitted().prefetch.hourlyMoneyBudget, 1.5);
    QTest::keyClick(money, Qt::Key_Return);
    QCOMPARE(money->text(), QStringLiteral("$1.50"));
    QCOMPARE(lastEmitted().prefetch.hourlyTokenBudget, Prefetch::Settings().hourlyTokenBudget); // apart
    QTest::keyClick(money, Qt::Key_Down);
    QCOMPARE(lastEmitted().prefetch.hourlyMoneyBudget, 1.4);
    money->setValue(0);
    QCOMPARE(money->text(), QStringLiteral("Unlimited"));
    QCOMPARE(lastEmitted().prefetch.hourlyMoneyBudget, 0.0);
}

QTEST_MAIN(tst_SettingsPrices)
#include "tst_settingsprices.moc"
