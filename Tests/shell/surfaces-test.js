// gjs tests of what the pill (indicator.js) and the lock-screen cards (lockScreen.js) do to
// the shell on a change of the calls and on each tick, with the ESM build's GNOME imports
// pointed at stand-ins (Tests/shell/fakes/) that log every property set and every changing
// call on an actor, and hold the GLib timeouts for the test to fire:
//   gjs -m Tests/shell/surfaces-test.js ESM_BUILD_DIR
// (the legacy build is the same source with other import lines: model-test.js compiles it).
// Prints one line a check and "N passed, N failed"; exits 1 when a check failed.
import GLib from 'gi://GLib';
import System from 'system';

const [dir] = ARGV;
if (!dir) {
    printerr('usage: gjs -m surfaces-test.js ESM_BUILD_DIR');
    System.exit(2);
}
const here = GLib.path_get_dirname(System.programPath);
const work = GLib.dir_make_tmp('relavoi-surfaces.XXXXXX');
const decoder = new TextDecoder();
const read = path => decoder.decode(GLib.file_get_contents(path)[1]);
GLib.mkdir_with_parents(`${work}/fakes`, 0o700);
for (const name of ['Atk', 'Clutter', 'GLib', 'GObject', 'Gio', 'Pango', 'St', 'log', 'main', 'panelMenu', 'popupMenu'])
    GLib.file_set_contents(`${work}/fakes/${name}.js`, read(`${here}/fakes/${name}.js`));
// The build's modules, their GNOME imports turned to the stand-ins.
for (const name of ['model.js', 'iconFinder.js', 'layout.js', 'indicator.js', 'lockScreen.js', 'callClock.js']) {
    if (!GLib.file_test(`${dir}/${name}`, GLib.FileTest.EXISTS))
        continue;
    const source = read(`${dir}/${name}`)
        .replace(/from 'gi:\/\/(\w+)'/g, "from './fakes/$1.js'")
        .replace(/from 'resource:\/\/\/org\/gnome\/shell\/ui\/(\w+)\.js'/g, "from './fakes/$1.js'");
    GLib.file_set_contents(`${work}/${name}`, source);
}
const M = await import(`file://${work}/model.js`);
const {CallIndicator} = await import(`file://${work}/indicator.js`);
const {LockScreenCards} = await import(`file://${work}/lockScreen.js`);
// A build before the shared clock has no callClock.js: its surfaces keep timers of their own
// (and the checks below say what they do).
const CallClock = (await import(`file://${work}/callClock.js`).catch(() => null))?.CallClock ?? null;
const {log, clear} = await import(`file://${work}/fakes/log.js`);
const {pending} = await import(`file://${work}/fakes/GLib.js`);
const Main = await import(`file://${work}/fakes/main.js`);

let passed = 0, failed = 0;
function check(name, actual, expected) {
    const a = JSON.stringify(actual), e = JSON.stringify(expected);
    if (a === e) {
        passed++;
        print(`ok - surfaces: ${name}`);
    } else {
        failed++;
        print(`FAIL - surfaces: ${name}: got ${a}, want ${e}`);
    }
}

// The clock the surfaces read, and firing their timeouts as GLib would.
const T0 = 1764590400000; // a whole second, unix ms
let now = T0;
Date.now = () => now;
// Fires the soonest timeout at its time; returns its delay (ms), or null with none armed.
function fire() {
    const soonest = [...pending.entries()].sort((a, b) => a[1].at - b[1].at)[0];
    if (!soonest)
        return null;
    const [id, source] = soonest;
    pending.delete(id);
    now = source.at;
    if (source.callback() === true)
        pending.set(id, {...source, at: now + source.ms});
    return source.ms;
}
// Fires one tick and returns what it did.
function tickLog() {
    clear();
    fire();
    return [...log];
}

const entry = (over = {}) => ({
    'session-id': 's1', 'label': 'Alice', 'proxy-number': '+2348000000001', 'badge': 'verified',
    'badge-text': 'Verified', 'phase': 'live', 'rang-at': T0 - 5000, 'answered-at': T0, 'ended-at': 0,
    'duration': 0, 'lock-screen': true, 'lock-label': 'Alice', 'lock-number': '•••• 0001', ...over,
});
const calls = (...entries) => M.parseCalls(entries);
const noop = () => {};

function surfaces() {
    const clock = CallClock ? new CallClock() : undefined;
    const pill = new CallIndicator('/nonexistent', noop, noop, noop, clock);
    const cards = new LockScreenCards('/nonexistent', clock);
    cards.start();
    return {clock, pill, cards};
}
function takeDown({clock, pill, cards}) {
    pill.destroy();
    cards.stop();
    clock?.destroy();
    pending.clear();
}

