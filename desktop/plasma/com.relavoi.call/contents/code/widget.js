.pragma library
.import "model.js" as Model

// What the Plasma widget shows for the agent's Calls and Health properties and a clock.
// The phrases and rules are the GNOME pill's: model.js is built from
// desktop/gnome-shell/src/model.js (scripts/build-plasmoid.sh), never edited here.
// No Plasma imports, so Tests/plasma/ loads it with the host's qmltestrunner.

var AGENT_BUS_NAME = Model.AGENT_BUS_NAME;
var AGENT_OBJECT_PATH = Model.AGENT_OBJECT_PATH;
var AGENT_INTERFACE = Model.AGENT_INTERFACE;

// domain: gettext(msgid) and ngettext(singular, plural, n), as main.qml builds them on i18nd.
function setTranslations(domain) {
    Model.setTranslations(domain);
}

// org.kde.plasma.workspace.dbus hands a{sv} values over as its value types (DBus.string,
// DBus.int64…: `{value: …}`), booleans as they are (seen on Plasma 6.7.4): the plain value.
function plain(value) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && value.value !== undefined
        && Object.keys(value).length === 1)
        return plain(value.value);
    return value;
}

// One a{sv} with its values made plain; anything else as it is (the model drops it).
function plainEntry(entry) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
        return entry;
    var out = {};
    for (var key in entry)
        out[key] = plain(entry[key]);
    return out;
}

// The Calls property as decoded (a list of maps), anything else as no calls.
function parseCalls(value) {
    value = plain(value);
    // A QVariantList reaches JS as an array-like object on some Qt versions.
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.length === 'number')
        value = Array.prototype.slice.call(value);
    return Model.parseCalls(Array.isArray(value) ? value.map(plainEntry) : value);
}

function parseHealth(value) {
    return Model.parseHealth(plainEntry(plain(value)));
}

// The panel's part: the pill's view (ringing: label; live: timer; +N), else the quiet
// state's icon alone (offline, key refused, not set up), else nothing. `active` is the
// plasmoid's status: Active while it shows something, Passive otherwise (no room).
function compactView(calls, health, nowMs) {
    var view = Model.compactView(calls, nowMs);
    if (!view.visible)
        view = Model.quietView(calls, health) || view;
    return {
        active: view.visible,
        ringing: view.ringing,
        quiet: view.quiet,
        icon: view.icon,
        text: view.text,
        count: view.count,
        accessibleName: view.visible ? view.accessibleName : Model.indicatorName(),
    };
}

// One call in the opened view: the card (label, number, badge word, timer or state) and
// its actions, with their names for screen readers.
function card(call, nowMs) {
    var row = Model.menuRow(call, nowMs);
    var words = Model.menuActionTexts(call);
    return {
        sessionId: call.sessionId,
        phase: call.phase,
        title: row.title,
        number: call.proxyNumber,
        badgeText: call.badgeText,
        status: row.status,
        icon: row.icon,
        accessibleName: row.accessibleName,
        canDismiss: row.canDismiss,
        canOpen: row.canOpen,
        open: words.open,
        openName: words.openName,
        dismiss: words.dismiss,
        dismissName: words.dismissName,
    };
}

// An empty card, for a card whose view is going.
function blankCard() {
    return {
        sessionId: '', phase: '', title: '', number: '', badgeText: '', status: '', icon: '',
        accessibleName: '', canDismiss: false, canOpen: false, open: '', openName: '', dismiss: '',
        dismissName: '',
    };
}

// The opened view: the calls that ring, run or just ended (oldest first, as the pill's
// menu lists them), the missed calls the agent holds, the quiet state's line and the
// Settings… row.
function fullView(calls, health, nowMs) {
    var shown = Model.menuCalls(calls);
    var quiet = Model.healthView(health);
    return {
        calls: shown.filter(function (call) { return call.phase !== 'missed'; })
            .map(function (call) { return card(call, nowMs); }),
        missed: shown.filter(function (call) { return call.phase === 'missed'; })
            .map(function (call) { return card(call, nowMs); }),
        healthLine: quiet !== null ? quiet.line : '',
        settings: Model.settingsActionTexts(),
    };
}

// The timer runs only while a live call is shown; nothing wakes otherwise.
function ticks(calls) {
    return calls.some(function (call) { return Model.ticksFrom(call) > 0; });
}

// Milliseconds to the next second of a live call's own timer, counted from its answer.
function nextTickDelay(calls, nowMs) {
    return Model.nextTickDelay(calls.map(Model.ticksFrom), nowMs);
}

// How late a tick may come after the call's second and still count as on it.
var TICK_SLACK_MS = 50;

// The interval of the live call's repeating timer after a tick (or a change) at nowMs: a
// whole second while the ticks come on the call's second (up to TICK_SLACK_MS after it),
// else the wait to that second, and a whole second again from there. The interval stays
// the same from one second to the next because re-arming a QML Timer makes plasmashell
// draw all its windows (docs/plasma.md, "What a tick costs").
function tickInterval(calls, nowMs) {
    var delay = nextTickDelay(calls, nowMs);
    return delay >= 1000 - TICK_SLACK_MS ? 1000 : delay;
}

// The panel text's shape, each digit a 0: the width the timer keeps, so a tick changes
// the digits only and the panel is not laid out anew ("00:07" and "00:58" are "00:00").
function textShape(text) {
    return text.replace(/[0-9]/g, "0");
}
