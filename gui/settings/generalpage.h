#pragma once

#include "workspace/settings/appsettings.h"

#include <QCoreApplication>
#include <QTimer>
#include <QWidget>

#include <functional>

class QComboBox;
class QSpinBox;

namespace Gui {

// The settings dialog's General page: the interface language (at the next start), the language
// Translate writes (a listed one, stored by its English name, or any typed), text size, colour
// scheme and how much the log records. Edits go straight into the dialog's AppSettings, a typed
// language after a pause in typing, and each is reported through `edited`.
//
// No Q_OBJECT, hence a callback rather than a signal: its strings stay in the dialog's
// translation context (Gui::SettingsDialog), where the catalogue has them. GUI thread.
class GeneralPage : public QWidget
{
    Q_DECLARE_TR_FUNCTIONS(Gui::SettingsDialog)

public:
    // `settings` is the dialog's and must outlive the page.
    GeneralPage(AppSettings &settings, std::function<void()> edited, int textDebounceMs, QWidget *parent = nullptr);

    // Shows what the settings hold now, dropping a language typed and not applied yet; reports
    // nothing.
    void showSettings();
    // Applies a language still waiting for a pause in typing.
    void commitPendingEdits();

private:
    void applyTranslateTarget();

    AppSettings &m_settings;
    std::function<void()> m_edited;
    QTimer m_textTimer;

    QComboBox *m_language = nullptr;
    QComboBox *m_translateTarget = nullptr;
    QComboBox *m_logDetail = nullptr;
    QSpinBox *m_textSize = nullptr;
    QComboBox *m_colorScheme = nullptr;
};

} // namespace Gui
