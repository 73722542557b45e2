#include "keychainsecretstore.h"

#include "llm/log.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

#include <qt6keychain/keychain.h>
#include <spdlog/spdlog.h>

namespace App {

namespace {

const QString Service = QStringLiteral("Headstart");
// Asked for at start; it never exists, so a working keychain answers EntryNotFound.
const QString ProbeEntry = QStringLiteral("probe/keychain-available");
constexpr QFile::Permissions OwnerOnly = QFile::ReadOwner | QFile::WriteOwner;

spdlog::logger &log()
{
    return Llm::moduleLogger("app");
}

} // namespace

KeychainSecretStore::KeychainSecretStore(Mode mode, QString fallbackFile, QObject *parent)
    : Gui::SecretStore(parent)
    , m_fallbackFile(std::move(fallbackFile))
{
    if (m_fallbackFile.isEmpty())
        m_fallbackFile = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)
                         + QStringLiteral("/secrets.json");
    if (mode == Mode::FileOnly) {
        m_backend = Backend::File;
        return;
    }

    // A service that is registered but never replies would otherwise hold every key request.
    m_probeTimeout.setSingleShot(true);
    m_probeTimeout.setInterval(ProbeTimeoutMs);
    connect(&m_probeTimeout, &QTimer::timeout, this, [this] {
        if (m_backend == Backend::Probing)
            useFile("the keychain did not answer");
    });
    m_probeTimeout.start();

    auto *job = new QKeychain::ReadPasswordJob(Service);
    job->setKey(ProbeEntry);
    connect(job, &QKeychain::Job::finished, this, &KeychainSecretStore::onProbeFinished);
    job->start();
}

KeychainSecretStore::~KeychainSecretStore() = default;

void KeychainSecretStore::onProbeFinished(QKeychain::Job *job)
{
    if (m_backend != Backend::Probing)
        return; // answered after the timeout; the file is in use for this session
    m_probeTimeout.stop();
    if (backendUnusable(job)) {
        log().warn("keychain unavailable ({}); API keys go to an owner-only file", static_cast<int>(job->error()));
        useFile("no keychain service");
        return;
    }
    m_backend = Backend::Keychain;
    log().info("API keys are kept in the system keychain");
    emit backendChanged();
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &operation : waiting)
        operation();
}

void KeychainSecretStore::useFile(const char *why)
{
    const bool wasProbing = m_backend == Backend::Probing;
    m_backend = Backend::File;
    log().warn("API keys are kept unencrypted in {} ({})", QDir::toNativeSeparators(m_fallbackFile).toStdString(), why);
    emit backendChanged();
    if (wasProbing) {
        const auto waiting = std::exchange(m_waiting, {});
        for (const auto &operation : waiting)
            operation();
    }
}

void KeychainSecretStore::whenReady(std::function<void()> operation)
{
    if (m_backend == Backend::Probing)
        m_waiting.append(std::move(operation));
    else
        operation();
}

QString KeychainSecretStore::backendDescription() const
{
    switch (m_backend) {
    case Backend::Probing: return tr("Checking the system keychain…");
    case Backend::Keychain:
#if defined(Q_OS_MACOS)
        return tr("System keychain (macOS Keychain)");
#elif defined(Q_OS_WIN)
        return tr("System keychain (Windows Credential Manager)");
#else
        return tr("System keychain (Secret Service)");
#endif
    case Backend::File: break;
    }
    return tr("Unencrypted file %1, readable only by you (no keychain service is running)")
        .arg(QDir::toNativeSeparators(m_fallbackFile));
}

void KeychainSecretStore::read(const QString &providerId, Secret secret, QObject *context, ReadCallback done)
{
    const QString entry = entryName(providerId, secret);
    QPointer<QObject> ctx(context);
    whenReady([this, entry, ctx, done = std::move(done)]() mutable {
        if (m_backend == Backend::File)
            deliver(ctx, std::move(done), fileRead(entry));
        else
            keychainRead(entry, ctx, std::move(done));
    });
}

void KeychainSecretStore::write(const QString &providerId, Secret secret, const QString &value, QObject *context,
                                WriteCallback done)
{
    const QString entry = entryName(providerId, secret);
    QPointer<QObject> ctx(context);
    whenReady([this, providerId, entry, value, ctx, done = std::move(done)]() mutable {
        if (m_backend != Backend::File) {
            keychainWrite(providerId, entry, value, ctx, std::move(done));
            return;
        }
        const WriteResult result = fileWrite(entry, value);
        deliver(ctx, std::move(done), result);
        if (result)
            emit secretWritten(providerId);
    });
}

void KeychainSecretStore::keychainRead(const QString &entry, const QPointer<QObject> &context, ReadCallback done)
{
    auto *job = new QKeychain::ReadPasswordJob(Service);
    job->setKey(entry);
    connect(job, &QKeychain::Job::finished, this, [this, entry, context, done](QKeychain::Job *finished) {
        auto *readJob = static_cast<QKeychain::ReadPasswordJob *>(finished);
        switch (readJob->error()) {
        case QKeychain::NoError: deliver(context, done, ReadResult(readJob->textData())); return;
        case QKeychain::EntryNotFound: {
            // Perhaps stored while the keychain was unavailable; a damaged file just means none.
            const ReadResult fallback = fileRead(entry);
            deliver(context, done, fallback ? fallback : ReadResult(QString()));
            return;
        }
        default: break;
        }
        if (backendUnusable(readJob)) {
            useFile("keychain read failed");
            deliver(context, done, fileRead(entry));
            return;
        }
        deliver(context, done, ReadResult(std::unexpected(keychainError(readJob))));
    });
    job->start();
}

