#include "workspace/documents/document.h"

#include "base/diskspace.h"
#include "base/privatefiles.h"
#include "knowledge/filereader.h"

#include "llm/log.h"
#include "prefetch/prompts/actionprompts.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStringEncoder>
#include <QTextBlock>
#include <QTextDocument>
#include <QtConcurrent/QtConcurrentRun>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Gui {

namespace {

spdlog::logger &log()
{
    return Llm::moduleLogger("ui");
}

// A large document compiles again this long after the last edit: long enough not to compile
// per key, short enough to be done before the pointer reaches an action button.
constexpr int RecompileSettleMs = 250;

} // namespace

Document::Document(QObject *parent)
    : QObject(parent)
    , m_text(new QTextDocument(this))
{
    m_text->setUndoRedoEnabled(true);
    connect(m_text, &QTextDocument::contentsChanged, this, &Document::onContentsChanged);
    connect(m_text, &QTextDocument::contentsChange, this, &Document::onContentsChange);
    connect(m_text, &QTextDocument::modificationChanged, this, [this](bool modified) {
        emit modifiedChanged(modified);
        emit titleChanged();
    });
    connect(&m_compile, &QFutureWatcher<Compiled>::finished, this, [this] {
        m_compiling = false;
        Compiled compiled = m_compile.result();
        if (compiled.revision != m_revision)
            return; // typed over while compiling: the settle timer compiles the new text
        m_compiled = std::move(compiled);
        emit promptReady();
    });
    m_recompile.setSingleShot(true);
    m_recompile.setInterval(RecompileSettleMs);
    connect(&m_recompile, &QTimer::timeout, this, [this] {
        if (m_lastProfile)
            compiledPrompt(*m_lastProfile);
    });
    connect(&m_recoveryWrite, &QFutureWatcher<bool>::finished, this, [this] {
        if (!m_recoveryWrite.result())
            m_recoveryRevision = 0; // try again at the next autosave
        emit recoveryCopyWritten();
    });
}

Document::~Document()
{
    // Workers hold copies of what they need; waiting for them would block the GUI thread.
    m_compile.disconnect(this);
    m_recoveryWrite.disconnect(this);
}

QString Document::text() const
{
    return m_text->toPlainText();
}

qsizetype Document::characterCount() const
{
    return std::max(0, m_text->characterCount() - 1); // QTextDocument counts a final paragraph separator
}

bool Document::isModified() const
{
    return m_text->isModified();
}

void Document::setModified(bool modified)
{
    m_text->setModified(modified);
}

bool Document::isBlank() const
{
    const int characters = m_text->characterCount();
    if (characters <= 1)
        return true;
    // A long document of nothing but spaces is not worth copying out on every key press.
    return characters < 4096 && m_text->toPlainText().trimmed().isEmpty();
}

void Document::onContentsChanged()
{
    ++m_revision;
    // A large document whose prompt was wanted before will be wanted again (hover, chat): have
    // it compiled by then instead of making the first request after an edit wait for it.
    if (m_lastProfile && m_text->characterCount() >= LargeDocumentChars)
        m_recompile.start();
}

std::optional<QString> Document::load(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    if (!QFileInfo::exists(path))
        return tr("%1 does not exist.").arg(QDir::toNativeSeparators(path));
    QFile file(path);
    if (path.startsWith(QLatin1Char(':'))) {
        // A sample compiled into the program (Qt's resources), not a file on disk.
        if (!file.open(QIODevice::ReadOnly))
            return tr("Cannot open %1: %2").arg(name, file.errorString());
    } else {
        // Opened without blocking and checked on the open descriptor: a FIFO with no writer
        // would block open() itself forever, and a device (/dev/zero) reports a size of 0 and
        // never ends.
        const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            return tr("Cannot open %1: %2")
                .arg(QDir::toNativeSeparators(path), QString::fromLocal8Bit(std::strerror(errno)));
        struct stat info = {};
        if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
            ::close(fd);
            return tr("%1 is not a regular file (it is a device, a pipe or a socket); Headstart opens documents "
                      "saved as files.")
                .arg(name);
        }
        if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
            ::close(fd);
            return tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        }
    }
    // At most one byte past the limit: what the file holds decides, not what size() says.
    const QByteArray bytes = file.read(MaxDocumentBytes + 1);
    if (bytes.size() > MaxDocumentBytes)
        return tr("%1 is larger than %2 MB; Headstart opens documents up to %2 MB.")
            .arg(name)
            .arg(MaxDocumentBytes / (1024 * 1024));
    // UTF-8, UTF-16 with its BOM, or GB18030 (what Chinese Windows tools write), as the library
    // and the chat's attachments read them; saved back in the same encoding.
    const auto decoded = Knowledge::decodeText(bytes);
    if (!decoded)
        return tr("%1 is not text in UTF-8, UTF-16 or GB18030; Headstart opens Markdown and plain-text "
                  "documents.")
            .arg(name);
    const QString &text = decoded->text;
    const LongestLine longest = longestLine(text);
    if (longest.length > MaxLineChars)
        return tr("Line %1 of %2 is %3 characters long without a break; Headstart edits lines of up to %4 "
                  "characters. It is probably minified or encoded data: format it with line breaks, or open "
                  "a part of it.")
            .arg(QLocale().toString(longest.number), name, QLocale().toString(longest.length),
                 QLocale().toString(MaxLineChars));
    m_path = QFileInfo(path).absoluteFilePath();
    m_encoding = decoded->encoding;
    // Before the text: the view lays it out as it arrives, and must already wrap it cheaply.
    setLongLines(longest.length > LongLineChars);
    m_text->setPlainText(text);
    m_text->setModified(false);
    emit titleChanged();
    return std::nullopt;
}

