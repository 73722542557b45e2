#include "workspace/settings/userendpoints.h"

#include "workspace/settings/settingsfile.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSettings>
#include <QVariant>

#include <algorithm>

namespace Gui {

namespace {

// Settings file layout: endpoints/<id>/name and endpoints/<id>/format. Everything else about an
// endpoint lives under providers/<id>/, as for a built-in provider.
const QString Group = QStringLiteral("endpoints");
const QString NameKey = QStringLiteral("name");
const QString FormatKey = QStringLiteral("format");
// The version from which a file lists its endpoints: before it, "custom" was a built-in.
constexpr int FirstVersionWithEndpoints = 2;

constexpr std::pair<Llm::ApiFormat, const char *> FormatKeys[] = {{Llm::ApiFormat::OpenAiChat, "openai"},
                                                                  {Llm::ApiFormat::AnthropicMessages, "anthropic"}};

QString formatKey(Llm::ApiFormat format)
{
    for (const auto &[f, key] : FormatKeys) {
        if (f == format)
            return QLatin1String(key);
    }
    return QStringLiteral("openai");
}

std::optional<Llm::ApiFormat> formatNamed(const QString &key)
{
    for (const auto &[f, k] : FormatKeys) {
        if (key == QLatin1String(k))
            return f;
    }
    return std::nullopt;
}

// What a keychain entry name, a settings group and a command-line argument all carry safely.
bool isEndpointId(const QString &id)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    return pattern.match(id).hasMatch();
}

QString shown(const QVariant &value)
{
    QString text = value.toString();
    if (text.size() > 40)
        text = text.left(40) + QChar(0x2026);
    return text;
}

} // namespace

QList<Llm::ProviderProfile> builtinProviders()
{
    QList<Llm::ProviderProfile> out = Llm::builtinProfiles();
    out.removeIf([](const Llm::ProviderProfile &p) { return p.id == UserEndpoints::FirstId; });
    return out;
}

bool isBuiltinProvider(const QString &id)
{
    return id != UserEndpoints::FirstId && !Llm::builtinProfile(id).id.isEmpty();
}

Llm::ProviderProfile UserEndpoint::profile() const
{
    // Llm's "custom" is the profile of a server nothing is known about; headstart-cli uses it too.
    Llm::ProviderProfile p = Llm::builtinProfile(UserEndpoints::FirstId);
    p.id = id;
    p.displayName = name;
    p.format = format;
    return p;
}

QString UserEndpoints::firstName()
{
    return QCoreApplication::translate("Llm::ProviderProfile", "Custom (OpenAI-compatible)");
}

UserEndpoints::UserEndpoints()
    : m_list{{FirstId, firstName(), Llm::ApiFormat::OpenAiChat}}
{
}

UserEndpoints UserEndpoints::none()
{
    UserEndpoints e;
    e.m_list.clear();
    return e;
}

const UserEndpoint *UserEndpoints::find(const QString &id) const
{
    const auto it = std::find_if(m_list.begin(), m_list.end(), [&id](const UserEndpoint &e) { return e.id == id; });
    return it == m_list.end() ? nullptr : &*it;
}

std::expected<QString, QString> UserEndpoints::checkName(const QString &name, const QString &renaming) const
{
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return std::unexpected(tr("The name is empty."));
    if (trimmed.size() > MaxNameLength)
        return std::unexpected(tr("A name has at most %1 characters.").arg(MaxNameLength));
    if (std::any_of(trimmed.begin(), trimmed.end(), [](QChar c) { return c.category() == QChar::Other_Control; }))
        return std::unexpected(tr("A name cannot contain line breaks or other control characters."));
    // One name, one provider: in the list, in messages and for --provider.
    auto same = [&trimmed](const QString &other) { return other.compare(trimmed, Qt::CaseInsensitive) == 0; };
    for (const Llm::ProviderProfile &builtin : builtinProviders()) {
        if (same(builtin.displayName))
            return std::unexpected(tr("A built-in provider is called \"%1\".").arg(builtin.displayName));
    }
    for (const UserEndpoint &e : m_list) {
        if (e.id != renaming && same(e.name))
            return std::unexpected(tr("Another endpoint is called \"%1\".").arg(e.name));
    }
    return trimmed;
}

std::expected<QString, QString> UserEndpoints::add(const QString &name, Llm::ApiFormat format)
{
    const auto checked = checkName(name);
    if (!checked)
        return std::unexpected(checked.error());
    // Random rather than counted: an id is never given again after its endpoint was removed, so
    // nothing left under it (a key the keychain could not delete) reaches a new endpoint.
    static constexpr char Alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789"; // no l/1, o/0
    QString id;
    do {
        id = QStringLiteral("custom-");
        for (int i = 0; i < 6; ++i)
            id += QLatin1Char(Alphabet[QRandomGenerator::global()->bounded(int(sizeof Alphabet - 1))]);
    } while (contains(id));
    m_list.append({id, *checked, format});
    sort();
    return id;
}

std::expected<void, QString> UserEndpoints::rename(const QString &id, const QString &name)
{
    const auto it = std::find_if(m_list.begin(), m_list.end(), [&id](const UserEndpoint &e) { return e.id == id; });
    if (it == m_list.end())
        return std::unexpected(tr("There is no endpoint \"%1\".").arg(id));
    const auto checked = checkName(name, id);
    if (!checked)
        return std::unexpected(checked.error());
    it->name = *checked;
    sort();
    return {};
}

