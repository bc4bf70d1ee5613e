// gjs unit tests of the extension's pure part (model.js), for one build:
//   gjs -m Tests/shell/model-test.js legacy|esm BUILD_DIR
// BUILD_DIR is the generated relavoi@relavoi.com folder. The legacy build is loaded with
// imports.* as GNOME 43/44 load it, the ESM build with import() as GNOME 45+ do. Every
// .js file of the build is also compiled, to catch a syntax error in either form.
// Prints one line a check and "N passed, N failed"; exits 1 when a check failed.
import GLib from 'gi://GLib';
import System from 'system';

const [form, dir] = ARGV;
if (!['legacy', 'esm'].includes(form) || !dir) {
    printerr('usage: gjs -m model-test.js legacy|esm BUILD_DIR');
    System.exit(2);
}

let M;
if (form === 'legacy') {
    imports.searchPath.unshift(dir);
    M = imports.model;
} else {
    M = await import(`file://${dir}/model.js`);
}

let passed = 0, failed = 0;
function check(name, actual, expected) {
    const a = JSON.stringify(actual), e = JSON.stringify(expected);
    if (a === e) {
        passed++;
        print(`ok - ${form}: ${name}`);
    } else {
        failed++;
        print(`FAIL - ${form}: ${name}: got ${a}, want ${e}`);
    }
}

const T0 = 1764590400000; // a whole second, unix ms
const entry = (over = {}) => ({
    'session-id': 's1', 'label': 'Alice', 'proxy-number': '+2348000000001', 'badge': 'verified',
    'badge-text': 'Verified', 'phase': 'live', 'rang-at': T0 - 5000, 'answered-at': T0, 'ended-at': 0,
    'duration': 0, ...over,
});
const calls = list => M.parseCalls(list);

// Timer text from the answer time and now.
check('timer at the answer', M.timerText(T0, T0), '00:00');
check('timer 999 ms in', M.timerText(T0, T0 + 999), '00:00');
check('timer 83 s in', M.timerText(T0, T0 + 83000), '01:23');
check('timer 59:59', M.timerText(T0, T0 + 3599000), '59:59');
check('timer past an hour', M.timerText(T0, T0 + 3723000), '1:02:03');
check('timer past ten hours', M.timerText(T0, T0 + 36000000), '10:00:00');
check('timer before the answer (clock step) is 00:00', M.timerText(T0, T0 - 4000), '00:00');
check('timer with no answer time', M.timerText(0, T0), '--:--');
check('duration text', [M.durationText(0), M.durationText(61), M.durationText(-5), M.durationText(NaN)],
    ['00:00', '01:01', '00:00', '00:00']);

// Parsing the Calls property: defaults, unknown keys, bad types.
check('a full entry', calls([entry()])[0], {
    sessionId: 's1', label: 'Alice', proxyNumber: '+2348000000001', badge: 'verified', badgeText: 'Verified',
    phase: 'live', rangAt: T0 - 5000, answeredAt: T0, endedAt: 0, duration: 0, canOpen: false,
    lockScreen: false, lockLabel: '', lockNumber: '',
});
check('an empty entry takes the defaults', calls([{}])[0], {
    sessionId: '', label: '', proxyNumber: '', badge: 'unavailable', badgeText: 'Could not verify',
    phase: '', rangAt: 0, answeredAt: 0, endedAt: 0, duration: 0, canOpen: false,
    lockScreen: false, lockLabel: '', lockNumber: '',
});
check('unknown keys are ignored', calls([entry({'avatar': 'x', 'future-key': 42})]).length, 1);
check('mistyped values take defaults', calls([entry({'label': 7, 'answered-at': 'soon', 'badge': ['verified']})])[0],
    {...calls([entry()])[0], label: '', answeredAt: 0, badge: 'unavailable', badgeText: 'Verified'});
check('int64 as BigInt', calls([entry({'answered-at': BigInt(T0)})])[0].answeredAt, T0);
check('badge-text defaults to the banner words', ['checking', 'verified', 'unverified', 'unavailable']
    .map(badge => calls([entry({badge, 'badge-text': undefined})])[0].badgeText),
['Checking…', 'Verified', 'Unverified', 'Could not verify']);
check('a label stays on one line', calls([entry({label: 'Al\nice\u2028x\t'})])[0].label, 'Al ice x');
check('non-objects are dropped', calls([null, 3, 'x', [], entry()]).length, 1);
check('a Calls that is not a list is no calls', [M.parseCalls(null), M.parseCalls({}), M.parseCalls('x')], [[], [], []]);