// 1. The pill of a live call, its menu closed.
{
    now = T0 + 83250;
    const s = surfaces();
    const {pill} = s;
    pill.setCalls(calls(entry()));
    check('the pill shows the timer', pill.fakeTexts(), ['01:23']);
    check('its first tick comes at the call\'s next second', [...pending.values()].map(t => t.ms), [750]);
    const names = new Set();
    const ticks = [];
    for (let i = 0; i < 10; i++) {
        ticks.push(tickLog());
        names.add(pill.accessible_name);
    }
    check('each of 10 ticks sets only the timer\'s text (no icon, style class, name or menu row)',
        ticks.filter(did => JSON.stringify(did) !== '["relavoi-call-text.text"]'), []);
    check('... and the text follows the second', pill.fakeTexts(), ['01:33']);
    check('ticks land on the call\'s second boundaries', (now - T0) % 1000, 0);
    check('the pill\'s accessible name says who, the state and the badge, not the timer, and never changes',
        [...names], ['Ongoing call with Alice on +2348000000001, Verified']);

    // A change of the calls: what changed, once; nothing for the closed menu.
    clear();
    pill.setCalls(calls(entry({badge: 'unverified', 'badge-text': 'Unverified'})));
    check('a new badge sets the icon and the name; the closed menu gets nothing', [...log],
        ['relavoi-call-icon.gicon', 'panel-button.accessible_name']);
    clear();
    pill.setCalls(calls(entry({badge: 'unverified', 'badge-text': 'Unverified'})), {state: 'connected', since: 0});
    check('the same calls again (a Health change) set nothing', [...log], []);
    clear();
    pill.setCalls(calls(entry({badge: 'unverified', 'badge-text': 'Unverified'}), entry({'session-id': 's2', phase: 'ringing', 'answered-at': 0})));
    check('a second call sets the count and the name', [...log], ['relavoi-call-count.text', 'relavoi-call-count.visible', 'panel-button.accessible_name']);

    // The menu opens: its rows are made then, and tick while it is open.
    clear();
    pill.menu.open();
    check('opening the menu makes its rows, with the timer as of now',
        [pill.menu.isOpen, log.includes('menu.removeAll'), pill.menu.box.fakeTexts().includes(M.timerText(T0, now))],
        [true, true, true]);
    check('while open, a tick sets the pill\'s and the live row\'s timer texts only', tickLog(),
        ['relavoi-call-text.text', 'relavoi-call-status.text']);
    clear();
    pill.setCalls(calls(entry({badge: 'verified'})));
    check('a change while the menu is open remakes its rows', log.includes('menu.removeAll'), true);
    pill.menu.close();
    check('closed again, a tick sets the pill\'s text only', tickLog(), ['relavoi-call-text.text']);
    clear();
    pill.setCalls(calls(entry({badge: 'checking', 'badge-text': 'Checking…'})));
    pill.menu.open();
    check('a change while closed is in the rows when the menu opens', pill.menu.box.fakeTexts().some(t => t.includes('Checking…')), true);
    pill.menu.close();
    takeDown(s);
}

// 2. The agent with no call, then ringing, then answered, then ended.
{
    now = T0 - 3000;
    const s = surfaces();
    const {pill} = s;
    pill.setCalls([], {state: 'connected', since: 0});
    check('no call: no pill', pill.visible, false);
    pill.setCalls(calls(entry({phase: 'ringing', 'answered-at': 0})));
    check('the pill shown after none shows its icon and label, and no empty count',
        pill.fakeShown(), ['relavoi-call-pill', 'relavoi-call-icon', 'relavoi-call-text']);
    check('a ringing call arms no timer', pending.size, 0);
    check('the ringing pill: the label, named for who rings', [pill.fakeTexts(), pill.accessible_name],
        [['Alice'], 'Incoming call from Alice on +2348000000001, Verified']);
    now = T0 + 400;
    clear();
    pill.setCalls(calls(entry()));
    check('answered: the state change sets the icon, the text, the style classes and the name, once',
        [...log].sort(), ['panel-button.accessible_name', 'relavoi-call-icon.gicon', 'relavoi-call-pill.remove_style_class_name(relavoi-call-ringing)',
            'relavoi-call-text.add_style_class_name(relavoi-call-timer)', 'relavoi-call-text.text']);
    check('the first tick at the answer time\'s next second', [...pending.values()].map(t => t.ms), [600]);
    clear();
    pill.setCalls(calls(entry({phase: 'ended', duration: 30})));
    check('ended: the pill goes, no timer is left', [pill.visible, pending.size], [false, 0]);
    takeDown(s);
}

