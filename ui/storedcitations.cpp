#include "storedcitations.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Gui {

QString citationsToJson(const QList<Knowledge::Passage> &passages)
{
    if (passages.isEmpty())
        return QStringLiteral("");
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
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QList<Knowledge::Passage> citationsFromJson(const QString &json)
{
    QList<Knowledge::Passage> out;
    if (json.isEmpty())
        return out;
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8());
    for (const QJsonValue &v : doc.array()) {
        const QJsonObject o = v.toObject();
        Knowledge::Passage p;
        p.path = o.value(QStringLiteral("path")).toString();
        if (p.path.isEmpty())
            return {}; // not ours: no citations rather than links to nowhere
        p.headingTrail = o.value(QStringLiteral("heading")).toString();
        p.start = qsizetype(o.value(QStringLiteral("start")).toInteger());
        p.end = qsizetype(o.value(QStringLiteral("end")).toInteger());
        p.page = o.value(QStringLiteral("page")).toInt();
        out.append(p);
    }
    return out;
}

QString citationToolTip(const Knowledge::Passage &passage)
{
    const QString name = QDir::toNativeSeparators(passage.path);
    if (passage.page > 0)
        return QCoreApplication::translate("Gui::ChatDock", "%1, page %2. Opens the PDF in your PDF viewer; the passage "
                                                            "is on page %2.")
            .arg(name, QString::number(passage.page));
    if (!passage.headingTrail.isEmpty())
        return QCoreApplication::translate("Gui::ChatDock", "%1 (%2). Opens the file with the passage selected.")
            .arg(name, passage.headingTrail);
    return QCoreApplication::translate("Gui::ChatDock", "%1. Opens the file with the passage selected.").arg(name);
}

} // namespace Gui
