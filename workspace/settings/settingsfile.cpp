#include "workspace/settings/settingsfile.h"

#include "workspace/settings/assistantsettings.h"
#include "workspace/settings/librarysettings.h"
#include "workspace/settings/networksettings.h"
#include "workspace/settings/prefetchparameters.h"
#include "workspace/settings/settingsvalues.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMetaType>
#include <QSettings>
#include <QVariant>

#include <algorithm>
#include <optional>
#include <utility>

namespace Gui {

using namespace SettingsValues;

namespace {

// Settings file layout. Keys of AppSettings only; the app may keep others in the same file.
// The parts of the value name their own (ProviderOverrides, PrefetchParameters, UserEndpoints…).
const QString VersionKey = QStringLiteral("version");
const QString ProviderIdKey = QStringLiteral("provider/id");
const QString LanguageKey = QStringLiteral("ui/language");
const QString TranslateKey = QStringLiteral("translate/targetLanguage");
const QString FirstRunKey = QStringLiteral("general/firstRun");
const QString LogDetailKey = QStringLiteral("log/detail");
const QString ColorSchemeKey = QStringLiteral("appearance/colorScheme");
const QString TextSizeKey = QStringLiteral("appearance/textSizePercent");
const QString RecentFilesKey = QStringLiteral("recentFiles");
const QString SessionFilesKey = QStringLiteral("sessionFiles");
constexpr int FileVersion = 2; // 2: user endpoints are listed (UserEndpoints)
constexpr qsizetype MaxTranslateTargetLength = 100;

// How a LogDetail is spelt in the settings file.
constexpr std::pair<LogDetail, const char *> LogDetailNames[] = {{LogDetail::WarningsOnly, "warnings"},
                                                                 {LogDetail::Normal, "normal"},
                                                                 {LogDetail::Detailed, "detailed"}};

const char *logDetailName(LogDetail detail)
{
    for (const auto &[d, name] : LogDetailNames) {
        if (d == detail)
            return name;
    }
    return "normal";
}

std::optional<LogDetail> logDetailNamed(const QString &name)
{
    for (const auto &[d, n] : LogDetailNames) {
        if (name == QLatin1String(n))
            return d;
    }
    return std::nullopt;
}

// How a ColorScheme is spelt in the settings file ("system" is the default and not written).
constexpr std::pair<ColorScheme, const char *> ColorSchemeNames[] = {{ColorScheme::System, "system"},
                                                                     {ColorScheme::Light, "light"},
                                                                     {ColorScheme::Dark, "dark"}};

// Reads every value into a default AppSettings, with one problem per value it could not take.
class Reader
{
    Q_DECLARE_TR_FUNCTIONS(Gui::AppSettings)

public:
    explicit Reader(QSettings &settings)
        : m_settings(settings)
    {
    }

    void read(AppSettings &out)
    {
        PrefetchParameters::load(m_settings, out.prefetch, problems);
        // Before the providers: their groups and provider/id may name an endpoint.
        const QVariant version = m_settings.value(VersionKey);
        UserEndpoints::LoadResult endpoints = UserEndpoints::load(m_settings, version.isValid() ? version.toInt() : 0);
        out.endpoints = endpoints.endpoints;
        problems << endpoints.problems;
        readProviderId(out);
        out.providers.load(
            m_settings, [&out](const QString &id) { return out.baseProfile(id); }, endpoints.droppedIds, problems);
        readGeneral(out);
        out.proxy = loadProxySettings(m_settings, problems);
        out.libraryFolders = loadLibraryFolders(m_settings, problems);
        out.learned = LearnedRefusals::load(m_settings, problems);
        out.assistants = loadAssistantSettings(m_settings, problems);
    }