void KeychainSecretStore::keychainWrite(const QString &providerId, const QString &entry, const QString &value,
                                        const QPointer<QObject> &context, WriteCallback done)
{
    QKeychain::Job *job = nullptr;
    if (value.isEmpty()) {
        job = new QKeychain::DeletePasswordJob(Service);
    } else {
        auto *writeJob = new QKeychain::WritePasswordJob(Service);
        writeJob->setTextData(value);
        job = writeJob;
    }
    job->setKey(entry);
    connect(job, &QKeychain::Job::finished, this,
            [this, providerId, entry, value, context, done](QKeychain::Job *finished) {
                const bool removing = value.isEmpty();
                if (finished->error() == QKeychain::NoError
                    || (removing && finished->error() == QKeychain::EntryNotFound)) {
                    // The keychain has it now: no unencrypted copy may outlive it.
                    const auto stale = fileRead(entry);
                    if (stale && !stale->isEmpty())
                        (void)fileWrite(entry, QString());
                    deliver(context, done, WriteResult());
                    emit secretWritten(providerId);
                    return;
                }
                if (backendUnusable(finished)) {
                    useFile("keychain write failed");
                    const WriteResult result = fileWrite(entry, value);
                    deliver(context, done, result);
                    if (result)
                        emit secretWritten(providerId);
                    return;
                }
                deliver(context, done, WriteResult(std::unexpected(keychainError(finished))));
            });
    job->start();
}

bool KeychainSecretStore::backendUnusable(QKeychain::Job *job)
{
    // OtherError is what the libsecret backend reports when no Secret Service is on the bus.
    switch (job->error()) {
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
    case QKeychain::OtherError: return true;
    default: return false;
    }
}

QString KeychainSecretStore::keychainError(QKeychain::Job *job)
{
    switch (job->error()) {
    case QKeychain::AccessDeniedByUser: return tr("Access to the system keychain was refused.");
    case QKeychain::AccessDenied: return tr("The system keychain denied access: %1").arg(job->errorString());
    default: return tr("The system keychain reported an error: %1").arg(job->errorString());
    }
}

std::expected<QJsonObject, QString> KeychainSecretStore::readFile() const
{
    QFile file(m_fallbackFile);
    if (!file.exists())
        return QJsonObject();
    if (!file.open(QIODevice::ReadOnly))
        return std::unexpected(
            tr("Cannot read the key file %1: %2").arg(QDir::toNativeSeparators(m_fallbackFile), file.errorString()));
    // Someone copied it with wider permissions: narrow them again before anything else.
    if (file.permissions().testAnyFlags(QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther
                                        | QFile::WriteOther | QFile::ExeOther))
        file.setPermissions(OwnerOnly);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::unexpected(tr("The key file %1 is damaged; enter the keys again to replace it.")
                                   .arg(QDir::toNativeSeparators(m_fallbackFile)));
    return document.object();
}

Gui::SecretStore::ReadResult KeychainSecretStore::fileRead(const QString &entry) const
{
    const auto root = readFile();
    if (!root)
        return std::unexpected(root.error());
    return root->value(QLatin1String("entries")).toObject().value(entry).toString();
}

Gui::SecretStore::WriteResult KeychainSecretStore::fileWrite(const QString &entry, const QString &value) const
{
    auto root = readFile();
    if (!root) {
        // Unreadable keys are lost anyway; refusing to write would also lose the new one.
        log().warn("key file {} is damaged; rewriting it", QDir::toNativeSeparators(m_fallbackFile).toStdString());
        root = QJsonObject();
    }
    QJsonObject entries = root->value(QLatin1String("entries")).toObject();
    if (value.isEmpty()) {
        if (!entries.contains(entry))
            return {};
        entries.remove(entry);
    } else {
        entries.insert(entry, value);
    }
    root->insert(QLatin1String("version"), 1);
    root->insert(QLatin1String("entries"), entries);

    const QString dir = QFileInfo(m_fallbackFile).absolutePath();
    if (!QDir().mkpath(dir))
        return std::unexpected(tr("Cannot create the folder %1 for the key file.").arg(QDir::toNativeSeparators(dir)));
    QSaveFile file(m_fallbackFile);
    // QSaveFile creates its temporary file readable by everyone (umask permitting): narrow it
    // before a single byte of a key is written, so no copy is ever readable by others.
    if (!file.open(QIODevice::WriteOnly) || !file.setPermissions(OwnerOnly)) {
        file.cancelWriting();
        return std::unexpected(
            tr("Cannot write the key file %1: %2").arg(QDir::toNativeSeparators(m_fallbackFile), file.errorString()));
    }
    file.write(QJsonDocument(*root).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return std::unexpected(
            tr("Cannot write the key file %1: %2").arg(QDir::toNativeSeparators(m_fallbackFile), file.errorString()));
    return {};
}

} // namespace App
