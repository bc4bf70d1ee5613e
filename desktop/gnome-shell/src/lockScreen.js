// The call on GNOME's lock screen: cards under the unlock dialog's clock while the screen is
// locked, drawn from model.js's lockScreenView. What a card may show is the agent's decision
// (the Calls entries' lock-* keys), and GNOME's notification switches for the lock screen
// (for all notifications and for Relavoi) win over it. Nothing on a card can be pressed.
// A change of the calls remakes the cards only when more than their states changed; a tick
// of the shared CallClock sets only the live cards' state texts (their timers).
// Each card is a notification to screen readers (Orca speaks one when it shows, by its
// name, which has no timer): a card is made anew, and so heard, when its call first shows
// and when it ends, never for a tick or for the answer.
//@esm import Atk from 'gi://Atk';
//@esm import Clutter from 'gi://Clutter';
//@esm import Gio from 'gi://Gio';
//@esm import St from 'gi://St';
//@esm import * as Main from 'resource:///org/gnome/shell/ui/main.js';
//@esm import {IconFinder} from './iconFinder.js';
//@esm import {verticalBox} from './layout.js';
//@esm import * as Model from './model.js';
//@legacy const {Atk, Clutter, Gio, St} = imports.gi;
//@legacy const Main = imports.ui.main;
//@legacy const Me = imports.misc.extensionUtils.getCurrentExtension();
//@legacy const {IconFinder} = Me.imports.iconFinder;
//@legacy const {verticalBox} = Me.imports.layout;
//@legacy const Model = Me.imports.model;