    QStringList problems;

private:
    void readProviderId(AppSettings &out)
    {
        if (!m_settings.contains(ProviderIdKey))
            return;
        const QVariant raw = m_settings.value(ProviderIdKey);
        const QString id = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
        if (out.knowsProvider(id)) {
            out.providerId = id;
        } else {
            problems << tr("The provider \"%1\" in the settings file is unknown; using %2.")
                            .arg(quoted(raw), out.profile(out.providerId).displayName);
        }
    }

    void readGeneral(AppSettings &out)
    {
        if (m_settings.contains(LanguageKey)) {
            const QVariant raw = m_settings.value(LanguageKey);
            const QString code = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QStringLiteral("?");
            bool known = false;
            for (const auto &[c, name] : AppSettings::uiLanguages())
                known = known || c == code;
            if (known)
                out.uiLanguage = code;
            else
                problems << tr("The user interface language \"%1\" in the settings file is not available; using the "
                               "system's language.")
                                .arg(quoted(raw));
        }
        if (m_settings.contains(TranslateKey)) {
            const QVariant raw = m_settings.value(TranslateKey);
            const QString target = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            if (!target.isEmpty() && target.size() <= MaxTranslateTargetLength)
                out.translateTarget = target;
            else
                problems << tr("The target language of Translate in the settings file (%1) is not a language name; "
                               "Translate writes the other of English and Chinese.")
                                .arg(quoted(raw));
        }
        if (m_settings.contains(TextSizeKey)) {
            const QVariant raw = m_settings.value(TextSizeKey);
            bool ok = false;
            const int percent = raw.toString().trimmed().toInt(&ok);
            if (ok && percent >= AppSettings::MinTextSizePercent && percent <= AppSettings::MaxTextSizePercent)
                out.textSizePercent = percent;
            else
                problems << tr("The text size in the settings file (%1) is not a percentage from %2 to %3; using the "
                               "desktop's size.")
                                .arg(quoted(raw))
                                .arg(AppSettings::MinTextSizePercent)
                                .arg(AppSettings::MaxTextSizePercent);
        }
        if (m_settings.contains(ColorSchemeKey)) {
            const QVariant raw = m_settings.value(ColorSchemeKey);
            const QString name = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            const auto *found = std::find_if(std::begin(ColorSchemeNames), std::end(ColorSchemeNames),
                                             [&name](const auto &entry) {
                                                 return name == QLatin1String(entry.second);
                                             });
            if (found != std::end(ColorSchemeNames))
                out.colorScheme = found->first;
            else
                problems << tr("The colour scheme in the settings file (%1) is not one of \"system\", \"light\" or "
                               "\"dark\"; following the desktop.")
                                .arg(quoted(raw));
        }
        if (m_settings.contains(LogDetailKey)) {
            const QVariant raw = m_settings.value(LogDetailKey);
            const QString name = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            if (const auto detail = logDetailNamed(name))
                out.logDetail = *detail;
            else
                problems << tr("The log detail in the settings file (%1) is not one of \"warnings\", \"normal\" or "
                               "\"detailed\"; using \"normal\".")
                                .arg(quoted(raw));
        }
        // QSettings writes a section named "general" as [%General] and reads that back as
        // "General/...": on a file read again from disk the key has the other case.
        for (const QString &key : {FirstRunKey, QStringLiteral("General/firstRun")}) {
            if (!m_settings.contains(key))
                continue;
            // A bad flag is not worth a message: the worst outcome is the welcome shown again.
            if (const auto firstRun = parseBool(m_settings.value(key)))
                out.firstRun = *firstRun;
            break;
        }
    }

