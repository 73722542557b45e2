#include "workspace/settings/assistantsettings.h"

#include <QCoreApplication>
#include <QSet>
#include <QSettings>

#include <cmath>

namespace Gui {

namespace {

const QString BuiltinGroup = QStringLiteral("assistants/builtin");
const QString CustomArray = QStringLiteral("assistants/custom");
const QString LastAssistantKey = QStringLiteral("chat/lastAssistant");
const QString NameKey = QStringLiteral("name");
const QString PromptKey = QStringLiteral("systemPrompt");
const QString TemperatureKey = QStringLiteral("temperature");
const QString MaxTokensKey = QStringLiteral("maxTokens");
const QString IdKey = QStringLiteral("id");
const QString OffValue = QStringLiteral("off");
const QString DefaultValue = QStringLiteral("default");

// INI values come back as strings; one with an unquoted comma (typed by hand) as a list of them.
std::optional<QString> textOf(const QVariant &value)
{
    if (value.typeId() == QMetaType::QString)
        return value.toString();
    if (value.typeId() == QMetaType::QStringList)
        return value.toStringList().join(QStringLiteral(", "));
    return std::nullopt;
}

std::optional<double> numberOf(const QVariant &value)
{
    const auto text = textOf(value);
    bool ok = false;
    const double number = text ? text->trimmed().toDouble(&ok) : value.toDouble(&ok); // C locale
    return ok && std::isfinite(number) ? std::optional<double>(number) : std::nullopt;
}

// The fields of one assistant in the current group, each validated on its own. `label` names
// the assistant in messages.
class FieldReader
{
public:
    FieldReader(QSettings &settings, QStringList &problems, const QString &label)
        : m_settings(settings)
        , m_problems(problems)
        , m_label(label)
    {
    }

    // Present and valid; a problem for a present, invalid one.
    std::optional<QString> name()
    {
        if (!m_settings.contains(NameKey))
            return std::nullopt;
        const auto text = textOf(m_settings.value(NameKey));
        const QString name = text ? text->trimmed() : QString();
        if (name.isEmpty() || name.size() > AssistantSettings::MaxNameLength) {
            m_problems << QCoreApplication::translate(
                              "Gui::AppSettings",
                              "The name of the assistant %1 in the settings file was empty or longer than "
                              "%2 characters; using its default name.")
                              .arg(m_label)
                              .arg(AssistantSettings::MaxNameLength);
            return std::nullopt;
        }
        return name;
    }

    std::optional<QString> systemPrompt()
    {
        if (!m_settings.contains(PromptKey))
            return std::nullopt;
        const auto text = textOf(m_settings.value(PromptKey));
        if (!text || text->size() > AssistantSettings::MaxPromptLength) {
            m_problems << QCoreApplication::translate(
                              "Gui::AppSettings",
                              "The instructions of the assistant %1 in the settings file were not text or "
                              "longer than %2 characters; using its default instructions.")
                              .arg(m_label)
                              .arg(AssistantSettings::MaxPromptLength);
            return std::nullopt;
        }
        return *text;
    }

    // Outer nullopt: absent or invalid; inner nullopt: "off".
    std::optional<std::optional<double>> temperature()
    {
        if (!m_settings.contains(TemperatureKey))
            return std::nullopt;
        const QVariant raw = m_settings.value(TemperatureKey);
        if (textOf(raw).value_or(QString()).trimmed() == OffValue)
            return std::optional<double>();
        const auto t = numberOf(raw);
        if (!t || *t < AssistantSettings::MinTemperature || *t > AssistantSettings::MaxTemperature) {
            m_problems << QCoreApplication::translate(
                              "Gui::AppSettings",
                              "The temperature of the assistant %1 in the settings file (%2) was not a number "
                              "from 0 to 2; using its default temperature.")
                              .arg(m_label, textOf(raw).value_or(QString()).left(40));
            return std::nullopt;
        }
        return std::optional<double>(*t);
    }

