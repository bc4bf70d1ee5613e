// The pure part of the Relavoi call indicator: what the pill and the menu say for a
// list of calls and a clock. No GNOME imports, so the gjs unit tests load it alone.
// scripts/build-shell-extension.sh turns `export function` / `export const` into the
// legacy (GNOME 43/44) form; scripts/build-plasmoid.sh does the same for the Plasma
// widget (desktop/plasma/), which shows the same phrases by the same rules.

export const UUID = 'relavoi@relavoi.com';
export const AGENT_BUS_NAME = 'com.relavoi.Agent';
export const AGENT_OBJECT_PATH = '/com/relavoi/Agent';
export const AGENT_INTERFACE = 'com.relavoi.Agent1';
// Owned while the extension is enabled: the agent's tray item stays hidden while it has an owner.
export const INDICATOR_BUS_NAME = 'com.relavoi.Agent.ShellIndicator';

export const PHASES = ['ringing', 'live', 'ended', 'missed'];
export const BADGES = ['checking', 'verified', 'unverified', 'unavailable'];
export const RINGING_ICON = 'com.relavoi.Agent-ringing-symbolic';
// The extension's own gettext domain (metadata.json's gettext-domain; its catalogs ship
// in the extension's locale/ folder).
export const GETTEXT_DOMAIN = 'relavoi-shell';

// The words are looked up when they are shown, through the domain extension.js hands in
// (the tests hand in their own); English until then.
let translations = {
    gettext: message => message,
    ngettext: (singular, plural, n) => (n === 1 ? singular : plural),
};

// domain: an object with gettext(msgid) and ngettext(msgid, plural, n), as gjs's
// Gettext.domain() returns.
export function setTranslations(domain) {
    translations = domain;
}

function _(message) {
    return translations.gettext(message);
}

function ngettext(singular, plural, n) {
    return translations.ngettext(singular, plural, n);
}

// Marks a word for xgettext; it is translated where it is used.
function N_(message) {
    return message;
}

// `template` with each %s (and %d) replaced by the next value: translators move them.
export function fill(template, ...values) {
    let next = 0;
    return template.replace(/%[sd]/g, () => (next < values.length ? `${values[next++]}` : ''));
}

// The banner's words, for an entry that has no badge-text.
const BADGE_WORDS = {
    checking: N_('Checking…'),
    verified: N_('Verified'),
    unverified: N_('Unverified'),
    unavailable: N_('Could not verify'),
};

function text(value) {
    // One line of display text: the agent sanitizes labels, this only keeps the pill on one line.
    return typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim() : '';
}

function integer(value) {
    if (typeof value === 'bigint')
        return Number(value);
    return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0;
}

// One entry of the agent's Calls property (an unpacked a{sv}) as a call; unknown keys are
// ignored and missing or mistyped ones take their defaults. Not an object: null.
export function normalizeCall(entry) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
        return null;
    const phase = text(entry['phase']);
    const badge = text(entry['badge']);
    const known = BADGES.includes(badge) ? badge : 'unavailable';
    return {
        sessionId: typeof entry['session-id'] === 'string' ? entry['session-id'] : '',
        label: text(entry['label']),
        proxyNumber: text(entry['proxy-number']),
        badge: known,
        badgeText: text(entry['badge-text']) || _(BADGE_WORDS[known]),
        // An unknown phase is kept (the menu can list it) but never counts as ringing or live.
        phase: PHASES.includes(phase) ? phase : '',
        rangAt: integer(entry['rang-at']),
        answeredAt: integer(entry['answered-at']),
        endedAt: integer(entry['ended-at']),
        duration: Math.max(0, integer(entry['duration'])),
        // The agent can open the call's page (its open-url setting): the menu offers Open.
        canOpen: entry['can-open'] === true,
        // What the lock screen may show, as the agent decided (its lock-screen setting): no
        // card unless it says so, and only the label and number it hands over.
        lockScreen: entry['lock-screen'] === true,
        lockLabel: text(entry['lock-label']),
        lockNumber: text(entry['lock-number']),
    };
}

