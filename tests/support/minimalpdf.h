#pragma once

// PDFs written by hand for the knowledge suites, so no PDF tool is needed to make them: one
// page per string, each line of it a line of Helvetica text, with a correct cross-reference
// table, so Poppler parses them without having to repair anything.

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace TestSupport {

enum class PdfKind {
    Plain,
    Encrypted, // an /Encrypt dictionary no password (not even the empty one) opens
};

inline QByteArray pdfString(const QString &line)
{
    QByteArray out = line.toLatin1();
    out.replace('\\', "\\\\").replace('(', "\\(").replace(')', "\\)");
    return '(' + out + ')';
}

inline QByteArray minimalPdf(const QStringList &pages, PdfKind kind = PdfKind::Plain)
{
    QList<QByteArray> objects; // object n is objects[n - 1]
    const int pageCount = int(pages.size());
    const int firstPage = 4; // 1 catalog, 2 pages, 3 font, then page and contents pairs
    QByteArray kids;
    for (int i = 0; i < pageCount; ++i)
        kids += QByteArray::number(firstPage + 2 * i) + " 0 R ";
    objects << "<< /Type /Catalog /Pages 2 0 R >>"
            << "<< /Type /Pages /Kids [" + kids + "] /Count " + QByteArray::number(pageCount) + " >>"
            << "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
    for (int i = 0; i < pageCount; ++i) {
        QByteArray content = "BT /F1 12 Tf 14 TL 72 720 Td";
        for (const QString &line : pages.at(i).split(u'\n'))
            content += ' ' + pdfString(line) + " Tj T*";
        content += " ET";
        objects << "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
                   " /Contents "
                       + QByteArray::number(firstPage + 2 * i + 1) + " 0 R >>"
                << "<< /Length " + QByteArray::number(content.size()) + " >>\nstream\n" + content + "\nendstream";
    }
    QByteArray trailerExtra;
    if (kind == PdfKind::Encrypted) {
        // Standard security handler, revision 2: /O and /U that match no password.
        const QByteArray junk = QByteArray(32, '\x5a').toHex();
        objects << "<< /Filter /Standard /V 1 /R 2 /P -4 /O <" + junk + "> /U <" + junk + "> >>";
        trailerExtra = " /Encrypt " + QByteArray::number(objects.size())
                       + " 0 R /ID [<0123456789abcdef0123456789abcdef>"
                         " <0123456789abcdef0123456789abcdef>]";
    }

    QByteArray out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
    QList<qsizetype> offsets;
    for (int n = 1; n <= objects.size(); ++n) {
        offsets << out.size();
        out += QByteArray::number(n) + " 0 obj\n" + objects.at(n - 1) + "\nendobj\n";
    }
    const qsizetype xref = out.size();
    out += "xref\n0 " + QByteArray::number(objects.size() + 1) + "\n0000000000 65535 f \n";
    for (qsizetype offset : offsets)
        out += QByteArray::number(offset).rightJustified(10, '0') + " 00000 n \n";
    out += "trailer\n<< /Size " + QByteArray::number(objects.size() + 1) + " /Root 1 0 R" + trailerExtra + " >>\n";
    out += "startxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
    return out;
}

// Not a PDF Poppler can read: the header, then the catalog cut off in the middle.
inline QByteArray damagedPdf()
{
    return "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pa";
}

} // namespace TestSupport