Document::LongestLine Document::longestLine(QStringView text)
{
    LongestLine longest;
    qsizetype start = 0;
    for (qsizetype number = 1;; ++number) {
        const qsizetype end = text.indexOf(u'\n', start);
        const qsizetype length = (end < 0 ? text.size() : end) - start;
        if (length > longest.length)
            longest = {number, length};
        if (end < 0)
            return longest;
        start = end + 1;
    }
}

void Document::setLongLines(bool longLines)
{
    if (m_longLines == longLines)
        return;
    m_longLines = longLines;
    emit longLinesChanged(longLines);
}

void Document::onContentsChange(int position, int, int added)
{
    if (m_longLines)
        return;
    // A paste can make a long line; only the blocks it touched can have become one.
    for (QTextBlock block = m_text->findBlock(position); block.isValid() && block.position() <= position + added;
         block = block.next()) {
        if (block.length() > LongLineChars) {
            setLongLines(true);
            return;
        }
    }
}

std::optional<QString> Document::saveTo(const QString &path)
{
    QSaveFile file(path);
    const auto failed = [&path, &file] {
        // The file on disk is untouched (QSaveFile writes a copy and swaps it in at the end).
        QString text = tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        if (const QString full = Base::diskFullNote(path); !full.isEmpty())
            text += u' ' + full;
        return text;
    };
    if (!file.open(QIODevice::WriteOnly))
        return failed();
    const QByteArray bytes = encoded(m_text->toPlainText());
    if (file.write(bytes) != bytes.size()) {
        const QString error = failed();
        file.cancelWriting();
        return error;
    }
    if (!file.commit())
        return failed();
    removeRecoveryCopy();
    m_path = QFileInfo(path).absoluteFilePath();
    m_text->setModified(false);
    emit titleChanged();
    return std::nullopt;
}

void Document::setEncoding(const QByteArray &encoding)
{
    if (encoding == m_encoding)
        return;
    m_encoding = encoding;
    setModified(true);
}

QByteArray Document::encoded(const QString &text) const
{
    // In the encoding it was read in (UTF-16 with its BOM first, as it came); UTF-8 otherwise.
    if (m_encoding != "UTF-8") {
        QStringEncoder encoder(m_encoding.constData(), m_encoding.startsWith("UTF-16")
                                                           ? QStringConverter::Flag::WriteBom
                                                           : QStringConverter::Flag::Default);
        const QByteArray bytes = encoder.encode(text);
        if (encoder.isValid() && !encoder.hasError())
            return bytes;
    }
    return text.toUtf8();
}

void Document::setShownNumber(int number)
{
    m_shownNumber = number;
    emit titleChanged();
}

void Document::setTitle(const QString &title)
{
    m_title = title.simplified();
    emit titleChanged();
}