// The whole Calls property (an array of entries, oldest first); anything else is no calls.
export function parseCalls(entries) {
    if (!Array.isArray(entries))
        return [];
    return entries.map(normalizeCall).filter(call => call !== null);
}

function pad2(n) {
    return n < 10 ? `0${n}` : `${n}`;
}

// `01:23`, or `1:02:03` past an hour, as the banner writes it.
export function durationText(seconds) {
    const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
    const hours = Math.floor(s / 3600);
    const minutes = Math.floor((s % 3600) / 60);
    const rest = s % 60;
    return hours > 0 ? `${hours}:${pad2(minutes)}:${pad2(rest)}` : `${pad2(minutes)}:${pad2(rest)}`;
}

// Whole seconds from startMs to nowMs (unix milliseconds); 0 before the start or when unknown.
export function elapsedSeconds(startMs, nowMs) {
    if (!(startMs > 0))
        return 0;
    return Math.max(0, Math.floor((nowMs - startMs) / 1000));
}

// The timer of a live call, counted from its answer time: no tick count, so no drift.
export function timerText(answeredAtMs, nowMs) {
    return answeredAtMs > 0 ? durationText(elapsedSeconds(answeredAtMs, nowMs)) : '--:--';
}

export function isActive(call) {
    return call.phase === 'ringing' || call.phase === 'live';
}

export function activeCalls(calls) {
    return calls.filter(isActive);
}

// The call the pill shows: the newest live one, else the newest ringing one, else null.
export function primaryCall(calls) {
    const active = activeCalls(calls);
    const live = active.filter(call => call.phase === 'live');
    if (live.length > 0)
        return live[live.length - 1];
    return active.length > 0 ? active[active.length - 1] : null;
}

export function badgeIcon(badge) {
    return `com.relavoi.Agent-${BADGES.includes(badge) ? badge : 'unavailable'}-symbolic`;
}

// Every icon name the extension uses (the build ships these files in icons/).
export function iconNames() {
    return [...BADGES.map(badgeIcon), RINGING_ICON];
}

function who(call) {
    return call.label || _('an unknown caller');
}

// What the menu shows right of a call: its timer or how it ended.
export function statusText(call, nowMs) {
    switch (call.phase) {
    case 'ringing':
        return _('Ringing');
    case 'live':
        return timerText(call.answeredAt, nowMs);
    case 'ended':
        return fill(_('Ended · %s'), durationText(call.duration));
    case 'missed':
        return _('Missed');
    default:
        return '';
    }
}

// A sentence for screen readers: who, the call's state and the badge. A live call's timer
// is left out: a name that changed each second would be read again on every tick; the
// visible timer (a label of its own) still ticks. Whole sentences, with and without the
// number, so that translators can order them.
export function describeCall(call) {
    const on = call.proxyNumber !== '';
    switch (call.phase) {
    case 'ringing':
        return on
            ? fill(_('Incoming call from %s on %s, %s'), who(call), call.proxyNumber, call.badgeText)
            : fill(_('Incoming call from %s, %s'), who(call), call.badgeText);
    case 'live':
        return on
            ? fill(_('Ongoing call with %s on %s, %s'), who(call), call.proxyNumber, call.badgeText)
            : fill(_('Ongoing call with %s, %s'), who(call), call.badgeText);
    case 'ended':
        return on
            ? fill(_('Call with %s on %s ended after %s, %s'), who(call), call.proxyNumber, durationText(call.duration), call.badgeText)
            : fill(_('Call with %s ended after %s, %s'), who(call), durationText(call.duration), call.badgeText);
    case 'missed':
        return on
            ? fill(_('Missed call from %s on %s'), who(call), call.proxyNumber)
            : fill(_('Missed call from %s'), who(call));
    default:
        return on ? fill(_('Call with %s on %s'), who(call), call.proxyNumber) : fill(_('Call with %s'), who(call));
    }
}

// The answer time a live call's timer counts from, or 0 when nothing about it ticks.
export function ticksFrom(call) {
    return call.phase === 'live' && call.answeredAt > 0 ? call.answeredAt : 0;
}

