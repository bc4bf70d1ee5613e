// The entry point: puts the pill on the right of the top bar, follows the agent, and owns
// com.relavoi.Agent.ShellIndicator while enabled (the agent's tray item hides while it has
// an owner).
//@esm import Gio from 'gi://Gio';
//@esm import Gettext from 'gettext';
//@esm import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
//@esm import * as Main from 'resource:///org/gnome/shell/ui/main.js';
//@esm import {AgentClient} from './agentClient.js';
//@esm import {CallIndicator} from './indicator.js';
//@esm import * as Model from './model.js';
//@legacy const {Gio} = imports.gi;
//@legacy const Gettext = imports.gettext;
//@legacy const ExtensionUtils = imports.misc.extensionUtils;
//@legacy const Main = imports.ui.main;
//@legacy const Me = imports.misc.extensionUtils.getCurrentExtension();
//@legacy const {AgentClient} = Me.imports.agentClient;
//@legacy const {CallIndicator} = Me.imports.indicator;
//@legacy const Model = Me.imports.model;

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
        this._indicator = new CallIndicator(this.path, sessionId => this._client?.dismiss(sessionId),
            sessionId => this._client?.open(sessionId));
        Main.panel.addToStatusArea(Model.UUID, this._indicator, 0, 'right');
        this._client = new AgentClient(calls => this._indicator?.setCalls(calls));
        this._client.start();
        this._nameId = Gio.bus_own_name(Gio.BusType.SESSION, Model.INDICATOR_BUS_NAME,
            Gio.BusNameOwnerFlags.NONE, null, null, null);
    }

    disable() {
        if (this._nameId)
            Gio.bus_unown_name(this._nameId);
        this._nameId = 0;
        this._client?.stop();
        this._client = null;
        this._indicator?.destroy();
        this._indicator = null;
    }
}
//@legacy
//@legacy /* exported init */
//@legacy function init(extension) {
//@legacy     return new RelavoiExtension(extension);
//@legacy }
