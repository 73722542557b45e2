#include "documenttab.h"

#include "prefetch/actionprompts.h"
#include "prefetch/prompttemplate.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStringDecoder>
#include <QtConcurrent/QtConcurrentRun>

namespace Gui {

namespace {
// Below this a document compiles in well under a millisecond; above it, off the GUI thread.
constexpr qsizetype CompileOnWorkerChars = 256 * 1024;
} // namespace

DocumentTab::DocumentTab(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setAccessibleName(tr("Document"));
    setPlaceholderText(tr("Write here, or open a document with Ctrl+O."));
    connect(document(), &QTextDocument::modificationChanged, this, &DocumentTab::titleChanged);
    connect(&m_compile, &QFutureWatcher<Prefetch::CompiledPrompt>::finished, this, [this] {
        if (m_compileRevision != document()->revision())
            return; // typed over while compiling; the next request compiles again
        m_prompt = std::make_unique<Prefetch::CompiledPrompt>(m_compile.result());
        m_promptRevision = m_compileRevision;
        emit promptReady();
    });
}

DocumentTab::~DocumentTab()
{
    // The worker only reads its own copy of the text; waiting here would block the GUI thread.
    m_compile.disconnect(this);
}

std::optional<QString> DocumentTab::load(const QString &path)
{
    QFile file(path);
    const QString name = QFileInfo(path).fileName();
    if (!file.exists())
        return tr("%1 does not exist.").arg(QDir::toNativeSeparators(path));
    if (file.size() > MaxDocumentBytes)
        return tr("%1 is %2 MB; Headstart opens documents up to %3 MB.")
            .arg(name)
            .arg(file.size() / (1024 * 1024))
            .arg(MaxDocumentBytes / (1024 * 1024));
    if (!file.open(QIODevice::ReadOnly))
        return tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    const QByteArray bytes = file.readAll();
    auto decoder = QStringDecoder(QStringDecoder::Utf8);
    const QString text = decoder(bytes);
    if (decoder.hasError())
        return tr("%1 is not UTF-8 text; Headstart opens Markdown and plain-text documents.").arg(name);
    setPlainText(text);
    document()->setModified(false);
    m_path = QFileInfo(path).absoluteFilePath();
    emit titleChanged();
    return std::nullopt;
}

std::optional<QString> DocumentTab::saveTo(const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    file.write(toPlainText().toUtf8());
    if (!file.commit())
        return tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    removeRecoveryCopy();
    m_path = QFileInfo(path).absoluteFilePath();
    document()->setModified(false);
    emit titleChanged();
    return std::nullopt;
}

void DocumentTab::setUntitled(int number, const QString &text)
{
    m_untitledNumber = number;
    setPlainText(text);
    document()->setModified(!text.isEmpty());
    emit titleChanged();
}

bool DocumentTab::isBlank() const
{
    const int characters = document()->characterCount();
    if (characters <= 1)
        return true;
    // A long document of nothing but spaces is not worth copying out on every key press.
    return characters < 4096 && toPlainText().trimmed().isEmpty();
}

QString DocumentTab::documentId() const
{
    return m_path.isEmpty() ? QStringLiteral("untitled-%1").arg(m_untitledNumber) : m_path;
}

QString DocumentTab::displayName() const
{
    return m_path.isEmpty() ? tr("Untitled %1").arg(m_untitledNumber) : QFileInfo(m_path).fileName();
}

const Prefetch::CompiledPrompt *DocumentTab::compiledPrompt(const Llm::ProviderProfile &profile)
{
    const int revision = document()->revision();
    if (m_prompt && m_promptRevision == revision && m_prompt->isFor(profile))
        return m_prompt.get();
    startCompile(profile);
    return m_prompt && m_promptRevision == revision && m_prompt->isFor(profile) ? m_prompt.get() : nullptr;
}

void DocumentTab::startCompile(const Llm::ProviderProfile &profile)
{
    const int revision = document()->revision();
    const QString text = toPlainText();
    auto compile = [profile, text] {
        auto compiled = Prefetch::documentTemplate().compile(profile, Prefetch::documentValues(text));
        return compiled ? *compiled : Prefetch::CompiledPrompt();
    };
    if (text.size() < CompileOnWorkerChars) {
        m_prompt = std::make_unique<Prefetch::CompiledPrompt>(compile());
        m_promptRevision = revision;
        return;
    }
    if (m_compile.isRunning() && m_compileRevision == revision)
        return;
    m_compileRevision = revision;
    m_compile.setFuture(QtConcurrent::run(compile));
}

void DocumentTab::setRecoveryDirectory(const QString &directory)
{
    m_recoveryDirectory = directory;
}

QString DocumentTab::recoveryFile() const
{
    if (m_recoveryDirectory.isEmpty())
        return {};
    const QByteArray key = QCryptographicHash::hash(documentId().toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return QDir(m_recoveryDirectory).filePath(QString::fromLatin1(key) + QStringLiteral(".json"));
}

void DocumentTab::writeRecoveryCopy()
{
    const QString path = recoveryFile();
    if (path.isEmpty() || !isModified())
        return;
    QDir().mkpath(m_recoveryDirectory);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return;
    const QJsonObject copy{{QStringLiteral("path"), m_path},
                           {QStringLiteral("name"), displayName()},
                           {QStringLiteral("text"), toPlainText()}};
    file.write(QJsonDocument(copy).toJson(QJsonDocument::Compact));
    file.commit();
}

void DocumentTab::removeRecoveryCopy()
{
    if (const QString path = recoveryFile(); !path.isEmpty())
        QFile::remove(path);
}

} // namespace Gui
