#include "gui/mainwindow/helpdialogs.h"

#include "gui/widgets/mnemonic.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <spdlog/version.h>

namespace Gui {

namespace {

QString sqliteVersion()
{
    // The library the conversation store uses, asked at run time (it may be newer than the
    // headers Qt was built with).
    const QString name = QStringLiteral("headstart-about");
    QString version;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(QStringLiteral(":memory:"));
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("SELECT sqlite_version()")) && q.next())
                version = q.value(0).toString();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return version.isEmpty() ? QCoreApplication::translate("Gui::HelpDialogs", "not available") : version;
}

// "Save &As…" → "Save As": the list names actions, not menu entries that open a dialog.
QString actionName(const QString &text)
{
    return withoutMnemonic(text).remove(QStringLiteral("…")).trimmed();
}

// Qt binds the standard keys to keys few keyboards have as well: Sun's Copy, Cut, Paste, Undo
// and Find keys reach X11 as F16, F20, F18, F14 and F19, and some keyboards have dedicated
// Copy/Cut/Paste keys. They work where present, but listed they read as shortcuts to learn.
bool onCommonKeyboards(const QKeySequence &sequence)
{
    for (int i = 0; i < sequence.count(); ++i) {
        const Qt::Key key = sequence[i].key();
        if ((key >= Qt::Key_F13 && key <= Qt::Key_F35) || key == Qt::Key_Copy || key == Qt::Key_Cut
            || key == Qt::Key_Paste)
            return false;
    }
    return true;
}

} // namespace

void showAboutDialog(QWidget *parent)
{
    const QString text =
        QStringLiteral("<h3>Headstart %1</h3><p>%2</p><p>%3</p><p>%4</p>")
            .arg(QCoreApplication::applicationVersion().toHtmlEscaped(),
                 QCoreApplication::translate(
                     "Gui::HelpDialogs",
                     "A writing and chat assistant for language models that starts the answer before you ask."),
                 QCoreApplication::translate("Gui::HelpDialogs",
                                             "Released under the MIT licence. Copyright © Headstart developers."),
                 QCoreApplication::translate("Gui::HelpDialogs", "Qt %1 (built with %2) · spdlog %3 · SQLite %4")
                     .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
                          QStringLiteral("%1.%2.%3").arg(SPDLOG_VER_MAJOR).arg(SPDLOG_VER_MINOR).arg(SPDLOG_VER_PATCH),
                          sqliteVersion()));
    auto *box = new QMessageBox(QMessageBox::NoIcon, QCoreApplication::translate("Gui::HelpDialogs", "About Headstart"),
                                text, QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("aboutDialog"));
    box->setTextFormat(Qt::RichText);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse); // versions go into bug reports
    if (const QIcon icon = QApplication::windowIcon(); !icon.isNull())
        box->setIconPixmap(icon.pixmap(64, 64));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void showShortcutsDialog(QWidget *window)
{
    auto *dialog = new QDialog(window);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setWindowTitle(QCoreApplication::translate("Gui::HelpDialogs", "Keyboard Shortcuts"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *search = new QLineEdit(dialog);
    search->setObjectName(QStringLiteral("shortcutSearch"));
    search->setPlaceholderText(QCoreApplication::translate("Gui::HelpDialogs", "Search actions and keys"));
    search->setAccessibleName(QCoreApplication::translate("Gui::HelpDialogs", "Search shortcuts"));
    search->setClearButtonEnabled(true);
    auto *list = new QTreeWidget(dialog);
    list->setObjectName(QStringLiteral("shortcutList"));
    list->setColumnCount(2);
    list->setHeaderLabels({QCoreApplication::translate("Gui::HelpDialogs", "Action"),
                           QCoreApplication::translate("Gui::HelpDialogs", "Keys")});
    list->setRootIsDecorated(false);
    list->setAlternatingRowColors(true);
    list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);

    QSet<QString> seen;
    const auto actions = window->findChildren<QAction *>();
    for (const QAction *a : actions) {
        if (a->shortcuts().isEmpty() || a->isSeparator())
            continue;
        const QString name = actionName(a->text());
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts()) {
            if (!onCommonKeyboards(k))
                continue;
            keys << k.toString(QKeySequence::NativeText);
        }
        if (keys.isEmpty())
            continue;
        const QString shown = keys.join(QStringLiteral(", "));
        if (name.isEmpty() || seen.contains(name + shown))
            continue; // the same action in a menu and on a button
        seen.insert(name + shown);
        list->addTopLevelItem(new QTreeWidgetItem({name, shown}));
    }
    list->sortItems(0, Qt::AscendingOrder);
    QObject::connect(search, &QLineEdit::textChanged, list, [list](const QString &text) {
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = list->topLevelItem(i);
            item->setHidden(!text.isEmpty() && !item->text(0).contains(text, Qt::CaseInsensitive)
                            && !item->text(1).contains(text, Qt::CaseInsensitive));
        }
    });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(search);
    layout->addWidget(list, 1);
    layout->addWidget(buttons);
    const QFontMetrics metrics = dialog->fontMetrics();
    dialog->resize(metrics.averageCharWidth() * 70, metrics.lineSpacing() * 30);
    dialog->open();
    search->setFocus();
}

QString userGuidePath()
{
    const QString installed =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/doc/headstart/user-guide.md"));
    if (QFileInfo::exists(installed))
        return QFileInfo(installed).canonicalFilePath();
#ifdef HEADSTART_SOURCE_DOCS
    if (const QString source = QStringLiteral(HEADSTART_SOURCE_DOCS "/user-guide.md"); QFileInfo::exists(source))
        return source; // a build run where it was built, not installed
#endif
    return {};
}

void showGuideMissing(QWidget *parent)
{
    auto *box = new QMessageBox(QMessageBox::Information, QCoreApplication::translate("Gui::HelpDialogs", "User Guide"),
                                QCoreApplication::translate("Gui::HelpDialogs", "The user guide is not installed."),
                                QMessageBox::Close, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace Gui
