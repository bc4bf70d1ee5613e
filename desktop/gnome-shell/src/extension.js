// The entry point: puts the pill on the right of the top bar, follows the agent, owns
// com.relavoi.Agent.ShellIndicator while enabled (the agent's tray item hides while it has
// an owner), and, while the screen is locked, shows the call under the lock screen's clock.
//@esm import Gio from 'gi://Gio';
//@esm import Gettext from 'gettext';
//@esm import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
//@esm import * as Main from 'resource:///org/gnome/shell/ui/main.js';
//@esm import {AgentClient} from './agentClient.js';
//@esm import {CallClock} from './callClock.js';
//@esm import {CallIndicator} from './indicator.js';
//@esm import {LockScreenCards} from './lockScreen.js';
//@esm import * as Model from './model.js';
//@esm import {openWindow} from './windowLauncher.js';
//@legacy const {Gio} = imports.gi;
//@legacy const Gettext = imports.gettext;
//@legacy const ExtensionUtils = imports.misc.extensionUtils;
//@legacy const Main = imports.ui.main;
//@legacy const Me = imports.misc.extensionUtils.getCurrentExtension();
//@legacy const {AgentClient} = Me.imports.agentClient;
//@legacy const {CallClock} = Me.imports.callClock;
//@legacy const {CallIndicator} = Me.imports.indicator;
//@legacy const {LockScreenCards} = Me.imports.lockScreen;
//@legacy const Model = Me.imports.model;
//@legacy const {openWindow} = Me.imports.windowLauncher;

//@esm export default class RelavoiExtension extends Extension {
//@legacy class RelavoiExtension {
//@legacy     constructor(extension) {
//@legacy         this.path = extension.path;
//@legacy     }
//@legacy
    enable() {
        // The extension's own catalogs: its locale/ folder (installed with it), else the system's.
//@esm         this.initTranslations(Model.GETTEXT_DOMAIN);
//@legacy         ExtensionUtils.initTranslations(Model.GETTEXT_DOMAIN);
        Model.setTranslations(Gettext.domain(Model.GETTEXT_DOMAIN));
        // One timer for the call's pill and lock-screen cards.
        this._clock = new CallClock();
        this._indicator = new CallIndicator(this.path, sessionId => this._client?.dismiss(sessionId),
            sessionId => this._client?.open(sessionId), () => openWindow('settings'), this._clock);
        Main.panel.addToStatusArea(Model.UUID, this._indicator, 0, 'right');
        this._lockCards = new LockScreenCards(this.path, this._clock);
        this._lockCards.start();
        this._client = new AgentClient((calls, health) => {
            this._indicator?.setCalls(calls, health);
            this._lockCards?.setCalls(calls);
        });
        this._client.start();
        this._nameId = Gio.bus_own_name(Gio.BusType.SESSION, Model.INDICATOR_BUS_NAME,
            Gio.BusNameOwnerFlags.NONE, null, null, null);
        // enable() may run while the screen is already locked (GNOME re-enables extensions
        // after one that does not stay on the lock screen is disabled): look at the mode now.
        this._modeId = Main.sessionMode.connect('updated', () => this._syncLocked());
        this._syncLocked();
    }

    _syncLocked() {
        const locked = Main.sessionMode.isLocked;
        this._indicator?.setLocked(locked);
        this._lockCards?.setLocked(locked);
    }

    // This extension uses the unlock-dialog session mode to show the ongoing call (its badge,
    // label and timer, as the person allowed) on the lock screen, the counterpart of the
    // Live Activity on a phone's Lock Screen; there the pill's menu is off and nothing can be
    // pressed. disable() takes everything down, whatever the mode.
    disable() {
        if (this._modeId)
            Main.sessionMode.disconnect(this._modeId);
        this._modeId = 0;
        if (this._nameId)
            Gio.bus_unown_name(this._nameId);
        this._nameId = 0;
        this._client?.stop();
        this._client = null;
        this._lockCards?.stop();
        this._lockCards = null;
        this._indicator?.destroy();
        this._indicator = null;
        this._clock?.destroy();
        this._clock = null;
    }
}
//@legacy
//@legacy /* exported init */
//@legacy function init(extension) {
//@legacy     return new RelavoiExtension(extension);
//@legacy }
