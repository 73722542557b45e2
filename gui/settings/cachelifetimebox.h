#pragma once

#include <QCheckBox>

namespace Llm {
struct ProviderProfile;
}

namespace Gui {

// "Keep the prompt cache for an hour" for one provider profile, on the settings dialog's
// Providers page: Anthropic caches a prompt for five minutes, or for an hour at a higher write
// price. Hidden for profiles that have no such choice. Holds no settings: the dialog applies
// toggled(). GUI thread.
class CacheLifetimeBox : public QCheckBox
{
    Q_OBJECT

public:
    explicit CacheLifetimeBox(QWidget *parent = nullptr);

    // Shows the choice of `profile`, or hides itself when it has none; emits nothing.
    void showProfile(const Llm::ProviderProfile &profile);
};

} // namespace Gui
