#include "gui/settings/timeoutseditor.h"

#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace Gui {

namespace {

struct FieldText {
    TimeoutField field;
    const char *objectName;
    const char *label; // with its mnemonic, unique on the Providers page and the tab bar
    const char *accessible;
    const char *what; // the tooltip's first sentence
};

const FieldText Fields[] = {
    {TimeoutField::Connect, "timeout/connect", QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "Re&ach the server within:"),
     QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "Connect timeout"),
     QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "How long a new connection to the provider (or the proxy) may take.")},
    {TimeoutField::FirstByte, "timeout/firstByte", QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "First b&yte within:"),
     QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "First byte timeout"),
     QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "How long the provider may read the prompt, and think, before the "
                                              "answer begins. A long document that is not cached yet, or a model "
                                              "that reasons before it writes, can take minutes.")},
    {TimeoutField::Idle, "timeout/idle", QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "Id&le for at most:"),
     QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "Idle timeout"),
     QT_TRANSLATE_NOOP("Gui::TimeoutsEditor", "How long the answer may pause once it flows; the text so far is "
                                              "kept when it fails.")},
};

QString trText(const char *text)
{
    return QCoreApplication::translate("Gui::TimeoutsEditor", text);
}

} // namespace

TimeoutsEditor::TimeoutsEditor(QWidget *parent)
    : QGroupBox(tr("Timeouts"), parent)
{
    setObjectName(QStringLiteral("timeouts"));
    auto *form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    for (const FieldText &f : Fields) {
        const auto index = size_t(f.field);
        auto *spin = new QSpinBox(this);
        spin->setObjectName(QLatin1String(f.objectName));
        spin->setRange(Limits::MinTimeoutSeconds[index], Limits::MaxTimeoutSeconds[index]);
        spin->setSuffix(tr(" s"));
        spin->setAccessibleName(trText(f.accessible));
        auto *label = new QLabel(trText(f.label), this);
        label->setBuddy(spin);
        form->addRow(label, spin);
        m_spins[index] = spin;
        connect(spin, &QSpinBox::valueChanged, this,
                [this, field = f.field](int seconds) { emit timeoutEdited(field, seconds); });
    }
}

void TimeoutsEditor::showProfile(const Llm::ProviderProfile &profile, const Llm::ProviderProfile &builtin)
{
    for (const FieldText &f : Fields) {
        QSpinBox *spin = m_spins[size_t(f.field)];
        const QSignalBlocker blocker(spin);
        spin->setValue(timeoutSecondsOf(profile.timeouts, f.field));
        spin->setToolTip(tr("%1 Built in: %2 s; from %3 to %4 s.")
                             .arg(trText(f.what))
                             .arg(timeoutSecondsOf(builtin.timeouts, f.field))
                             .arg(spin->minimum())
                             .arg(spin->maximum()));
    }
}

} // namespace Gui