// The compact view: 0, 1 and several calls; ringing vs live.
check('no call, no pill', M.compactView([], T0), {visible: false, ringing: false, quiet: false, icon: '', text: '', count: '', accessibleName: '', ticksFrom: 0});
check('only ended and missed calls, no pill',
    M.compactView(calls([entry({phase: 'ended', duration: 30}), entry({phase: 'missed'})]), T0).visible, false);
check('an unknown phase, no pill', M.compactView(calls([entry({phase: 'on-hold'})]), T0).visible, false);
check('one live call', M.compactView(calls([entry()]), T0 + 83000), {
    visible: true, ringing: false, quiet: false, icon: 'com.relavoi.Agent-verified-symbolic', text: '01:23', count: '',
    accessibleName: 'Ongoing call with Alice on +2348000000001, Verified', ticksFrom: T0,
});
check('the pill\'s name is the same at every second (only its text ticks)',
    [M.compactView(calls([entry()]), T0 + 1000).accessibleName, M.compactView(calls([entry()]), T0 + 3723000).accessibleName],
    ['Ongoing call with Alice on +2348000000001, Verified', 'Ongoing call with Alice on +2348000000001, Verified']);
check('one ringing call shows the label', M.compactView(calls([entry({phase: 'ringing', 'answered-at': 0, badge: 'checking', 'badge-text': 'Checking…'})]), T0), {
    visible: true, ringing: true, quiet: false, icon: 'com.relavoi.Agent-ringing-symbolic', text: 'Alice', count: '',
    accessibleName: 'Incoming call from Alice on +2348000000001, Checking…', ticksFrom: 0,
});
check('ringing without a label shows the number',
    M.compactView(calls([entry({phase: 'ringing', label: ''})]), T0).text, '+2348000000001');
check('ringing without label or number',
    M.compactView(calls([entry({phase: 'ringing', label: '', 'proxy-number': ''})]), T0).text, 'Incoming call');
const three = calls([
    entry({'session-id': 'a', label: 'Old', 'answered-at': T0 - 60000, badge: 'unverified', 'badge-text': 'Unverified'}),
    entry({'session-id': 'b', label: 'New', 'answered-at': T0 - 5000}),
    entry({'session-id': 'c', label: 'Ring', phase: 'ringing', 'answered-at': 0}),
    entry({'session-id': 'd', label: 'Gone', phase: 'ended', duration: 12}),
]);
check('several calls: the newest live one plus a count', M.compactView(three, T0), {
    visible: true, ringing: false, quiet: false, icon: 'com.relavoi.Agent-verified-symbolic', text: '00:05', count: '+2',
    accessibleName: 'Ongoing call with New on +2348000000001, Verified, and 2 more calls', ticksFrom: T0 - 5000,
});
check('two calls: +1', M.compactView(three.slice(0, 2), T0).count, '+1');
check('two calls: one more call', M.compactView(three.slice(0, 2), T0).accessibleName.endsWith(', and 1 more call'), true);
check('two ringing: the newest', M.compactView(calls([entry({label: 'A', phase: 'ringing'}), entry({label: 'B', phase: 'ringing'})]), T0).text, 'B');
check('primary call', M.primaryCall(three).sessionId, 'b');

// Badge states and icons.
check('badge icons', ['checking', 'verified', 'unverified', 'unavailable', 'bogus'].map(M.badgeIcon), [
    'com.relavoi.Agent-checking-symbolic', 'com.relavoi.Agent-verified-symbolic',
    'com.relavoi.Agent-unverified-symbolic', 'com.relavoi.Agent-unavailable-symbolic',
    'com.relavoi.Agent-unavailable-symbolic',
]);
check('icon names', M.iconNames().length, 5);
check('live unverified icon', M.compactView(calls([entry({badge: 'unverified'})]), T0).icon, 'com.relavoi.Agent-unverified-symbolic');

// Accessible names and menu rows.
check('describe an unlabelled live call', M.describeCall(calls([entry({label: '', 'proxy-number': ''})])[0]),
    'Ongoing call with an unknown caller, Verified');