bool UserEndpoints::remove(const QString &id)
{
    return m_list.removeIf([&id](const UserEndpoint &e) { return e.id == id; }) > 0;
}

void UserEndpoints::sort()
{
    std::stable_sort(m_list.begin(), m_list.end(), [](const UserEndpoint &a, const UserEndpoint &b) {
        return a.name.localeAwareCompare(b.name) < 0;
    });
}

QList<QPair<Llm::ApiFormat, QString>> UserEndpoints::formats()
{
    return {{Llm::ApiFormat::OpenAiChat, formatName(Llm::ApiFormat::OpenAiChat)},
            {Llm::ApiFormat::AnthropicMessages, formatName(Llm::ApiFormat::AnthropicMessages)}};
}

QString UserEndpoints::formatName(Llm::ApiFormat format)
{
    switch (format) {
    case Llm::ApiFormat::OpenAiChat: return tr("OpenAI-compatible (chat completions)");
    case Llm::ApiFormat::AnthropicMessages: return tr("Anthropic-compatible (messages)");
    }
    return {};
}

UserEndpoints::LoadResult UserEndpoints::load(QSettings &settings, int fileVersion)
{
    LoadResult result;
    settings.beginGroup(Group);
    const QStringList ids = settings.childGroups();
    settings.endGroup();
    // A file from before endpoints has none listed, and "custom" was always there.
    if (ids.isEmpty() && fileVersion < FirstVersionWithEndpoints)
        return result;

    UserEndpoints &out = result.endpoints;
    out.m_list.clear();
    // Dropping an entry loses what the file said about it, so the file is copied first, once.
    QString copy;
    bool copied = false;
    auto drop = [&](const QString &id, const QString &sentence) {
        if (!copied) {
            copy = SettingsFile::keepDamagedCopy(QFileInfo(settings.fileName()).filePath());
            copied = true;
        }
        result.problems << (copy.isEmpty() ? sentence : tr("%1 The file as it was is kept as %2.").arg(sentence, copy));
        result.droppedIds << id;
    };
    // Entries whose name was bad or taken get a free one once every good name is known; the
    // problem keeps its place in file order.
    struct Unnamed {
        UserEndpoint endpoint;
        QString why;
        qsizetype problem;
    };
    QList<Unnamed> unnamed;
    for (const QString &id : ids) {
        if (!isEndpointId(id)) {
            drop(id, tr("The settings file has an endpoint with the id \"%1\", which is not made of letters, digits, "
                        "'.', '_' and '-'; it was ignored.")
                         .arg(shown(id)));
            continue;
        }
        if (isBuiltinProvider(id)) {
            drop(id, tr("The settings file has an endpoint with the id \"%1\", which is a built-in provider's; it was "
                        "ignored.")
                         .arg(id));
            continue;
        }
        settings.beginGroup(Group + QLatin1Char('/') + id);
        const QVariant rawFormat = settings.value(FormatKey);
        const bool hasName = settings.contains(NameKey);
        const QVariant rawName = settings.value(NameKey);
        settings.endGroup();

        UserEndpoint e{id, {}, Llm::ApiFormat::OpenAiChat};
        const auto format = rawFormat.typeId() == QMetaType::QString ? formatNamed(rawFormat.toString().trimmed())
                                                                     : std::nullopt;
        if (format) {
            e.format = *format;
        } else {
            result.problems
                << tr("The format of the endpoint \"%1\" in the settings file (%2) is neither \"openai\" nor "
                      "\"anthropic\"; it is sent OpenAI-compatible requests. If it speaks Anthropic's "
                      "format, remove it and add it again.")
                       .arg(id, rawFormat.isValid() ? shown(rawFormat) : tr("none"));
        }

        if (!hasName && id == FirstId) {
            e.name = firstName(); // not written while it is the default: it follows the language
            out.m_list.append(e);
            continue;
        }
        const auto name = out.checkName(rawName.typeId() == QMetaType::QString ? rawName.toString() : QString());
        if (name) {
            e.name = *name;
            out.m_list.append(e);
            continue;
        }
        e.name = hasName ? shown(rawName) : QString();
        unnamed.append({e, name.error(), result.problems.size()});
        result.problems << QString(); // written below, when the new name is known
    }

    for (Unnamed &u : unnamed) {
        UserEndpoint &e = u.endpoint;
        const QString base = e.id == FirstId ? firstName() : tr("Endpoint %1").arg(e.id);
        QString name = base;
        for (int n = 2; !out.checkName(name); ++n)
            name = QStringLiteral("%1 (%2)").arg(base).arg(n);
        result.problems[u.problem] = tr("The name of the endpoint \"%1\" in the settings file (%2) cannot be used: %3 "
                                        "It is called \"%4\" now.")
                                         .arg(e.id, e.name.isEmpty() ? tr("none") : e.name, u.why, name);
        e.name = name;
        out.m_list.append(e);
    }
    out.sort();
    return result;
}

void UserEndpoints::save(QSettings &settings) const
{
    settings.remove(Group);
    for (const UserEndpoint &e : m_list) {
        settings.beginGroup(Group + QLatin1Char('/') + e.id);
        // Written for every endpoint, so that its group exists even when the name is not.
        settings.setValue(FormatKey, formatKey(e.format));
        if (e.id == FirstId && e.name == firstName())
            settings.remove(NameKey);
        else
            settings.setValue(NameKey, e.name);
        settings.endGroup();
    }
}

} // namespace Gui