// The pill: hidden with no ringing or live call; ringing shows the label, live the timer;
// `+N` counts the other ringing or live calls. `ticksFrom`: the answer time the text counts
// from (0: it does not tick); only `text` differs from one second to the next.
export function compactView(calls, nowMs) {
    const primary = primaryCall(calls);
    if (primary === null)
        return {visible: false, ringing: false, quiet: false, icon: '', text: '', count: '', accessibleName: '', ticksFrom: 0};
    const others = activeCalls(calls).length - 1;
    const ringing = primary.phase === 'ringing';
    const more = others > 0 ? fill(ngettext(', and %d more call', ', and %d more calls', others), others) : '';
    return {
        visible: true,
        ringing,
        quiet: false,
        icon: ringing ? RINGING_ICON : badgeIcon(primary.badge),
        text: ringing ? primary.label || primary.proxyNumber || _('Incoming call') : timerText(primary.answeredAt, nowMs),
        count: others > 0 ? `+${others}` : '',
        accessibleName: describeCall(primary) + more,
        ticksFrom: ticksFrom(primary),
    };
}

// One call's rows in the menu, oldest first like the property; only `status` ticks.
export function menuRow(call, nowMs) {
    return {
        title: call.label || _('Unknown caller'),
        subtitle: [call.proxyNumber, call.badgeText].filter(part => part !== '').join(' · '),
        status: statusText(call, nowMs),
        icon: call.phase === 'ringing' ? RINGING_ICON : badgeIcon(call.badge),
        accessibleName: describeCall(call),
        ticksFrom: ticksFrom(call),
        canCopy: call.proxyNumber !== '',
        canDismiss: call.sessionId !== '',
        canOpen: call.canOpen === true && call.sessionId !== '',
    };
}

// The pill's name for screen readers while no call describes it.
export function indicatorName() {
    return _('Relavoi call');
}

// The words of a call's menu actions and their names for screen readers.
export function menuActionTexts(call) {
    const title = call.label || _('Unknown caller');
    return {
        open: _('Open'),
        openName: fill(_('Open the call with %s'), title),
        copy: _('Copy number'),
        copyName: fill(_('Copy number %s'), call.proxyNumber),
        dismiss: _('Dismiss'),
        dismissName: fill(_('Dismiss the call with %s'), title),
    };
}

// The menu's last row, which opens the Relavoi window on its settings: its words and its
// name for screen readers.
export function settingsActionTexts() {
    return {label: _('Settings…'), accessibleName: _('Relavoi settings')};
}

// The calls the menu lists: all with a known phase.
export function menuCalls(calls) {
    return calls.filter(call => call.phase !== '');
}

// Milliseconds until the next of these answer times' timers turns to its next second
// (1..1000), so that a tick lands on each call's own second boundary; 1000 for none.
export function nextTickDelay(answerTimes, nowMs) {
    let delay = 1000;
    for (const answeredAt of answerTimes) {
        if (!(answeredAt > 0))
            continue;
        const since = nowMs - answeredAt;
        const wait = since < 0 ? -since : 1000 - (since % 1000);
        delay = Math.min(delay, Math.max(1, wait));
    }
    return delay;
}

// ---------------------------------------------------------------- the lock screen's cards

// Cards at most on the lock screen; the rest are counted, as the pill's +N counts them.
export const LOCK_CARDS_MAX = 3;
// Where GNOME keeps Relavoi's notification switches (gnome-shell's id for com.relavoi.Agent).
export const NOTIFICATION_SETTINGS_PATH = '/org/gnome/desktop/notifications/application/com-relavoi-agent/';

// GNOME's own choice wins: notifications on the lock screen at all, and Relavoi's switches.
export function lockScreenAllowed(showInLockScreen, appEnabled, appShowInLockScreen) {
    return showInLockScreen === true && appEnabled === true && appShowInLockScreen === true;
}