QString Document::proposedFileName() const
{
    QString name = m_path.isEmpty() ? displayName() : QFileInfo(m_path).completeBaseName();
    // Characters Windows, macOS or Linux refuse in a file name, and leading dots (hidden).
    static const QRegularExpression refused(QStringLiteral("[\\\\/:*?\"<>|\\x00-\\x1f]"));
    name.replace(refused, QStringLiteral(" "));
    name = name.simplified();
    while (name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    if (name.isEmpty())
        name = tr("Untitled");
    return name.left(120) + QStringLiteral(".md");
}

void Document::setUntitled(int id, const QString &text)
{
    m_untitledNumber = id;
    m_text->setPlainText(text);
    m_text->setModified(!text.isEmpty());
    emit titleChanged();
}

void Document::setText(const QString &text)
{
    m_text->setPlainText(text);
}

QString Document::documentId() const
{
    return m_path.isEmpty() ? QStringLiteral("untitled-%1").arg(m_untitledNumber) : m_path;
}

QString Document::displayName() const
{
    if (!m_path.isEmpty())
        return QFileInfo(m_path).fileName();
    if (!m_title.isEmpty())
        return m_title;
    return tr("Untitled %1").arg(m_shownNumber > 0 ? m_shownNumber : m_untitledNumber);
}

// --- prompt ---------------------------------------------------------------------------------

const Prefetch::CompiledPrompt *Document::compiledPrompt(const Llm::ProviderProfile &profile)
{
    m_lastProfile = profile;
    const Llm::ProviderTarget target = profile.target();
    const auto current = [&] {
        return m_compiled && m_compiled->revision == m_revision && m_compiled->target == target;
    };
    if (!current())
        startCompile(profile);
    return current() && !m_compiled->error ? &m_compiled->prompt : nullptr;
}

std::optional<Llm::Error> Document::promptError(const Llm::ProviderProfile &profile) const
{
    if (m_compiled && m_compiled->revision == m_revision && m_compiled->target == profile.target())
        return m_compiled->error;
    return std::nullopt;
}

void Document::startCompile(const Llm::ProviderProfile &profile)
{
    m_recompile.stop();
    const quint64 revision = m_revision;
    const Llm::ProviderTarget target = profile.target();
    if (m_compiling && m_compileRevision == revision && m_compileTarget == target)
        return; // on its way
    const QString text = m_text->toPlainText();
    // Every revision's requests share one cache key: an edit keeps the part before it cached.
    const QString cacheKey = Prefetch::cacheKeyFor(QStringLiteral("document:") + documentId());
    // The worker gets copies (the text is implicitly shared, not copied) and touches no widget.
    auto compile = [profile, text, revision, target, cacheKey] {
        Compiled out;
        out.revision = revision;
        out.target = target;
        if (auto compiled = Prefetch::documentTemplate().compile(profile, Prefetch::documentValues(text)))
            out.prompt = compiled->withCacheKey(cacheKey);
        else
            out.error = compiled.error();
        return out;
    };
    if (text.size() < LargeDocumentChars) {
        m_compiled = compile(); // well under a millisecond
        if (m_compiled->error)
            log().warn("document prompt not compiled ({})", m_compiled->error->codeName());
        return;
    }
    log().debug("compiling a {}-character document in the thread pool", text.size());
    m_compileRevision = revision;
    m_compileTarget = target;
    m_compiling = true;
    m_compile.setFuture(QtConcurrent::run(compile));
}

// --- recovery -------------------------------------------------------------------------------

void Document::setRecoveryDirectory(const QString &directory)
{
    if (directory == m_recoveryDirectory)
        return;
    removeRecoveryCopy();
    m_recoveryDirectory = directory;
}

QString Document::recoveryFile() const
{
    if (m_recoveryDirectory.isEmpty())
        return {};
    const QByteArray key = QCryptographicHash::hash(documentId().toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return QDir(m_recoveryDirectory).filePath(QString::fromLatin1(key) + QStringLiteral(".json"));
}

void Document::writeRecoveryCopy()
{
    const QString path = recoveryFile();
    if (path.isEmpty())
        return;
    if (!isModified()) {
        if (m_recoveryRevision != 0)
            removeRecoveryCopy(); // undone back to what is saved: nothing to recover
        return;
    }
    if (m_recoveryRevision == m_revision || m_recoveryWrite.isRunning())
        return; // on disk already, or the next autosave writes it
    // The copy holds the full unsaved text: owner-only, whatever the umask or the mode of
    // the document it copies.
    Base::PrivateFiles::makeDirectory(m_recoveryDirectory);
    m_recoveryRevision = m_revision;
    auto removed = std::make_shared<std::atomic<bool>>(false);
    m_recoveryRemoved = removed;
    const QString text = m_text->toPlainText();
    const QJsonObject meta{{QStringLiteral("path"), m_path},
                           {QStringLiteral("name"), displayName()},
                           {QStringLiteral("title"), m_title}};
    auto write = [path, meta, text, removed] {
        QJsonObject copy = meta;
        copy.insert(QStringLiteral("text"), text);
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return false;
        // On the temporary file, before any text is in it; the rename keeps the mode.
        if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            return false;
        file.write(QJsonDocument(copy).toJson(QJsonDocument::Compact));
        // Removed meanwhile (saved or closed): a copy written now would be offered next start.
        if (removed->load()) {
            file.cancelWriting();
            return true;
        }
        const bool ok = file.commit();
        if (removed->load())
            QFile::remove(path);
        return ok;
    };
    if (text.size() < LargeDocumentChars) {
        if (!write()) {
            log().warn("could not write a recovery copy");
            m_recoveryRevision = 0;
        }
        emit recoveryCopyWritten();
        return;
    }
    m_recoveryWrite.setFuture(QtConcurrent::run(write));
}

void Document::removeRecoveryCopy()
{
    if (m_recoveryRemoved)
        m_recoveryRemoved->store(true);
    m_recoveryRevision = 0;
    if (const QString path = recoveryFile(); !path.isEmpty())
        QFile::remove(path);
}

} // namespace Gui