    std::optional<std::optional<int>> maxTokens()
    {
        if (!m_settings.contains(MaxTokensKey))
            return std::nullopt;
        const QVariant raw = m_settings.value(MaxTokensKey);
        if (textOf(raw).value_or(QString()).trimmed() == DefaultValue)
            return std::optional<std::optional<int>>(std::in_place, std::nullopt);
        const auto n = numberOf(raw);
        if (!n || std::trunc(*n) != *n || *n < AssistantSettings::MinMaxTokens
            || *n > AssistantSettings::MaxMaxTokens) {
            m_problems << QCoreApplication::translate(
                              "Gui::AppSettings",
                              "The answer length of the assistant %1 in the settings file (%2) was not a whole "
                              "number from %3 to %4; using its default length.")
                              .arg(m_label, textOf(raw).value_or(QString()).left(40))
                              .arg(AssistantSettings::MinMaxTokens)
                              .arg(AssistantSettings::MaxMaxTokens);
            return std::nullopt;
        }
        return std::optional<int>(int(*n));
    }

private:
    QSettings &m_settings;
    QStringList &m_problems;
    QString m_label;
};

void loadOverrides(QSettings &settings, QStringList &problems, AssistantSettings &out)
{
    settings.beginGroup(BuiltinGroup);
    const QStringList ids = settings.childGroups();
    for (const QString &id : ids) {
        if (!AssistantSettings::isBuiltinId(id)) {
            problems << QCoreApplication::translate(
                            "Gui::AppSettings",
                            "The settings file changes a built-in assistant “%1” that does not exist; the "
                            "change was dropped.")
                            .arg(id.left(40));
            continue;
        }
        settings.beginGroup(id);
        FieldReader read(settings, problems, QStringLiteral("“%1”").arg(id));
        AssistantOverride o;
        o.name = read.name();
        o.systemPrompt = read.systemPrompt();
        o.temperature = read.temperature();
        o.maxTokens = read.maxTokens();
        settings.endGroup();
        if (!o.isEmpty())
            out.overrides.insert(id, o);
    }
    settings.endGroup();
}

void loadCustom(QSettings &settings, QStringList &problems, AssistantSettings &out)
{
    const int size = settings.beginReadArray(CustomArray);
    QSet<QString> seen;
    int dropped = 0;
    for (int i = 0; i < size; ++i) {
        settings.setArrayIndex(i);
        const QString id = textOf(settings.value(IdKey)).value_or(QString()).trimmed();
        if (!settings.contains(IdKey) && settings.childKeys().isEmpty())
            continue; // a gap in a hand-edited array: nothing to drop
        if (!AssistantSettings::isCustomId(id) || seen.contains(id)
            || out.custom.size() >= AssistantSettings::MaxCustom) {
            ++dropped;
            continue;
        }
        seen.insert(id);
        FieldReader read(settings, problems, QString::number(i + 1));
        Assistant a;
        a.id = id;
        a.name = read.name().value_or(QCoreApplication::translate("Gui::AssistantSettings", "Assistant %1").arg(i + 1));
        a.systemPrompt = read.systemPrompt().value_or(QString());
        a.temperature = read.temperature().value_or(std::nullopt);
        a.maxTokens = read.maxTokens().value_or(std::nullopt);
        out.custom.append(a);
    }
    settings.endArray();
    if (dropped > 0)
        problems << QCoreApplication::translate(
                        "Gui::AppSettings",
                        "Assistants in the settings file without a valid id, repeated, or beyond the "
                        "first %1 were dropped (%2); the others are kept.")
                        .arg(AssistantSettings::MaxCustom)
                        .arg(dropped);
}

void writeTemperature(QSettings &settings, const std::optional<double> &temperature)
{
    settings.setValue(TemperatureKey, temperature ? QVariant(*temperature) : QVariant(OffValue));
}

void writeMaxTokens(QSettings &settings, const std::optional<int> &maxTokens)
{
    settings.setValue(MaxTokensKey, maxTokens ? QVariant(*maxTokens) : QVariant(DefaultValue));
}

} // namespace

AssistantSettings loadAssistantSettings(QSettings &settings, QStringList &problems)
{
    AssistantSettings out;
    loadOverrides(settings, problems, out);
    loadCustom(settings, problems, out);
    return out;
}

void saveAssistantSettings(QSettings &settings, const AssistantSettings &assistants)
{
    // The whole group is this function's: written afresh, so a removed assistant leaves nothing.
    settings.remove(BuiltinGroup);
    settings.remove(CustomArray);
    for (auto it = assistants.overrides.cbegin(); it != assistants.overrides.cend(); ++it) {
        if (it->isEmpty())
            continue;
        settings.beginGroup(BuiltinGroup + u'/' + it.key());
        if (it->name)
            settings.setValue(NameKey, *it->name);
        if (it->systemPrompt)
            settings.setValue(PromptKey, *it->systemPrompt);
        if (it->temperature)
            writeTemperature(settings, *it->temperature);
        if (it->maxTokens)
            writeMaxTokens(settings, *it->maxTokens);
        settings.endGroup();
    }
    if (assistants.custom.isEmpty())
        return;
    settings.beginWriteArray(CustomArray, int(assistants.custom.size()));
    for (int i = 0; i < assistants.custom.size(); ++i) {
        const Assistant &a = assistants.custom.at(i);
        settings.setArrayIndex(i);
        settings.setValue(IdKey, a.id);
        settings.setValue(NameKey, a.name);
        settings.setValue(PromptKey, a.systemPrompt);
        // An unset temperature or length is simply absent: a user's assistant has no shipped
        // value to differ from.
        if (a.temperature)
            writeTemperature(settings, a.temperature);
        if (a.maxTokens)
            writeMaxTokens(settings, a.maxTokens);
    }
    settings.endArray();
}

QString lastAssistant(QSettings &settings)
{
    const QString id = textOf(settings.value(LastAssistantKey)).value_or(QString()).trimmed();
    // Checked against the list where it is used: here only that it is an id at all.
    return AssistantSettings::isBuiltinId(id) || AssistantSettings::isCustomId(id) ? id : AssistantSettings::GeneralId;
}

void setLastAssistant(QSettings &settings, const QString &id)
{
    // Called with every message sent: the settings file is written again only when what it
    // holds changes (General is no entry; a damaged entry is replaced, not read as General).
    if (id == AssistantSettings::GeneralId ? !settings.contains(LastAssistantKey)
                                           : settings.value(LastAssistantKey) == QVariant(id))
        return;
    if (id == AssistantSettings::GeneralId)
        settings.remove(LastAssistantKey);
    else
        settings.setValue(LastAssistantKey, id);
}

AssistantMemory AssistantMemory::inSettings()
{
    return {[] {
                QSettings settings;
                return lastAssistant(settings);
            },
            [](const QString &id) {
                QSettings settings;
                setLastAssistant(settings, id);
            }};
}

AssistantMemory AssistantMemory::inMemory()
{
    auto id = std::make_shared<QString>(AssistantSettings::GeneralId);
    return {[id] { return *id; }, [id](const QString &chosen) { *id = chosen; }};
}

} // namespace Gui
