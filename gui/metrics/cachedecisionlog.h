#pragma once

#include <QDialog>

class QLabel;
class QTableWidget;

namespace Prefetch {
class ResponseCache;
}

namespace Gui {

// The response cache's decision log (Prefetch::ResponseCache::decisionLog()), newest first: when,
// the request's fingerprint, the level asked (exact, near-duplicate), the decision (served, draft,
// miss), the nearest entries with their similarity and confidence, and the time a served answer
// saved. Read when shown and on Refresh; the cache is the app's and outlives the dialog.
class CacheDecisionLog : public QDialog
{
    Q_OBJECT

public:
    explicit CacheDecisionLog(const Prefetch::ResponseCache *cache, QWidget *parent = nullptr);

    void refresh();
    QTableWidget *table() const { return m_table; }

private:
    const Prefetch::ResponseCache *m_cache;
    QLabel *m_summary;
    QTableWidget *m_table;
};

} // namespace Gui
