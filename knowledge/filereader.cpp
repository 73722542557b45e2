#include "filereader.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QStringDecoder>

namespace Knowledge {

namespace {

const QSet<QString> &markdownSuffixes()
{
    static const QSet<QString> s{QStringLiteral("md"), QStringLiteral("markdown"), QStringLiteral("mdown"),
                                 QStringLiteral("mkd")};
    return s;
}

const QSet<QString> &plainSuffixes()
{
    static const QSet<QString> s{QStringLiteral("txt"), QStringLiteral("text"), QStringLiteral("rst"),
                                 QStringLiteral("org"), QStringLiteral("adoc"), QStringLiteral("tex"),
                                 QStringLiteral("log"), QStringLiteral("csv")};
    return s;
}

const QSet<QString> &sourceSuffixes()
{
    static const QSet<QString> s{QStringLiteral("c"),    QStringLiteral("h"),     QStringLiteral("cc"),
                                 QStringLiteral("cpp"),  QStringLiteral("cxx"),   QStringLiteral("hpp"),
                                 QStringLiteral("hh"),   QStringLiteral("py"),    QStringLiteral("js"),
                                 QStringLiteral("ts"),   QStringLiteral("tsx"),   QStringLiteral("jsx"),
                                 QStringLiteral("java"), QStringLiteral("kt"),    QStringLiteral("go"),
                                 QStringLiteral("rs"),   QStringLiteral("rb"),    QStringLiteral("php"),
                                 QStringLiteral("cs"),   QStringLiteral("swift"), QStringLiteral("sh"),
                                 QStringLiteral("bash"), QStringLiteral("zsh"),   QStringLiteral("ps1"),
                                 QStringLiteral("sql"),  QStringLiteral("qml"),   QStringLiteral("cmake"),
                                 QStringLiteral("json"), QStringLiteral("yaml"),  QStringLiteral("yml"),
                                 QStringLiteral("toml"), QStringLiteral("ini"),   QStringLiteral("xml"),
                                 QStringLiteral("html"), QStringLiteral("htm"),   QStringLiteral("css"),
                                 QStringLiteral("lua"),  QStringLiteral("pl"),    QStringLiteral("r"),
                                 QStringLiteral("m"),    QStringLiteral("scala"), QStringLiteral("dart"),
                                 QStringLiteral("vue"),  QStringLiteral("el")};
    return s;
}

QString suffixOf(const QString &path)
{
    return QFileInfo(path).suffix().toLower();
}

// Text files that usually have no suffix.
const QSet<QString> &specialNames()
{
    static const QSet<QString> names{QStringLiteral("Makefile"), QStringLiteral("README"), QStringLiteral("LICENSE"),
                                     QStringLiteral("CHANGELOG"), QStringLiteral("Dockerfile")};
    return names;
}

bool isSpecialName(const QString &path)
{
    return specialNames().contains(QFileInfo(path).fileName());
}

// A complete decode or nothing: a replacement character in the output would be indexed as text.
std::optional<QString> decodeStrict(QStringDecoder decoder, const QByteArray &bytes)
{
    if (!decoder.isValid())
        return std::nullopt;
    QString text = decoder.decode(bytes);
    // Qt's UTF-16 decoder lets lone surrogates through.
    if (decoder.hasError() || !text.isValidUtf16())
        return std::nullopt;
    return text;
}

} // namespace

std::optional<FileType> fileTypeOf(const QString &path)
{
    const QString suffix = suffixOf(path);
    if (suffix == QLatin1String("pdf"))
        return FileType::Pdf;
    if (markdownSuffixes().contains(suffix) || plainSuffixes().contains(suffix) || sourceSuffixes().contains(suffix)
        || isSpecialName(path))
        return FileType::Text;
    return std::nullopt;
}

TextKind textKindOf(const QString &path)
{
    const QString suffix = suffixOf(path);
    if (markdownSuffixes().contains(suffix))
        return TextKind::Markdown;
    if (sourceSuffixes().contains(suffix))
        return TextKind::Source;
    return TextKind::PlainText;
}

QStringList textFilePatterns()
{
    QStringList patterns;
    for (const QSet<QString> *suffixes : {&markdownSuffixes(), &plainSuffixes(), &sourceSuffixes()}) {
        for (const QString &suffix : *suffixes)
            patterns.append(QStringLiteral("*.") + suffix);
    }
    patterns.sort();
    QStringList names(specialNames().cbegin(), specialNames().cend());
    names.sort();
    return patterns + names;
}

bool looksBinary(const QByteArray &bytes)
{
    const qsizetype n = std::min<qsizetype>(bytes.size(), 64 * 1024);
    qsizetype control = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == 0)
            return true;
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f)
            ++control;
    }
    return n > 0 && control * 10 > n;
}

