// The top-bar pill and its menu. It draws what model.js says. A change of the calls sets
// only the pill's parts that differ (icon, style classes, texts, accessible name); a tick of
// the shared CallClock sets only the timer's text, and the rows' status texts while the menu
// is open. A closed menu is left alone: its rows are made again when it opens.
//@esm import Clutter from 'gi://Clutter';
//@esm import GLib from 'gi://GLib';
//@esm import GObject from 'gi://GObject';
//@esm import Pango from 'gi://Pango';
//@esm import St from 'gi://St';
//@esm import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
//@esm import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';
//@esm import {IconFinder} from './iconFinder.js';
//@esm import {verticalBox} from './layout.js';
//@esm import * as Model from './model.js';
//@legacy const {Clutter, GLib, GObject, Pango, St} = imports.gi;
//@legacy const PanelMenu = imports.ui.panelMenu;
//@legacy const PopupMenu = imports.ui.popupMenu;
//@legacy const Me = imports.misc.extensionUtils.getCurrentExtension();
//@legacy const {IconFinder} = Me.imports.iconFinder;
//@legacy const {verticalBox} = Me.imports.layout;
//@legacy const Model = Me.imports.model;

export const CallIndicator = GObject.registerClass(
class RelavoiCallIndicator extends PanelMenu.Button {
    // clock: the CallClock the extension shares between the pill and the lock-screen cards.
    _init(extensionPath, onDismiss, onOpen, onSettings, clock) {
        super._init(0.5, Model.indicatorName(), false);
        this._icons = new IconFinder(extensionPath);
        this._onDismiss = onDismiss;
        this._onOpen = onOpen;
        this._onSettings = onSettings;
        this._clock = clock;
        this._calls = [];
        this._health = null;
        this._locked = false;
        this._rows = [];
        // The view the pill was last set from (a change of the calls); null: nothing set yet.
        this._shown = null;
        // The calls changed while the menu was closed: its rows are made again when it opens.
        this._menuStale = true;

        this.add_style_class_name('relavoi-call-button');
        this._pill = new St.BoxLayout({style_class: 'relavoi-call-pill', y_align: Clutter.ActorAlign.CENTER});
        this._icon = new St.Icon({style_class: 'system-status-icon relavoi-call-icon'});
        this._text = new St.Label({style_class: 'relavoi-call-text', y_align: Clutter.ActorAlign.CENTER});
        this._text.clutter_text.ellipsize = Pango.EllipsizeMode.END;
        this._count = new St.Label({style_class: 'relavoi-call-count', y_align: Clutter.ActorAlign.CENTER});
        this._pill.add_child(this._icon);
        this._pill.add_child(this._text);
        this._pill.add_child(this._count);
        this.add_child(this._pill);
        this.visible = false;
        // A menu with its Settings… row: PopupMenu.open() does nothing for an empty one.
        this._rebuildMenu();

        this.menu.connect('open-state-changed', (_menu, open) => {
            if (open)
                this._menuOpened();
            this._clock.update();
        });
        this._clock.add(this);
        this.connect('destroy', () => this._clock.remove(this));
    }

    // On the lock screen the pill is hidden: the cards under the clock show there only what
    // the person allowed (lock-screen = label, number, badge or off), where the pill would
    // show the caller's label or number and name them to a screen reader; and one timer
    // ticks there, not two. Its menu must not open there, nor take the keyboard's focus.
    setLocked(locked) {
        this._locked = locked;
        if (locked)
            this.menu.close();
        this.setSensitive(!locked);
        this._show(this._view(Date.now()));
        this._clock.update();
    }

    // calls: the parsed Calls list; null when the agent is not on the bus (no pill either).
    // health: the agent's Health; while no call shows, a quiet pill says calls cannot show.
    setCalls(calls, health = null) {
        this._calls = calls ?? [];
        this._health = health;
        const view = this._view(Date.now());
        if (!view.visible && this.menu.isOpen)
            this.menu.close();
        this._show(view);
        if (this.menu.isOpen)
            this._rebuildMenu();
        else
            this._menuStale = true;
        this._clock.update();
    }

    // The answer times of what shows a running timer: the pill's call, and every live call
    // of an open menu.
    ticksFrom() {
        const times = [];
        if (this.visible && this._shown?.ticksFrom > 0)
            times.push(this._shown.ticksFrom);
        if (this.menu.isOpen)
            this._rows.forEach(row => row.ticksFrom > 0 && times.push(row.ticksFrom));
        return times;
    }

    // A second went by: the timers' texts, nothing else.
    tick(now) {
        if (this.visible && this._shown?.ticksFrom > 0)
            this._setText(Model.timerText(this._shown.ticksFrom, now));
        if (this.menu.isOpen)
            this._updateRows(now);
    }

    // The call's pill, else the quiet state's, else none (always none while locked).
    _view(now) {
        if (this._locked)
            return Model.compactView([], now);
        const view = Model.compactView(this._calls, now);
        return view.visible ? view : Model.quietView(this._calls, this._health) ?? view;
    }

    // Sets what differs from the pill shown. A hidden pill keeps its other parts as they
    // were: it is shown again with all of them set.
    _show(view) {
        const was = this._shown ?? {};
        if (view.visible !== was.visible)
            this.visible = view.visible;
        if (!view.visible) {
            // Hidden, it names no call (on the lock screen it must not): shown again, every
            // part is set anew.
            if (this.accessible_name !== Model.indicatorName())
                this.accessible_name = Model.indicatorName();
            this._shown = {visible: false, ticksFrom: 0};
            return;
        }
        this._shown = view;
        if (view.icon !== was.icon)
            this._icon.gicon = this._icons.icon(view.icon);
        this._setText(view.text);
        if (view.count !== was.count) {
            this._count.text = view.count;
            this._count.visible = view.count !== '';
        }
        if (view.quiet !== was.quiet) {
            if (view.quiet)
                this._pill.add_style_class_name('relavoi-call-quiet');
            else
                this._pill.remove_style_class_name('relavoi-call-quiet');
        }
        if (view.accessibleName !== was.accessibleName)
            this.accessible_name = view.accessibleName;
        if (view.ringing !== was.ringing) {
            if (view.ringing) {
                this._pill.add_style_class_name('relavoi-call-ringing');
                this._text.remove_style_class_name('relavoi-call-timer');
            } else {
                this._pill.remove_style_class_name('relavoi-call-ringing');
                this._text.add_style_class_name('relavoi-call-timer');
            }
        }
    }

    _setText(text) {
        if (text !== this._text.text)
            this._text.text = text;
        const shows = text !== '';
        if (this._text.visible !== shows)
            this._text.visible = shows;
    }

    _menuOpened() {
        if (this._menuStale)
            this._rebuildMenu();
        else
            this._updateRows(Date.now());
    }

    // The rows' status texts (the timers), where they differ.
    _updateRows(now) {
        for (const row of this._rows) {
            const status = Model.statusText(row.call, now);
            if (status !== row.status.text)
                row.status.text = status;
        }
    }

    _rebuildMenu() {
        this._menuStale = false;
        this.menu.removeAll();
        this._rows = [];
        const now = Date.now();
        // What keeps calls from showing, on top: words only, nothing to press.
        const health = Model.healthView(this._health);
        if (health !== null) {
            const item = new PopupMenu.PopupMenuItem(health.line, {activate: false, hover: false, can_focus: false});
            this.menu.addMenuItem(item);
            if (Model.menuCalls(this._calls).length > 0)
                this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        }
        Model.menuCalls(this._calls).forEach((call, index) => {
            if (index > 0)
                this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
            const texts = Model.menuRow(call, now);
            const item = new PopupMenu.PopupBaseMenuItem({activate: false, hover: false, can_focus: false, style_class: 'relavoi-call-row'});
            item.add_child(new St.Icon({gicon: this._icons.icon(texts.icon), style_class: 'popup-menu-icon'}));
            const lines = verticalBox({x_expand: true, y_align: Clutter.ActorAlign.CENTER});
            lines.add_child(new St.Label({text: texts.title, style_class: 'relavoi-call-title'}));
            if (texts.subtitle !== '')
                lines.add_child(new St.Label({text: texts.subtitle, style_class: 'relavoi-call-subtitle'}));
            item.add_child(lines);
            const status = new St.Label({text: texts.status, style_class: 'relavoi-call-status', y_align: Clutter.ActorAlign.CENTER});
            item.add_child(status);
            item.accessible_name = texts.accessibleName;
            this.menu.addMenuItem(item);
            const words = Model.menuActionTexts(call);
            if (texts.canOpen) {
                const open = this.menu.addAction(words.open, () => this._onOpen(call.sessionId));
                open.accessible_name = words.openName;
            }
            if (texts.canCopy) {
                const copy = this.menu.addAction(words.copy, () =>
                    St.Clipboard.get_default().set_text(St.ClipboardType.CLIPBOARD, call.proxyNumber));
                copy.accessible_name = words.copyName;
            }
            if (texts.canDismiss) {
                const dismiss = this.menu.addAction(words.dismiss, () => this._onDismiss(call.sessionId));
                dismiss.accessible_name = words.dismissName;
            }
            this._rows.push({call, status, ticksFrom: texts.ticksFrom});
        });
        // Last, below the calls: the way to the Relavoi window.
        const words = Model.settingsActionTexts();
        if (!this.menu.isEmpty())
            this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        const settings = this.menu.addAction(words.label, () => this._onSettings());
        settings.accessible_name = words.accessibleName;
    }
});
