#include "gui/settings/cachelifetimebox.h"

#include "llm/providerprofile.h"

#include <QSignalBlocker>

namespace Gui {

CacheLifetimeBox::CacheLifetimeBox(QWidget *parent)
    : QCheckBox(tr("Keep cached prompts for an hour"), parent)
{
    setObjectName(QStringLiteral("longCacheLifetime"));
    setToolTip(tr("Anthropic keeps a cached prompt for five minutes, or for an hour. An hour suits documents "
                  "you come back to after a break: the warm-up renews the cache every 54 minutes instead of "
                  "every 4½. Writing an hour's entry costs 2 × the input price instead of 1.25 ×; reading it "
                  "costs the same."));
}

void CacheLifetimeBox::showProfile(const Llm::ProviderProfile &profile)
{
    const QSignalBlocker blocker(this);
    setVisible(profile.format == Llm::ApiFormat::AnthropicMessages);
    setChecked(profile.encodeOptions.longCacheLifetime);
}

} // namespace Gui