// One call's card: the badge (icon and words), the label and number the agent allowed, and
// the state: ringing, the timer, how it ended. Nothing else, and nothing to press. Its
// name for screen readers says "Ongoing call" where the card shows the timer, so that it
// does not change each second; only `state` ticks. Its parts are parted by commas there,
// as a voice reads "·" as "middle dot", and hidden digits are said as the last digits. `over`: the call has ended (or was missed).
export function lockCard(call, nowMs) {
    let state;
    switch (call.phase) {
    case 'ringing':
        state = _('Incoming call…');
        break;
    case 'live':
        state = timerText(call.answeredAt, nowMs);
        break;
    case 'ended':
        state = fill(_('Call ended · %s'), durationText(call.duration));
        break;
    default:
        state = _('Missed call');
    }
    const title = call.lockLabel || call.badgeText;
    const subtitle = [call.lockLabel ? call.badgeText : '', call.lockNumber].filter(part => part !== '').join(' · ');
    const said = call.phase === 'live' ? _('Ongoing call') : state;
    // "•••• 0001" would be read "bullet bullet bullet bullet": said as the last digits.
    const number = call.lockNumber.replace(/^•+\s*/, '');
    const numberSaid = number !== call.lockNumber ? fill(_('number ending %s'), number) : call.lockNumber;
    return {
        icon: badgeIcon(call.badge),
        title,
        subtitle,
        state,
        ticksFrom: ticksFrom(call),
        over: call.phase !== 'ringing' && call.phase !== 'live',
        accessibleName: [title, call.lockLabel ? call.badgeText : '', numberSaid, said.replaceAll(' · ', ', ')]
            .filter(part => part !== '').join(', '),
    };
}

// The lock screen's cards, newest call first, at most LOCK_CARDS_MAX, and `more` counting
// the rest. Nothing when GNOME's settings say no, or the agent allows no card.
export function lockScreenView(calls, nowMs, allowed) {
    if (!allowed)
        return {cards: [], more: ''};
    const shown = calls.filter(call => call.lockScreen && call.phase !== '').reverse();
    const cards = shown.slice(0, LOCK_CARDS_MAX).map(call => lockCard(call, nowMs));
    const extra = shown.length - cards.length;
    return {cards, more: extra > 0 ? fill(ngettext('+%d more call', '+%d more calls', extra), extra) : ''};
}

// ---------------------------------------------------------------- when calls cannot show

// The agent's Health property: what keeps calls from showing, and since when.
export const HEALTH_STATES = ['connected', 'reconnecting', 'offline', 'refused', 'not-set-up'];
export const QUIET_ICON = 'com.relavoi.Agent-unavailable-symbolic';

// The Health property (an unpacked a{sv}); anything unknown reads as nothing to tell.
export function parseHealth(entry) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
        return {state: 'connected', since: 0};
    const state = text(entry['state']);
    return {state: HEALTH_STATES.includes(state) ? state : 'connected', since: Math.max(0, integer(entry['since']))};
}

// `14:02`: a moment in local time, as the agent's notice writes it.
export function clockText(ms) {
    const date = new Date(ms);
    return `${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

// What the panel says while calls cannot show (offline, refused, not set up), or null when
// there is nothing to tell: connected, or a short reconnect, which is not news. The same
// lines as the agent's tray item; its notice names the fix (relavoi-agent login).
export function healthView(health) {
    switch (health?.state) {
    case 'offline':
        return {
            icon: QUIET_ICON,
            line: health.since > 0
                ? fill(_('Offline since %s: calls will not show'), clockText(health.since))
                : _('Offline: calls will not show'),
        };
    case 'refused':
        return {icon: QUIET_ICON, line: _('API key refused: calls will not show')};
    case 'not-set-up':
        return {icon: QUIET_ICON, line: _('Not set up: calls will not show')};
    default:
        return null;
    }
}

// The pill while no call rings or runs: the quiet state's icon alone, or nothing.
export function quietView(calls, health) {
    const view = healthView(health);
    if (view === null || primaryCall(calls) !== null)
        return null;
    return {visible: true, ringing: false, quiet: true, icon: view.icon, text: '', count: '',
        accessibleName: fill(_('Relavoi: %s'), view.line), ticksFrom: 0};
}