// 3. The lock screen: the card under the clock, the pill hidden (it would show the label
// and name the number whatever lock-screen allows), one timer.
{
    now = T0 + 42000;
    const s = surfaces();
    const {pill, cards} = s;
    const list = calls(entry());
    pill.setCalls(list);
    check('unlocked: the pill shows the call', [pill.visible, pill.ticksFrom().length], [true, 1]);
    cards.setLocked(true);
    pill.setLocked(true);
    cards.setCalls(list);
    pill.setCalls(list);
    check('locked: the pill is hidden, ticks nothing and names no call', [pill.visible, pill.ticksFrom(), pill.accessible_name],
        [false, [], 'Relavoi call']);
    const clockTexts = () => Main.screenShield._dialog._clock.fakeTexts();
    check('the card under the clock', clockTexts(), ['Sunday December 6', 'Alice', 'Verified · •••• 0001', '00:42']);
    check('one timer, the card\'s', pending.size, 1);
    const names = new Set();
    const ticks = [];
    for (let i = 0; i < 10; i++) {
        ticks.push(tickLog());
        names.add(Main.screenShield._dialog._clock.get_children()[1]?.get_children()[0]?.accessible_name);
    }
    check('each tick sets the card\'s timer, nothing else',
        ticks.filter(did => JSON.stringify(did) !== '["relavoi-lock-state.text"]'), []);
    check('... one wake-up each second', [pending.size, (now - T0) % 1000], [1, 0]);
    check('the card\'s accessible name says who, the badge and the state, not the timer, and never changes', [...names],
        ['Alice, Verified, number ending 0001, Ongoing call']);
    pill.setLocked(false);
    check('unlocked again: the pill is back with the call\'s timer', [pill.visible, pill.ticksFrom().length], [true, 1]);
    pill.setLocked(true);
    check('the card follows the second', clockTexts(), ['Sunday December 6', 'Alice', 'Verified · •••• 0001', '00:52']);
    const card = () => Main.screenShield._dialog._clock.get_children()[1].get_children()[0];
    const before = card();
    clear();
    cards.setCalls(calls(entry({phase: 'ended', duration: 52})));
    check('ended: the card is made anew (a screen reader hears a notification show), once',
        [card() !== before, log.filter(did => did === 'relavoi-lock-cards.add_child').length, card().accessible_role, card().accessible_name],
        [true, 1, 'notification', 'Alice, Verified, number ending 0001, Call ended, 00:52']);
    clear();
    cards.setCalls(calls(entry({phase: 'ended', duration: 52})));
    check('... and the same end again changes nothing', [...log], []);
    pill.setCalls(calls(entry({phase: 'ended', duration: 52})));
    check('... and no timer is left', pending.size, 0);
    cards.setLocked(false);
    pill.setLocked(false);
    takeDown(s);
}

// 4. Locked from the ring: a card shown at the ring, kept at the answer, made anew at the end.
{
    now = T0 - 2000;
    const s = surfaces();
    const {cards} = s;
    cards.setLocked(true);
    clear();
    cards.setCalls(calls(entry({phase: 'ringing', 'answered-at': 0})));
    const card = () => Main.screenShield._dialog._clock.get_children()[1].get_children()[0];
    const ring = card();
    check('the ring: one card, a notification to screen readers, named without a timer, the hidden digits said',
        [log.filter(did => did === 'relavoi-lock-cards.add_child').length, ring.accessible_role, ring.accessible_name],
        [1, 'notification', 'Alice, Verified, number ending 0001, Incoming call…']);
    const labels = [];
    const walk = actor => actor.get_children().forEach(child => {
        if (child.text !== undefined)
            labels.push([child.text, child._relations ?? []]);
        walk(child);
    });
    walk(ring);
    check('... its labels are the card\'s name\'s (related: not read again after it)', labels,
        [['Alice', [['label-for', 'relavoi-lock-card']]], ['Verified · •••• 0001', [['label-for', 'relavoi-lock-card']]],
            ['Incoming call…', [['label-for', 'relavoi-lock-card']]]]);
    now = T0 + 200;
    clear();
    cards.setCalls(calls(entry()));
    check('answered: the same card, its state and name set in place (not heard again)',
        [card() === ring, [...log].sort()], [true, ['relavoi-lock-card.accessible_name', 'relavoi-lock-state.text']]);
    check('... then each tick sets its timer only', [tickLog(), tickLog()], [['relavoi-lock-state.text'], ['relavoi-lock-state.text']]);
    clear();
    cards.setCalls(calls(entry({phase: 'ended', duration: 2})));
    check('ended: a new card, once', [card() !== ring, log.filter(did => did === 'relavoi-lock-cards.add_child').length], [true, 1]);
    const ended = card();
    clear();
    cards.setCalls(calls(entry({phase: 'ended', duration: 2}), entry({'session-id': 's2', 'lock-label': 'Bob', phase: 'ringing', 'answered-at': 0})));
    const shown = Main.screenShield._dialog._clock.get_children()[1].get_children();
    check('a second call rings: its card is new and first, the ended one kept (not heard again)',
        [shown.length, shown[1] === ended, log.filter(did => did === 'relavoi-lock-cards.add_child').length, shown[0].accessible_name],
        [2, true, 1, 'Bob, Verified, number ending 0001, Incoming call…']);
    cards.setLocked(false);
    takeDown(s);
}

GLib.spawn_command_line_sync(`rm -rf ${GLib.shell_quote(work)}`);
print(`${passed} passed, ${failed} failed`);
System.exit(failed === 0 ? 0 : 1);