check('describe an ended call', M.describeCall(calls([entry({phase: 'ended', duration: 754})])[0]),
    'Call with Alice on +2348000000001 ended after 12:34, Verified');
check('describe a missed call', M.describeCall(calls([entry({phase: 'missed'})])[0]),
    'Missed call from Alice on +2348000000001');
check('menu row of a live call', M.menuRow(three[0], T0), {
    title: 'Old', subtitle: '+2348000000001 · Unverified', status: '01:00', icon: 'com.relavoi.Agent-unverified-symbolic',
    accessibleName: 'Ongoing call with Old on +2348000000001, Unverified', ticksFrom: T0 - 60000, canCopy: true,
    canDismiss: true, canOpen: false,
});
check('menu row statuses', three.map(c => M.menuRow(c, T0).status), ['01:00', '00:05', 'Ringing', 'Ended · 00:12']);
check('menu row without number or id', M.menuRow(calls([{phase: 'live'}])[0], T0),
    {title: 'Unknown caller', subtitle: 'Could not verify', status: '--:--', icon: 'com.relavoi.Agent-unavailable-symbolic',
        accessibleName: 'Ongoing call with an unknown caller, Could not verify', ticksFrom: 0, canCopy: false, canDismiss: false,
        canOpen: false});
check('Open only when the agent says it can open the call',
    [M.menuRow(calls([entry({'can-open': true})])[0], T0).canOpen, M.menuRow(calls([entry({'can-open': 'yes'})])[0], T0).canOpen,
        M.menuRow(calls([{phase: 'live', 'can-open': true}])[0], T0).canOpen],
    [true, false, false]);
check('the menu leaves out unknown phases', M.menuCalls(calls([entry({phase: 'hold'}), {}])).length, 0);
check('the menu lists every call with a known phase', M.menuCalls(three).map(c => c.sessionId), ['a', 'b', 'c', 'd']);

// The timer ticks only while a live call is shown, on its second boundaries.
check('only a live call with an answer time ticks', [entry({phase: 'ringing'}), entry({phase: 'ended'}), entry(),
    entry({'answered-at': 0})].map(e => M.ticksFrom(calls([e])[0])), [0, 0, T0, 0]);
check('next tick at the call\'s next second', M.nextTickDelay([T0], T0 + 83250), 750);
check('next tick right on a boundary is a whole second', M.nextTickDelay([T0], T0 + 2000), 1000);
check('next tick: the soonest of several calls', M.nextTickDelay([T0, T0 + 400], T0 + 1100), 300);
check('next tick before the answer time (a clock step): at the answer time', M.nextTickDelay([T0 + 250], T0), 250);
check('next tick with no live call', M.nextTickDelay([], T0), 1000);

// The lock screen's cards: only what the agent allowed, GNOME's switches first.
const locked = over => entry({'lock-screen': true, 'lock-label': 'Alice', 'lock-number': '•••• 0001', ...over});
check('an entry without lock keys gets no card (an older agent: say less)',
    M.lockScreenView(calls([entry()]), T0, true), {cards: [], more: ''});
check('GNOME\'s switches win', M.lockScreenView(calls([locked()]), T0, false), {cards: [], more: ''});
check('lockScreenAllowed needs all three switches', [
    M.lockScreenAllowed(true, true, true), M.lockScreenAllowed(false, true, true),
    M.lockScreenAllowed(true, false, true), M.lockScreenAllowed(true, true, false), M.lockScreenAllowed(true, true, undefined),
], [true, false, false, false, false]);
check('a live card: label, badge, last digits, the timer', M.lockCard(calls([locked()])[0], T0 + 42000), {
    icon: 'com.relavoi.Agent-verified-symbolic', title: 'Alice', subtitle: 'Verified · •••• 0001', state: '00:42', ticksFrom: T0,
    over: false, accessibleName: 'Alice, Verified, number ending 0001, Ongoing call',
});
check('a card\'s name says the state, not the timer, in commas (a voice reads "·" as "middle dot"), the hidden digits as words; ended and ringing say theirs',
    ['ringing', 'ended'].map(phase => M.lockCard(calls([locked({phase, duration: 42})])[0], T0).accessibleName),
    ['Alice, Verified, number ending 0001, Incoming call…', 'Alice, Verified, number ending 0001, Call ended, 00:42']);