export const LockScreenCards = class LockScreenCards {
    // clock: the CallClock the extension shares between the pill and the cards.
    constructor(extensionPath, clock) {
        this._icons = new IconFinder(extensionPath);
        this._clock = clock;
        this._calls = [];
        this._box = null;
        this._boxDestroyId = 0;
        // What the cards drawn show but their states; per card its row, state label, name
        // and the answer time its timer counts from (0: it does not tick).
        this._drawn = '';
        this._cards = [];
        this._more = null;
        this._settings = [];
        this._settingsIds = [];
        this._allowed = false;
    }

    // Follows GNOME's switches; shows nothing until `setLocked(true)`.
    start() {
        const master = new Gio.Settings({schema_id: 'org.gnome.desktop.notifications'});
        const app = new Gio.Settings({
            schema_id: 'org.gnome.desktop.notifications.application',
            path: Model.NOTIFICATION_SETTINGS_PATH,
        });
        this._settings = [master, app];
        this._settingsIds = this._settings.map(settings => settings.connect('changed', () => this._readSettings()));
        this._clock.add(this);
        this._readSettings();
    }

    stop() {
        this._settings.forEach((settings, index) => settings.disconnect(this._settingsIds[index]));
        this._settings = [];
        this._settingsIds = [];
        this._removeBox();
        this._clock.remove(this);
    }

    // The answer times of the live cards shown.
    ticksFrom() {
        return this._cards.filter(card => card.ticksFrom > 0).map(card => card.ticksFrom);
    }

    // A second went by: the live cards' timers, nothing else.
    tick(now) {
        for (const card of this._cards) {
            if (card.ticksFrom > 0)
                this._setState(card, Model.timerText(card.ticksFrom, now));
        }
    }

    setCalls(calls) {
        this._calls = calls ?? [];
        this._refresh();
    }

    // Builds the cards under the clock while locked; takes them away otherwise.
    setLocked(locked) {
        if (!locked) {
            this._removeBox();
            return;
        }
        if (this._box === null) {
            const clock = Main.screenShield?._dialog?._clock;
            if (!clock)
                return;
            this._box = verticalBox({
                style_class: 'relavoi-lock-cards', x_align: Clutter.ActorAlign.CENTER,
                reactive: false, can_focus: false,
            });
            // The dialog is destroyed at unlock: forget the cards with it.
            this._boxDestroyId = this._box.connect('destroy', () => this._forgetBox());
            const date = clock._date;
            if (date && date.get_parent() === clock)
                clock.insert_child_above(this._box, date);
            else
                clock.add_child(this._box);
        }
        this._refresh();
    }

    _readSettings() {
        const [master, app] = this._settings;
        this._allowed = Model.lockScreenAllowed(master.get_boolean('show-in-lock-screen'),
            app.get_boolean('enable'), app.get_boolean('show-in-lock-screen'));
        this._refresh();
    }

    _refresh() {
        if (this._box !== null)
            this._draw(Model.lockScreenView(this._calls, Date.now(), this._allowed));
        this._clock.update();
    }

    // Keeps each card whose call shows the same but for its state (setting what differs)
    // and makes anew only the cards that changed: a new card is heard, a kept one is not.
    _draw(view) {
        const keys = view.cards.map(card => JSON.stringify([card.icon, card.title, card.subtitle, card.over]));
        const drawn = JSON.stringify([view.more, keys]);
        if (drawn !== this._drawn) {
            const unused = [...this._cards];
            const cards = keys.map((key, index) => {
                const kept = unused.findIndex(shown => shown.key === key);
                const card = kept >= 0 ? unused.splice(kept, 1)[0] : this._addCard(view.cards[index], key);
                this._box.set_child_at_index(card.row, index);
                return card;
            });
            unused.forEach(shown => shown.row.destroy());
            this._more?.destroy();
            this._more = null;
            if (view.more !== '') {
                this._more = new St.Label({text: view.more, style_class: 'relavoi-lock-more', x_align: Clutter.ActorAlign.CENTER});
                this._box.add_child(this._more);
            }
            this._cards = cards;
            this._drawn = drawn;
        }
        view.cards.forEach((card, index) => {
            const shown = this._cards[index];
            this._setState(shown, card.state);
            shown.ticksFrom = card.ticksFrom;
            if (card.accessibleName !== shown.name) {
                shown.row.accessible_name = card.accessibleName;
                shown.name = card.accessibleName;
            }
        });
        const any = view.cards.length > 0;
        if (this._box.visible !== any)
            this._box.visible = any;
    }

    _setState(card, text) {
        if (text !== card.state.text)
            card.state.text = text;
    }

    // Adds one card to the box; returns what a tick or a change of state sets on it.
    _addCard(card, key) {
        const row = new St.BoxLayout({
            style_class: 'relavoi-lock-card', reactive: false, can_focus: false,
            accessible_role: Atk.Role.NOTIFICATION,
        });
        row.add_child(new St.Icon({gicon: this._icons.icon(card.icon), style_class: 'relavoi-lock-icon', y_align: Clutter.ActorAlign.CENTER}));
        const lines = verticalBox({x_expand: true, y_align: Clutter.ActorAlign.CENTER});
        lines.add_child(new St.Label({text: card.title, style_class: 'relavoi-lock-title', x_align: Clutter.ActorAlign.START}));
        if (card.subtitle !== '')
            lines.add_child(new St.Label({text: card.subtitle, style_class: 'relavoi-lock-subtitle', x_align: Clutter.ActorAlign.START}));
        row.add_child(lines);
        const state = new St.Label({text: card.state, style_class: 'relavoi-lock-state', y_align: Clutter.ActorAlign.CENTER});
        row.add_child(state);
        row.accessible_name = card.accessibleName;
        // The labels make up the card's name: so related, a screen reader says the name
        // alone (Orca reads a notification's unrelated labels after its name).
        const rowAccessible = row.get_accessible();
        for (const label of [...lines.get_children(), state])
            label.get_accessible()?.add_relationship(Atk.RelationType.LABEL_FOR, rowAccessible);
        this._box.add_child(row);
        return {row, state, key, name: card.accessibleName, ticksFrom: card.ticksFrom};
    }

    _forgetBox() {
        this._box = null;
        this._boxDestroyId = 0;
        this._drawn = '';
        this._cards = [];
        this._more = null;
        this._clock.update();
    }

    _removeBox() {
        if (this._box === null)
            return;
        const box = this._box;
        box.disconnect(this._boxDestroyId);
        this._forgetBox();
        box.destroy();
    }
};
