// The Plasma widget's logic (contents/code/widget.js over the pill's model.js, as
// scripts/build-plasmoid.sh builds them) on the host's Qt: what the panel and the opened
// view show for given Calls and Health values and a clock, and when the timer runs.
// Run by Tests/plasma/run-tests.sh, which builds the widget and points
// RELAVOI_PLASMOID_CODE at it (qmltestrunner -import).
import QtQuick
import QtTest
import "code/widget.js" as Widget

TestCase {
    name: "RelavoiPlasmaWidget"

    readonly property double t0: 1765000000000

    function entry(overrides) {
        const base = {
            "session-id": "s1", "label": "Dana", "proxy-number": "+33 1 23 45 67 89", "badge": "verified",
            "badge-text": "Verified", "phase": "live", "rang-at": t0 - 10000, "answered-at": t0, "ended-at": 0,
            "duration": 0, "can-open": true,
        };
        for (const key in overrides)
            base[key] = overrides[key];
        return base;
    }

    function calls(...entries) {
        return Widget.parseCalls(entries);
    }

    function test_no_call_takes_no_room() {
        const view = Widget.compactView(calls(), Widget.parseHealth({"state": "connected", "since": 0}), t0);
        compare(view.active, false);
        compare(view.text, "");
        compare(view.icon, "");
        compare(Widget.ticks(calls()), false);
    }

    function test_nothing_from_the_bus_is_no_call() {
        compare(Widget.parseCalls(null).length, 0);
        compare(Widget.parseCalls("x").length, 0);
        compare(Widget.compactView(Widget.parseCalls(undefined), Widget.parseHealth(undefined), t0).active, false);
    }

    function test_live_call_ticks_from_its_answer() {
        const live = calls(entry({}));
        const view = Widget.compactView(live, Widget.parseHealth(null), t0 + 65400);
        compare(view.active, true);
        compare(view.text, "01:05");
        compare(view.icon, "com.relavoi.Agent-verified-symbolic");
        compare(view.count, "");
        compare(view.accessibleName, "Ongoing call with Dana on +33 1 23 45 67 89, Verified");
        compare(Widget.compactView(live, Widget.parseHealth(null), t0 + 66000).text, "01:06");
        compare(Widget.compactView(live, Widget.parseHealth(null), t0 + 3725000).text, "1:02:05");
    }

    function test_ringing_shows_the_label() {
        const view = Widget.compactView(calls(entry({"phase": "ringing", "answered-at": 0})), null, t0);
        compare(view.active, true);
        compare(view.ringing, true);
        compare(view.text, "Dana");
        compare(view.icon, "com.relavoi.Agent-ringing-symbolic");
    }

    function test_several_calls_as_the_pill() {
        const several = calls(entry({"session-id": "a", "phase": "ringing", "label": "Eve"}), entry({"session-id": "b"}),
                              entry({"session-id": "c", "phase": "ended", "duration": 21}));
        const view = Widget.compactView(several, null, t0 + 5000);
        compare(view.text, "00:05");
        compare(view.count, "+1");
        verify(view.accessibleName.endsWith(", and 1 more call"));
        const full = Widget.fullView(several, null, t0 + 5000);
        compare(full.calls.length, 3);
        compare(full.calls[0].status, "Ringing");
        compare(full.calls[1].status, "00:05");
        compare(full.calls[2].status, "Ended · 00:21");
    }

    function test_ended_call_leaves_the_panel() {
        const ended = calls(entry({"phase": "ended", "ended-at": t0 + 21000, "duration": 21}));
        compare(Widget.compactView(ended, null, t0 + 22000).active, false);
        compare(Widget.ticks(ended), false);
        compare(Widget.fullView(ended, null, t0 + 22000).calls[0].status, "Ended · 00:21");
    }

    function test_quiet_states_as_the_pill() {
        const offline = Widget.compactView(calls(), Widget.parseHealth({"state": "offline", "since": 0}), t0);
        compare(offline.active, true);
        compare(offline.quiet, true);
        compare(offline.icon, "com.relavoi.Agent-unavailable-symbolic");
        compare(offline.text, "");
        compare(offline.accessibleName, "Relavoi: Offline: calls will not show");
        const refused = Widget.compactView(calls(), Widget.parseHealth({"state": "refused"}), t0);
        compare(refused.accessibleName, "Relavoi: API key refused: calls will not show");
        compare(Widget.fullView(calls(), Widget.parseHealth({"state": "refused"}), t0).healthLine,
                "API key refused: calls will not show");
        // A reconnect is not news; a call wins over the quiet state.
        compare(Widget.compactView(calls(), Widget.parseHealth({"state": "reconnecting"}), t0).active, false);
        compare(Widget.compactView(calls(entry({})), Widget.parseHealth({"state": "offline"}), t0 + 1000).text, "00:01");
    }

    function test_full_view_card_and_actions() {
        const full = Widget.fullView(calls(entry({})), null, t0 + 7000);
        compare(full.calls.length, 1);
        const card = full.calls[0];
        compare(card.title, "Dana");
        compare(card.number, "+33 1 23 45 67 89");
        compare(card.badgeText, "Verified");
        compare(card.status, "00:07");
        compare(card.canOpen, true);
        compare(card.canDismiss, true);
        compare(card.dismissName, "Dismiss the call with Dana");
        compare(card.openName, "Open the call with Dana");
        compare(full.settings.label, "Settings…");
        compare(full.settings.accessibleName, "Relavoi settings");
        compare(full.missed.length, 0);
        compare(Widget.fullView(calls(entry({"can-open": false})), null, t0).calls[0].canOpen, false);
    }

    function test_missed_calls_listed_apart() {
        const full = Widget.fullView(calls(entry({"phase": "missed", "answered-at": 0, "label": ""})), null, t0);
        compare(full.calls.length, 0);
        compare(full.missed.length, 1);
        compare(full.missed[0].title, "Unknown caller");
        compare(full.missed[0].status, "Missed");
        compare(full.missed[0].accessibleName, "Missed call from an unknown caller on +33 1 23 45 67 89");
    }

    function test_timer_runs_only_for_a_live_call() {
        compare(Widget.ticks(calls(entry({"phase": "ringing", "answered-at": 0}))), false);
        compare(Widget.ticks(calls(entry({"phase": "missed"}))), false);
        compare(Widget.ticks(calls(entry({}))), true);
        // On the call's own second boundary, counted from its answer time.
        compare(Widget.nextTickDelay(calls(entry({})), t0 + 5300), 700);
        compare(Widget.nextTickDelay(calls(entry({})), t0 + 6000), 1000);
        compare(Widget.nextTickDelay(calls(entry({})), t0 - 250), 250);
    }

    // The repeating timer keeps a whole second while its ticks come on the call's second,
    // and waits for that second otherwise (before the answer, early, too late, a change).
    function test_timer_keeps_its_second() {
        const live = calls(entry({}));
        compare(Widget.tickInterval(live, t0 + 5000), 1000);
        compare(Widget.tickInterval(live, t0 + 5049), 1000);
        compare(Widget.tickInterval(live, t0 + 5051), 949);
        compare(Widget.tickInterval(live, t0 + 5300), 700);
        compare(Widget.tickInterval(live, t0 + 5998), 2);
        compare(Widget.tickInterval(live, t0 - 250), 250);
        // Two live calls answered 300 ms apart: each one's second, in turn.
        const two = calls(entry({}), entry({"session-id": "s2", "answered-at": t0 + 300}));
        compare(Widget.tickInterval(two, t0 + 5000), 300);
        compare(Widget.tickInterval(two, t0 + 5300), 700);
    }

    // As Plasma 6.7.4's GetAll reply reaches QML: a{sv} values as {value: …}, booleans bare.
    function test_values_wrapped_as_plasma_hands_them_over() {
        const wrapped = [{
            "session-id": {"value": "s1"}, "label": {"value": "Chowdeck rider"}, "badge": {"value": "verified"},
            "badge-text": {"value": "Verified"}, "phase": {"value": "live"}, "answered-at": {"value": t0},
            "proxy-number": {"value": "+234 800 000 0001"}, "can-open": false,
        }];
        const view = Widget.compactView(Widget.parseCalls(wrapped), Widget.parseHealth({"state": {"value": "connected"}}), t0 + 19000);
        compare(view.active, true);
        compare(view.text, "00:19");
        compare(view.icon, "com.relavoi.Agent-verified-symbolic");
        compare(Widget.parseHealth({"state": {"value": "offline"}, "since": {"value": 5}}).state, "offline");
        compare(Widget.parseHealth({"state": {"value": "offline"}, "since": {"value": 5}}).since, 5);
    }

    function test_unknown_and_mistyped_keys() {
        const odd = Widget.parseCalls([{"phase": "live", "answered-at": "soon", "badge": "gold", "extra": 1}, 7, null]);
        compare(odd.length, 1);
        compare(odd[0].badge, "unavailable");
        compare(Widget.compactView(odd, null, t0).text, "--:--");
        compare(Widget.ticks(odd), false);
    }

    function test_translations_go_through_the_domain() {
        Widget.setTranslations({
            gettext: message => message === "Ringing" ? "Sonne" : message,
            ngettext: (singular, plural, n) => n === 1 ? singular : plural,
        });
        compare(Widget.fullView(calls(entry({"phase": "ringing"})), null, t0).calls[0].status, "Sonne");
        Widget.setTranslations({gettext: message => message, ngettext: (s, p, n) => n === 1 ? s : p});
    }

    // A tick changes the panel's text and nothing else: same icon, count, name and
    // state, and the same shape (so the same width) through a minute and across 00:59.
    function test_a_tick_changes_only_the_digits() {
        const live = calls(entry({}));
        const health = Widget.parseHealth({"state": "connected", "since": 0});
        const a = Widget.compactView(live, health, t0 + 7000);
        const b = Widget.compactView(live, health, t0 + 8000);
        const c = Widget.compactView(live, health, t0 + 61000);
        compare(a.text, "00:07");
        compare(b.text, "00:08");
        for (const key of ["active", "ringing", "quiet", "icon", "count", "accessibleName"]) {
            compare(b[key], a[key], key);
            compare(c[key], a[key], key);
        }
        compare(Widget.textShape(a.text), "00:00");
        compare(Widget.textShape(b.text), Widget.textShape(a.text));
        compare(Widget.textShape(c.text), Widget.textShape(a.text));
        compare(Widget.textShape("Ended 00:21"), "Ended 00:00");
        compare(Widget.textShape("Dana"), "Dana");
    }
}