check('a card is over once its call ended or was missed (it is then made anew, and heard)',
    ['ringing', 'live', 'ended', 'missed'].map(phase => M.lockCard(calls([locked({phase, duration: 42})])[0], T0).over),
    [false, false, true, true]);
check('a number the agent hands over whole is said as it is', M.lockCard(calls([locked({'lock-number': '+234 800 000 0001'})])[0], T0).accessibleName,
    'Alice, Verified, +234 800 000 0001, Ongoing call');
check('the states of each phase', ['ringing', 'live', 'ended', 'missed'].map(phase =>
    M.lockCard(calls([locked({phase, duration: 42})])[0], T0 + 5000).state),
['Incoming call…', '00:05', 'Call ended · 00:42', 'Missed call']);
check('each badge, icon and words', ['checking', 'verified', 'unverified', 'unavailable'].map(badge => {
    const card = M.lockCard(calls([locked({badge, 'badge-text': ''})])[0], T0);
    return [card.icon, card.subtitle.split(' · ')[0]];
}), [['com.relavoi.Agent-checking-symbolic', 'Checking…'], ['com.relavoi.Agent-verified-symbolic', 'Verified'],
    ['com.relavoi.Agent-unverified-symbolic', 'Unverified'], ['com.relavoi.Agent-unavailable-symbolic', 'Could not verify']]);
check('badge and timer only: the badge is the title, no number', M.lockCard(calls([locked({'lock-label': '', 'lock-number': ''})])[0], T0 + 1000),
    {icon: 'com.relavoi.Agent-verified-symbolic', title: 'Verified', subtitle: '', state: '00:01', ticksFrom: T0, over: false, accessibleName: 'Verified, Ongoing call'});
check('the number on a card is only what the agent handed over, never the entry\'s proxy-number', [
    JSON.stringify(M.lockScreenView(calls([locked()]), T0, true)).includes('+2348000000001'),
    JSON.stringify(M.lockScreenView(calls([locked({'lock-number': ''})]), T0, true)).includes('8000000001'),
], [false, false]);
const many = calls(['a', 'b', 'c', 'd', 'e'].map((id, i) => locked({'session-id': id, 'lock-label': id.toUpperCase(), 'answered-at': T0 - i * 1000})));
check('newest first, capped, the rest counted', [M.lockScreenView(many, T0, true).cards.map(c => c.title),
    M.lockScreenView(many, T0, true).more, M.lockScreenView(many.slice(0, 4), T0, true).more, M.lockScreenView(many.slice(0, 3), T0, true).more],
[['E', 'D', 'C'], '+2 more calls', '+1 more call', '']);
check('the lock screen ticks only for a live call it shows', [
    M.lockScreenView(calls([locked()]), T0, true), M.lockScreenView(calls([locked()]), T0, false),
    M.lockScreenView(calls([entry()]), T0, true), M.lockScreenView(calls([locked({phase: 'ended'})]), T0, true),
].map(view => view.cards.map(card => card.ticksFrom)), [[T0], [], [], [0]]);

// When calls cannot show: the Health property, a quiet pill while no call shows.
const localNoon = new Date(2026, 11, 3, 14, 2, 30).getTime();
check('Health parsed; unknown or missing reads as connected', [
    M.parseHealth({state: 'offline', since: BigInt(localNoon)}), M.parseHealth({state: 'asleep'}), M.parseHealth(null),
    M.parseHealth({state: 'refused', since: 'x'}),
], [{state: 'offline', since: localNoon}, {state: 'connected', since: 0}, {state: 'connected', since: 0},
    {state: 'refused', since: 0}]);
check('nothing to tell when connected or reconnecting', [
    M.healthView({state: 'connected', since: 0}), M.healthView({state: 'reconnecting', since: localNoon}), M.healthView(null),
], [null, null, null]);
check('offline since a local time', M.healthView({state: 'offline', since: localNoon}),
    {icon: 'com.relavoi.Agent-unavailable-symbolic', line: 'Offline since 14:02: calls will not show'});
