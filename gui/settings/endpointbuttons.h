#pragma once

#include "workspace/settings/userendpoints.h"

#include <QWidget>

class QPushButton;

namespace Gui {

// Add…, Rename… and Remove beside the provider list of the settings dialog's Providers page. Each
// asks first (EndpointDialog for a name and format, a confirmation for Remove; window-modal,
// through open(), so no nested event loop) and then reports what the user chose: the settings
// dialog applies it, as it applies every other edit. Rename and Remove act on the provider shown,
// and only on a user endpoint: the built-ins stay as they are. GUI thread.
class EndpointButtons : public QWidget
{
    Q_OBJECT

public:
    explicit EndpointButtons(QWidget *parent = nullptr);

    // The endpoints as they are now (for names already taken) and the provider shown.
    void showProvider(const UserEndpoints &endpoints, const QString &id);

signals:
    void addAccepted(const QString &name, Llm::ApiFormat format);
    void renameAccepted(const QString &id, const QString &name);
    void removeConfirmed(const QString &id);

private:
    void askToAdd();
    void askToRename();
    void askToRemove();

    UserEndpoints m_endpoints;
    QString m_id;
    QPushButton *m_add = nullptr;
    QPushButton *m_rename = nullptr;
    QPushButton *m_remove = nullptr;
};

} // namespace Gui
