// Follows the agent on the session bus: its Calls and Health properties while
// com.relavoi.Agent has an owner, nothing while it has none; and Dismiss and Open.
//@esm import Gio from 'gi://Gio';
//@esm import GLib from 'gi://GLib';
//@esm import * as Model from './model.js';
//@legacy const {Gio, GLib} = imports.gi;
//@legacy const Model = imports.misc.extensionUtils.getCurrentExtension().imports.model;

// Only what the indicator uses; with this info the proxy drops a Calls of any other type.
const AGENT_XML = `<node>
  <interface name="${Model.AGENT_INTERFACE}">
    <property name="Calls" type="aa{sv}" access="read"/>
    <property name="Health" type="a{sv}" access="read"/>
    <method name="Dismiss"><arg name="session_id" type="s" direction="in"/></method>
    <method name="Open"><arg name="session_id" type="s" direction="in"/></method>
  </interface>
</node>`;

export const AgentClient = class AgentClient {
    // onCalls(calls, health): the parsed Calls list and Health after each change; null and
    // null when the agent is gone. An agent without Health reads as connected.
    constructor(onCalls) {
        this._onCalls = onCalls;
        this._info = Gio.DBusNodeInfo.new_for_xml(AGENT_XML).lookup_interface(Model.AGENT_INTERFACE);
        this._proxy = null;
        this._changedId = 0;
        this._cancellable = null;
        this._watchId = 0;
    }

    start() {
        this._watchId = Gio.bus_watch_name(Gio.BusType.SESSION, Model.AGENT_BUS_NAME,
            Gio.BusNameWatcherFlags.NONE,
            connection => this._appeared(connection),
            () => this._vanished());
    }

    stop() {
        if (this._watchId)
            Gio.bus_unwatch_name(this._watchId);
        this._watchId = 0;
        this._dropProxy();
    }

    dismiss(sessionId) {
        this._callWithSession('Dismiss', sessionId);
    }

    // The agent opens the call's page (its open-url policy, its default browser).
    open(sessionId) {
        this._callWithSession('Open', sessionId);
    }

    _callWithSession(method, sessionId) {
        if (this._proxy === null || sessionId === '')
            return;
        this._proxy.call(method, new GLib.Variant('(s)', [sessionId]),
            Gio.DBusCallFlags.NO_AUTO_START, 10000, null, (proxy, result) => {
                try {
                    proxy.call_finish(result);
                } catch (e) {
                    console.warn(`${Model.UUID}: ${method}(${sessionId}) failed: ${e.message}`);
                }
            });
    }

    _appeared(connection) {
        this._dropProxy();
        const cancellable = new Gio.Cancellable();
        this._cancellable = cancellable;
        Gio.DBusProxy.new(connection,
            Gio.DBusProxyFlags.GET_INVALIDATED_PROPERTIES | Gio.DBusProxyFlags.DO_NOT_AUTO_START,
            this._info, Model.AGENT_BUS_NAME, Model.AGENT_OBJECT_PATH, Model.AGENT_INTERFACE,
            cancellable, (_source, result) => {
                let proxy;
                try {
                    proxy = Gio.DBusProxy.new_finish(result);
                } catch (e) {
                    if (!e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        console.warn(`${Model.UUID}: cannot follow ${Model.AGENT_BUS_NAME}: ${e.message}`);
                    return;
                }
                if (cancellable.is_cancelled())
                    return;
                this._proxy = proxy;
                this._changedId = proxy.connect('g-properties-changed', () => this._publish());
                this._publish();
            });
    }

    _vanished() {
        this._dropProxy();
        this._onCalls(null, null);
    }

    _dropProxy() {
        if (this._cancellable !== null)
            this._cancellable.cancel();
        this._cancellable = null;
        if (this._proxy !== null && this._changedId)
            this._proxy.disconnect(this._changedId);
        this._changedId = 0;
        this._proxy = null;
    }

    _publish() {
        let calls = [];
        let health = Model.parseHealth(null);
        try {
            const value = this._proxy.get_cached_property('Calls');
            if (value !== null)
                calls = Model.parseCalls(value.recursiveUnpack());
            const state = this._proxy.get_cached_property('Health');
            if (state !== null)
                health = Model.parseHealth(state.recursiveUnpack());
        } catch (e) {
            console.warn(`${Model.UUID}: unreadable Calls or Health property: ${e.message}`);
        }
        this._onCalls(calls, health);
    }
};