check('refused and not set up, as the tray item says them', [M.healthView({state: 'refused', since: localNoon}).line,
    M.healthView({state: 'not-set-up', since: 0}).line],
['API key refused: calls will not show', 'Not set up: calls will not show']);
check('the quiet pill: icon only, while no call rings or runs', M.quietView([], {state: 'offline', since: localNoon}), {
    visible: true, ringing: false, quiet: true, icon: 'com.relavoi.Agent-unavailable-symbolic', text: '', count: '',
    accessibleName: 'Relavoi: Offline since 14:02: calls will not show', ticksFrom: 0,
});
check('a call wins over the quiet pill; connected shows nothing', [
    M.quietView(calls([entry()]), {state: 'offline', since: localNoon}), M.quietView([], {state: 'connected', since: 0}),
    M.quietView(calls([entry({phase: 'ended'})]), {state: 'refused', since: 0})?.quiet,
], [null, null, true]);

// The menu's last row opens the Relavoi window.
check('the menu\'s Settings… row', M.settingsActionTexts(), {label: 'Settings…', accessibleName: 'Relavoi settings'});

// The words go through the domain extension.js hands in, looked up when shown.
M.setTranslations({gettext: s => `<${s}>`, ngettext: (s, p, n) => `<${n === 1 ? s : p}>`});
check('translated: badge words, statuses and the menu actions', [
    calls([entry({badge: 'checking', 'badge-text': ''})])[0].badgeText,
    M.statusText(calls([entry({phase: 'ringing'})])[0], T0),
    M.statusText(calls([entry({phase: 'ended', duration: 12})])[0], T0),
    M.menuActionTexts(calls([entry()])[0]).dismissName,
    M.indicatorName(),
], ['<Checking…>', '<Ringing>', '<Ended · 00:12>', '<Dismiss the call with %s>'.replace('%s', 'Alice'), '<Relavoi call>']);
check('translated: the count of other calls takes the plural form',
    M.compactView(three, T0).accessibleName.endsWith('<, and %d more calls>'.replace('%d', '2')), true);
check('fill puts values in order and drops missing ones', [M.fill('%s on %s', 'a', 'b'), M.fill('%d and %s', 3)],
    ['a on b', '3 and ']);
// The build's French catalog (locale/fr), read by gjs's gettext as the shell reads it.
const Gettext = imports.gettext;
Gettext.bindtextdomain(M.GETTEXT_DOMAIN, `${dir}/locale`);
if (GLib.getenv('LANG')?.startsWith('fr')) {
    M.setTranslations(Gettext.domain(M.GETTEXT_DOMAIN));
    check('French from the build\'s catalog', [
        M.menuActionTexts(calls([entry()])[0]).copy,
        M.compactView(three.slice(0, 2), T0).accessibleName,
        M.statusText(calls([entry({phase: 'missed'})])[0], T0),
    ], ['Copier le numéro', 'Appel en cours avec New sur le +2348000000001, Verified, et 1 autre appel', 'Manqué']);
}
M.setTranslations({gettext: s => s, ngettext: (s, p, n) => (n === 1 ? s : p)});

// Every file of the build compiles (imports and exports set aside: they need the shell).
const decoder = new TextDecoder();
for (const name of ['model.js', 'agentClient.js', 'callClock.js', 'iconFinder.js', 'layout.js', 'indicator.js', 'lockScreen.js',
    'extension.js', 'windowLauncher.js', 'prefs.js']) {
    const [, bytes] = GLib.file_get_contents(`${dir}/${name}`);
    let source = decoder.decode(bytes);
    if (form === 'esm') {
        source = source.replace(/^import .*$/gm, '').replace(/^export default class /gm, 'class ')
            .replace(/^export (const|function) /gm, '$1 ');
    }
    let error = null;
    try {
        // eslint-disable-next-line no-new-func
        new Function(source);
    } catch (e) {
        error = `${e}`;
    }
    check(`${name} compiles`, error, null);
    const legacyShape = /^function init\(/m.test(source) && !/^(import|export) /m.test(source);
    if (name === 'extension.js')
        check(`extension.js has the ${form} entry point`, legacyShape, form === 'legacy');
    if (name === 'prefs.js') {
        const entry = form === 'legacy' ? /^function buildPrefsWidget\(/m.test(source) : /^class RelavoiPreferences extends ExtensionPreferences/m.test(source);
        check(`prefs.js has the ${form} entry point`, entry, true);
    }
}

print(`${passed} passed, ${failed} failed`);
System.exit(failed === 0 ? 0 : 1);
