#pragma once

#include "layout.h"
#include "random.h"

namespace Bench::Gen {

class Session;

// How a user moves the mouse. Sources in bench/README.md ("Pointer paths").
struct PointerParams {
    // Fitts's law, MT = log2(D/W + 1) / TP with W the target's extent along the approach
    // (MacKenzie & Buxton 1992); TP (throughput, bits/s) is drawn once per trace.
    double throughputMin;
    double throughputMax;
    double timeSigma; // one movement's time around the law's (lognormal σ)
    qint64 minMoveMs;
    double maxPeakSpeed; // px/s: a long move to a wide target is not faster than this
    // Meyer et al. 1988: the primary submovement's endpoint has a standard deviation that grows
    // linearly with its mean velocity, SD = k·v (k in seconds); when it ends off the target a
    // corrective submovement follows.
    double primarySpread;
    double acrossRatio;      // SD across the movement ÷ SD along it
    Lognormal correctionGap; // the primary's end → the corrective submovement's start
    // Paths are nearly straight (Flash & Hogan 1985) but a mouse bows them a little sideways.
    double bowSigma; // the bow's height as a share of the path's length
    // At rest the hand sometimes nudges the mouse.
    double driftChance; // per rest of a second or more
    Lognormal driftTime;
    IntRange driftPixels;
};

extern const PointerParams MouseUser;

// The mouse pointer of one trace: minimum-jerk movements (Flash & Hogan 1985) sampled on a 60 Hz
// grid, one "pointer" line per sample whose pixel changed, and the hover events the samples
// imply: "hover_enter" at the first sample inside a button, "hover_leave" at the first outside,
// each written right after its sample (Qt learns of both from a mouse move). Movements start at
// the session's clock and leave it at their last sample.
class Pointer
{
public:
    Pointer(Session &s, const Layout &layout, const PointerParams &params);

    // The position when the trace starts: one "pointer" line.
    void place(Point p);
    // Aims at `target`'s centre and ends inside it, after a corrective submovement when the
    // primary one misses.
    void acquire(const Rect &target);
    // Moves to a point in an area (a place to read, a spot in the text): no endpoint error, the
    // point is already drawn; `width` is the area's size for Fitts's law.
    void moveTo(Point to, double width);
    // Moves to `to` in `durationMs`: a drag over text.
    void dragTo(Point to, qint64 durationMs);
    // `ms` with the hand on the mouse: no events, or a drift of a few pixels that keeps the
    // pointer on the button it is on (or off every button).
    void rest(qint64 ms);

    Point position() const { return m_position; }
    int hovered() const { return m_hovered; }
    qint64 hoveredSince() const { return m_hoveredSince; }
    const Layout &layout() const { return m_layout; }
    // A modal dialog is open: the main window's buttons get no hover.
    void setBlocked(bool blocked);

    // Fitts's law for this user, in ms, before the movement's own variability.
    double fittsMs(double distance, double width) const;
    // A drawn movement time within the floors: the shortest movement, the fastest pointer.
    double movementMs(double distance, double ms) const;

private:
    void glide(Point to, double durationMs, double bow);
    void sample(qint64 t, qint64 x, qint64 y);

    Session &m_session;
    const Layout &m_layout;
    const PointerParams &m_params;
    double m_throughput;
    Point m_position;
    qint64 m_lastX = -1;
    qint64 m_lastY = -1;
    int m_hovered = -1;
    qint64 m_hoveredSince = -1;
    bool m_blocked = false;
};

// The 60 Hz sampling grid: sample k at round(k × 1000 / 60) ms, so 16 or 17 ms apart.
qint64 gridTime(qint64 k);
qint64 firstGridIndexAfter(qint64 t);

} // namespace Bench::Gen
