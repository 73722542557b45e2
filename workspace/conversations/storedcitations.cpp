#include "workspace/conversations/storedcitations.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace Gui {

QJsonArray citationsToJsonArray(const QList<Knowledge::Passage> &passages)
{
    QJsonArray array;
    for (const Knowledge::Passage &p : passages) {
        QJsonObject o{{QStringLiteral("path"), p.path},
                      {QStringLiteral("start"), qint64(p.start)},
                      {QStringLiteral("end"), qint64(p.end)}};
        if (!p.headingTrail.isEmpty())
            o.insert(QStringLiteral("heading"), p.headingTrail);
        if (p.page > 0)
            o.insert(QStringLiteral("page"), p.page);
        array.append(o);
    }
    return array;
}

QList<Knowledge::Passage> citationsFromJsonArray(const QJsonArray &array)
{
    QList<Knowledge::Passage> out;
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        Knowledge::Passage p;
        p.path = o.value(QStringLiteral("path")).toString();
        p.start = qsizetype(o.value(QStringLiteral("start")).toInteger(-1));
        p.end = qsizetype(o.value(QStringLiteral("end")).toInteger(-1));
        // Not ours: no citations rather than links to nowhere or to the wrong text.
        if (p.path.isEmpty() || p.start < 0 || p.end < p.start)
            return {};
        p.headingTrail = o.value(QStringLiteral("heading")).toString();
        p.page = std::max(0, o.value(QStringLiteral("page")).toInt());
        out.append(p);
    }
    return out;
}

QString citationsToJson(const QList<Knowledge::Passage> &passages)
{
    if (passages.isEmpty())
        return QStringLiteral("");
    return QString::fromUtf8(QJsonDocument(citationsToJsonArray(passages)).toJson(QJsonDocument::Compact));
}

QList<Knowledge::Passage> citationsFromJson(const QString &json)
{
    if (json.isEmpty())
        return {};
    return citationsFromJsonArray(QJsonDocument::fromJson(json.toUtf8()).array());
}

QString citationLine(int n, const Knowledge::Passage &passage)
{
    QString line = QStringLiteral("[%1] %2").arg(n).arg(passage.path);
    if (passage.page > 0)
        line += QCoreApplication::translate("Gui::ChatDock", ", page %1").arg(passage.page);
    else if (!passage.headingTrail.isEmpty())
        line += QStringLiteral(" (%1)").arg(passage.headingTrail);
    return line;
}

QString citationToolTip(const Knowledge::Passage &passage)
{
    const QString name = QDir::toNativeSeparators(passage.path);
    if (passage.page > 0)
        return QCoreApplication::translate("Gui::ChatDock",
                                           "%1, page %2. Opens the PDF in your PDF viewer; the passage "
                                           "is on page %2.")
            .arg(name, QString::number(passage.page));
    if (!passage.headingTrail.isEmpty())
        return QCoreApplication::translate("Gui::ChatDock", "%1 (%2). Opens the file with the passage selected.")
            .arg(name, passage.headingTrail);
    return QCoreApplication::translate("Gui::ChatDock", "%1. Opens the file with the passage selected.").arg(name);
}

} // namespace Gui