std::expected<QByteArray, SkipReason> readFileBytes(const QString &path, qint64 maxBytes)
{
    const QFileInfo info(path);
    if (!info.exists())
        return std::unexpected(SkipReason::Vanished);
    if (info.size() > maxBytes)
        return std::unexpected(SkipReason::TooLarge);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::unexpected(file.exists() ? SkipReason::Unreadable : SkipReason::Vanished);
    // One byte over the limit tells a file that grew since the listing from one that fits.
    const QByteArray bytes = file.read(maxBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return std::unexpected(file.exists() ? SkipReason::Unreadable : SkipReason::Vanished);
    if (bytes.size() > maxBytes)
        return std::unexpected(SkipReason::TooLarge);
    return bytes;
}

std::expected<FileText, SkipReason> readTextFile(const QString &path, qint64 maxBytes)
{
    const auto read = readFileBytes(path, maxBytes);
    if (!read)
        return std::unexpected(read.error());
    const QByteArray &bytes = *read;
    auto decoded = decodeText(bytes);
    if (!decoded)
        return std::unexpected(decoded.error());
    FileText out;
    out.size = bytes.size();
    out.hash = QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex();
    out.text = std::move(decoded->text);
    out.encoding = decoded->encoding;
    return out;
}

std::expected<DecodedText, SkipReason> decodeText(const QByteArray &bytes)
{
    // A UTF-16 BOM first: UTF-16 text is full of NUL bytes and would look binary.
    if (bytes.startsWith("\xff\xfe") || bytes.startsWith("\xfe\xff")) {
        const bool little = bytes.startsWith("\xff\xfe");
        if (bytes.size() % 2 != 0)
            return std::unexpected(SkipReason::BadEncoding); // half a code unit at the end
        if (auto text = decodeStrict(QStringDecoder(little ? QStringDecoder::Utf16LE : QStringDecoder::Utf16BE),
                                     bytes.sliced(2)))
            return DecodedText{*text, little ? QByteArray("UTF-16LE") : QByteArray("UTF-16BE")};
        return std::unexpected(SkipReason::BadEncoding);
    }
    if (looksBinary(bytes))
        return std::unexpected(SkipReason::Binary);
    if (auto text = decodeStrict(QStringDecoder(QStringDecoder::Utf8), bytes))
        return DecodedText{*text, QByteArray("UTF-8")};
    if (auto text = decodeStrict(QStringDecoder("GB18030"), bytes))
        return DecodedText{*text, QByteArray("GB18030")};
    return std::unexpected(SkipReason::BadEncoding);
}

QString skipMessage(SkipReason reason)
{
    switch (reason) {
    case SkipReason::Binary:
        return QCoreApplication::translate("Knowledge::FileReader", "Not text: the file holds binary data.");
    case SkipReason::TooLarge:
        return QCoreApplication::translate("Knowledge::FileReader", "Too large: files over %1 MB are not indexed.")
            .arg(DefaultMaxFileBytes / (1024 * 1024));
    case SkipReason::Unreadable:
        return QCoreApplication::translate("Knowledge::FileReader", "Cannot be read: check the file's permissions.");
    case SkipReason::BadEncoding:
        return QCoreApplication::translate("Knowledge::FileReader",
                                           "Unknown encoding: the text is not UTF-8, UTF-16 or GB18030.");
    case SkipReason::Vanished:
        return QCoreApplication::translate("Knowledge::FileReader", "Deleted or replaced while it was being indexed.");
    case SkipReason::Encrypted:
        return QCoreApplication::translate("Knowledge::FileReader",
                                           "Encrypted: the PDF needs a password to be opened.");
    case SkipReason::Damaged:
        return QCoreApplication::translate("Knowledge::FileReader", "Damaged: the PDF cannot be read.");
    case SkipReason::NoText:
        return QCoreApplication::translate("Knowledge::FileReader", "No text: the PDF's pages are images (a scan?).");
    }
    return {};
}

const char *skipReasonName(SkipReason reason)
{
    switch (reason) {
    case SkipReason::Binary: return "binary";
    case SkipReason::TooLarge: return "too_large";
    case SkipReason::Unreadable: return "unreadable";
    case SkipReason::BadEncoding: return "encoding";
    case SkipReason::Vanished: return "vanished";
    case SkipReason::Encrypted: return "encrypted";
    case SkipReason::Damaged: return "damaged";
    case SkipReason::NoText: return "no_text";
    }
    return "unreadable";
}

bool skipReasonFromName(const QString &name, SkipReason *reason)
{
    for (SkipReason r : {SkipReason::Binary, SkipReason::TooLarge, SkipReason::Unreadable, SkipReason::BadEncoding,
                         SkipReason::Vanished, SkipReason::Encrypted, SkipReason::Damaged, SkipReason::NoText}) {
        if (name == QLatin1String(skipReasonName(r))) {
            *reason = r;
            return true;
        }
    }
    return false;
}

} // namespace Knowledge