    QSettings &m_settings;
};

} // namespace

SettingsFile::LoadResult SettingsFile::load(QSettings &settings)
{
    LoadResult result;
    // Sections are parsed lazily, and a line QSettings cannot read only sets FormatError once
    // its section is parsed: reading every key first makes status() tell the whole truth.
    const QStringList keys = settings.allKeys();
    const QString path = QFileInfo(settings.fileName()).filePath();
    if (settings.status() == QSettings::AccessError) {
        result.problems
            << tr("The settings file %1 could not be opened; Headstart uses the default settings.").arg(path);
        return result;
    }
    // Read from the file itself as well as asked of QSettings: a second QSettings on a file
    // this process has parsed before shares that parse and no longer reports its FormatError.
    const QStringList lines = unreadableLines(path);
    if (settings.status() == QSettings::FormatError || !lines.isEmpty()) {
        // QSettings skips the lines it cannot parse and keeps every other one, so the values
        // that still read are loaded below like any other. It writes over the file at the next
        // save, so the user's bytes are copied first, each damage to its own numbered copy.
        const QString backup = keepDamagedCopy(path);
        result.damaged = true;
        const QString which = lines.isEmpty() ? tr("some lines") : lines.join(QLatin1String(", "));
        if (!backup.isEmpty())
            result.problems << tr("Part of the settings file %1 could not be read (%2) and was ignored; every other "
                                  "value was kept. The file as it was is kept as %3.")
                                   .arg(path, which, backup);
        else
            result.problems << tr("Part of the settings file %1 could not be read (%2) and was ignored; every other "
                                  "value was kept.")
                                   .arg(path, which);
    }
    if (keys.isEmpty())
        return result;

    Reader reader(settings);
    reader.read(result.settings);
    result.problems << reader.problems;
    // The provider's line itself can be the damaged one: it must not quietly become the local
    // engine while settings for another provider are still there.
    if (result.damaged && !settings.contains(ProviderIdKey) && !ProviderOverrides::storedIds(settings).isEmpty())
        result.problems << tr("Which provider you chose could not be read from the settings file; Headstart uses "
                              "%1 until you choose one in Settings, Providers.")
                               .arg(result.settings.selectedProfile().displayName);
    return result;
}

QString SettingsFile::keepDamagedCopy(const QString &path)
{
    if (path.isEmpty() || !QFileInfo::exists(path))
        return {};
    const auto copyName = [&path](int n) { return path + QStringLiteral(".damaged-%1").arg(n); };
    const QFileInfo info(path);
    const QString prefix = info.fileName() + QStringLiteral(".damaged-");
    QList<int> numbers;
    for (const QString &name : info.dir().entryList({prefix + u'*'}, QDir::Files | QDir::Hidden)) {
        bool ok = false;
        if (const int n = name.mid(prefix.size()).toInt(&ok); ok && n > 0)
            numbers << n;
    }
    std::sort(numbers.begin(), numbers.end());
    const int newest = numbers.isEmpty() ? 0 : numbers.last();
    const auto contents = [](const QString &file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? std::optional<QByteArray>(f.readAll()) : std::nullopt;
    };
    // The same damage found again (the file was not written since): that copy is the one.
    if (newest > 0 && contents(copyName(newest)) == contents(path))
        return copyName(newest);
    const QString backup = copyName(newest + 1);
    if (!QFile::copy(path, backup))
        return {};
    // The copy holds what the settings file holds; it is as private as that file.
    QFile::setPermissions(backup, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    // Older damage is older versions of the same file: a few are enough to find a value in.
    numbers << newest + 1;
    for (qsizetype i = 0; i + KeptDamagedCopies < numbers.size(); ++i)
        QFile::remove(copyName(numbers[i]));
    return backup;
}

QStringList SettingsFile::unreadableLines(const QString &path)
{
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    // The lines QSettings' INI reader skips: not blank, not a comment, not a [section] and
    // without '='. Named by number and a short quote, for the user to find them.
    QStringList out;
    int number = 0;
    bool continued = false; // the line before ended in a backslash: this one carries its value on
    while (!file.atEnd()) {
        ++number;
        const QByteArray line = file.readLine().trimmed();
        if (std::exchange(continued, line.endsWith('\\')))
            continue;
        if (line.isEmpty() || line.startsWith(';') || line.startsWith('#'))
            continue;
        if ((line.startsWith('[') && line.endsWith(']')) || (!line.startsWith('[') && line.contains('=')))
            continue;
        QString shown = QString::fromUtf8(line);
        shown.removeIf([](QChar c) { return !c.isPrint(); });
        if (shown.size() > 40)
            shown = shown.left(40) + QChar(0x2026);
        out << (shown.isEmpty() ? tr("line %1").arg(number) : tr("line %1 \"%2\"").arg(number).arg(shown));
        if (out.size() == 5) {
            out << tr("more");
            break;
        }
    }
    return out;
}

namespace {

// A list of absolute paths under `key`, without duplicates, at most `max`; anything else dropped.
QStringList pathList(QSettings &settings, const QString &key, qsizetype max)
{
    const QVariant value = settings.value(key);
    // An INI file gives a list of one as a plain string.
    const QVariantList entries = value.typeId() == QMetaType::QString ? QVariantList{value} : value.toList();
    QStringList out;
    for (const QVariant &entry : entries) {
        const QString path = entry.typeId() == QMetaType::QString ? entry.toString() : QString();
        if (!path.isEmpty() && QDir::isAbsolutePath(path) && !out.contains(path))
            out << path;
        if (out.size() == max)
            break;
    }
    return out;
}

} // namespace

QStringList SettingsFile::recentFiles(QSettings &settings)
{
    return pathList(settings, RecentFilesKey, MaxRecentFiles);
}

QStringList SettingsFile::sessionFiles(QSettings &settings)
{
    return pathList(settings, SessionFilesKey, MaxSessionFiles);
}

void SettingsFile::setSessionFiles(QSettings &settings, const QStringList &paths)
{
    QStringList kept;
    for (const QString &path : paths) {
        if (QDir::isAbsolutePath(path) && !kept.contains(path) && kept.size() < MaxSessionFiles)
            kept << path;
    }
    settings.setValue(SessionFilesKey, kept);
}

void SettingsFile::addRecentFile(QSettings &settings, const QString &path)
{
    QStringList recent = recentFiles(settings);
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > MaxRecentFiles)
        recent.removeLast();
    settings.setValue(RecentFilesKey, recent);
}

void SettingsFile::save(QSettings &settings, const AppSettings &value)
{
    settings.setValue(VersionKey, FileVersion);
    settings.setValue(ProviderIdKey, value.providerId);

    QStringList known;
    for (const Llm::ProviderProfile &profile : value.providerProfiles())
        known << profile.id;
    value.providers.save(settings, known); // and drops the groups of providers no longer known
    value.endpoints.save(settings);
    PrefetchParameters::save(settings, value.prefetch);

    if (value.uiLanguage.isEmpty())
        settings.remove(LanguageKey);
    else
        settings.setValue(LanguageKey, value.uiLanguage);
    if (value.translateTarget == AppSettings().translateTarget)
        settings.remove(TranslateKey);
    else
        settings.setValue(TranslateKey, value.translateTarget);
    if (value.textSizePercent == 100)
        settings.remove(TextSizeKey);
    else
        settings.setValue(TextSizeKey, value.textSizePercent);
    if (value.colorScheme == ColorScheme::System) {
        settings.remove(ColorSchemeKey);
    } else {
        for (const auto &[scheme, name] : ColorSchemeNames) {
            if (scheme == value.colorScheme)
                settings.setValue(ColorSchemeKey, QLatin1String(name));
        }
    }
    if (value.logDetail == LogDetail::Normal)
        settings.remove(LogDetailKey);
    else
        settings.setValue(LogDetailKey, QLatin1String(logDetailName(value.logDetail)));
    saveProxySettings(settings, value.proxy);
    saveLibraryFolders(settings, value.libraryFolders);
    value.learned.save(settings);
    saveAssistantSettings(settings, value.assistants);
    settings.setValue(FirstRunKey, value.firstRun);
    settings.sync();
}

} // namespace Gui
