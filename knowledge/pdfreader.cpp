#include "pdfreader.h"

#include "filereader.h"

#include "log.h"

#include <poppler-qt6.h>

#include <spdlog/spdlog.h>

#include <QCryptographicHash>
#include <QVariant>

#include <mutex>

namespace Knowledge {

namespace {

// Poppler reports every syntax error of a damaged file through qDebug by default; one line in
// our log at debug level is enough, and the file's skip reason says the rest.
void popplerMessage(const QString &message, const QVariant &)
{
    log().debug("poppler: {}", message.toStdString());
}

void installMessageHandler()
{
    static std::once_flag once;
    std::call_once(once, [] { Poppler::setDebugErrorFunction(popplerMessage, QVariant()); });
}

} // namespace

std::expected<PdfText, SkipReason> readPdfFile(const QString &path, qint64 maxBytes, qint64 maxTextBytes)
{
    installMessageHandler();
    // The bytes are read once, for the hash and for Poppler, so both describe the same file
    // even when it is replaced while it is read.
    const auto read = readFileBytes(path, maxBytes);
    if (!read)
        return std::unexpected(read.error());
    const QByteArray &bytes = *read;

    const std::unique_ptr<Poppler::Document> document = Poppler::Document::loadFromData(bytes);
    if (!document)
        return std::unexpected(SkipReason::Damaged);
    if (document->isLocked())
        return std::unexpected(SkipReason::Encrypted);

    PdfText out;
    out.size = bytes.size();
    out.hash = QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex();
    qint64 textBytes = 0;
    bool anyText = false;
    const int count = document->numPages();
    for (int i = 0; i < count; ++i) {
        const std::unique_ptr<Poppler::Page> page = document->page(i);
        QString text = page ? page->text(QRectF()) : QString();
        textBytes += text.size() * 2;
        if (textBytes > maxTextBytes)
            return std::unexpected(SkipReason::TooLarge);
        anyText = anyText || !text.trimmed().isEmpty();
        out.pages.append(std::move(text));
    }
    if (count == 0)
        return std::unexpected(SkipReason::Damaged);
    if (!anyText)
        return std::unexpected(SkipReason::NoText);
    return out;
}

} // namespace Knowledge
